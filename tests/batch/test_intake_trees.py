"""LMS zips and student folders keep each upload's tree; one bad member is one student's problem.

Issue 16 item 1 (a student's `pkg/a/x.py` stays `pkg/a/x.py`, two `__init__.py` do not
collide) and issue 17 item 8 (a Moodle member named `notes: week 3.pdf`, a student whose
name holds `/`, a link in one upload: the rest of the class is taken in and graded).
No kernel: intake and the batch's items only.
"""

from __future__ import annotations

import io
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
from tests.grader.intake.test_submission_folders import make_pack

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


# -- a student's own zip ---------------------------------------------------------------

def _zip_bytes(members: dict[str, str | bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return buf.getvalue()


def own_zips_class(tmp_path: Path) -> Path:
    """A Moodle download where students zipped their own work (with a Mac's AppleDouble
    files), one also beside a notebook, one with a member leaving the folder, and one
    "zip" that is not one."""
    ada_zip = _zip_bytes({"A3/hw.ipynb": NB, "A3/mycourse/__init__.py": "",
                          "A3/mycourse/a/x.py": "def f():\n    return 1\n",
                          "A3/report.pdf": "%PDF-1.4\n", "__MACOSX/A3/._hw.ipynb": "junk",
                          "A3/.DS_Store": "junk"})
    return _zip(tmp_path / "hw4.zip", {  # type: ignore[dict-item]
        ADA + "A3.zip": ada_zip,
        "Bob Ng_102_assignsubmission_file_/hw.ipynb": NB,
        "Bob Ng_102_assignsubmission_file_/hw.zip": _zip_bytes({"hw.ipynb": NB,
                                                                "data/x.csv": "a\n"}),
        "Cy_103_assignsubmission_file_/cy.zip": _zip_bytes({"hw.ipynb": NB,
                                                            "../evil.py": "x = 1\n"}),
        "Dee_104_assignsubmission_file_/work.zip": "this is no zip",
    })


def test_a_students_own_zip_is_unpacked_where_it_sat(tmp_path):
    dest = tmp_path / "intake"
    subs = {s.student.key: s for s in intake(own_zips_class(tmp_path), dest,
                                             notebook_name="hw.ipynb")}
    ada = subs["ada-lovelace-101"]
    assert ada.notebook == dest / "ada-lovelace-101.ipynb" and ada.notebook.is_file()
    assert ada.handed_in == "hw.ipynb" and not ada.problem
    assert ada.folder == "trees/ada-lovelace-101/A3"
    assert (dest / ada.folder / "mycourse" / "a" / "x.py").is_file()
    assert [p.name for p in ada.reports] == ["report.pdf"]
    assert ada.unpacked == ["A3.zip: 4 files taken in"]  # no __MACOSX, no .DS_Store
    assert not [p for p in dest.rglob("*") if p.name.startswith("._") or p.name == "__MACOSX"]
    entries = intake_entries(roster_intake(dest)["ada-lovelace-101"])
    assert {"name": "A3.zip", "format": "zip", "intake": True,
            "notes": ["the student's own zip, unpacked: 4 files taken in"]} in entries


def test_an_own_zip_beside_a_notebook_never_overwrites_it_and_bad_zips_are_named(tmp_path):
    dest = tmp_path / "intake"
    subs = {s.student.key: s for s in intake(own_zips_class(tmp_path), dest,
                                             notebook_name="hw.ipynb")}
    bob = dest / "trees" / "bob-ng-102"
    assert (bob / "hw.ipynb").is_file() and (bob / "hw" / "hw.ipynb").is_file()
    assert (bob / "hw" / "data" / "x.csv").read_text() == "a\n"
    cy = subs["cy-103"]
    assert cy.notebook is not None and cy.refused and cy.refused[0].startswith("cy.zip/../evil.py: ")
    assert not list((dest / "trees").rglob("evil.py"))
    dee = subs["dee-104"]
    assert dee.notebook is None and "work.zip" in dee.problem and "not a zip" in dee.problem
    assert [p.name for p in dee.other] == ["work.zip"]  # kept for the TA as handed in


def test_a_plain_folder_of_student_zips(tmp_path):
    pack = load_pack(make_pack(tmp_path / "pack"))
    (tmp_path / "class").mkdir()
    (tmp_path / "class" / "ana.zip").write_bytes(_zip_bytes({
        "hw/hw.ipynb": NB, "hw/mycourse/__init__.py": "WHO = 'ana'\n"}))
    (tmp_path / "class" / "ben.ipynb").write_text(NB)
    items = {i.key: i for i in collect([str(tmp_path / "class")], tmp_path / "out", "hw.ipynb")}
    assert set(items) == {"ana", "ben"}
    assert items["ana"].notebook is not None and items["ana"].notebook.is_file()
    assert [f.path for f in item_files(pack, items["ana"]).taken] == ["mycourse/__init__.py"]
