"""Lab A's Q4 claim as the held-out-11 batch wrote it: new languages, and code comments.

Why: the batch brought reports in Indonesian, Dutch, Polish, Vietnamese and Hindi; the
claim reader knew neither their comparison words ("lebih tinggi daripada", "beter dan",
"lepszy niż", "tốt hơn", "से बेहतर") nor their names of the models ("pra-latih",
"voorgetraind", "od zera", "khởi tạo ngẫu nhiên", "पूर्व-प्रशिक्षित"), so it read no claim.
And a report written as a Python script's comments wraps its sentence over "#" lines; a
line break ends a clause, so "…, but the model trained from scratch" / "# ends slightly
higher …" lost the model of its "but" clause and the first clause (the pre-trained model
starts ahead) was read. The first Indonesian sentence and the comment block are the
corpus's; the others were written as students of those languages write.
"""

from __future__ import annotations

import pytest

from grader.checks.claims import uncomment, unwrap
from tests.grader.checks._claims import better


@pytest.mark.parametrize(("text", "want"), [
    ("Model pra-latih selalu lebih unggul di setiap epoch: ia mulai dari representasi yang "
     "sudah dipelajari pada tugas LM, sehingga belajar klasifikasi lebih cepat dan berakhir "
     "lebih tinggi daripada model yang dilatih dari awal.", "pretrained"),
    ("Model yang diinisialisasi acak akhirnya sedikit lebih tinggi daripada model pra-latih.",
     "scratch"),
    ("Model pra-latih tertinggal dibandingkan model dari nol pada epoch terakhir.", "scratch"),
    ("Het voorgetrainde model is beter dan het model dat vanaf nul is getraind.", "pretrained"),
    ("Het voorgetrainde model begint hoger, maar het willekeurig geïnitialiseerde model "
     "eindigt hoger.", "scratch"),
    ("Model wstępnie wytrenowany jest lepszy niż model trenowany od zera.", "pretrained"),
    ("Model trenowany od zera osiąga wyższą dokładność niż model wstępnie wytrenowany.",
     "scratch"),
    ("Mô hình tiền huấn luyện tốt hơn mô hình khởi tạo ngẫu nhiên ở mọi epoch.", "pretrained"),
    ("Mô hình huấn luyện từ đầu cao hơn so với mô hình tiền huấn luyện ở cuối.", "scratch"),
    ("पूर्व-प्रशिक्षित मॉडल स्क्रैच मॉडल से बेहतर है।", "pretrained"),
    ("स्क्रैच मॉडल पूर्व-प्रशिक्षित मॉडल से ख़राब है।", "pretrained"),
    ("पूर्व-प्रशिक्षित मॉडल की सटीकता स्क्रैच मॉडल से ऊँची है।", "pretrained"),
    ("शुरू से प्रशिक्षित मॉडल की सटीकता पूर्व-प्रशिक्षित मॉडल से अधिक है।", "scratch"),
])
def test_the_claim_in_the_new_languages(text, want):
    assert better(text) == want


def test_a_vietnamese_but_is_no_although():
    # "tuy nhiên" (however) opens the main clause: it decides, as "but" does
    text = ("Ban đầu mô hình tiền huấn luyện tốt hơn, tuy nhiên mô hình khởi tạo ngẫu nhiên "
            "cao hơn ở epoch cuối.")
    assert better(text) == "scratch"


COMMENTS = """# Validation accuracy per epoch (copied from my notebook's printout):
#   epoch   pre-trained   from scratch
#     1        0.742         0.701
#     5        0.806         0.817
# Interpretation: the pre-trained model starts ahead, but the model trained from scratch
# ends slightly higher than the pre-trained one (0.817 vs 0.806 at epoch 5). With 25k
# labelled reviews the task is easy enough to learn from scratch.
"""


def test_a_claim_wrapped_over_comment_lines_is_read_whole():
    assert better(COMMENTS) == "scratch"


def test_a_claim_hard_wrapped_over_plain_lines_is_read_whole():
    # the comment block as the plain-text reader gives it, its "#" markers dropped
    text = "\n".join(line.removeprefix("#").strip() for line in COMMENTS.splitlines())
    assert better(text) == "scratch"


def test_a_line_that_opens_a_row_or_item_still_ends_the_clause():
    assert unwrap("scratch\nends higher") == "scratch ends higher"
    assert unwrap("epoch 1\n0.742 0.701\n- the pre-trained model\nThe end") == (
        "epoch 1\n0.742 0.701\n- the pre-trained model\nThe end")


def test_comment_blocks_are_joined_and_a_lone_heading_is_kept():
    text = "# Question 4\nThe text.\n# one\n# two\n#\n# three\n"
    assert uncomment(text) == "# Question 4\nThe text.\none two\n\nthree\n"
