"""Notebooks written for Colab run unedited where that is safe (grader/run/kernel_side/
shims): one real sandboxed kernel runs a Colab-style notebook; the parsers of `!pip`,
`!wget` and `!curl` lines are also checked in-process, on the kernel side's own module."""

from __future__ import annotations

import importlib.util
import textwrap
from pathlib import Path

import nbformat
import pytest

from grader.checks.tamper import benign_changes, diff_telemetry
from grader.env import kernel_evidence
from grader.pack import PackError, load_pack
from grader.run.kernel_side.shims import SITE, applied, shim_sandbox
from tests.grader.conftest import needs_bwrap

URL = "https://course.example.org/hw/dict.txt"
CELLS = (
    "%load_ext autoreload\n%autoreload 2",                                            # 0
    "from google.colab import drive, files\ndrive.mount('/content/drive')\n"
    "print(files.upload())",                                                          # 1
    "with open('/content/drive/MyDrive/saved.txt', 'w') as fh:\n    fh.write('x')\n"
    "import os\nprint(os.path.exists('saved.txt'), os.getcwd())",                     # 2
    "!pip install -q torch 'safetensors>=0.1'",                                       # 3
    "%pip install --upgrade torch",                                                   # 4
    f"!wget -q {URL} -O data/dict.txt && echo fetched\nprint(open('data/dict.txt').read())",
    f"!curl -sL {URL} | wc -l",                                                       # 6
    "import urllib.request\n"
    f"print(urllib.request.urlopen('{URL}').read().decode())\n"
    f"print(urllib.request.urlretrieve('{URL}', 'u.txt')[0])",                        # 7
    "%%time\nx = sum(range(100))",                                                    # 8
    "%timeit -n1 -r1 sum(range(10))",                                                 # 9
    "%cd /content/drive/MyDrive/course/hw4\nimport os\nprint(os.getcwd())",           # 10
    "import os\n"
    "def sneaky(*a): pass\n"
    "sneaky.__module__, sneaky.__qualname__ = 'IPython.extensions.autoreload', 'X.hook'\n"
    "get_ipython().events.register('pre_run_cell', sneaky)",                          # 11
    "import os, sys\nfor p in ('/opt/grader-shims/grader_kernel_shims.py',\n"
    "          [f'/opt/grader-downloads/{n}' for n in os.listdir('/opt/grader-downloads')][0]):\n"
    "    try:\n        open(p, 'a')\n        print('WRITABLE', p)\n"
    "    except OSError as exc:\n        print('refused', type(exc).__name__)\n"
    "print(os.path.exists(PACK_ROOT))",                                               # 12
    "!pip install surely-not-a-package-here",                                         # 13
    "!wget https://elsewhere.example.org/secret.txt",                                  # 14
    "import grader.notebook as grader\nprint(grader.check('q1c').status)\n"
    "print(grader.check('q2', 'nb.ipynb', assignment='x', full=True).status)",        # 15
    "import otter\ng = otter.Notebook('hw.ipynb')\ng.check('q1')\ng.check_all()\n"
    "g.export(pdf=False)\nprint('after otter')",                                     # 16
)


def write_pack(root: Path, downloads: str) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    nbformat.write(nbformat.v4.new_notebook(), root / "template.ipynb")
    (root / "probes.py").write_text("def nothing(student, case):\n    return {}\n")
    (root / "public").mkdir(exist_ok=True)
    (root / "public" / "dict.txt").write_text("alpha\nbeta\n")
    (root / "pack.toml").write_text(textwrap.dedent(f"""\
        [assignment]
        id = "colab-pack"
        title = "A Colab notebook"
        notebook = "nb.ipynb"
        total = 1
        template = "template.ipynb"
        probes = "probes.py"
        downloads = {downloads}

        [[questions]]
        id = "q"
        title = "Q"
        points = 1
          [[questions.checks]]
          kind = "manual"
        """))
    return root


@pytest.fixture(scope="module")
def ran(tmp_path_factory):
    needs_bwrap()
    from grader.run.limits import Limits
    from grader.run.runner import Runner
    from grader.run.sandbox import Sandbox

    tmp = tmp_path_factory.mktemp("colab")
    pack = load_pack(write_pack(tmp / "pack", f'{{"{URL}" = "public/dict.txt"}}'))
    cells = [c.replace("PACK_ROOT", repr(str(pack.root))) for c in CELLS]
    nb = tmp / "nb.ipynb"
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c)
                                                   for c in cells]), nb)
    result = Runner(shim_sandbox(pack, Sandbox.create()), Limits(cell_timeout=60)).run(nb)
    outs = ["".join(o.get("text", "") for o in c.outputs if o.get("name") == "stdout")
            for c in result.executed.cells]
    return pack, result, outs


@pytest.mark.sandbox
def test_colab_idioms_run_and_each_bridge_is_noted(ran):
    pack, result, outs = ran
    statuses = [c.status for c in result.cells]
    assert statuses[:13] == ["ok"] * 13, [(c.index, c.ename, c.evalue) for c in result.cells]
    assert "{}" in outs[1]  # files.upload() uploads nothing
    assert outs[2].split() == ["True", "/home/student"]  # MyDrive is the working folder
    assert "fetched" in outs[5] and "alpha\nbeta" in outs[5]
    assert outs[6].strip() == "2"
    assert "alpha" in outs[7] and "u.txt" in outs[7]
    assert set(outs[10].split()) == {"/home/student"}  # %cd prints where it went
    notes = applied(result.executed)
    by_cell = {n["cell"] for n in notes}
    assert {1, 3, 4, 5, 6, 7, 10} <= by_cell
    assert any("torch" in n["note"] and "nothing installed" in n["note"] for n in notes)


