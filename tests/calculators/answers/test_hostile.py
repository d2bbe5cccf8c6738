"""Hostile input: each is refused as unreadable, nothing is executed, nothing hangs.

Wall-clock times are not asserted (they depend on the machine); the limits that make
these fast are asserted through the reason given.
"""

from __future__ import annotations

import builtins

import pytest
from sympy import Symbol

from calculators.answers import check_answer, lint_arithmetic, parse_answer
from calculators.answers._limits import MAX_ANSWER_CHARS

HOSTILE = [
    ("9^9^9^9", "it raises a number to a power larger than 400"),
    ("9**9**9**9", "it raises a number to a power larger than 400"),
    ("1e999999999", "an exponent is larger than 400"),
    ("10^{10^{10}}", "it raises a number to a power larger than 400"),
    ("(10^{400})^{400}", "a power in it has more than 1200 digits"),
    (
        "10^{400} \\times 10^{400} \\times 10^{400} \\times 10^{400}",
        "a value in it has more than 1200 digits",
    ),
    ("e^{e^{e^{e^{e}}}}", "it raises a number to a power larger than 400"),
    ("\\exp(\\exp(\\exp(10)))", "it raises a number to a power larger than 400"),
    ("1" * 150, "a number has more than 100 digits"),
    ("(" * 10_000 + "1" + ")" * 10_000, f"it is longer than {MAX_ANSWER_CHARS} characters"),
    ("(" * 60 + "1" + ")" * 60, "the formula is nested more than 50 levels deep"),
    ("{" * 60 + "1" + "}" * 60, "the formula is nested more than 50 levels deep"),
    ("-" * 60 + "1", "the formula is nested more than 50 levels deep"),
    ("(" * 900 + "1" + ")" * 900, "it has more than 600 symbols"),
    ("1+" * 300 + "1", "it has more than 600 symbols"),
    ("x" * 1_000_000, f"it is longer than {MAX_ANSWER_CHARS} characters"),
    ("1" * 1_000_000, f"it is longer than {MAX_ANSWER_CHARS} characters"),
    ("__import__('os').system('x')", "it has '_' where a number should be"),
    ("().__class__.__bases__[0].__subclasses__()", "it has ')' where a number should be"),
    ("(1).__class__", "it has '.' where the formula should end"),
    ("lambda: 0", "'lambda' is not a number"),
    ("lambda x: x", "'lambda' is not a number"),
    ("eval('2+2')", "'eval' is not a number"),
    ("exec('import os')", "'exec' is not a number"),
    ("os.system('rm -rf /')", "'os' is not a number"),
    ("1 if True else 2", "'if' is not a number"),
    ("[x for x in range(10**9)]", "'x' is not a number"),
    ("1; import os", "it has ';' where the formula should end"),
    ("\x00\x01", "it has 'U+0000' where a number should be"),
    ("①②③", "it has '①' where a number should be"),
]


@pytest.mark.parametrize(("text", "reason"), HOSTILE, ids=[t[:30] for t, _ in HOSTILE])
def test_hostile_text_is_unreadable_with_a_reason(text, reason):
    parsed = parse_answer(text)
    assert parsed.status == "unreadable"
    assert parsed.reason == reason


def test_nothing_is_executed(monkeypatch):
    def forbidden(*args, **kwargs):
        raise AssertionError("student text reached eval/exec/__import__")

    for name in ("eval", "exec", "compile"):
        monkeypatch.setattr(builtins, name, forbidden)
    for text, _ in HOSTILE[:30]:
        assert parse_answer(text).status == "unreadable"
    assert parse_answer("__import__('os')", {"os": 1}).status == "unreadable"


def test_symbolic_exponents_are_bounded_when_compared():
    # the comparison evaluates the formula at random points under the parser's limits
    verdict = check_answer("H^{H^{H}}", Symbol("H") ** 2, symbols={"H": None})
    assert verdict.verdict == "wrong"


def test_symbol_values_that_explode_are_refused():
    assert (
        parse_answer("2^{H}", {"H": 6144}).reason == "it raises a number to a power larger than 400"
    )


def test_check_answer_on_hostile_text_is_unreadable():
    verdict = check_answer("9^9^9^9", 1)
    assert (verdict.verdict, verdict.credit) == ("unreadable", 0)
    assert verdict.message == (
        "We could not read your answer: it raises a number to a power larger than 400."
    )


def test_non_text_answers_are_unreadable():
    assert parse_answer(None).reason == "the answer is not text"  # type: ignore[arg-type]


def test_lint_survives_hostile_reports():
    report = "\n".join(
        ["9^9^9^9 = 1", "(" * 10_000 + "1 = 1", "1 = " * 100_000, "$$", "2 + 2 = 5"]
        + ["x" * 100_000]
    )
    slips = lint_arithmetic(report)
    assert [(s.line, s.true_value) for s in slips] == [(5, 4)]
