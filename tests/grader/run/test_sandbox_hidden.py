"""The probes' io folder cannot be found from the student's cells (real kernel, real sandbox)."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path

import nbformat
import pytest
import torch
from safetensors.torch import save_file

from grader.run.limits import Limits
from grader.run.runner import ProbeRequest, Runner
from grader.run.sandbox import Sandbox, SandboxPaths
from tests.grader.conftest import needs_bwrap

pytestmark = pytest.mark.sandbox

LOOK = '''
import glob
import linecache
import os

def look(label, find):
    try:
        print(f"{label}: {find()!r}")
    except OSError as error:
        print(f"{label}: {type(error).__name__}")

look("listdir /run", lambda: os.listdir("/run"))
look("scandir /run", lambda: [e.name for e in os.scandir("/run")])
look("glob g-*", lambda: glob.glob("/run/g-*") + glob.glob("/*/g-*") + glob.glob("/g-*"))
look("glob recursive", lambda: glob.glob("/run/**", recursive=True))
look("mounts", lambda: open("/proc/self/mountinfo").read())
look("cmdlines", lambda: [open(f"/proc/{p}/cmdline").read() for p in os.listdir("/proc")
                          if p.isdigit()])
look("cell sources", lambda: [line for entry in linecache.cache.values() for line in entry[2]])
'''

PARENT = '''
io_parent = os.path.dirname(io_mount)
look("listdir parent", lambda: os.listdir(io_parent))
look("io exists", lambda: os.path.exists(io_mount))
'''

F = "def f(x):\n    return x + 1"
WHO = ("import getpass, os, pathlib, pwd\n"
       "print('who', getpass.getuser(), pwd.getpwuid(os.getuid()).pw_dir, pathlib.Path.home(),"
       " sorted(p.pw_name for p in pwd.getpwall()))")


@dataclass
class _Recording(Sandbox):
    """The sandbox, remembering the paths of its runs (the test needs the secret name)."""

    seen: list[SandboxPaths] = field(default_factory=list)

    def prepare(self, root: Path) -> SandboxPaths:
        paths = super().prepare(root)
        self.seen.append(paths)
        return paths


def _run(tmp_path, box, *cells: str):
    nb = tmp_path / "nb.ipynb"
    nbformat.write(nbformat.v4.new_notebook(
        cells=[nbformat.v4.new_code_cell(s) for s in cells]), nb)
    cases = tmp_path / "in.safetensors"
    save_file({"c/in/x": torch.ones(2)}, str(cases), metadata={"params": json.dumps({"c": {}})})
    probe = ProbeRequest("q", "p", "def p(student, case):\n"
                         "    return {'y': student.call(student.function('f'), case['x'])}\n",
                         cases)
    return Runner(box, Limits(cell_timeout=30)).run(nb, probes=[probe])


def _printed(result) -> str:
    return "".join(o.get("text", "") for c in result.executed.cells for o in c.get("outputs", []))


def test_the_io_folder_cannot_be_listed_or_found_before_the_probes(tmp_path):
    needs_bwrap()
    if os.geteuid() != 0:
        pytest.skip("without root the kernel runs as the grader's own user, who owns /run")
    box = _Recording.create()
    result = _run(tmp_path, box, F, LOOK, WHO)
    paths = box.seen[0]
    printed = _printed(result)
    # a throwaway uid still has a name and a home (torch and students' code ask), and the
    # host's users are not listed
    assert "who student /home/student /home/student ['nobody', 'root', 'student']" in printed
    assert paths.io.name.startswith("g-") and paths.io_mount == f"/run/{paths.io.name}"
    assert paths.io.name not in printed, printed
    assert "listdir /run: PermissionError" in printed
    assert "scandir /run: PermissionError" in printed
    assert "glob g-*: []" in printed
    assert [c.status for c in result.cells] == ["ok", "ok", "ok"]
    # ... and the probe, which names the folder once the student's cells are done, works.
    payload = result.probes["q"]
    assert payload.status == "ok" and payload.tensors["c/y"].tolist() == [2.0, 2.0]


def test_the_io_folder_does_not_exist_before_the_probes(tmp_path):
    """Even a cell that knew the name (it cannot) would find nothing there, nor could it
    list the io folder's parent."""
    needs_bwrap()
    if os.geteuid() != 0:
        pytest.skip("without root the kernel runs as the grader's own user, who owns /run")

    class Leaky(_Recording):
        def hand_over(self, paths: SandboxPaths) -> None:
            super().hand_over(paths)
            # Hand the secret to the notebook through its scratch folder (test only).
            (paths.scratch / "io_mount.txt").write_text(paths.io_mount)

    box = Leaky.create()
    result = _run(tmp_path, box, F, "io_mount = open('io_mount.txt').read()\n" + LOOK + PARENT)
    printed = _printed(result)
    assert "listdir parent: PermissionError" in printed
    assert "io exists: False" in printed
    assert result.probes["q"].status == "ok"
