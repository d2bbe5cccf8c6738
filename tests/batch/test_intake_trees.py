"""LMS zips and student folders keep each upload's tree; one bad member is one student's problem.

Issue 16 item 1 (a student's `pkg/a/x.py` stays `pkg/a/x.py`, two `__init__.py` do not
collide) and issue 17 item 8 (a Moodle member named `notes: week 3.pdf`, a student whose
name holds `/`, a link in one upload: the rest of the class is taken in and graded).
No kernel: intake and the batch's items only.
"""

from __future__ import annotations

import json
import stat
import zipfile
from pathlib import Path

import nbformat

from grader.batch.driver import intake_entries, item_files
from grader.intake.lms import NOT_TAKEN, intake, load_roster, roster_intake
from grader.intake.safezip import UnsafeZip, safe_extract
from grader.intake.sources import collect
from grader.pack import load_pack
from tests.grader.test_submission_folders import make_pack

NB = nbformat.writes(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("x = 1")]))
ADA = "Ada Lovelace_101_assignsubmission_file_/"


def _zip(path: Path, members: dict[str, str], links: tuple[str, ...] = ()) -> Path:
    with zipfile.ZipFile(path, "w") as zf:
        for name, text in members.items():
            zf.writestr(name, text)
        for name in links:
            info = zipfile.ZipInfo(name)
            info.external_attr = (stat.S_IFLNK | 0o777) << 16
            zf.writestr(info, "/etc/passwd")
    return path


def class_zip(tmp_path: Path) -> Path:
    return _zip(tmp_path / "hw4.zip", {
        ADA + "hw/hw.ipynb": NB,
        ADA + "hw/mycourse/__init__.py": "TOP = 1\n",
        ADA + "hw/mycourse/a/__init__.py": "A = 1\n",
        ADA + "hw/mycourse/a/x.py": "def f():\n    return 1\n",
        "Bob Ng_102_assignsubmission_file_hw.ipynb": NB,
        "Bob Ng_102_assignsubmission_file_notes: week 3.pdf": "%PDF-1.4\n",
        "AC/DC_103_assignsubmission_file_/hw.ipynb": NB,
        "AC/DC_103_assignsubmission_file_/helper.py": "H = 1\n",
        "Eve_104_assignsubmission_file_/readme.md": "my notes\n",
        "stray.txt": "left at the top by someone\n",
    }, links=("Eve_104_assignsubmission_file_/hw.ipynb",))


def test_a_moodle_zip_keeps_each_upload_tree(tmp_path):
    dest = tmp_path / "intake"
    subs = {s.student.key: s for s in intake(class_zip(tmp_path), dest, notebook_name="hw.ipynb")}
    assert set(subs) == {"ada-lovelace-101", "bob-ng-102", "ac-dc-103", "eve-104"}
    tree = dest / "trees" / "ada-lovelace-101"
    assert (tree / "hw" / "mycourse" / "__init__.py").read_text() == "TOP = 1\n"
    assert (tree / "hw" / "mycourse" / "a" / "__init__.py").read_text() == "A = 1\n"
    assert subs["ada-lovelace-101"].folder == "trees/ada-lovelace-101/hw"
    # the colon is a name, not a drive letter: Bob's report is taken in
    assert [p.name for p in subs["bob-ng-102"].reports] == ["notes: week 3.pdf"]
    # a name with "/" is one student, not folders
    assert load_roster(dest)["ac-dc-103"].name == "AC/DC"
    assert (dest / "trees" / "ac-dc-103" / "helper.py").is_file()


