"""Held-out-9's families of sections, on small reports written here (not the corpus's
files): labels typed fast on a phone (lower case, no brackets, an arrow marking the
answer), the question words of Japanese, Chinese and Korean, a README's ``== Question 1 ==``
headings, a table whose columns only a caption names."""

from __future__ import annotations

from grader.written import QuestionSpec, extract_answers
from grader.written.blocks import heading_level
from grader.written.labels import parse_label, read_mark
from grader.written.phrases import part_column, plain_lines
from grader.written.vocabulary import MD_HEADING

Q3 = [QuestionSpec("q3a2", ("Q3 (a)",), part="(II)"),
      QuestionSpec("q3c", ("Q3 (c)",)), QuestionSpec("q3d", ("Q3 (d)",)),
      QuestionSpec("q3e1", ("Q3 (e)",), part="(I)"),
      QuestionSpec("q3e2", ("Q3 (e)",), part="(II)"),
      QuestionSpec("q3e3", ("Q3 (e)",), part="(III)")]


def _path(text: str) -> tuple[str, str, str | None, str | None] | None:
    mark = read_mark(text, heading=False)
    return None if mark is None else mark.paths[0]


# -- a note typed on a phone --------------------------------------------------------------


def test_a_numeral_before_an_arrow_is_the_parts_numeral():
    assert _path("q3a ii -> softmax of the logits") == ("q", "3", "a", "ii")
    assert _path("q3e iii → lora vs ffn") == ("q", "3", "e", "iii")
    assert _path("Q3 e ii => 37.7 MB") == ("q", "3", "e", "ii")
    assert _path("q3e ii ⟹ 37.7 MB") == ("q", "3", "e", "ii")


def test_a_bare_number_and_letter_before_an_arrow_is_a_label():
    assert _path("3e ii -> adam: 1 state") == ("?", "3", "e", "ii")
    assert _path("3c -> 25.77 GB") == ("?", "3", "c", None)
    assert _path("3 c → 25.77 GB") == ("?", "3", "c", None)
    assert _path("3e2 -> 37.7mb") == ("?", "3", "e", "ii")
    assert _path("3e ii: 37.7mb") == ("?", "3", "e", "ii")
    # a count and its unit before an arrow is no label
    assert _path("3 GB -> 3,000 MB") is None


def test_letters_and_numerals_run_together_are_read_apart():
    assert _path("q3aii: p = 0.75") == ("q", "3", "a", "ii")
    assert _path("q3e2 -> 37.7mb") == ("q", "3", "e", "ii")
    assert _path("q3eiii -> 1536x") == ("q", "3", "e", "iii")
    # but a letter and a word ("q3 dim") or a decimal ("q3a2.5") are no such label
    assert _path("q3 dim 6144") == ("q", "3", None, None)
    assert parse_label("q3a2.5") is None


PHONE = ("a3 part 3 - on my phone\n\n"
         "q3a i -> next token prediction\n\n"
         "q3a ii -> softmax, mat is idx 2\n(exps sum 26.78)\np(mat) = 0.75\n\n"
         "q3c -> 48 x 16384^2 x 2 = 25,769,803,776 bytes\n\n"
         "q3d -> 48 x 302,020,608 = 14,496,989,184\n\n"
         "q3e i -> 8 x 12288 x 2 x 48 = 9437184\n\n"
         "q3e ii -> 9437184 x 4 = 37.7mb\n\n"
         "q3e iii -> ratio = 1536\n")


def test_a_phone_notes_parts_are_read_by_their_arrow_labels():
    got = extract_answers(PHONE, Q3)
    assert got["q3a2"].answer == "0.75"
    assert got["q3e1"].answer == "9437184"
    assert got["q3e3"].answer == "1536"


def test_a_unit_typed_in_lower_case_stays_with_its_value():
    assert extract_answers(PHONE, Q3)["q3e2"].answer == "37.7mb"


# -- the question words of Japanese, Chinese, Korean -------------------------------------


def test_japanese_chinese_and_korean_question_words_name_the_question():
    for text in ("問3 (c)", "問 3 (c)", "問題3(c)", "設問 3 (c)", "大問3 (c)", "第3問 (c)",
                 "问题 3 (c)", "第3题 (c)", "题3(c)", "문제 3 (c)", "문항 3 (c)",
                 "問三 (c)", "第三题 (c)", "问题三(c)"):
        label = parse_label(text)
        assert label is not None and (label.kind, label.num, label.letter) == ("q", "3", "c"), text
    # 課題3 is "assignment 3": 題 inside a word names no question
    assert parse_label("課題3") is None
    assert _path("課題3 パート3") is None


def test_katakana_letters_a_part_in_order():
    assert parse_label("問3 (ウ)") == parse_label("Q3 (c)")
    assert _path("(ア) 事前学習") == ("?", "", "a", None)
    assert _path("小問(イ) p = 0.75") == ("?", "", "b", None)


JAPANESE = ("# 課題3 記述問題\n\n## 問3 (a)\n\n### (I)\n\n次のトークンを予測します。\n\n"
            "### (II)\n\np = 1.6487 / 26.7791\n\n**答え：p(mat) = 0.0616**\n\n"
            "## 問3 (c)\n\n48 × 16384² × 2 = 25,769,803,776 バイト\n\n**答え：25.77 GB**\n\n"
            "## 第3問 (d)\n\n302,020,608 × 48\n\n**答え：14,496,989,184 個**(約145億)\n\n"
            "## 問3 (e)\n\n### (I)\n\n**答え：9,437,184**\n\n### (II)\n\n**答え：37.75 MB**\n")


