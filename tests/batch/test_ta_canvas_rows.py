"""Canvas students who handed in a report alone or a stray file are students (issue 27 item 8).

The TA table named them by file (`report.md 4/100`), and their gradebook rows mixed
blank and 0 cells for questions nobody will score. Through `grader grade` on a real
Canvas zip: every row is named by the student's key, and a blank cell means only that a
TA has yet to score the question. `--no-execute`: no kernel (execution is not tested).
"""

from __future__ import annotations

import csv
import zipfile
from pathlib import Path

from grader.cli import main

ROOT = Path(__file__).resolve().parents[2]
SOLUTION = ROOT / "submissions" / "stat8021-a3" / "solution.ipynb"
REPORT = "## Question 3\n\n(c) The attention scores take **25.77 GB**.\n"


def test_report_only_and_stray_file_students_are_rows_of_their_own(tmp_path, monkeypatch,
                                                                   capsys) -> None:
    with zipfile.ZipFile(tmp_path / "canvas.zip", "w") as zf:
        zf.write(SOLUTION, "leeann_101_9001_Transformer_practice.ipynb")
        zf.writestr("leeann_101_9001_report.md", REPORT)
        zf.writestr("ngben_102_9002_report.md", REPORT)
        zf.writestr("ohcy_103_9003_model.py", "import torch\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "200")
    code = main(["grade", "canvas.zip", "-a", "stat8021-a3", "--out", "grades", "--no-execute"])
    assert code == 0
    table = capsys.readouterr().out
    rows = [line for line in table.splitlines() if line.startswith("│")]
    assert [r.split("│")[1].strip() for r in rows] == ["leeann-101", "ngben-102", "ohcy-103"]
    assert "report.md" not in table and "model.py" not in table
    with (tmp_path / "grades" / "reports" / "gradebook.csv").open(encoding="utf-8") as fh:
        book = list(csv.DictReader(fh))
    qids = [k for k in book[0] if k.startswith("q")]
    for row in book[1:]:
        waiting = set(row["awaiting_ta"].split())
        blank = {q for q in qids if row[q] == ""}
        assert blank == waiting, (row["key"], blank, waiting)
        assert sum(float(row[q]) for q in qids if row[q]) == float(row["total"])
    ben = next(r for r in book if r["key"] == "ngben-102")
    assert ben["q3c"] == "4" and ben["q1a"] == "0"  # read from the report; no notebook
