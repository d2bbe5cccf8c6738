"""The report corpus (tests/fixtures/report-corpus): every answer gets the verdict written for it.

Why: reading a report breaks on ordinary student writing (issue 15), and a rule tested on
strings written for the rule proves little. The corpus is 45 reports written the way
students write them (LaTeX two-column PDFs, Word/Docs pages printed to PDF, DOCX,
Markdown, plain text), and `manifest.toml` says, per answer, what a careful TA gives it,
written before anything was graded. Ten of them (`batch = "held-out"`) were written
early and committed at the end, after the readers had been tuned on the other 35: their
known misses say how the reading generalises. Each file goes through the grader's own path for a
report-only submission: `Reports.read` (the reader the record names), then the check
kinds as `grade` calls them (`answer` for numbers and formulas, `series` for lab A's
claim about its curves, `logs` for lab B's per-seed figures against the run's CSV log).
No kernel runs: a report-only submission needs none.

Two lists say what is known not to work yet, each entry with why:
`KNOWN_MISSES` (the reading) and `CHECKER_MISSES` (the answer checker on the answer as
meant). Both are enforced both ways: a listed item that starts passing fails the test,
so the lists only shrink. `benchmarks/bench_reports.py` prints the same outcomes as counts.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from grader.checks.answer import Key, answer_key
from grader.checks.kind import Context
from grader.checks.registry import kind
from grader.pack import Check, Pack, Question, load_pack
from grader.written import Reports
from tests.calculators.answers._shared import repo_root

CORPUS = repo_root() / "tests" / "fixtures" / "report-corpus"
REPORTS = CORPUS / "reports"
LAB_B_LOG = CORPUS / "logs" / "lab-b-runs.csv"
FORMATS = {".pdf": "pdf", ".docx": "docx", ".md": "text", ".txt": "text"}
# manifest key suffix -> index among the question's `answer` checks (pack order)
SUB_ANSWERS = {"q3a2": ("p", "loss"), "q3": ("lm", "cls")}
STYLES = ("latex", "word", "docx", "md", "txt")


def style_of(report: str) -> str:
    """The style an id names: `p3-latex-boxed`, `h2-p3-latex-aligned` (a batch prefix)."""
    return next(part for part in report.split("-") if part in STYLES)


SHOTGUN = re.compile(r"shotgun|several|different values|more than one", re.IGNORECASE)

# (report, item, format) -> why it is not read right yet: what is read, what should be.
# Items: a manifest answer key, "claim" (lab A Q4) or "seeds" (lab B T3/T4); formats:
# "pdf", "docx", "text" (Markdown and plain text). Regenerate the entries with
# `benchmarks/bench_reports.py --known-misses`, then review them: the list only shrinks.
KNOWN_MISSES: dict[tuple[str, str, str], str] = {
    # PDF: the MathML fraction is read ('p ( mat ) = e^3/(e^0.5 + ...) and L = − ln (...)' on one line), but a closed form mid-line, before 'and L =', is not taken as an answer
    ('p3-md-formulas', 'q3a2.p', 'pdf'):
        "reads nothing: no notebook was handed in; p3-md-formulas.pdf: no number in the section; should read 'e^3/(e^0.5+e^0.1+e^3+e^0.2+e^1)': correct 1",
    # held out 2: 14 reports written at 18:20 by a helper who never read the readers, added
    # at 19:15 before any tuning on them (manifest batch 'held-out-2'). Families: outline
    # and '(c) Title' headings with no question number, a summary table read as part of the
    # last part, a raw-HTML table in Markdown, Python code blocks in a Markdown report,
    # working numbers beating the Answer column, a fraction beating the value after it,
    # '25.77GB' with no space, '21.018.401' digit groups, 'A or B' not called a shotgun,
    # per-seed sentences run together in one paragraph, 'no real difference' after 'but'
    # (the last of them read right since 2026-11-27's third session)
    # held out 3: 10 reports written at 19:20 by another helper who never read the readers,
    # added at 19:50 after the second round of fixes and before any tuning on them (batch
    # 'held-out-3'). Families: raw LaTeX (\section*{Question 3}, \item[(a)]) in a text
    # report and terse '* a' / '- ii:' bullets open no section; a proportion asked for
    # ('1/1536 of', a fraction labelled %) loses to the sizes it divides; a Jupyter
    # output's raw float beats the Answer line; 'improves faster ... both end around
    # 0,77' read as the scratch model winning; per-seed steps in '1.2k'; a transposed
    # per-seed table (seeds as columns) loses the model names
    ('h3-labB-md-ksteps', 'seeds', 'pdf'):
        "reads 4 of 4 rows read are the report's, 0.917 confirmed (the PDF drops the list items "
        "of pre-trained seeds 2 and 3); should read 6 rows, 17/18 confirmed",
    # held out 4: 15 reports in styles the corpus lacked (Typst, Pages/Chromium HTML,
    # python-docx, Notion, Obsidian, Quarto, R Markdown, Google Docs Markdown, webpdf, a
    # Chinese text report, e-mail), verdicts written first (batch 'held-out-4'). Read right
    # when added: 12/26 PDF, 8/12 DOCX, 30/44 text; after the label vocabulary (decorations
    # taken off before a label: emoji, section numbers and letters; a part after "Answer")
    # and a bold label's closing '**' no longer pairing the line's bold runs wrongly, and
    # 'C.1' section numbers before a part's phrase, one was left (the Typst report's p,
    # its loss's '-log_2 p(mat)' naming p), read right since a logarithm's base is read
    # held out 5: 12 reports written by the helper who wrote held-out-4, kept outside the
    # repository (never read by anyone tuning the readers) until issue 26's work of
    # 2026-11-27 ended, then added and measured once: 4/23 PDF, 9/10 DOCX, 22/33 text
    # (docs/benchmarks.md). Its families: a table of contents' page numbers read as
    # answers, Roman-numeral section numbers before a label, Keynote slides, full-width
    # labels, the seeds of a pandas or Notion table not read as rows. Then fixed by family
    # (docs/reading-reports.md, "Held-out 5"; tuned on now): 23/23 PDF, 10/10 DOCX, 33/33
    # text, none left.
    # held out 6: 12 reports written by another helper while held-out-5 was being fixed,
    # kept outside the repository until that work ended, then added and measured once:
    # 8/17 PDF, 10/16 DOCX, 15/33 text (docs/benchmarks.md). Then fixed by family (docs/
    # reading-reports.md, "Held-out 6"; tuned on now): 17/17 PDF, 16/16 DOCX, 33/33 text,
    # none left.
    # held out 7: 14 reports written by a helper who never read the readers, while issue
    # 26's and 29's work of 2026-11-27 (second session) went on, kept outside the
    # repository until it ended, then added and measured once at 74f9ab6: 10/26 PDF,
    # 13/19 DOCX, 14/26 text (docs/benchmarks.md). Its families: question words of other
    # languages and of other numbering habits ('Aufgabe', 'Problem 3, item e (ii)'), line
    # numbers in a review copy's margin before every label, AsciiDoc/reStructuredText/org
    # markup of headings and tables, Word text boxes (each text twice) and equation
    # objects, units only in footnotes, Excel 'E' notation, a claim in Arabic prose. Then
    # fixed by family (docs/reading-reports.md, "Held-out 7"; tuned on now): 24/26 PDF,
    # 19/19 DOCX, 26/26 text. The two left (the Arabic claim, the chart's per-seed
    # pairing) were fixed in the next session: claims' words per language, a seed named
    # before its figures scoping them.
    # held out 8: 12 reports written by another helper who never read the readers, after
    # held-out-7's families were fixed, kept outside the repository until then, added and
    # measured once at 35c609e: 20/24 PDF, 12/12 DOCX, 15/26 text (docs/benchmarks.md).
    # Its misses: key = value lines (`q3c = 24.0 GB`) under INI sections, a Russian lab A
    # ('Вопрос 3'), a chat transcript ('TA: … / Me: …') with seeds in nested bullets,
    # a callout's value losing to a Mermaid block's number, a margin note read before its
    # section, KaTeX spans of a lab A table, a factor after the working. Fixed by family
    # afterwards (docs/reading-reports.md, "Held-out 8"): 24/24 PDF, 12/12 DOCX, 23/26 text;
    # the three left (a key = value report's p, the Russian claim, the chat's nested seed
    # bullets) were fixed in the next session: none left.
    # held out 9: 15 reports written by a helper who never read the readers (a LaTeX
    # article and a poster drawn with PyMuPDF, a program listing, Spanish, German footnotes,
    # Word outline numbering, pasted notebook lines, a phone note, a LaTeX source as text,
    # Japanese Markdown, HTML <details>, a README's pipe table), added and measured once at
    # ca586f2: 31/33 PDF, 5/19 DOCX, 11/26 text (docs/benchmarks.md). Misses as measured:
    # (fixed by family since: see docs/reading-reports.md, "Held-out 9"; none left)
    # held out 10: 20 reports written by another helper who never read the readers, kept
    # in /work/sealed10 while held-out-9's families were fixed, added and measured once at
    # a2ce49e: 28/43 PDF, 28/33 DOCX, 16/28 text (docs/benchmarks.md). Fixed by family the
    # same session (docs/reading-reports.md, "Held-out 10"): 43/43, 33/33, 28/28, none left.
    # held out 11: 20 reports written by another helper who never read the readers, kept
    # in /work/sealed11 while held-out-9's and -10's families were fixed, added and
    # measured once at 6a4229e: 13/43 PDF, 14/28 DOCX, 13/33 text (docs/benchmarks.md).
    # Fixed by family the same session (docs/reading-reports.md, "Held-out 11"); left:
    ('h11-p3-word-canva', 'q3a2.p', 'pdf'):
        "reads '20.09 / 26.78': close 0.75; should read '0.750': correct 1",
    ('h11-p3-docx-toc', 'q3d', 'docx'):
        "reads '302,020,608': convention one_layer 0.25; should read '14.497 billion': correct 1",
    ('h11-labA-latex-todonotes', 'q3.lm', 'pdf'):
        "reads '242,000': wrong 0; should read '21,018,401': correct 1",
    # held out 12: 20 reports written at 14:54 by a helper who never read the readers, added
    # at 17:00 (2026-11-27, fifth session) before any tuning on them (batch 'held-out-12'),
    # measured once: 21/42 PDF, 9/33 DOCX, 17/29 text. Families: a question word in a language
    # the grammar does not list (Greek, Swedish, Ukrainian, Swahili, Thai), a Hebrew PDF whose
    # lines come out right to left, a table drawn in box-drawing characters, '== 3(a) ==' headings,
    # TOML answers, per-seed figures in a landscape table and in JSON; and in the answer
    # parser Greek, Ukrainian, Thai and Swahili scale, unit and factor words. After the
    # fixes (the report's own question and answer words, right-to-left PDF lines, box
    # tables, data files, the parser's one table of words): 42/42, 32/33, 29/29; left, a
    # claim in Swahili ('usahihi sawa': the comparatives hold no Swahili)
    ('h12-labA-docx-swahili', 'claim', 'docx'):
        'reads better: None; should read better: equal',
    # held out 13: 18 reports written at 17:25-17:40 by a helper who never read the readers,
    # after held-out-12's families and the learned question and answer words were in, added at
    # 17:48 before any tuning on them (batch 'held-out-13'), measured once at ed6489d: 8/29 PDF,
    # 19/29 DOCX, 8/33 text. After its families (learned words in plain lines, the number
    # before the word and a task word; BBCode and Confluence markup; digits of every script;
    # numbered amsthm answers; the parser's words of nine more languages; per-seed tables
    # in Norwegian and Georgian): see docs/benchmarks.md
    ('h13-p3-word-persian', 'q3a2.p', 'pdf'):
        "reads '1.6487': wrong 0; should read '۰٫۷۵': correct 1",
    ('h13-p3-word-persian', 'q3a2.loss', 'pdf'):
        "reads '0.288': shotgun 0; should read '۰٫۲۸۸': correct 1",
    ('h13-p3-docx-finnish', 'q3a2.loss', 'docx'):
        "reads '2': wrong 0; should read '0,415': wrong 0",
    ('h13-p3-txt-bbcode', 'q3d', 'text'):
        "reads '14.5 billion': correct 1; should read '14,495,514,624': convention no_biases 0.75",
    ('h13-p3-txt-tamil', 'q3d', 'text'):
        "reads '1,449.7': wrong 0; should read '1,449.7 கோடி': correct 1",
    ('h13-p3-word-wandb', 'q3c', 'pdf'):
        "reads '25769803776': close 0.75; should read '25.77 GB': correct 1",
    ('h13-p3-word-wandb', 'q3e2', 'pdf'):
        "reads '75497472': close 0.75; should read '72.0 MB': convention gib_vs_gb 0.5",
    ('h13-labA-word-gsheets', 'q3.lm', 'pdf'):
        "reads nothing: h13-labA-word-gsheets.pdf: no heading matching ['Question 3']; no notebook was handed in; should read '21,018,401': correct 1",
    ('h13-labA-word-gsheets', 'q3.cls', 'pdf'):
        "reads nothing: h13-labA-word-gsheets.pdf: no heading matching ['Question 3']; no notebook was handed in; should read '10,968,602': correct 1",
    ('h13-labA-word-gsheets', 'claim', 'pdf'):
        'reads better: None; should read better: pretrained',
    ('h13-labA-docx-danish', 'claim', 'docx'):
        'reads better: None; should read better: pretrained',
    ('h13-labA-md-malay', 'claim', 'text'):
        'reads better: pretrained; should read better: equal',
    ('h13-labA-word-tagalog', 'claim', 'pdf'):
        'reads better: None; should read better: scratch',
    ('h13-labB-txt-confluence', 'seeds', 'text'):
        "reads 6 of 6 rows read are the report's, 1 confirmed; should read 6 rows, 17/18 "
        "confirmed (scratch seed 2's test 0.696 against the logs' 0.699 is within the pack's "
        "tolerance of 0.005: the writer called it a contradiction, the pack's rule does not)",
    # held out 14 (one class as a TA receives it, mostly English), measured once at b6efb12:
    # 30/36 PDF, 23/26 DOCX, 22/29 text; after its families 34/36, 26/26, 29/29. Left: a
    # Quarto table whose last rows' values its "On this page" margin contents split off
    # (held out 15, measured once at 59b4382: 18/31 PDF, 26/31 DOCX, 21/29 text; after its
    # families 31/31, 31/31, 29/29: none left here)
    ('h14-labA-word-quarto', 'q3.lm', 'pdf'):
        "reads '10,000,200': wrong 0; should read '20,963,600': convention no_biases 0.5",
    ('h14-labA-word-quarto', 'claim', 'pdf'):
        'reads better: None; should read better: scratch',
    # held out 16 (a third class as a TA receives it), measured once at d386a71: 24/31 PDF,
    # 28/31 DOCX, 21/29 text; after its families 30/31, 30/31, 28/29. Left: the loss 0.2877
    # (a pack rule: CHECKER_MISSES below)
    # held-out-17/18/19 (first sight at 98b3394): what the readers made of them when added
    # held-out-20/21/22 (first sight at 76f81fe): what the readers made of them when added
    ('h20-labA-docx-nested', 'q3.lm', 'docx'):
        "reads '10,968,602': wrong 0; should read '21,018,401': correct 1",
    ('h20-labB-word-sheets', 'q1', 'pdf'):
        "reads nothing: no notebook was handed in; h20-labB-word-sheets.pdf: no heading matching ['Question 1']; should read '22,829,056': correct 1",
    ('h20-labB-word-sheets', 'seeds', 'pdf'):
        "reads 0 of 0 rows read are the report's, 0 confirmed; should read 6 rows, 18/18 confirmed",
    ('h20-labB-docx-twocol', 'q1', 'docx'):
        "reads '22,829,056': shotgun 0; should read '22,829,056': correct 1",
    ('h21-p3-latex-enumroman', 'q3e1', 'pdf'):
        "reads nothing: no notebook was handed in; h21-p3-latex-enumroman.pdf: no heading matching ['Q3 (e)']; should read '9,437,184': correct 1",
    ('h21-p3-latex-enumroman', 'q3e2', 'pdf'):
        "reads nothing: no notebook was handed in; h21-p3-latex-enumroman.pdf: no heading matching ['Q3 (e)']; should read '75.50 MB': correct 1",
    ('h21-p3-word-jupyterbook', 'q3d', 'pdf'):
        "reads '3': wrong 0; should read '14.497 billion': correct 1",
    ('h21-labA-latex-bookdown', 'claim', 'pdf'):
        'reads better: None; should read better: pretrained',
    ('h21-labA-word-quarto', 'q3.lm', 'pdf'):
        "reads nothing: h21-labA-word-quarto.pdf: no heading matching ['Question 3']; no notebook was handed in; should read '21,018,401': correct 1",
    ('h21-labA-word-quarto', 'q3.cls', 'pdf'):
        "reads nothing: h21-labA-word-quarto.pdf: no heading matching ['Question 3']; no notebook was handed in; should read '10,968,602': correct 1",
    # the loss from the rounded probability, 0.2877: correct by the pack's tolerance since
    # 2026-11-28 (CHECKER_MISSES), the corpus' first writer called it close
    ('p3-docx-e-ii', 'q3a2.loss', 'docx'):
        "reads '0.2877': correct 1; should read '0.2877': close 0.75",
    ('p3-docx-e-ii', 'q3a2.loss', 'text'):
        "reads '0.2877': correct 1; should read '0.2877': close 0.75",
    # held out 23 and 24: 40 reports written at 03:35 on 2026-11-28 by two helpers who never
    # read the readers (a European master's class: LibreOffice, Zoho, Asciidoctor, Org-mode,
    # Sphinx, Bear, iA Writer, Typora, Scrivener, Canvas; an online summer class: Microsoft
    # 365, Overleaf tcolorbox, Google Slides, CodiMD, a pull request, Dropbox Paper, Apple
    # Pages, WPS, Slack, Teams), added before any tuning on them. First sight: held-out-23
    # 26/32 PDF, 21/21 DOCX, 28/33 text; held-out-24 27/31, 24/24, 29/31. Families, all read
    # since (test_held_out_23_24_families.py): a contents table's bold rows, an Org
    # contents under its underlined title, a page number drawn over the last line, a
    # name's value before its working in brackets, a slide's " · " items, a title naming
    # the question's number, a caption's "same seed" beside both models' rows, a chat
    # thread's replies, a legend's short names for the models.
    # held out 25 and 26: 41 reports written at 03:40 by two more helpers who never read the
    # readers (a US undergraduate class: OneNote, Evernote, Quip, Google Docs' own PDF, Word's
    # equations, a Gist, Notebook 7 printed, Craft, Roam, a beamer handout; an East Asian
    # graduate class: Hancom Hangul, Ichitaro, Feishu/Lark, Yuque, Tencent Docs, Naver,
    # KakaoTalk, WeChat, Zhihu, ctex), kept sealed until held-out-23/-24's families were
    # read, then added before any tuning on them. First sight: held-out-25 40/43 PDF, 20/22
    # DOCX, 24/28 text; held-out-26 26/31, 15/22, 29/33. Families, all read since
    # (test_held_out_25_26_families.py): East Asian brackets round a label and round the
    # answer word ("【Q3 (a)】", "【解答】"), working in brackets on the line under a value
    # or over several lines, a KakaoTalk chat's bracketed names and a classmate's turns, a
    # turn to "But at the end both are almost the same" in the next sentence, a list
    # marker left before its part ("2) (II)"), a print stamp's date, an aside opening in
    # Hangul, "Answer:" mid-line, a notebook printed with a code cell before each answer,
    # Roam's ^^highlight^^, "p = …" for p(mat), a checklist naming the tasks at the top,
    # a range of steps in prose.
    # held out 27 and 28: 38 reports written at 03:55 by two more helpers who never read the
    # readers (a UK/Australian class: Word with comments and tracked changes, Google Docs
    # suggestions printed, VS Code preview, Moodle online text, the exam class, an e-mail
    # reply, Vim at 72 columns, Pages, nbconvert to Markdown; a class in Mexico, Spain,
    # Egypt, Saudi Arabia, Kenya and Ghana: Impress slides, right-to-left Word, WhatsApp,
    # a Moodle forum, Excel printed, Notion, a phone scan, Obsidian callouts), kept
    # sealed until held-out-25/-26's families were read. First sight: held-out-27 25/31
    # PDF, 21/22 DOCX, 29/33 text; held-out-28 33/37, 13/14, 23/30.
    ('h27-p3-txt-vim', 'q3e3', 'text'):
        "reads 'roughly 1/74,000': wrong 0; should read '0.0014%': wrong 0",
    ('h27-labA-docx-pages', 'claim', 'docx'):
        'reads better: scratch; should read better: equal',
    ('h27-labB-md-nbconvert', 'seeds', 'text'):
        "reads 0 of 0 rows read are the report's, 0 confirmed; should read 6 rows, 18/18 confirmed",
    ('h28-labB-word-notion', 'seeds', 'pdf'):
        "reads 3 of 3 rows read are the report's, 1 confirmed; should read 6 rows, 18/18 confirmed",
    ('h28-labB-docx-rtl', 'seeds', 'docx'):
        "reads 6 of 7 rows read are the report's, 0 confirmed; should read 6 rows, 17/18 confirmed",
    # held out 29 and 30: 25 reports written at 04:10 by two more helpers who never read the
    # readers (an Indian engineering class: MathType, Overleaf lstlisting, Colab and Kaggle
    # printed, a README, WPS, Notepad tabs, a Google Form; a European class: OnlyOffice,
    # Nextcloud, Thunderbird, babel, Docs in German, reMarkable, Zettlr, Word for Mac, Calc),
    # kept sealed until held-out-27/-28's families were read. First sight: held-out-29
    # 19/28 PDF, 12/12 DOCX, 16/22 text; held-out-30 14/19, 9/10, 20/21 (two of the misses
    # the loss 0.2877, read right since by the pack's tolerance).
    ('h29-labB-word-kaggle', 'seeds', 'pdf'):
        "reads 3 of 3 rows read are the report's, 1 confirmed; should read 6 rows, 17/18 confirmed",
    ('h29-labA-md-readme', 'q3.cls', 'text'):
        "reads '2.09 crore': wrong 0; should read '10,807,802': convention no_out_proj 0.75",
    ('h29-labA-md-readme', 'claim', 'text'):
        'reads better: pretrained; should read better: equal',
    ('h30-p3-docx-onlyoffice', 'q3d', 'docx'):
        "reads '14,497 billion': wrong 0; should read '14,497 billion': correct 1",
    ('h30-p3-word-remarkable', 'q3e3', 'pdf'):
        "reads '115.96 GB': wrong 0; should read '1536 volte': convention factor 1",
    ('h30-p3-latex-babel', 'q3d', 'pdf'):
        "reads '14,497 · 10^9': wrong 0; should read '14,497 · 10^9': correct 1",
    # held out 31 and 32: 32 reports written at 05:00 by two more helpers who never read the
    # readers (an evening bootcamp: Coda, Loop, Jira, Obsidian Dataview, Docs with a contents,
    # a corporate Word template, Outlook, PowerPoint notes pages, Excel with merged cells; a
    # class in Brazil, Portugal, Turkey and Israel: babel, LibreOffice in Turkish, Teams,
    # Docs in Portuguese, Word comments, Telegram, Typora, Jupyter Markdown, IEEEtran),
    # kept sealed until held-out-29/-30's families were read. First sight: held-out-31
    # 24/33 PDF, 12/12 DOCX, 41/41 text; held-out-32 13/19, 17/19, 15/15.
    ('h31-p3-word-slides', 'q3a2.p', 'pdf'):
        "reads '0.750 / 0.288': wrong 0; should read '0.750': correct 1",
    ('h31-labB-word-excel', 'seeds', 'pdf'):
        "reads 0 of 3 rows read are the report's, 1 confirmed; should read 6 rows, 17/18 confirmed",
    ('h32-labA-docx-wordcomments', 'claim', 'docx'):
        'reads better: scratch; should read better: equal',
    ('h32-labB-docx-libretr', 'seeds', 'docx'):
        "reads 0 of 6 rows read are the report's, 0.917 confirmed; should read 6 rows, 17/18 confirmed",
    # held out 33 and 34: 44 reports written at 06:55 on 2026-11-28 by two more helpers who
    # never read the readers (a Nordic and Dutch class: Typst, Quarto to PDF and Word, R
    # Markdown to Word, Pages, webpdf, Word for Mac, LibreOffice in Danish, Logseq, MyST,
    # StackEdit, nano, awk; a class in Southeast Asia and Eastern Europe: WPS, OnlyOffice,
    # university Word templates, babel vietnamese/ukrainian two-column articles, Docs printed
    # from Chrome, HackMD, Joplin, LMS text boxes), kept sealed until held-out-31/-32's PDF
    # families were read. First sight: held-out-33 39/41 PDF, 24/26 DOCX, 21/24 text;
    # held-out-34 33/36, 30/31, 16/24.
    # held out 35 and 36: 44 reports written at 07:35 on 2026-11-28 by two more helpers who
    # never read the readers (a North American graduate class: NeurIPS, ICLR, ACL, JMLR,
    # REVTeX, memoir, nbconvert to PDF, Deepnote, VS Code Markdown PDF and Preview
    # Enhanced, jupytext, pandoc citeproc, APA and thesis Word templates, Apple Mail; an
    # evening class in Africa and the Caribbean on phones and office machines: Notepad
    # printed, Sway, Xodo markup, Word for Android, SoftMaker, Simplenote, Standard Notes,
    # Markor, Brightspace, Zoho, Moodle quiz review, WhatsApp pasted into Word, Google
    # Chat), kept sealed until held-out-33/-34's families were read. First sight:
    # held-out-35 32/36 PDF, 30/31 DOCX, 20/24 text; held-out-36 36/36, 26/27, 29/29.
    ('h35-p3-docx-hwsolution', 'q3d', 'docx'):
        "reads '14.5 billion': correct 1; should read '14,495,514,624': convention no_biases 0.75",
    ('h35-p3-txt-jupytext', 'q3a2.p', 'text'):
        "reads '0.7499': close 0.75; should read '0.75': correct 1",
    ('h35-p3-md-mpe', 'q3a2.p', 'text'):
        "reads '\\\\frac{20.0855}{26.7791}': close 0.75; should read '0.7500': correct 1",
    ('h35-labA-word-mdpdf', 'claim', 'pdf'):
        'reads better: None; should read better: equal',
    ('h35-labA-txt-applemail', 'q3.cls', 'text'):
        "reads '402': wrong 0; should read '10,968,602': correct 1",
    ('h35-labA-txt-applemail', 'claim', 'text'):
        'reads better: pretrained; should read better: equal',
    # held out 37 and 38: 44 reports written at 07:45 on 2026-11-28 by two more helpers who
    # never read the readers (a business-analytics class in office suites: PowerPoint
    # outline and SmartArt, Keynote handouts, Excel printed with comments, pivots and
    # charts, Word text boxes, cover pages and All Markup, Google Docs summary tables,
    # Trello, ClickUp, Teams, Zoom and Outlook text; a systems class on Linux tools: groff
    # ms/man/mom/tbl, rinohtype, Asciidoctor, Org to HTML and ODT, texi2pdf, pandoc with a
    # reference doc, LibreOffice ODT, man-page, Texinfo and Sphinx text, dictated and
    # large-print Word, screen-reader text), kept sealed until held-out-35/-36's families
    # were read. First sight: held-out-37 32/36 PDF, 24/31 DOCX, 19/24 text; held-out-38
    # 32/36, 26/26, 23/29.
    ('h37-labA-word-pptsmartart', 'q3.lm', 'pdf'):
        "reads '10,968,602': wrong 0; should read '21,018,401': correct 1",
    ('h37-labA-docx-teamsexport', 'q3.lm', 'docx'):
        "reads '20,857,601': convention no_out_proj 0.75; should read '21,018,401': correct 1",
    ('h37-labA-docx-teamsexport', 'q3.cls', 'docx'):
        "reads '20,857,601': wrong 0; should read '10,968,602': correct 1",
    ('h37-labB-word-xlpivot', 'seeds', 'pdf'):
        "reads 0 of 0 rows read are the report's, 0 confirmed; should read 6 rows, 18/18 confirmed",
    ('h37-labB-txt-zoomchat', 'q1', 'text'):
        "reads '02': wrong 0; should read '22,816,768': convention no_biases 0.5",
    ('h38-p3-latex-groffms', 'q3c', 'pdf'):
        "reads '10': wrong 0; should read '25.77 GB': correct 1",
    ('h38-p3-latex-rinoh', 'q3a2.p', 'pdf'):
        "reads '20.0855 / 26.7791': close 0.75; should read '0.7500': correct 1",
    ('h38-p3-latex-rinoh', 'q3e1', 'pdf'):
        "reads '9,437,184': shotgun 0; should read '9,437,184': correct 1",
    # held out 39 and 40: 44 reports written at 10:35 on 2026-11-28 by two more helpers who
    # never read the readers (an engineering class from scientific computing: MATLAB Live
    # Scripts to PDF and Word, Pluto and CoCalc printed, ConTeXt and TeXmacs looks, Xournal++
    # annotations, LibreOffice Math in Word, WeasyPrint and wkhtmltopdf pages, Kate text with
    # Austrian number formats, Databricks and Sage sources, Observable Markdown; an evening
    # certificate class in the tools of its jobs: Figma and Miro boards, Docusaurus, GitBook,
    # Nuclino and wiki pages, Scribus and Affinity columns, GoodNotes and Notability, Word
    # form fields, endnotes, assistant-polished prose and a final-answers box, edits after a
    # first try, Messenger and Viber chats, Textile and wikitext), kept sealed until
    # held-out-38's screen-reader family was read. First sight: held-out-39 35/41 PDF,
    # 24/26 DOCX, 13/24 text; held-out-40 34/41, 29/31, 17/24.
    ('h39-p3-latex-xournal', 'q3c', 'pdf'):
        "reads '51.54 GB': wrong 0; should read '25.77 GB': correct 1",
    # held out 41 and 42: 44 reports written at 10:57 on 2026-11-28 by two more helpers who
    # never read the readers (a medical school's AI-for-health module: journal and medRxiv
    # looks with margin line numbers, structured abstracts, an NHS e-portfolio form and
    # trust template, EndNote and Mendeley fields, Word caption fields and tracked moves,
    # SPSS, R-console and Stata output, PowerPoint handouts, a research-day poster, Google
    # Slides speaker notes, NHSmail; a MOOC's peer-graded hand-ins: Discourse, edX and
    # Stack-Exchange-like pages, Microsoft Forms, Medium, Substack and LinkedIn posts, a
    # Gist, Reddit Markdown with spoilers, Replit READMEs, tweet threads, Word typed on a
    # phone, English with Arabic words), kept sealed until held-out-39/-40's families were
    # read. First sight: held-out-41 34/36 PDF, 29/31 DOCX, 15/24 text; held-out-42 38/40,
    # 21/27, 9/24.
    ('h41-p3-word-reflective', 'q3e3', 'pdf'):
        "reads '1/1': wrong 0; should read '1536-fold': convention factor 1",
    ('h41-p3-txt-slidenotes', 'q3e2', 'text'):
        "reads nothing: no notebook was handed in; h41-p3-txt-slidenotes.txt: no heading matching ['Q3 (e)']; should read '75.5 MB': correct 1",
    ('h41-p3-txt-slidenotes', 'q3e3', 'text'):
        "reads nothing: no notebook was handed in; h41-p3-txt-slidenotes.txt: no heading matching ['Q3 (e)']; should read '0.065%': correct 1",
    ('h42-p3-docx-phone', 'q3c', 'docx'):
        "reads '25.77 Gb': convention bits_vs_bytes 0.5; should read '25.77 GB': correct 1",
    ('h42-labB-word-gist', 'seeds', 'pdf'):
        "reads 0 of 0 rows read are the report's, 0 confirmed; should read 6 rows, 17/18 confirmed",
    # held out 43 and 44: 44 reports written at 12:08 on 2026-11-28 by two more helpers who
    # never read the readers (a law-and-policy seminar writing as lawyers do: numbered
    # paragraphs and alinéas, figures in footnotes, a Dispositif, a mock court decision, a
    # US legal memo, KOMA letters, French number spacing, formal e-mails; an outreach
    # programme on shared phones: OCR of handwriting with its slips, CamScanner and Lens
    # scans, WPS for Android, worksheets with "Answer: ____" lines, Padlet, Samsung Notes,
    # Bangla, Sheng and Nepali asides with their own digits, a teacher's forwarded e-mail),
    # kept sealed until held-out-41/-42's families were read. First sight: held-out-43
    # 34/36 PDF, 17/31 DOCX, 15/24 text; held-out-44 25/36, 23/31, 19/24.
    ('h43-p3-docx-supra', 'q3d', 'docx'):
        "reads '14,497 billion': wrong 0; should read '14,497 billion': correct 1",
    ('h43-p3-docx-motifs', 'q3e2', 'docx'):
        "reads nothing: no notebook was handed in; h43-p3-docx-motifs.docx: no heading matching ['Q3 (e)']; should read '37,75 Mo': convention one_state 0.5",
    ('h43-p3-docx-motifs', 'q3e3', 'docx'):
        "reads nothing: no notebook was handed in; h43-p3-docx-motifs.docx: no heading matching ['Q3 (e)']; should read '0,065 %': correct 1",
    ('h43-p3-docx-memo', 'q3a2.p', 'docx'):
        "reads nothing: no notebook was handed in; h43-p3-docx-memo.docx: no number in the section; should read '0.750': correct 1",
    ('h43-p3-docx-memo', 'q3a2.loss', 'docx'):
        "reads nothing: no notebook was handed in; h43-p3-docx-memo.docx: no number in the section; should read '0.415': wrong 0",
    ('h43-p3-docx-memo', 'q3c', 'docx'):
        "reads '48': wrong 0; should read '25.77 GB': correct 1",
    ('h43-p3-docx-memo', 'q3d', 'docx'):
        "reads '48': wrong 0; should read '14.50 billion': correct 1",
    ('h43-p3-docx-memo', 'q3e1', 'docx'):
        "reads '8': wrong 0; should read '9,437,184': correct 1",
    ('h43-p3-docx-memo', 'q3e3', 'docx'):
        "reads '75.5 MB': wrong 0; should read '1 536 times': convention factor 1",
    ('h43-p3-txt-courriel', 'q3e3', 'text'):
        "reads nothing: no notebook was handed in; h43-p3-txt-courriel.txt: no heading matching ['Q3 (e)']; should read '0,065 %': correct 1",
    ('h43-p3-md-fiche', 'q3e1', 'text'):
        "reads nothing: no notebook was handed in; h43-p3-md-fiche.md: no number in the section; should read '9 437 184': correct 1",
    ('h43-p3-md-fiche', 'q3e2', 'text'):
        "reads nothing: no notebook was handed in; h43-p3-md-fiche.md: no number in the section; should read '75,5 Mo': correct 1",
    ('h43-labA-word-libreoffice', 'claim', 'pdf'):
        'reads better: pretrained; should read better: equal',
    ('h43-labB-word-notes', 'seeds', 'pdf'):
        "reads 0 of 5 rows read are the report's, 1 confirmed; should read 6 rows, 18/18 confirmed",
    ('h44-p3-docx-sheng', 'q3a2.p', 'docx'):
        "reads '0.0413': shotgun 0; should read '0.0413': wrong 0",
    ('h44-p3-docx-sheng', 'q3c', 'docx'):
        "reads '25.77 GB': shotgun 0; should read '25.77 GB': correct 1",
    ('h44-p3-docx-sheng', 'q3d', 'docx'):
        "reads '14.50 billion': shotgun 0; should read '14.50 billion': correct 1",
    ('h44-p3-docx-sheng', 'q3e1', 'docx'):
        "reads '9,437,184': shotgun 0; should read '9,437,184': correct 1",
    ('h44-p3-docx-sheng', 'q3e2', 'docx'):
        "reads '75.50 MB': shotgun 0; should read '75.50 MB': correct 1",
    ('h44-p3-docx-sheng', 'q3e3', 'docx'):
        "reads '0.065%': shotgun 0; should read '0.065%': correct 1",
    ('h44-p3-txt-lensocr', 'q3a2.p', 'text'):
        "reads '26.779': shotgun 0; should read '0.75': correct 1",
    ('h44-p3-txt-lensocr', 'q3a2.loss', 'text'):
        "reads '26.779': wrong 0; should read '0.288': correct 1",
    ('h44-p3-txt-lensocr', 'q3e1', 'text'):
        "reads nothing: no notebook was handed in; h44-p3-txt-lensocr.txt: no part '(I)' in the section; should read '9,437,184': correct 1",
    ('h44-p3-txt-lensocr', 'q3e2', 'text'):
        "reads nothing: no notebook was handed in; h44-p3-txt-lensocr.txt: no part '(II)' in the section; should read '75.5 MB': correct 1",
    ('h44-p3-txt-lensocr', 'q3e3', 'text'):
        "reads nothing: no notebook was handed in; h44-p3-txt-lensocr.txt: no part '(III)' in the section; should read '0.065%': correct 1",
    ('h44-labA-word-canva', 'q3.lm', 'pdf'):
        "reads '10,968,602': wrong 0; should read '21,018,401': correct 1",
    ('h44-labA-word-camscanner', 'q3.lm', 'pdf'):
        "reads nothing: h44-labA-word-camscanner.pdf: no heading matching ['Question 3']; no notebook was handed in; should read '20,963,600': convention no_biases 0.5",
    ('h44-labA-word-camscanner', 'q3.cls', 'pdf'):
        "reads nothing: h44-labA-word-camscanner.pdf: no heading matching ['Question 3']; no notebook was handed in; should read '10,963,800': convention no_biases 0.5",
    ('h44-labB-word-padlet', 'seeds', 'pdf'):
        "reads 3 of 7 rows read are the report's, 0 confirmed; should read 6 rows, 18/18 confirmed",
    ('h44-labB-docx-officelens', 'q1', 'docx'):
        "reads nothing: no notebook was handed in; h44-labB-docx-officelens.docx: no heading matching ['Question 1']; should read '22,816,768': convention no_biases 0.5",
    ('h44-labB-docx-officelens', 'seeds', 'docx'):
        "reads 2 of 7 rows read are the report's, 0 confirmed; should read 6 rows, 18/18 confirmed",
}

# (report, answer key) -> why the answer checker, given the answer as meant, disagrees.
CHECKER_MISSES: dict[tuple[str, str], str] = {
    ("labA-word-5nhid", "q3.cls"): "two conventions combined (no biases and no LayerNorm): "
    "the pack lists each alone, so the checker calls it close (off by 0.073 %)",
    # held out 4: the same family, checked without the words the report states them in
    ("h4-labA-docx-pydocx", "q3.lm"): "no biases and no LayerNorm combined, unstated: close "
    "(off by 0.28 %)",
    ("h4-labA-docx-pydocx", "q3.cls"): "no biases and no LayerNorm combined, unstated: close "
    "(off by 0.073 %)",
    ("h4-labB-md-rmarkdown", "q1"): "no biases and no LayerNorm combined, unstated: close "
    "(off by 0.094 %)",
    # the loss from the probability rounded to 0.75 (-ln 0.75 = 0.2877, where the exact
    # logits give 0.28762): the pack accepts it since 2026-11-28 (tolerance 0.0001), as
    # the nine writers who met it (held-out-16, -20, -29, -30) call it right; the corpus'
    # first writer called it a rounding slip (close).
    ("p3-docx-e-ii", "q3a2.loss"): "0.2877 from the rounded probability: correct, by the "
    "pack's tolerance",
    # held out 30: a decimal comma before a magnitude word, with only the answer string to
    # go by ("14,497 billion", "14,497 · 10^9"): read as thousands. The report's other
    # figures (0,2877, 25,77 GB) say the comma is decimal; the checker sees one string.
    ("h30-p3-docx-onlyoffice", "q3d"): "'14,497 billion' read as 14,497 billion (thousands "
    "comma)",
    ("h30-p3-latex-babel", "q3d"): "'14,497 · 10^9' read as 14,497 × 10^9 (thousands comma)",
    ("h43-p3-docx-supra", "q3d"): "'14,497 billion' read as 14,497 billion (thousands comma)",
}


@cache
def manifest() -> list[dict[str, Any]]:
    with (CORPUS / "manifest.toml").open("rb") as fh:
        return list(tomllib.load(fh)["report"])


@cache
def pack(name: str) -> Pack:
    return load_pack(repo_root() / "reference" / name)


def answer_check(p: Pack, key: str) -> tuple[Question, Check]:
    qid, _, sub = key.partition(".")
    question = p.question(qid)
    checks = [c for c in question.checks if c.kind == "answer"]
    return question, checks[SUB_ANSWERS[qid].index(sub) if sub else 0]


def files(report_id: str) -> list[Path]:
    return sorted(p for p in REPORTS.glob(f"{report_id}.*") if p.suffix in FORMATS)


@dataclass(frozen=True)
class Outcome:
    """One item of one file: right or not, and what the grader made of it (for messages)."""

    report: str
    item: str
    format: str
    file: str
    ok: bool
    got: str  # what the grader made of it, in full
    mistake: str
    read: str = ""  # in short: the answer read and its verdict, or why none was
    want: str = ""  # in short: what a careful TA reads there


def _read(result: Any) -> str:
    ev = result.evidence if isinstance(result.evidence, dict) else {}
    if ev.get("answer") is None:
        return "nothing: " + " ".join(str(ev.get("message") or result.message).split())[:120]
    named = f" {ev['convention']}" if ev.get("convention") else ""
    return f"{ev['answer']!r}: {ev.get('verdict')}{named} {result.fraction:g}"


def _judge_answer(result: Any, want: dict[str, Any], key: Key) -> tuple[bool, str]:
    ev = result.evidence if isinstance(result.evidence, dict) else {}
    verdict, convention = ev.get("verdict"), ev.get("convention")
    got = (f"read {ev.get('answer')!r} ({ev.get('where', ev.get('source'))}): {verdict}"
           f" {convention or ''} {result.fraction:g} - {result.message}")
    kind_of = want["verdict"]
    if kind_of == "shotgun":
        # named as a shotgun, from an answer found (a missing answer is no reading of it)
        return (result.fraction == 0 and ev.get("source") == "report"
                and bool(SHOTGUN.search(str(ev.get("message") or result.message)))), got
    if "conventions" in want:  # combined conventions
        named = str(convention or "")
        return (verdict == "convention" and all(n in named for n in want["conventions"])
                and 0 < result.fraction <= want["credit_max"]), got
    if kind_of == "wrong":
        # no credit; the checker may also name a convention the student stated (fp32) that
        # the question gives nothing for
        ok = result.fraction == 0 and (verdict == "wrong" or (
            verdict == "convention" and float(ev.get("credit", 1)) == 0))
    else:
        ok = (verdict == kind_of and abs(result.fraction - float(want["credit"])) < 1e-9
              and (kind_of == "correct" or convention == want.get("convention")))
    if ok and kind_of in ("wrong", "close"):
        # a wrong answer is read right only if it is the student's wrong answer: the key
        # sees the same value (in the unit asked, to the figures written) in both
        read, meant = key.check(str(ev.get("answer"))), key.check(want["value"])
        ok = read.got is not None and meant.got is not None and abs(
            float(read.got) - float(meant.got)) <= 5e-3 * max(1e-12, abs(float(meant.got)))
    return ok, got


def _want(want: dict[str, Any]) -> str:
    named = want.get("convention") or "+".join(want.get("conventions", []))
    credit = want.get("credit", want.get("credit_max"))
    return f"{want['value']!r}: {want['verdict']}{' ' + named if named else ''} {credit:g}"


def _claims(result: Any) -> list[tuple[str | None, int, float | None, int | None, float | None]]:
    ev = result.evidence if isinstance(result.evidence, dict) else {}
    out = []
    for c in ev.get("claims") or []:
        val, test = c.get("best_validation"), c.get("test")
        out.append((c.get("family"), c.get("seed"), None if val is None else round(val, 4),
                    c.get("step"), None if test is None else round(test, 4)))
    return sorted(out, key=str)


def grade_file(entry: dict[str, Any], path: Path) -> list[Outcome]:
    """Every manifest item of one report file, through the grader's report-only path."""
    p = pack(entry["pack"])
    fmt = FORMATS[path.suffix]
    reports = Reports.read([path])
    ctx = Context(pack=p, mode="grade", seed=0, notebook=None, reports=reports,
                  logs=[LAB_B_LOG] if entry["pack"] == "transfer-lab-b" else [])
    out = []

    def add(item: str, ok: bool, got: str, mistake: str, read: str, want: str) -> None:
        out.append(Outcome(entry["id"], item, fmt, path.name, ok, got, mistake, read, want))

    for key, want in entry["answers"].items():
        question, check = answer_check(p, key)
        try:
            result = kind("answer").score(check, question, ctx)
        except Exception as exc:  # noqa: BLE001 - a crash is a miss, named, not a stop
            crash = f"crashed: {type(exc).__name__}: {exc}"
            add(key, False, crash, want["mistake"], crash[:120], want["value"])
            continue
        ok, got = _judge_answer(result, want, answer_key(check, question.id, p.reference))
        add(key, ok, got, want["mistake"], _read(result), _want(want))
    if "claim" in entry:
        question = p.question("q4a")
        result = kind("series").score(question.checks[0], question, ctx)
        claim = (result.evidence or {}).get("claim") if isinstance(result.evidence, dict) else None
        better = None if claim is None else (claim.get("better") or "equal")
        add("claim", better == entry["claim"], f"claim read: {claim}", "claim",
            f"better: {better}", f"better: {entry['claim']}")
    if "seeds" in entry:
        question = p.question("t34")
        result = kind("logs").score(question.checks[0], question, ctx)
        want_rows = sorted(((f, s, round(v, 4), st, round(t, 4))
                            for f, s, v, st, t in entry["seeds"]), key=str)
        got_rows = _claims(result)
        ev = result.evidence if isinstance(result.evidence, dict) else {}
        contradictions = ev.get("contradictions") or []
        checked = entry["logs_checked"]
        fraction_ok = abs(result.fraction - entry["logs_confirmed"] / checked) < 1e-9
        lines_ok = True
        if "logs_contradiction" in entry and fmt == "text":
            # the line named is the line of the report as handed in, not of its section
            raw = path.read_text(encoding="utf-8").splitlines()
            line = next(i for i, text in enumerate(raw, 1) if entry["logs_contradiction"] in text)
            lines_ok = any(re.search(rf"\bline {line}\b", str(c)) for c in contradictions)
        add("seeds", got_rows == want_rows and fraction_ok and lines_ok
            and len(contradictions) == checked - entry["logs_confirmed"],
            f"rows read {got_rows}; {result.fraction:.3f}: {result.message}", "per_seed",
            f"{sum(r in want_rows for r in got_rows)} of {len(got_rows)} rows read are "
            f"the report's, {result.fraction:.3g} confirmed",
            f"{len(want_rows)} rows, {entry['logs_confirmed']}/{checked} confirmed")
    return out


