"""Held-out-12's answers files: TOML (tables, dotted tables, inline tables, lists,
multi-line strings, ``21_018_401`` digit groups) and JSON written one key a line, read
as their key paths the way a YAML answers file is (``reading.keyed``), on small files
written here (not the corpus's)."""

from __future__ import annotations

import json

from grader.written import QuestionSpec, extract_answers
from grader.written.reading.lightweight import as_markdown

LAB = [QuestionSpec("lm", ("Question 3",), part="Language modeling task"),
       QuestionSpec("cls", ("Question 3",), part="Classification task")]
Q3 = [QuestionSpec("q3c", ("Q3 (c)",)), QuestionSpec("q3d", ("Q3 (d)",)),
      QuestionSpec("q3e1", ("Q3 (e)",), part="(I)")]

TOML = (
    "# answers.toml\n"                                     # 0
    "[student]\n"                                          # 1
    'name = "A. Student"\n'                                # 2
    "\n"                                                   # 3
    "[question3]\n"                                        # 4
    'note = "counted with sum(p.numel() ...)"\n'           # 5
    "per_layer = { in_proj = 120_600, out_proj = 40_200 }\n"  # 6
    "\n"                                                   # 7
    "[question3.language_modeling_task]\n"                 # 8
    "head = 10_050_201\n"                                  # 9
    "trainable_parameters = 21_018_401   # all of them\n"  # 10
    "\n"                                                   # 11
    "[question3.classification_task]\n"                    # 12
    "trainable_parameters = 10_968_602\n"                  # 13
    "\n"                                                   # 14
    "[question4]\n"                                        # 15
    "val_acc = [\n"                                        # 16
    "  0.712, 0.748,\n"                                    # 17
    "]\n"                                                  # 18
    'claim = "from scratch"\n'                             # 19
    'answer = """\n'                                       # 20
    "The model trained from scratch ends higher\n"         # 21
    '(0.789 vs 0.781)."""\n'                               # 22
)


def test_a_toml_files_tables_are_headings_and_its_leaves_answer_lines() -> None:
    lines = as_markdown(TOML).split("\n")
    assert len(lines) == len(TOML.split("\n"))
    assert lines[0] == "answers.toml"
    assert lines[1:3] == ["[student]", 'name = "A. Student"']  # no question: as written
    assert lines[4] == "## Q3"
    assert lines[5] == "note: counted with sum(p.numel() ...)"
    assert lines[6] == TOML.split("\n")[6]  # a table of figures is kept as written
    assert lines[8] == "### Q3 language modeling task"
    assert lines[10] == ("Answer: **Q3 language modeling task trainable parameters** = "
                         "21_018_401 (all of them)")
    assert lines[16:19] == ["val_acc = [", "  0.712, 0.748,", "]"]
    assert lines[19] == "Answer: **Q4 claim** = from scratch"
    assert lines[20:23] == ["Answer: **Q4** =", "The model trained from scratch ends higher",
                            "(0.789 vs 0.781)."]


def test_a_toml_files_parts_are_read_with_their_digit_groups() -> None:
    got = extract_answers(as_markdown(TOML), LAB)
    assert (got["lm"].answer, got["cls"].answer) == ("21_018_401", "10_968_602")


def test_dotted_and_quoted_toml_keys_give_the_path_and_a_key_naming_a_question_its_label() -> None:
    source = ('title = "A3"\n'
              "[answers]\n"
              'q3c = "24.0 GB"\n'
              "q3.d = '14.497 billion'\n"
              '"q3".e.I = 9_437_184\n'
              'q3.e.working = "8 * 6144 * 2 * 2 * 48"\n')
    md = as_markdown(source)
    assert md.split("\n")[2:6] == ["Answer: **Q3 (c)** = 24.0 GB",
                                   "Answer: **Q3 (d)** = 14.497 billion",
                                   "Answer: **Q3 (e) (i)** = 9_437_184",
                                   "working: 8 * 6144 * 2 * 2 * 48"]
    got = extract_answers(md, Q3)
    assert (got["q3c"].answer, got["q3d"].answer) == ("24.0 GB", "14.497 billion")


def test_a_toml_file_naming_no_question_is_kept_as_written() -> None:
    source = '[project]\nname = "lab"\nversion = "0.1"\n\n[tool.ruff]\nline-length = 100\n'
    assert as_markdown(source) == source


def test_prose_with_equals_signs_is_no_toml_file() -> None:
    source = ("Q3 (c)\nq3c = 24.0 GB because the scores are fp16\n"
              "q3d = 14.497 billion\nq3e1 = 9437184\n")
    assert as_markdown(source) == source


def test_a_json_answers_file_reads_its_objects_as_headings_and_its_keys_as_answers() -> None:
    answers = {"student": {"name": "A. Student"},
               "question3": {"note": "counted with \"numel\"",
                             "language_modeling_task": {"trainable_parameters": 21018401},
                             "classification_task": {"trainable_parameters": 10968602}},
               "question4": {"val_acc": [0.712, 0.748], "claim": "from scratch\nat epoch 5"}}
    source = json.dumps(answers, indent=2)
    lines = as_markdown(source).split("\n")
    assert len(lines) == len(source.split("\n"))
    assert lines[0] == "" and lines[-1] == ""  # the braces
    assert lines[2] == '    "name": "A. Student"'  # no question: as written
    assert "## Q3" in lines
    assert "note: counted with \"numel\"" in lines
    assert "### Q3 language modeling task" in lines
    assert "Answer: **Q4 claim** = from scratch at epoch 5" in lines
    assert '    "val_acc": [' in lines  # a list of figures stays as written
    got = extract_answers("\n".join(lines), LAB)
    assert (got["lm"].answer, got["cls"].answer) == ("21018401", "10968602")


