"""Held-out-41 and -42's families: a tweet thread's post counters, speaker notes' "Title:"
fields and slide numbers, a bound that compares ("Under ten million"), Reddit spoilers and
"EDIT 2:", a label typed in bold on a phone ("**Q3 e) i**"), a Stata log, an answer form's
"SECTION B – QUESTION 1", a course template's response cell, a forum post's button bar,
"1536-fold", a Gist's line numbers; and per-seed figures said again in prose, or a run's
length "from 2k steps". Each test fails on the readers before these families were read."""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.written import QuestionSpec
from grader.written.reading.plain import read_plain
from tests.grader.written._read import answers, runs

C = QuestionSpec("c", ("Q3 (c)",))
D = QuestionSpec("d", ("Q3 (d)",))
E = [QuestionSpec(f"e{k}", (f"Q3 (e)({r})",)) for k, r in ((1, "I"), (2, "II"), (3, "III"))]
Q1 = QuestionSpec("q1", ("Question 1",))


def test_a_threads_post_counter_before_a_label_is_no_part_of_it():
    text = ("🧵 1/9  Part 3 done!! Answers below 👇 #MOOC\n\n"
            "5/9  Q3 (c): 48 × 16384² × 2 bytes = 25,769,803,776 bytes = 25.77 GB per layer\n\n"
            "6/9  Q3 (d): 302,020,608 × 48 layers = 14,496,989,184 ≈ 14.5B params #FFN\n")
    assert answers(text, [C, D]) == {"c": "25.77 GB", "d": "14.5B"}


def test_speaker_notes_title_fields_are_headings_and_slide_numbers_no_values(tmp_path: Path):
    report = tmp_path / "notes.txt"
    report.write_text("""Slide 5
Title: Q3 (c) - memory for the attention scores

Speaker notes:
So for the attention scores we need about 0.537 GB for a layer.

Slide 6
Title: Q3 (d) - parameters in the feed-forward blocks

Speaker notes:
Times 48 layers gives 14,496,989,184, so about 14.5 billion parameters.

Slide 7
""", encoding="utf-8")
    text = read_plain(report).text
    assert "## Q3 (c) - memory for the attention scores" in text.split("\n")
    assert answers(text, [C, D]) == {"c": "0.537 GB", "d": "14.5 billion"}


def test_a_sentence_opening_on_a_bound_compares_and_answers_nothing():
    text = ("## Q3 (e)(I)\nTwo matrices per layer, 48 layers: 9,437,184 trainable parameters. "
            "Under ten million, against fourteen and a half billion in the FFNs alone.\n")
    assert answers(text, E[:1])["e1"] == "9,437,184"


def test_reddit_spoilers_mark_the_answer_and_an_edits_number_is_none(tmp_path: Path):
    report = tmp_path / "reddit.md"
    report.write_text("""**Q3 (e)**

**(III)** ratio = 9,437,184 / 14,496,989,184 ≈ >!0.065%!< — basically nothing.

---

**EDIT 2:** someone in the comments says (c) should be bigger?? I'll recheck tonight.
""", encoding="utf-8")
    text = read_plain(report).text
    assert "≈ **0.065%**" in text
    assert answers(text, E[2:])["e3"] == "0.065%"


def test_a_label_typed_in_bold_ends_where_its_bold_does():
    text = ("# Question 3\n**Q3 e) i** Each adapted matrix: 98,304. Two matrices in 48 layers = "
            "9,437,184 trainable parameters\n**Q3 e) ii** Adam, 4 bytes per param: 9,437,184 x 4 "
            "= 37,748,736 bytes = 37.75 MB\n")
    assert answers(text, E[:2]) == {"e1": "9,437,184", "e2": "37.75 MB"}


def test_a_stata_logs_comments_are_the_report_and_its_list_a_table(tmp_path: Path):
    report = tmp_path / "labB.log.txt"
    report.write_text("""      name:  <unnamed>
  log type:  text

. * ----------------------------------------------------------------
. * Question 1: trainable parameters of the encoder
. * ----------------------------------------------------------------
. scalar tok   = 32000*512

. display "total     = " %12.0fc tok + 4*layer
total     =   22,816,768

. * ANSWER Q1: 22,816,768 trainable parameters (without biases)

. * Tasks 3 and 4: best validation accuracy per seed
. list model seed val_acc step test_acc, noobs

  +-----------------------------------------------+
  |      model   seed   val_acc   step   test_acc |
  |-----------------------------------------------|
  | pretrained      1      .853   1200       .841 |
  |    scratch      3       .72   1600       .707 |
  +-----------------------------------------------+
""", encoding="utf-8")
    text = read_plain(report).text
    assert "# Question 1: trainable parameters of the encoder" in text.split("\n")
    assert answers(text, [Q1])["q1"] == "22,816,768"
    assert runs(text) == [("pretrained", 1, 0.853, 1200, 0.841),
                          ("scratch", 3, 0.72, 1600, 0.707)]