def corpus_files() -> Iterator[tuple[dict[str, Any], Path]]:
    for entry in manifest():
        for path in files(entry["id"]):
            yield entry, path


def known_miss(o: Outcome) -> str | None:
    return (KNOWN_MISSES.get((o.report, o.item, o.format))
            or KNOWN_MISSES.get((o.report, o.item, "*")))


# ----------------------------------------------------------------------------------------
# the corpus is what it says it is


def test_the_corpus_has_thirty_reports_in_five_styles_with_every_format():
    entries = manifest()
    assert len(entries) >= 30 and len({e["id"] for e in entries}) == len(entries)
    styles = {style_of(e["id"]) for e in entries}
    assert styles == set(STYLES)
    for entry in entries:
        got = {p.suffix for p in files(entry["id"])}
        assert got, f"{entry['id']}: no generated file in reports/ (run make_corpus.py)"
    suffixes = {p.suffix for p in REPORTS.iterdir()}
    assert {".pdf", ".docx", ".md", ".txt"} <= suffixes
    assert not [p.name for p in REPORTS.iterdir()
                if p.stem not in {e["id"] for e in entries}], "a file no manifest entry names"


def test_the_corpus_covers_every_part_3_question_and_each_known_mistake():
    part3 = [e for e in manifest() if e["pack"] == "stat8021-a3"]
    keys = {k for e in part3 for k in e["answers"]}
    assert keys == {"q3a2.p", "q3a2.loss", "q3c", "q3d", "q3e1", "q3e2", "q3e3"}
    mistakes = {a["mistake"] for e in manifest() for a in e["answers"].values()}
    assert {"gib_as_gb", "one_head", "fp32_scores", "no_biases", "log_base", "wrong_index",
            "factor", "one_state", "shotgun", "combined_conventions"} <= mistakes
    labs = {e["pack"] for e in manifest()}
    assert labs == {"stat8021-a3", "transfer-lab-a", "transfer-lab-b"}


