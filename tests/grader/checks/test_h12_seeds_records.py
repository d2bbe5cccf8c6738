"""Per-seed figures kept as records (held-out-12's JSON summary), read by their keys.

Why: a report that pasted its script's JSON summary ({"model": "pretrained", "seed": 1,
"best_val_acc": 0.853, "best_step": 1200, "test_acc_at_best": 0.841} per run) read no
row at all, so the logs check had nothing to hold against the logs, and a figure that
contradicts them went unseen. Expected claims were written from the text by hand:
(family, seed, best validation, step, test).
"""

from __future__ import annotations

from grader.checks.seedclaims import Families, parse_claims
from grader.checks.seedobjects import pairs, records

FAMILIES = Families({"pretrained": ["pretrained", "pre-trained"], "scratch": ["scratch"]})


def claims(text: str) -> list[tuple[str | None, int, float | None, int | None, float | None]]:
    return [(c["family"], c["seed"], c.get("best_validation"), c.get("step"), c.get("test"))
            for c in parse_claims(text, FAMILIES)]


JSON_LINES = """This is its output, pasted as is:

```json
{
  "task": "sst2-small",
  "eval_every": 200,
  "runs": [
    {"model": "pretrained", "seed": 1, "best_val_acc": 0.853, "best_step": 1200, "test_acc_at_best": 0.841},
    {"model": "pretrained", "seed": 3, "best_val_acc": 0.861, "best_step": 1400, "test_acc_at_best": 0.850},
    {"model": "scratch", "seed": 2, "best_val_acc": 0.705, "best_step": 2000, "test_acc_at_best": 0.699}
  ]
}
```

The pre-trained model reaches 0.85-0.86 on every seed.
"""


def test_a_record_per_run_names_its_model_and_seed_by_its_keys():
    assert claims(JSON_LINES) == [("pretrained", 1, 0.853, 1200, 0.841),
                                  ("pretrained", 3, 0.861, 1400, 0.850),
                                  ("scratch", 2, 0.705, 2000, 0.699)]


def test_a_record_is_read_as_written_on_the_line_it_stands_on():
    # the step 1400 the logs contradict is the student's, on the text's line 9, which is
    # the report's line 11 where the text starts on its line 3
    read = parse_claims(JSON_LINES, FAMILIES, first_line=3)
    third = next(c for c in read if c["seed"] == 3)
    assert third["step"] == 1400 and third["line"] == 3 + 9 - 1
    assert '"best_step": 1400' in third["quote"]


PRETTY = """{
  "pretrained": [
    {
      "seed": 1,
      "best_val_acc": 85.3,
      "best_step": 1200,
      "test_acc": 84.1
    }
  ],
  "scratch": [
    {
      "seed": 1,
      "best_val_acc": 71.2,
      "best_step": "1.8k",
      "test_acc": 69.8,
      "val_curve": [0.51, 0.64, 0.71]
    }
  ]
}"""


def test_pretty_printed_records_take_the_model_from_the_key_they_hang_under():
    assert claims(PRETTY) == [("pretrained", 1, 0.853, 1200, 0.841),
                              ("scratch", 1, 0.712, 1800, 0.698)]
    first = parse_claims(PRETTY, FAMILIES)[0]
    assert first["line"] == 5  # where the first figure is, not the record's brace


def test_python_dicts_with_single_quotes_are_records_too():
    text = ("rows = [{'model': 'from scratch', 'seed': 2, 'val': 0.705, 'step': 2000, "
            "'test': 0.699}]")
    assert claims(text) == [("scratch", 2, 0.705, 2000, 0.699)]


def test_a_record_without_a_seed_or_with_a_figure_out_of_its_field_is_not_read():
    assert claims('{"model": "pretrained", "best_val_acc": 0.853, "best_step": 1200}') == []
    # "eval_every" names validation, and 200 is no accuracy: not held against the logs
    assert claims('{"seed": 1, "eval_every": 200, "best_val_acc": 0.853}') == []
    assert claims('{"seed": 1, "val": 0.853, "final_val": 0.84}') == []  # two validations


def test_braces_of_latex_or_prose_hold_no_record():
    text = r"Seed 1 reached \textbf{0.853} (the model's {best}) at step 1200, test 0.841."
    assert claims(text) == [(None, 1, 0.853, 1200, 0.841)]


def test_records_are_the_innermost_braces_and_pairs_cut_outside_quotes():
    text = '{"runs": [{"seed": 1, "note": "a, b: c"}], "x": {"seed": 2}}'
    assert [r.body for r in records(text)] == ['"seed": 1, "note": "a, b: c"', '"seed": 2']
    assert pairs('"seed": 1, "note": "a, b: c", "curve": [1, 2],') == [
        ("seed", "1"), ("note", "a, b: c"), ("curve", "[1, 2]")]
    assert pairs('"seed" 1') == []


NESTED = """with open("best.json", "w") as f: json.dump(best, f, indent=2)

{
  "pretrained": {
    "1": {
      "best_val_acc": 0.853,
      "step": 1200,
      "test_acc": 0.841
    },
    "seed_2": {"best_val_acc": 0.851, "step": 1400, "test_acc": 0.840}
  },
  "scratch": {
    "1": {"best_val_acc": 0.712, "step": 1800, "test_acc": 0.698}
  }
}"""


def test_a_record_under_its_seeds_key_takes_the_seed_from_the_key():
    # "seed_2": {…} on one line is the printed-dict reader's (read first), the others ours
    assert sorted(claims(NESTED)) == [("pretrained", 1, 0.853, 1200, 0.841),
                              ("pretrained", 2, 0.851, 1400, 0.840),
                              ("scratch", 1, 0.712, 1800, 0.698)]


def test_a_wrapped_pprint_entry_is_read_once():
    # pprint wraps a long entry over two lines: the printed-dict reader takes whole lines
    # only, so the record reader reads it; a one-line entry is the printed-dict reader's
    text = ("{'pretrained': {1: {'best_val_acc': 0.853, 'best_step': 1200,\n"
            "                    'test_acc_at_best': 0.841},\n"
            "                2: {'val': 0.851, 'step': 1400, 'test': 0.840}}}")
    assert claims(text) == [("pretrained", 2, 0.851, 1400, 0.840),
                            ("pretrained", 1, 0.853, 1200, 0.841)]