def test_a_download_zipped_again_in_one_folder_is_unwrapped(tmp_path):
    """A TA's re-zip of the download (every member under `A3-12345/`): the wrapper is not
    part of anyone's name, and the students, ids and trees are those of the download."""
    with zipfile.ZipFile(class_zip(tmp_path)) as plain:
        members = {n: plain.read(n).decode() for n in plain.namelist()
                   if not n.startswith("Eve_")}  # (Eve's link is another test's)
    wrapped = _zip(tmp_path / "again.zip", {f"A3-12345/{n}": t for n, t in members.items()})
    subs = {s.student.key: s for s in intake(wrapped, tmp_path / "intake",
                                             notebook_name="hw.ipynb")}
    assert set(subs) == {"ada-lovelace-101", "bob-ng-102", "ac-dc-103"}
    assert subs["ada-lovelace-101"].student.name == "Ada Lovelace"
    assert subs["ada-lovelace-101"].student.lms_id == "101"
    assert subs["ada-lovelace-101"].folder == "trees/ada-lovelace-101/hw"


def test_a_bad_member_is_its_students_problem(tmp_path):
    dest = tmp_path / "intake"
    subs = {s.student.key: s for s in intake(class_zip(tmp_path), dest)}
    eve = subs["eve-104"]
    assert eve.notebook is None
    assert eve.refused == ["hw.ipynb: a symlink or special file"]
    assert "hw.ipynb: a symlink" in eve.problem
    entries = intake_entries(roster_intake(dest)["eve-104"])
    assert {"name": "hw.ipynb", "format": "", "intake": True,
            "notes": ["not taken in from the zip: a symlink or special file"]} in entries
    assert json.loads((dest / NOT_TAKEN).read_text()) == [
        {"path": "stray.txt", "why": "no student's upload"}]


def test_the_batch_takes_each_students_files_from_their_tree(tmp_path):
    pack = load_pack(make_pack(tmp_path / "pack"))
    notes: list[str] = []
    items = {i.key: i for i in collect([str(class_zip(tmp_path))], tmp_path / "out",
                                       "hw.ipynb", notes)}
    assert items["eve-104"].problem and items["eve-104"].notebook is None
    assert any("stray.txt" in n for n in notes)
    taken = [f.path for f in item_files(pack, items["ada-lovelace-101"]).taken]
    assert taken == ["mycourse/__init__.py", "mycourse/a/__init__.py", "mycourse/a/x.py"]
    assert [f.path for f in item_files(pack, items["ac-dc-103"]).taken] == ["helper.py"]
    assert not item_files(pack, items["bob-ng-102"]).taken


def test_a_folder_of_student_folders_keeps_trees(tmp_path):
    pack = load_pack(make_pack(tmp_path / "pack"))
    for student in ("ana", "ben"):
        (tmp_path / "class" / student / "pkg" / "a").mkdir(parents=True)
        (tmp_path / "class" / student / "hw.ipynb").write_text(NB)
        (tmp_path / "class" / student / "pkg" / "__init__.py").write_text(f"WHO = {student!r}\n")
        (tmp_path / "class" / student / "pkg" / "a" / "__init__.py").write_text("")
        (tmp_path / "class" / student / "pkg" / "a" / "x.py").write_text("")
        (tmp_path / "class" / student / "layers.py").write_text("")
    items = {i.key: i for i in collect([str(tmp_path / "class")], tmp_path / "out")}
    files = {f.path: f for f in item_files(pack, items["ben"]).taken}
    assert sorted(files) == ["layers.py"]  # the pack takes mycourse/**, *.py, data/*.csv
    assert items["ben"].folder is not None
    assert (items["ben"].folder / "pkg" / "a" / "x.py").is_file()
    assert (items["ben"].folder / "pkg" / "__init__.py").read_text() == "WHO = 'ben'\n"


def test_whole_zip_problems_still_stop_the_intake(tmp_path):
    bad = tmp_path / "bad.zip"
    bad.write_bytes(b"not a zip")
    try:
        safe_extract(bad, tmp_path / "x", refused=[])
    except UnsafeZip as exc:
        assert exc.member == ""
    else:
        raise AssertionError("a file that is no zip was unpacked")


def test_without_a_refused_list_a_bad_member_still_raises(tmp_path):
    archive = _zip(tmp_path / "a.zip", {"ok.txt": "x"}, links=("link",))
    try:
        safe_extract(archive, tmp_path / "x")
    except UnsafeZip as exc:
        assert exc.member == "link"
    else:
        raise AssertionError("a symlink member was unpacked")