def test_an_answer_forms_section_before_the_question_is_decoration():
    text = ("## SECTION A – STUDENT DETAILS\n| **Student ID** | C24018837 |\n"
            "## SECTION B – QUESTION 1: TRAINABLE PARAMETERS OF THE ENCODER\n"
            "| **Working** | 16,384,000 + 1,024 + 6,311,936 |\n"
            "| **Total trainable parameters** | 22,696,960 |\n## SECTION C – TASKS 3 AND 4\n")
    assert answers(text, [Q1])["q1"] == "22,696,960"


def test_a_templates_response_cell_keeps_its_paragraphs_as_lines(tmp_path: Path):
    docx = pytest.importorskip("docx")
    from grader.written.reading import read_document
    document = docx.Document()
    document.add_heading("Question 3", level=2)
    table = document.add_table(rows=2, cols=2)
    table.cell(0, 0).text, table.cell(0, 1).text = "Prompt", "How many parameters?"
    table.cell(1, 0).text = "Your response"
    cell = table.cell(1, 1)
    cell.paragraphs[0].add_run("Per layer 5 × 200^2 = 200,000, × 4 layers = 800,000")
    cell.add_paragraph("Language modeling task: 10,000,200 + 800,000 + 10,000,200 = 20,800,400")
    cell.add_paragraph("Classification task: 10,000,200 + 800,000 + 400 = 10,800,600")
    document.save(tmp_path / "form.docx")
    lines = read_document(tmp_path / "form.docx").text.split("\n")
    assert "Classification task: 10,000,200 + 800,000 + 400 = 10,800,600" in lines
    assert "| Your response | Per layer 5 × 200^2 = 200,000, × 4 layers = 800,000 |" in lines


def test_a_forum_posts_button_bar_ends_the_post():
    text = ("**Q3 (e) (III)** — 115.98 GB / 75.5 MB → the LoRA states are **≈ 1536x smaller**.\n"
            "❤ 7 🔗 ↩ Reply\n**LN**\nThanks! Got the same for (c)\n"
            "| **Nov 24** created | **2d** last reply | **13** likes |\n")
    assert answers(text, E[2:])["e3"] == "1536x"


def test_a_fold_is_read_with_its_number():
    text = ("**Q3 (e)(III)** – FFN Adam state ≈ 116 GB, so the LoRA state is about 1536-fold "
            "less (116 GB / 75.5 MB).\n")
    assert answers(text, E[2:])["e3"] == "1536-fold"


def test_a_file_views_line_numbers_leave_its_code_and_csv_as_written():
    from grader.written.reading.normalise import code_gutters
    text = ("```\n1 # Question 1\n2 V, d = 32000, 512\n3\n4 print(total)\n| **runs.csv** | Raw |\n"
            "1 model,seed,best_val_acc,step,test_acc\n2 pretrained,1,0.853,1200,0.841\n"
            "3 scratch,3,0.720,1600,0.707\n```")
    lines = code_gutters(text).split("\n")
    assert lines[1:5] == ["# Question 1", "V, d = 32000, 512", "", "print(total)"]
    assert runs("\n".join(lines).replace("```", "")) == [
        ("pretrained", 1, 0.853, 1200, 0.841), ("scratch", 3, 0.72, 1600, 0.707)]
    assert code_gutters("```\n2 x\n3 y\n4 z\n```") == "```\n2 x\n3 y\n4 z\n```"  # no 1: kept


def test_a_runs_figures_said_again_in_prose_are_no_second_run():
    text = ("| Model | Seed | Best val acc | Step | Test acc |\n|---|---|---|---|---|\n"
            "| scratch | 2 | 0.705 | 2000 | 0.699 |\n\n"
            "The scratch model is still climbing at the end (seed 2 peaks at the very last "
            "step 2000), so it has to learn the task from 2k steps of labelled data.\n")
    assert runs(text) == [("scratch", 2, 0.705, 2000, 0.699)]
