"""Lab A's Q4 claim as the held-out-10 batch wrote it: a Korean "-지만" (but) clause.

Why: Korean says "but" with a verb ending ("사전 학습 모델이 앞서지만 …": the pre-trained
model leads, but …), not a word between the clauses, so "처음에는 사전 학습 모델이
앞서지만 마지막에는 스크래치 모델이 더 좋다" was one clause: its first comparison
(the pre-trained model leads) was read and the point, the scratch model is better at the
end, was lost. The clause after "-지만" now decides, as one after "but" does. The
sentences were written as a Korean student would; the corpus sentence is the first one.
"""

from __future__ import annotations

import pytest

from tests.grader.checks._claims import better


@pytest.mark.parametrize(("text", "want"), [
    ("처음에는 사전 학습 모델이 앞서지만 마지막에는 스크래치 모델이 더 좋다 (0.80 대 0.77).",
     "scratch"),
    ("스크래치 모델이 더 빨리 오르지만 사전 학습 모델이 끝까지 더 높다.", "pretrained"),
    ("초반에는 스크래치 모델이 더 낮지만 마지막에는 두 모델이 차이가 없다.", "equal"),
])
def test_the_clause_after_a_korean_but_ending_decides(text, want):
    assert better(text) == want


def test_a_but_ending_without_a_comparison_after_it_leaves_the_one_before():
    assert better("사전 학습 모델이 더 좋지만 학습 시간이 오래 걸린다.") == "pretrained"
