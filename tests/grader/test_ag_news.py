"""End to end on real news: the solution graded on a split of the real AG News sample.

The data lives outside the repository (`../shared/data/ag_news/`); without it this test
is skipped. Tiny models built from config are trained from scratch here, so the
accuracy is lower than a pretrained DistilBERT reaches; the test holds what the grader
promises: the TA's files reach the notebook by their usual names, the model's exported
weights are re-evaluated on the TA's hidden split by the clean evaluator, and it learned
something real.
"""

from __future__ import annotations

import pytest

from tests.conftest import FAST, ROOT, SAMPLES

pytestmark = pytest.mark.sandbox

AG_NEWS = ROOT.parent / "shared" / "data" / "ag_news" / "ag_news_test_7600.csv"


@pytest.fixture(scope="module")
def real_split(tmp_path_factory):
    if not AG_NEWS.is_file():
        pytest.skip(f"the real AG News sample is not here ({AG_NEWS})")
    from grader.news import split_ag_news

    out = tmp_path_factory.mktemp("ag-news")
    return split_ag_news(AG_NEWS, out, {"train": 2000, "test": 400, "hidden": 400}, seed=8021)


def test_solution_on_real_ag_news(pack, real_split, tmp_path_factory):
    from tests.conftest import needs_bwrap

    needs_bwrap()
    from grader.checks.finetune import read_split
    from grader.grade import grade_notebook
    from grader.models.tiny import read_texts, seed_tiny

    cache = tmp_path_factory.mktemp("hf-real")
    seed_tiny(cache, read_texts([real_split["train"], real_split["test"]]))
    real = pack.with_data({"train": real_split["train"], "test": real_split["test"],
                           "hidden": real_split["hidden"]})
    runs = []
    record = grade_notebook(real, SAMPLES / "solution.ipynb", seed=3, limits=FAST,
                            hf_cache=cache, on_run=runs.append)
    setup = "\n".join(text for _, text in runs[0].printed("part2-setup"))
    assert "num_rows: 2000" in setup and "num_rows: 400" in setup
    q2b = next(q for q in record.questions if q.id == "q2b")
    model = q2b.checks[0]["evidence"]["models"][0]
    hidden_labels = read_split(real_split["hidden"])[1]
    assert len(hidden_labels) == 400
    # better than the majority class by far: the model learned from the real text
    majority = max(hidden_labels.count(c) for c in range(4)) / len(hidden_labels)
    assert model["reevaluated_accuracy"] > majority + 0.1, model
    # measured by the clean evaluator, from the exported weights, with the pack's tokenizer
    evaluated = model["evaluated"]
    assert (evaluated["status"], evaluated["sandbox"]) == ("ok", "bwrap")
    assert evaluated["checkpoint"] == "distilbert-base-uncased"
    print(f"real AG News, tiny DistilBERT from scratch: hidden accuracy "
          f"{model['reevaluated_accuracy']:.3f}; q2b {q2b.score}/{q2b.max}")
