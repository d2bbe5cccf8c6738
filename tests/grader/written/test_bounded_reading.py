"""Reports are read in a bounded worker (issue 25 item 4): hostile files are contained.

The outcomes were written before the code: a PDF of thousands of one-character blocks
per page, and a .docx whose zip headers declare 2 KiB for a text part that inflates to
2 GiB, are each that student's file "too complex to read: sent to a TA": the read ends in
bounded time and memory, the grader process never holds the inflated bytes, `Reports`
routes the file to a TA (as a scan), and the other files of the batch are read as usual.

Each limit of the worker is tripped deterministically: a limit far below what the file
needs, and the other limits far above it (a CPU limit of 1 s for a read needing ~5 s of
CPU under a 10-minute wall clock; a wall clock below the CPU time the read needs, since a
single-threaded read takes at least its CPU time in wall time; an address space below
what a lawful 20 MiB text part takes to parse).
"""

from __future__ import annotations

import importlib.util
import os
import resource
import sys
import threading
import time
import zipfile
from pathlib import Path

import pytest

from grader.written import Reports
from grader.written.reading import (
    ReadLimits,
    ReportReadError,
    ReportTooComplex,
    bounded,
    close_workers,
    read_document,
    read_here,
)
from grader.written.reading.pdf import MAX_ORDER_STEPS, MAX_PAGE_BLOCKS, _reading_order

ROOT = Path(__file__).resolve().parents[3]
MAKE = ROOT / "tests" / "fixtures" / "hostile-files" / "make_hostile.py"
CORPUS = ROOT / "tests" / "fixtures" / "documents"

pytest.importorskip("pymupdf")
pytest.importorskip("docx")


def _make():
    spec = importlib.util.spec_from_file_location("make_hostile", MAKE)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


hostile = _make()


def _children_peak_kib() -> int:
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss


def _self_peak_kib() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


# -- the hostile files: contained, named to a TA ---------------------------------------------


def test_many_tiny_blocks_per_page_is_sent_to_a_ta_in_bounded_time(tmp_path):
    path = hostile.tiny_blocks_pdf(tmp_path / "tiny-blocks.pdf", pages=8, blocks=8000)
    assert path.stat().st_size < 50_000  # small on disk, as in the hostile round
    started = time.process_time()
    with pytest.raises(ReportTooComplex, match=r"too complex to read: sent to a TA .*page 1 "
                                                r"sets 8,000 text blocks"):
        read_here(path)  # the cap itself, in this process: before any layout pass
    assert time.process_time() - started < 5  # was ~17 s of CPU a page (130 s for 8)
    with pytest.raises(ReportTooComplex, match="too complex to read: sent to a TA"):
        read_document(path)


def test_tiny_blocks_under_the_cap_are_read_with_the_order_pass_capped(tmp_path):
    path = hostile.tiny_blocks_pdf(tmp_path / "under.pdf", pages=2, blocks=MAX_PAGE_BLOCKS)
    started = time.process_time()
    doc = read_here(path)
    assert time.process_time() - started < 20  # ~1 s here; quadratic passes took minutes
    assert doc.pages == 2 and doc.needs_ta is None and len(doc.text) > 2 * MAX_PAGE_BLOCKS


def test_reading_order_keeps_the_stream_order_past_its_budget():
    """Blocks each starting above the one drawn first, in its column: every block would
    scan all before it. Past MAX_ORDER_STEPS the rest keep the stream's order, so the pass
    makes at most that many comparisons whatever the page holds."""
    from grader.written.reading.pdf import _Block, _Line, _Span

    def block(y: float) -> _Block:
        span = _Span("a", 50, 51, y + 0.5, 0.5, False, False, False, 1)
        return _Block([_Line([span], 50, 51, y, y + 0.6, y + 0.5, 0.5)], 1)

    n = 3000
    blocks = [block(10_000.0)] + [block(float(i) * 2) for i in range(n - 1)]
    started = time.process_time()
    out = _reading_order(blocks)
    assert time.process_time() - started < 2  # n^2/2 = 4.5 M comparisons uncapped
    assert len(out) == n and {id(b) for b in out} == {id(b) for b in blocks}
    # the first blocks found their place before the bottom one (drawn first); once the
    # budget was spent the rest follow it in the stream's order
    bottom = out.index(blocks[0])
    assert 0 < bottom < n - 1
    assert out[bottom + 1:] == blocks[bottom + 1:]
    assert n * n // 2 > MAX_ORDER_STEPS


