"""Write the pack's small 4-class news dataset: synthetic, reproducible, AG News shaped.

Why synthetic: the real AG News may not be redistributed with the project, and tests
need data that a tiny model built from config learns in seconds on a CPU. Why not too
easy: a grader must be able to tell a model that learned the task from one that saw
the test split. So about one item in six mixes the vocabulary of two topics (its label
is drawn between them, as in real news that is about sport *and* money), and every
item carries made-up names. A model that generalises gets those mixed items right
about half the time; a model trained on the very items memorises them. Scores on the
public test split and on the hidden split then agree for an honest model and part for
one trained on the test split.

    python reference/stat8021-a3/private/make_news.py

Writes `public/ag_news_train.jsonl` (2,000), `public/ag_news_test.jsonl` (400),
`public/generated_news.jsonl` (12 texts, no labels) and `private/news_hidden.jsonl`
(400) and `private/generated_news_labels.json`. Each line is `{"text": ..., "label": 0-3}`
with the handout's labels: 0 World, 1 Sports, 2 Business, 3 Sci/Tech. The same seed
gives the same bytes.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

PACK = Path(__file__).resolve().parents[1]
LABELS = ("World", "Sports", "Business", "Sci/Tech")
SEED = 8021
SIZES = {"train": 2000, "test": 400, "hidden": 400}
MIXED = 1 / 6

SUBJECTS = (
    ("the prime minister", "rebel leaders", "the foreign ministry", "un peacekeepers",
     "the opposition party", "election officials", "the embassy", "border troops"),
    ("the striker", "the home team", "the head coach", "the champions", "the goalkeeper",
     "the olympic squad", "the tennis star", "the league leaders"),
    ("the central bank", "shareholders", "the retail chain", "oil producers", "the airline",
     "investors", "the chief executive", "the bank's board"),
    ("researchers", "the software maker", "astronomers", "the chip designer", "engineers",
     "the space agency", "the search engine", "biologists"),
)
ACTIONS = (
    ("signed a ceasefire", "called for talks", "won the vote", "closed the border",
     "condemned the attack", "formed a coalition", "held a summit", "withdrew troops"),
    ("scored twice", "won the final", "sacked the manager", "broke the record",
     "lost on penalties", "clinched the title", "signed a new contract", "reached the semifinal"),
    ("raised interest rates", "reported quarterly profit", "cut jobs", "agreed a merger",
     "missed earnings forecasts", "lifted its dividend", "filed for bankruptcy",
     "sold its stake"),
    ("released a new processor", "discovered a distant planet", "patched a security flaw",
     "launched a satellite", "unveiled a faster browser", "sequenced the genome",
     "announced an open source tool", "tested a quantum computer"),
)
DETAILS = (
    ("amid protests in the capital", "after weeks of fighting", "ahead of the election",
     "as refugees crossed the border", "under pressure from neighbours", "at the summit"),
    ("in front of a sellout crowd", "in the second half", "after extra time",
     "at the world cup", "before the new season", "in the championship match"),
    ("as shares fell on wall street", "despite rising oil prices", "in a deal worth billions",
     "after a weak quarter", "as markets rallied", "to please investors"),
    ("using open source software", "with a new chip", "from an orbiting telescope",
     "for mobile phones", "in a peer reviewed study", "over the internet"),
)
PLACES = ("Baghdad", "Geneva", "London", "Tokyo", "Nairobi", "Ottawa", "Sydney", "Madrid")
SYLLABLES = ("ka", "lo", "ver", "mi", "tan", "ro", "sel", "di", "bru", "nek", "pa", "zor",
             "ul", "fen", "gri", "ta")

GENERATED_NEWS = (
    ("Diplomats from both countries met in Geneva to negotiate an end to the border dispute.", 0),
    ("The national parliament voted to postpone the elections after violent protests.", 0),
    ("Refugees fleeing the conflict reached the capital as aid agencies warned of shortages.", 0),
    ("The striker scored a late winner to send the home team into the cup final.", 1),
    ("The tennis champion retired after losing in the first round of the tournament.", 1),
    ("The olympic squad broke the relay record in front of a sellout crowd.", 1),
    ("The central bank raised interest rates to slow inflation as shares fell.", 2),
    ("The retail chain reported a quarterly loss and announced it would cut jobs.", 2),
    ("Investors cheered the merger of the two airlines in a deal worth billions.", 2),
    ("Astronomers discovered a distant planet using data from an orbiting telescope.", 3),
    ("The software maker released a patch for a security flaw in its browser.", 3),
    ("Engineers tested a quantum computer that solves problems faster than any chip.", 3),
)


def name(rng: random.Random) -> str:
    return "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 3))).capitalize()


def sentence(rng: random.Random, topic: int) -> str:
    return (f"{rng.choice(SUBJECTS[topic])} {rng.choice(ACTIONS[topic])} "
            f"{rng.choice(DETAILS[topic])}")


def item(rng: random.Random) -> dict[str, object]:
    """One news item: a clear topic, or (one in six) two topics with either label."""
    label = rng.randrange(4)
    first = sentence(rng, label)
    if rng.random() < MIXED:
        other = rng.choice([t for t in range(4) if t != label])
        second = sentence(rng, other)
        label = rng.choice((label, other))
    else:
        second = sentence(rng, label)
    text = (f"{name(rng)} {name(rng)} ({rng.choice(PLACES)}) - {first.capitalize()}, "
            f"while {second}, {name(rng)} said.")
    return {"text": text, "label": label}


def write_jsonl(path: Path, rows: list[dict[str, object]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8", newline="\n") as fh:
        for row in rows:
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")


def main() -> int:
    rng = random.Random(SEED)
    splits = {split: [item(rng) for _ in range(size)] for split, size in SIZES.items()}
    write_jsonl(PACK / "public" / "ag_news_train.jsonl", splits["train"])
    write_jsonl(PACK / "public" / "ag_news_test.jsonl", splits["test"])
    write_jsonl(PACK / "private" / "news_hidden.jsonl", splits["hidden"])
    write_jsonl(PACK / "public" / "generated_news.jsonl",
                [{"text": text} for text, _ in GENERATED_NEWS])
    labels = {"labels": [label for _, label in GENERATED_NEWS], "names": list(LABELS)}
    (PACK / "private" / "generated_news_labels.json").write_text(
        json.dumps(labels, indent=2) + "\n", encoding="utf-8")
    for split, rows in splits.items():
        print(f"{split}: {len(rows)} items")
    return 0


if __name__ == "__main__":
    sys.exit(main())
