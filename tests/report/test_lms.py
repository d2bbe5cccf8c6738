"""LMS round trips: a Moodle zip in, graded for real, worksheet and feedback zip out.

The Moodle side is checked the way Moodle's own importers read the files: columns
found by header text, the participant id after `Participant ` and, in the feedback
zip, after the first `_` of the folder name.
"""

from __future__ import annotations

import csv
import io
import json
import shutil
import stat
import zipfile
from pathlib import Path

import pytest

from grader.cli import main
from grader.intake import UnsafeZip, ZipLimits, intake, safe_extract
from grader.record import GradeRecord
from grader.report.lms import canvas_csv
from tests.conftest import FAST, PACK_DIR, SAMPLES, needs_bwrap

NB = "Transformer_practice.ipynb"
STUDENTS = {"1001": ("Ada Lovelace", "solution"), "1002": ("Alan Turing", "wrong-q1d-sin-cos-swapped")}
WORKSHEET = ["Identifier", "Full name", "Email address", "Status", "Grade", "Maximum Grade",
             "Grade can be changed", "Last modified (submission)", "Last modified (grade)",
             "Feedback comments"]


def _part1_only(src: Path) -> dict:
    """The solution with Part 2 left as the template has it: no fine-tuning in this test."""
    nb = json.loads(src.read_text())
    template = json.loads((PACK_DIR / "template" / NB).read_text())
    undone = {c["id"]: c["source"] for c in template["cells"]
              if set(c.get("metadata", {}).get("tags", [])) & {"q2a", "q2b", "q2c", "q2d"}}
    for cell in nb["cells"]:
        if cell.get("id") in undone:
            cell["source"] = undone[cell["id"]]
    return nb


def _with_manual_answer(src: Path, text: str) -> bytes:
    nb = _part1_only(src)
    nb["cells"].append({"cell_type": "markdown", "metadata": {"tags": ["q2"]},
                        "source": [text]})
    return json.dumps(nb).encode()


@pytest.fixture(scope="module")
def moodle(tmp_path_factory, hf_cache):
    """A Moodle 'Download all submissions' zip, taken in and graded against a pack
    with a manual question (a copy of the real pack plus one [[questions]] entry)."""
    needs_bwrap()
    from grader.grade import grade_notebook
    from grader.pack import load_pack
    from grader.record import write_atomic
    from grader.run.sandbox import Sandbox

    root = tmp_path_factory.mktemp("moodle")
    zpath = root / "A3-download.zip"
    with zipfile.ZipFile(zpath, "w") as zf:
        for pid, (name, sample) in STUDENTS.items():
            folder = f"{name}_{pid}_assignsubmission_file_"
            answer = "Attention cost grows with S squared." if pid == "1001" else ""
            data = (_with_manual_answer(SAMPLES / f"{sample}.ipynb", answer) if answer
                    else (SAMPLES / f"{sample}.ipynb").read_bytes())
            zf.writestr(f"{folder}/{NB}", data)
        zf.writestr("Alan Turing_1002_assignsubmission_file_/report.md",
                    "# My report\n\n## Q2 Essay\nMemory is quadratic in S.\n\n## Q3 Other\nno\n")
    pack_dir = root / "pack"
    shutil.copytree(PACK_DIR, pack_dir)
    toml = (pack_dir / "pack.toml").read_text()
    total = load_pack(pack_dir).total
    toml = toml.replace(f"total = {total:g}", f"total = {total + 10:g}", 1)
    toml += ('\n[[questions]]\nid = "q2"\ntitle = "Q2 Essay on attention cost"\npoints = 10\n'
             '\n  [[questions.checks]]\n  kind = "manual"\n')
    (pack_dir / "pack.toml").write_text(toml)
    pack = load_pack(pack_dir)
    subs = intake(zpath, root / "in", notebook_name=NB)
    results = root / "results"
    box = Sandbox.create()
    for sub in subs:
        record = grade_notebook(pack, sub.notebook, seed=7, sandbox=box, limits=FAST,
                                hf_cache=hf_cache)
        write_atomic(results / f"{sub.student.key}.json", record.to_json())
    return {"root": root, "subs": subs, "results": results, "pack": pack_dir}