def test_docx_whose_headers_lie_is_refused_without_inflating_it(tmp_path):
    path = hostile.docx_bomb(tmp_path / "bomb.docx", inflated=2 << 30, declared=2048)
    assert path.stat().st_size < 3 * 2**20
    assert zipfile.ZipFile(path).getinfo("word/document.xml").file_size == 2048
    before = _self_peak_kib()
    with pytest.raises(ReportTooComplex, match=r"word/document\.xml unpacks to more than "
                                                r"26,214,400 bytes, but its zip headers "
                                                r"declare 2,048"):
        read_here(path)  # in this process, to measure it: the check streams
    assert _self_peak_kib() - before < 200 * 1024  # was 2.4 GB
    with pytest.raises(ReportTooComplex, match="too complex to read: sent to a TA"):
        read_document(path)


def test_a_member_smaller_than_its_header_says_is_refused(tmp_path):
    path = hostile.docx_bomb(tmp_path / "short.docx", inflated=1 << 20, declared=5 << 20)
    with pytest.raises(ReportTooComplex, match=r"unpacks to 1,048,\d{3} bytes, but its zip "
                                                r"headers declare 5,242,880"):
        read_document(path)


def test_a_batch_goes_on_past_hostile_files(tmp_path):
    """One student's hostile files are theirs: the honest reports beside them are read,
    and `Reports` names the hostile ones for a TA (needs_ta, and in the record)."""
    bomb = hostile.docx_bomb(tmp_path / "bomb.docx", inflated=256 << 20)
    tiny = hostile.tiny_blocks_pdf(tmp_path / "tiny.pdf", pages=1, blocks=8000)
    honest = [CORPUS / "latex-twocol.pdf", CORPUS / "pandoc.docx"]
    reports = Reports.read([bomb, honest[0], tiny, honest[1]])
    assert [Path(d.path).name for d in reports.docs] == ["latex-twocol.pdf", "pandoc.docx"]
    assert len(reports.too_complex) == 2 and reports.too_complex == reports.errors
    flagged = reports.needs_ta()
    assert any(f.startswith("bomb.docx: too complex to read: sent to a TA") for f in flagged)
    assert any(f.startswith("tiny.pdf: too complex to read: sent to a TA") for f in flagged)
    described = reports.describe()
    assert [d.get("needs_ta", "").startswith(("bomb.docx", "tiny.pdf"))
            for d in described if "error" in d] == [True, True]


# -- each limit of the worker, tripped deterministically -----------------------------------


@pytest.fixture
def cpu_heavy(tmp_path: Path) -> Path:
    """A lawful PDF (under every cap) that takes ~4 s of CPU: 24 pages of 2,000 blocks."""
    return hostile.tiny_blocks_pdf(tmp_path / "heavy.pdf", pages=24, blocks=MAX_PAGE_BLOCKS)


def test_the_cpu_limit_ends_a_long_read(cpu_heavy):
    limits = ReadLimits(cpu_seconds=1, wall_seconds=600)
    with pytest.raises(ReportTooComplex, match=r"heavy\.pdf: too complex to read: sent to a "
                                                r"TA \(it used more than 1 s of CPU time\)"):
        read_document(cpu_heavy, limits)