@pytest.mark.sandbox
def test_a_package_the_environment_lacks_and_an_unmapped_url_fail_at_once(ran):
    _pack, result, _outs = ran
    pip, wget = result.cells[13], result.cells[14]
    assert pip.status == "error" and pip.ename == "PackageNotAvailable"
    assert "surely-not-a-package-here" in pip.evalue and "[environment]" in pip.evalue
    assert wget.status == "error" and wget.ename == "DownloadNotAvailable"
    assert pip.seconds < 10 and wget.seconds < 10  # no network wait


@pytest.mark.sandbox
def test_benign_magics_are_not_tampering_but_are_listed_and_still_removed(ran):
    pack, result, _outs = ran
    assert diff_telemetry(result.telemetry) == []
    allowed = benign_changes(result.telemetry)
    assert any("AutoreloadMagics.pre_run_cell" in a for a in allowed)
    # a notebook's own hook that borrows autoreload's name hides a flag, never the hook
    assert any("X.hook" in r for r in result.telemetry["removed"])
    evidence = kernel_evidence(pack, result, True)["shims"]
    assert any(e["cell"] is None and "not tampering" in e["note"] for e in evidence)
    assert diff_telemetry(result.telemetry, ["nothing*"]) == []


@pytest.mark.sandbox
def test_self_check_calls_left_in_the_notebook_do_nothing_and_say_so(ran):
    """`grader.check` (ours) and otter's calls, left in a handed-in notebook, must not
    fail in the sandbox (which hides the grader) nor stop the cells after them."""
    _pack, result, outs = ran
    assert [result.cells[i].status for i in (15, 16)] == ["ok", "ok"], \
        [(c.index, c.ename, c.evalue) for c in result.cells[15:]]
    assert outs[15].split() == ["not", "run", "not", "run"]
    assert "after otter" in outs[16]
    notes = [n for n in applied(result.executed) if n["cell"] in (15, 16)]
    assert sum("grader.check" in n["note"] for n in notes) == 2
    assert sum("otter" in n["note"] for n in notes) == 4  # Notebook, check, check_all, export


@pytest.mark.sandbox
def test_shims_and_downloads_are_read_only_and_name_no_server_path(ran):
    _pack, _result, outs = ran
    assert outs[12].split() == ["refused", "OSError", "refused", "OSError", "False"] or \
        outs[12].split() == ["refused", "PermissionError", "refused", "PermissionError", "False"]


def test_a_download_must_name_a_file_of_the_pack(tmp_path):
    from grader.run.sandbox import Sandbox

    pack = load_pack(write_pack(tmp_path / "p", '{"https://x.org/a" = "public/missing.txt"}'))
    with pytest.raises(PackError, match="downloads"):
        shim_sandbox(pack, Sandbox(kind="none"))
    with pytest.raises(PackError, match="a URL"):
        load_pack(write_pack(tmp_path / "q", '{"x.org/a" = "public/dict.txt"}'))


# -- the kernel side's parsers, in-process ------------------------------------------------

@pytest.fixture(scope="module")
def shims():
    spec = importlib.util.spec_from_file_location("shims_under_test",
                                                  SITE / "grader_kernel_shims.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_wget_and_curl_arguments(shims, tmp_path, monkeypatch):
    source = tmp_path / "src.txt"
    source.write_text("data\n")
    monkeypatch.setattr(shims, "DOWNLOADS", {URL: str(source)})
    monkeypatch.chdir(tmp_path)
    assert shims.wget(["-q", "-P", "d", URL]) == ["d/dict.txt"]
    assert shims.wget(["--output-document=o.txt", URL]) == ["o.txt"]
    assert shims.wget(["-qO", "q.txt", URL + "?raw=1"]) == ["q.txt"]
    shims.curl(["-sSLo", "c.txt", URL])
    shims.curl(["-L", "-O", URL])
    assert (tmp_path / "c.txt").read_text() == "data\n" == (tmp_path / "dict.txt").read_text()
    with pytest.raises(shims.DownloadNotAvailable):
        shims.curl(["-sL", "https://other.example.org/x"])


def test_pip_lines(shims, tmp_path):
    req = tmp_path / "requirements.txt"
    req.write_text("torch  # the grader's\n\n-i https://x\nsafetensors>=0.1\n")
    assert shims._requirements(["-q", "-U", "-r", str(req), "--index-url", "https://y",
                                "numpy"]) == ["torch", "safetensors>=0.1", "numpy"]
    assert shims._installed("torch")[0] and not shims._installed("torch<1")[0]
    assert not shims._installed("git+https://github.com/x/y")[0]
    assert shims._tool(["python3", "-m", "pip", "install", "x"]) == ("pip", ["install", "x"])
    assert shims._segments("pip install x && wget u; ls | wc") == [
        ["pip", "install", "x"], "&&", ["wget", "u"], ";", ["ls"], "|", ["wc"]]
    assert shims._segments("echo $(curl u)") is None  # run as written, by the shell