@pytest.mark.parametrize("entry", manifest(), ids=lambda e: e["id"])
def test_the_checker_agrees_with_the_manifest_on_each_answer_as_meant(entry):
    """The expected verdicts hold for the answer as the student meant it (no reading involved),
    so a failure of the corpus test below is the reading's."""
    p = pack(entry["pack"])
    for key, want in entry["answers"].items():
        if want["verdict"] == "shotgun":
            continue  # several values: only a report reader can see them as one answer
        _question, check = answer_check(p, key)
        verdict = answer_key(check, key.partition(".")[0], p.reference).check(want["value"])
        if "conventions" in want:
            ok = (verdict.verdict == "convention" and 0 < verdict.credit <= want["credit_max"]
                  and all(n in str(verdict.convention) for n in want["conventions"]))
        else:
            ok = (verdict.verdict == want["verdict"] and float(verdict.credit) == want["credit"]
                  and (want["verdict"] == "correct"
                       or verdict.convention == want.get("convention")))
        listed = CHECKER_MISSES.get((entry["id"], key))
        if listed:
            assert not ok, f"{entry['id']} {key} now passes: remove it from CHECKER_MISSES"
        else:
            assert ok, f"{entry['id']} {key} {want['value']!r}: {verdict.message}"


# ----------------------------------------------------------------------------------------
# every file, read and graded as a report-only submission


@pytest.mark.parametrize("entry,path", list(corpus_files()),
                         ids=lambda v: v.name if isinstance(v, Path) else "")
def test_each_answer_of_the_corpus_gets_its_expected_verdict(entry, path):
    problems = []
    for o in grade_file(entry, path):
        why = known_miss(o)
        if why and o.ok:
            problems.append(f"{o.item}: listed as a known miss ({why}) but now read right: "
                            "remove it from KNOWN_MISSES")
        elif not why and not o.ok:
            problems.append(f"{o.item} ({o.mistake}): {o.got}")
    assert not problems, f"{path.name}:\n  " + "\n  ".join(problems)


def test_every_known_miss_names_an_item_of_the_corpus():
    items = {(o.report, o.item, o.format) for e, path in corpus_files()
             for o in [Outcome(e["id"], k, FORMATS[path.suffix], path.name, True, "", "")
                       for k in [*e["answers"], "claim", "seeds"]]}
    for report, item, fmt in KNOWN_MISSES:
        assert any(r == report and i == item and (fmt == "*" or f == fmt)
                   for r, i, f in items), (report, item, fmt)