def test_the_wall_clock_ends_a_long_read(cpu_heavy):
    limits = ReadLimits(cpu_seconds=600, wall_seconds=1.0)
    started = time.monotonic()
    with pytest.raises(ReportTooComplex, match=r"it took longer than 1 s"):
        read_document(cpu_heavy, limits)
    assert time.monotonic() - started < 30  # the worker is killed, not waited for


def test_a_silent_worker_is_past_its_deadline_even_when_poll_wakes_early():
    """CI once read a timed-out worker as killed ("ended by SIGKILL"): poll's timeout is in
    whole milliseconds, so with under 1 ms left it woke at once and the read looked like an
    EOF. A silent pipe is now past its deadline, however little time was left; a closed
    one is an EOF."""
    from grader.written.reading.bounded import _PastDeadline, _read_exact

    read_fd, write_fd = os.pipe()
    with os.fdopen(read_fd, "rb", buffering=0) as silent:
        for left in (0.0004, 0.0, 0.02):
            with pytest.raises(_PastDeadline):
                _read_exact(silent, 8, time.monotonic() + left)
        os.write(write_fd, b"12345678")
        assert _read_exact(silent, 8, time.monotonic() + 0.0004) == b"12345678"
        os.close(write_fd)
        assert _read_exact(silent, 8, time.monotonic() + 5) is None