def test_a_japanese_reports_sections_are_its_question_words():
    got = extract_answers(JAPANESE, Q3)
    assert got["q3a2"].answer == "0.0616"
    assert got["q3c"].answer == "25.77 GB"
    assert got["q3d"].answer.startswith("14,496,989,184")
    assert got["q3e1"].answer == "9,437,184"
    assert got["q3e2"].answer == "37.75 MB"


# -- a README typed as text ----------------------------------------------------------------


def test_wiki_and_asciidoc_equals_signs_mark_a_heading():
    for raw, level in (("== Question 1 ==", 2), ("=== Task 3 ===", 3), ("== Question 2", 2)):
        assert heading_level(raw) == level, raw
        m = MD_HEADING.match(raw)
        assert m is not None and m.group(2) in ("Question 1", "Task 3", "Question 2")
    # a working line's equals signs are no heading's
    for raw in ("= 25.77 GB", "== 14,496,989,184", "total == 22696960", "==========="):
        assert heading_level(raw) is None, raw


README = ("lab-b\n=====\n\nWritten part.\n\n== Question 1 ==\n\n"
          "  embeddings   32000 * 512   = 16,384,000\n"
          "  4 layers                   =  6,311,936\n\n"
          "total = 22696960\n\n== Question 2 ==\n\nr: the rank, 8 here.\n")


def test_a_readmes_equals_sign_headings_open_their_sections():
    got = extract_answers(README, [QuestionSpec("q1", ("Question 1",)),
                                   QuestionSpec("q2", ("Question 2",))])
    assert got["q1"].found and got["q1"].answer == "22696960"


# -- a table whose columns a caption names ---------------------------------------------------

LM, CLS = "Language modeling task", "Classification task"
SYNONYMS = {LM: ("Pre-training (LM) model",), CLS: ("Fine-tuned classifier",)}


def _column_answer(text: str, part: str) -> str | None:
    """The cell ``part_column`` reads for ``part`` in the section after the first line."""
    lines = plain_lines(text)
    sibling = CLS if part == LM else LM
    found = part_column(lines, 1, len(lines), [part, *SYNONYMS[part]],
                        [sibling, *SYNONYMS[sibling]])
    if found is None:
        return None
    row, (start, end) = found
    return lines[row].raw[start:end].strip(" *")


CAPTION = ("## Question 3\n"
           "**Figure 1.** (a) Language modelling task: embedding, 4 encoder layers, LM head. "
           "(b) Classification task: the same body, a 2-way head.\n"
           "**Table 1.** Trainable parameters of the networks of Figure 1.\n"
           "| **Component** | **(a)** | **(b)** |\n"
           "| Embedding | 10,000,200 | 10,000,200 |\n"
           "| Head (no bias) | 10,000,200 | 400 |\n"
           "| **Trainable total** | **20,968,400** | **10,968,600** |\n")


def test_a_captions_key_names_the_columns_of_a_table():
    assert _column_answer(CAPTION, LM) == "20,968,400"
    assert _column_answer(CAPTION, CLS) == "10,968,600"


def test_a_key_after_the_names_and_columns_named_in_the_students_words():
    after = ("## Question 3\nTable 2 counts the parameters of the LM (a) and of the "
             "classifier (b).\n| Component | (a) | (b) |\n|---|---|---|\n"
             "| Head | 10,050,201 | 402 |\n| Total | 21,018,401 | 10,968,602 |\n"
             "| Share of the head | 48 % | 0.004 % |\n")
    assert _column_answer(after, LM) == "21,018,401"  # the total row, not the last
    named = ("## Question 3\n| Component | LM model | Classifier |\n|---|---|---|\n"
             "| Head | 10,050,201 | 402 |\n| All | 21,018,401 | 10,968,602 |\n")
    assert _column_answer(named, CLS) == "10,968,602"


def test_a_captions_key_names_the_rows_of_a_table():
    rows = ("## Question 3\nFigure 2: (a) the language-modelling network, (b) the classifier.\n"
            "| Network | Embedding | Head | Total |\n|---|---|---|---|\n"
            "| (a) | 10,000,200 | 10,050,201 | 21,018,401 |\n"
            "| (b) | 10,000,200 | 402 | 10,968,602 |\n| share | 48 % | 0.004 % | |\n")
    assert _column_answer(rows, LM) == "21,018,401"
    assert _column_answer(rows, CLS) == "10,968,602"


def test_a_part_with_a_section_of_its_own_is_no_column():
    # the part's name starts a line: that line is its section, the table is its working
    text = ("## Question 3\nLanguage modeling task: 21,018,401 parameters.\n"
            "| Component | LM | Classifier |\n|---|---|---|\n| Total | 21,018,401 | 10,968,602 |\n")
    assert _column_answer(text, LM) is None
    # nor a table of working with no concluding row: the sentence after it sums it up
    text = ("## Question 3\n| Component | LM | Classifier |\n|---|---|---|\n"
            "| Head | 10,050,201 | 402 |\nIn total the LM has 20,857,601 and the classifier "
            "10,807,802.\n")
    assert _column_answer(text, LM) is None
    # nor is a table with one part's column only
    text = ("## Question 3\n| Component | LM |\n|---|---|\n| Total | 21,018,401 |\n")
    assert _column_answer(text, LM) is None