def test_a_json_file_of_flat_keys_naming_questions() -> None:
    source = json.dumps({"q3c": "24.0 GB", "q3d": "14.497 billion", "q3e1": 9437184},
                        indent=4)
    md = as_markdown(source)
    assert "Answer: **Q3 (c)** = 24.0 GB" in md.split("\n")
    got = extract_answers(md, Q3)
    assert (got["q3d"].answer, got["q3e1"].answer) == ("14.497 billion", "9437184")


def test_a_yaml_blocks_lines_are_no_keys_of_their_own() -> None:
    """One walk reads a YAML file for both whether it is one and how it is written: the
    ``key: value`` lines inside a block are the block's text, so a file whose only
    leaves are in a block is no answers file."""
    source = "q3:\n  c:\n    working: |\n      bytes: 2\n      heads: 1\n      scores: 4\n"
    assert as_markdown(source) == source
    source = source + "    answer: 0.537 GB\n    bytes_fp16: 536870912\n"
    lines = as_markdown(source).split("\n")
    assert lines[3:5] == ["bytes: 2", "heads: 1"]
    assert lines[6:8] == ["Answer: **Q3 (c)** = 0.537 GB",
                          "Answer: **Q3 (c) bytes_fp16** = 536870912"]


RECORDS = [{"question": "3c", "answer": "0.537 GB", "working": "2 bytes x 16384^2"},
           {"question": "3e.I", "answer": 9437184},
           {"question": "Q3 (e) (II)", "answer": "75.5 MB"}]
Q3E = [QuestionSpec("q3c", ("Q3 (c)",)), QuestionSpec("q3e1", ("Q3 (e)",), part="(I)"),
       QuestionSpec("q3e2", ("Q3 (e)",), part="(II)")]


def _records_read(source: str) -> dict[str, str | None]:
    md = as_markdown(source)
    assert md.count("\n") == source.count("\n")
    return {k: v.answer for k, v in extract_answers(md, Q3E).items()}


def test_records_naming_their_question_are_its_answers_in_json_and_toml() -> None:
    """A list of records (``[[answers]]`` tables, JSON objects) each naming its question
    by a key (``question = "3c"``): the naming key opens the question's section, the
    record's answer key is its answer; a student's id of ten digits names none."""
    want = {"q3c": "0.537 GB", "q3e1": "9437184", "q3e2": "75.5 MB"}
    spread = json.dumps({"student": {"id": 3036118540}, "answers": RECORDS}, indent=2)
    assert _records_read(spread) == want
    assert "### Q3 (c)" in as_markdown(spread).split("\n")
    one_a_line = ('{\n  "id": "3036118540",\n  "answers": [\n'
                  + ",\n".join("    " + json.dumps(r) for r in RECORDS) + "\n  ]\n}\n")
    assert _records_read(one_a_line) == want
    assert "Answer: **Q3 (e) (ii)** = 75.5 MB" in as_markdown(one_a_line).split("\n")
    toml = 'id = "3036118540"\n' + "".join(
        "\n[[answers]]\n" + "".join(f"{k} = {json.dumps(v)}\n" for k, v in r.items())
        for r in RECORDS)
    assert _records_read(toml) == want


def test_a_key_spelled_as_a_phrase_names_its_part_and_a_symbols_name_is_kept() -> None:
    source = ("[question3]\nd_model = 200\nlanguage_modeling_task = 21_018_401\n"
              'classification-task = "10,968,602 parameters"\n')
    md = as_markdown(source)
    assert md.split("\n")[1:4] == [
        "Answer: **Q3 d_model** = 200",
        "Answer: **Q3 language modeling task** = 21_018_401",
        "Answer: **Q3 classification task** = 10,968,602 parameters"]
    got = extract_answers(md, LAB)
    assert (got["lm"].answer, got["cls"].answer) == ("21_018_401", "10,968,602")


def test_a_json_object_on_one_line_under_a_question_gives_its_answer() -> None:
    source = ('{\n  "q3c": {"answer": "0.537 GB", "working": "2 x 16384^2 bytes"},\n'
              '  "q3d": {"answer": "14.497 billion"},\n  "q3e": {"I": 9437184, "II": 1}\n}')
    lines = as_markdown(source).split("\n")
    assert lines[1:4] == ["Answer: **Q3 (c)** = 0.537 GB", "Answer: **Q3 (d)** = 14.497 billion",
                          '  "q3e": {"I": 9437184, "II": 1}']  # no answer key: as written


def test_a_yaml_lists_items_naming_their_questions_are_records() -> None:
    source = ("student: A\nanswers:\n  - question: 3c\n    answer: 0.537 GB\n"
              "    working: 2 x 16384^2\n  - question: 3e.I\n    answer: 9437184\n"
              "  - question: Q3 (e) (II)\n    answer: 75.5 MB\n")
    assert _records_read(source) == {"q3c": "0.537 GB", "q3e1": "9437184", "q3e2": "75.5 MB"}
    assert as_markdown(source).split("\n")[2:5] == [
        "### Q3 (c)", "Answer: **Q3 (c)** = 0.537 GB", "working: 2 x 16384^2"]


def test_bullets_with_colons_are_no_yaml_records() -> None:
    source = "Q3 (c)\n- question: what is stored?\n- note: one head\n- answer: 0.537 GB\n"
    assert as_markdown(source) == source