def test_the_memory_limit_ends_a_large_parse(tmp_path):
    """A 20 MiB text part (under the 25 MiB cap) is parsed whole by lxml (~10x): within a
    256 MiB address space it cannot be, and the worker answers instead of the grader."""
    path = tmp_path / "big.docx"
    with (zipfile.ZipFile(CORPUS / "pandoc.docx") as source,
          zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as archive):
        for info in source.infolist():  # a real Word package, its text part replaced
            if info.filename != "word/document.xml":
                archive.writestr(info, source.read(info))
        with archive.open("word/document.xml", "w") as member:
            member.write(b'<w:document xmlns:w="http://schemas.openxmlformats.org/'
                         b'wordprocessingml/2006/main"><w:body>')
            para = b"<w:p><w:r><w:t>x</w:t></w:r></w:p>"
            for _ in range(20):
                member.write(para * ((1 << 20) // len(para)))
            member.write(b"</w:body></w:document>")
    limits = ReadLimits(memory_bytes=256 << 20, cpu_seconds=120, wall_seconds=600)
    with pytest.raises(ReportTooComplex, match=r"big\.docx: too complex to read: sent to a "
                                                r"TA \((it needs more memory|the reader was "
                                                r"ended by)"):
        read_document(path, limits)


def test_a_worker_that_tripped_a_limit_is_replaced(cpu_heavy):
    with pytest.raises(ReportTooComplex):
        read_document(cpu_heavy, ReadLimits(cpu_seconds=1, wall_seconds=600))
    doc = read_document(CORPUS / "latex-twocol.pdf")
    assert doc.pages == 2 and "25.77" in doc.text


# -- the worker itself ------------------------------------------------------------------------


def test_the_worker_reads_what_the_process_reads():
    for name in ("latex-twocol.pdf", "pandoc.docx"):
        assert read_document(CORPUS / name) == read_here(CORPUS / name)


def test_a_process_holding_over_1024_descriptors_still_reads(tmp_path):
    """A long process (the service, a test session beside a Ray cluster) holds descriptors
    numbered past 1024, where select() refuses to watch one: the worker's pipes must still
    be read (seen in CI's heavy tier: 'filedescriptor out of range in select()')."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 1400:
        pytest.skip(f"this machine allows {hard} open files: no descriptor can pass 1024")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, 1400), hard))
    close_workers()  # the next worker's pipes are opened above the held descriptors
    held = []
    try:
        while not held or held[-1] < 1100:
            held.append(os.dup(0))
        report = tmp_path / "report.md"
        report.write_text("# Q3 (c)\n25.77 GB\n")
        assert read_document(report) == read_here(report)
    finally:
        for fd in held:
            os.close(fd)
        close_workers()
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_errors_keep_their_messages(tmp_path):
    bad = tmp_path / "bad.pdf"
    bad.write_bytes(b"%PDF-1.4 garbage")
    with pytest.raises(ReportReadError, match=r"bad\.pdf: not a readable PDF") as caught:
        read_document(bad)
    assert not isinstance(caught.value, ReportTooComplex)
    with pytest.raises(ReportReadError, match="no such file"):
        read_document(tmp_path / "missing.pdf")


def test_the_worker_is_reused_and_threads_share_the_pool():
    close_workers()
    read_document(CORPUS / "latex-twocol.pdf")
    assert len(bounded._idle) == 1
    pid = bounded._idle[0].proc.pid
    read_document(CORPUS / "pandoc.docx")
    assert bounded._idle[0].proc.pid == pid  # the same process read both
    errors: list[BaseException] = []

    def read() -> None:
        try:
            assert read_document(CORPUS / "latex-twocol.pdf").pages == 2
        except BaseException as error:  # noqa: BLE001 (reported below)
            errors.append(error)

    threads = [threading.Thread(target=read) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert len(bounded._idle) <= bounded.MAX_IDLE


def test_a_worker_that_left_idle_is_replaced_quietly():
    close_workers()
    read_document(CORPUS / "pandoc.docx")
    worker = bounded._idle[0]
    worker.proc.stdin.close()  # as when it leaves after IDLE_EXIT_S: it exits 0
    worker.proc.wait(timeout=30)
    assert read_document(CORPUS / "pandoc.docx").format == "docx"


def test_a_forked_child_does_not_use_its_parents_worker():
    read_document(CORPUS / "pandoc.docx")
    assert bounded._idle
    pid = os.fork()
    if pid == 0:  # the child: its pool is empty, and it reads with a worker of its own
        code = 0
        try:
            code = 3 if bounded._idle else 0
            if not code and read_document(CORPUS / "pandoc.docx").format != "docx":
                code = 4
            close_workers()
        except BaseException:  # noqa: BLE001
            code = 5
        os._exit(code)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert read_document(CORPUS / "pandoc.docx").format == "docx"  # the parent's still works


def test_calculators_import_no_reader_library():
    """`calculators` imports nothing from the grader and no reader library (the
    calculators-only install has none); the bounded reader is standard library only, so
    importing `grader.written` loads no PDF or Word library either."""
    import subprocess

    heavy = ("'pymupdf', 'fitz', 'docx', 'lxml', 'pypdf', 'torch'")
    calculators_only = ("import sys, calculators, calculators.answers; "
                        "bad = [m for m in sys.modules if m.split('.')[0] in "
                        f"('grader', {heavy})]; assert not bad, bad")
    reading = ("import sys, grader.written, grader.written.reading; "
               f"bad = [m for m in sys.modules if m.split('.')[0] in ({heavy})]; "
               "assert not bad, bad")
    for code in (calculators_only, reading):
        subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


def test_a_question_answered_in_a_hostile_file_goes_to_a_ta(pack, tmp_path):
    """Through the `answer` kind as grading calls it: the question waits for a TA
    (`manual`, verdict needs_ta), it is not failed, and the reason names the file."""
    from grader.checks.kind import Context
    from grader.checks.registry import kind
    from grader.grade import empty_run

    bomb = hostile.docx_bomb(tmp_path / "report.docx", inflated=256 << 20)
    question = pack.question("q3c")
    run = empty_run()
    ctx = Context(pack=pack, mode="grade", seed=7, run=run, notebook=None, executed=True,
                  reports=Reports.read([bomb]))
    result = kind("answer").score(question.checks[0], question, ctx)
    assert result.status == "manual", result.message
    assert result.evidence["verdict"] == "needs_ta"
    assert "report.docx: too complex to read: sent to a TA" in result.message