@pytest.mark.sandbox
def test_moodle_zip_in_worksheet_out(moodle, capsys):
    subs = moodle["subs"]
    assert [(s.student.name, s.student.lms_id, s.student.lms) for s in subs] == [
        ("Ada Lovelace", "1001", "moodle"), ("Alan Turing", "1002", "moodle")]
    assert [p.name for p in subs[1].reports] == ["report.md"]
    downloaded = moodle["root"] / "worksheet.csv"
    rows = [WORKSHEET] + [[f"Participant {pid}", name, f"{pid}@uni.example", "Submitted",
                           "", "40.00", "Yes", "", "-", ""]
                          for pid, (name, _) in STUDENTS.items()]
    rows.append(["Participant 1003", "Not Submitted", "x@uni.example", "No submission", "",
                 "40.00", "Yes", "", "-", ""])
    downloaded.write_text("\ufeff" + "".join(",".join(r) + "\n" for r in rows))
    out = moodle["root"] / "out"
    code = main(["report", str(moodle["results"]), "--out", str(out), "-a", str(moodle["pack"]),
                 "--roster", str(moodle["root"] / "in" / "roster.json"),
                 "--moodle-worksheet", str(downloaded), "--json"])
    assert code == 0, capsys.readouterr().err
    table = list(csv.reader(io.StringIO((out / "moodle-worksheet.csv").read_text())))
    header, body = table[0], table[1:]
    assert header == WORKSHEET
    col = {h: i for i, h in enumerate(header)}
    got = {r[col["Identifier"]][len("Participant "):]: r for r in body}
    assert set(got) == {"1001", "1002", "1003"}
    # Ada: Part 1 and Part 3's answers right (Part 2 undone here): 30 + 24
    assert got["1001"][col["Grade"]] == "54" and got["1002"][col["Grade"]] == "24"
    assert got["1003"][col["Grade"]] == "" and got["1003"][col["Feedback comments"]] == ""
    assert "q1d: 0/6" in got["1002"][col["Feedback comments"]]
    assert got["1001"][col["Last modified (grade)"]].startswith("20")
    with zipfile.ZipFile(out / "moodle-feedback.zip") as zf:
        names = zf.namelist()
    parsed = {n.split("/")[0].split("_", 4)[1]: n.split("/")[0].split("_", 4)[2:4] for n in names}
    assert parsed == {"1001": ["assignfeedback", "file"], "1002": ["assignfeedback", "file"]}
    # the manual question: sheet out with the answers, filled by a TA, merged back
    sheet = list(csv.DictReader(io.StringIO((out / "manual-sheet.csv").read_text())))
    answers = {r["key"]: r["answer"] for r in sheet}
    assert "grows with S squared" in answers["ada-lovelace-1001"]
    assert "quadratic in S" in answers["alan-turing-1002"] and "no" not in answers[
        "alan-turing-1002"].split()
    filled = moodle["root"] / "filled.csv"
    with filled.open("w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(sheet[0]))
        w.writeheader()
        for r in sheet:
            # the TA grades the essay (q2) now; Part 3's explanations are left for later
            mark = ("8" if r["key"].startswith("ada") else "10") if r["question"] == "q2" else ""
            w.writerow({**r, "points": mark,
                        "comment": "Good <b>point</b>."})
    out2 = moodle["root"] / "out2"
    assert main(["report", str(moodle["results"]), "--out", str(out2), "-a",
                 str(moodle["pack"]), "--roster", str(moodle["root"] / "in" / "roster.json"),
                 "--manual", str(filled)]) == 0
    merged = json.loads((out2 / "records" / "ada-lovelace-1001.json").read_text())
    # 54 + the TA's 8; Part 3's explanations (left blank on the sheet) still wait for a TA
    assert merged["score"] == 62 and merged["status"] == "incomplete"
    html = (out2 / "students" / "ada-lovelace-1001.html").read_text()
    assert "Good &lt;b&gt;point&lt;/b&gt;." in html and "62 / 110" in html


@pytest.mark.sandbox
@pytest.mark.parametrize(("row", "field"), [
    ({"key": "nobody-9", "question": "q2", "points": "1"}, "key"),
    ({"key": "ada-lovelace-1001", "question": "q2", "points": "11"}, "points"),
    ({"key": "ada-lovelace-1001", "question": "q1a", "points": "1"}, "question"),
])
def test_bad_ta_sheet_is_rejected_naming_the_row(moodle, capsys, row, field):
    sheet = moodle["root"] / f"bad-{field}.csv"
    sheet.write_text("key,question,points,comment\nada-lovelace-1001,q2,5,ok\n"
                     f"{row['key']},{row['question']},{row['points']},x\n")
    code = main(["report", str(moodle["results"]), "--out", str(moodle["root"] / "bad"),
                 "--manual", str(sheet)])
    err = capsys.readouterr().err.strip()
    assert code == 2 and err.startswith(f"error: sheet line 3, {field}:"), err
    assert len(err.splitlines()) == 1


@pytest.mark.sandbox
def test_canvas_zip_and_gradebook(tmp_path, records):
    zpath = tmp_path / "submissions.zip"
    with zipfile.ZipFile(zpath, "w") as zf:
        zf.writestr(f"lovelaceada_2001_9001_{NB}", (SAMPLES / "solution.ipynb").read_bytes())
        zf.writestr(f"turingalan_late_2002_9002_{NB[:-6]}-1.ipynb", b"{}")
        zf.writestr("turingalan_late_2002_9002_essay.pdf", b"%PDF-1.4")
    subs = intake(zpath, tmp_path / "in")
    assert [(s.student.name, s.student.lms_id, s.student.lms) for s in subs] == [
        ("lovelaceada", "2001", "canvas"), ("turingalan", "2002", "canvas")]
    assert subs[1].notebook is not None and [p.name for p in subs[1].reports] == ["essay.pdf"]
    graded = [(subs[0].student, GradeRecord.from_dict(records["solution"])),
              (subs[1].student, GradeRecord.from_dict(records["wrong-q1a-transposed-heads"]))]
    table = list(csv.reader(io.StringIO(canvas_csv(graded, "A3", "555"))))
    assert table[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "A3 (555)"]
    assert table[1][0] == "Points Possible" and table[1][-1] == "100"
    # the solution waits for a TA on Q3(a)(I) and Q3(b) (6 points); Q1(a) wrong keeps 24
    assert [(r[1], r[-1]) for r in table[2:]] == [("2001", "94"), ("2002", "24")]


def _zip(path: Path, members: list[tuple[str, bytes]], link: str | None = None) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in members:
            zf.writestr(name, data)
        if link:
            info = zipfile.ZipInfo(link)
            info.external_attr = (stat.S_IFLNK | 0o777) << 16
            zf.writestr(info, "/etc/passwd")
    return path


@pytest.mark.parametrize(("members", "link", "limits", "needle"), [
    ([("../evil.txt", b"x")], None, None, "leaves the folder"),
    ([("/abs.txt", b"x")], None, None, "absolute"),
    ([("a\\..\\b.txt", b"x")], None, None, "backslashes"),
    ([("ok.txt", b"x")], "link", None, "symlink"),
    ([(f"f{i}.txt", b"x") for i in range(4)], None, ZipLimits(max_files=3), "4 members"),
    ([("big.txt", b"y" * 5000)], None, ZipLimits(max_total_bytes=4000), "bytes uncompressed"),
    ([("bomb.txt", b"\0" * (8 << 20))], None, None, "compression ratio"),
    ([("dup.txt", b"1"), ("dup.txt", b"2")], None, None, "appears twice"),
])
def test_unsafe_zips_are_refused(tmp_path, members, link, limits, needle):
    archive = _zip(tmp_path / "in.zip", members, link)
    with pytest.raises(UnsafeZip, match=needle):
        safe_extract(archive, tmp_path / "out", limits)
    assert not (tmp_path / "evil.txt").exists() and not Path("/abs.txt").exists()


def test_safe_zip_extracts_plain_members(tmp_path):
    archive = _zip(tmp_path / "in.zip", [("a/b.txt", b"hello"), ("c.txt", b"x" * 3000)])
    written = safe_extract(archive, tmp_path / "out")
    assert sorted(p.name for p in written) == ["b.txt", "c.txt"]
    assert (tmp_path / "out" / "a" / "b.txt").read_bytes() == b"hello"
