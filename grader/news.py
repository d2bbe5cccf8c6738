"""AG News as the pack reads it: JSON lines of `{"text", "label"}`, split reproducibly.

The real AG News comes as CSV (`title`, `description`, `class` named World, Sports,
Business, Sci/Tech); the STAT8021 template reads JSON-lines files. A TA who grades on
the real data splits it once with `split_ag_news` and points the pack at the files
(`grader grade ... --data train=DIR/train.jsonl --data test=... --data hidden=...`).
"""

from __future__ import annotations

import csv
import json
import random
from pathlib import Path

CLASSES = ("World", "Sports", "Business", "Sci/Tech")


def read_ag_news_csv(path: Path) -> list[dict[str, object]]:
    """Rows as `{"text": title + description, "label": 0-3}`; backslashes are line breaks."""
    rows = []
    with path.open(encoding="utf-8", newline="") as fh:
        for number, row in enumerate(csv.DictReader(fh), 2):
            try:
                label = CLASSES.index(row["class"].strip())
            except (KeyError, ValueError):
                raise ValueError(f"{path}:{number}: class must be one of {', '.join(CLASSES)}") \
                    from None
            text = f"{row['title'].strip()}. {row['description'].strip()}".replace("\\", " ")
            rows.append({"text": " ".join(text.split()), "label": label})
    return rows


def split_ag_news(path: Path, out: Path, sizes: dict[str, int], seed: int = 0) -> dict[str, Path]:
    """Shuffle with `seed`, cut disjoint splits of the given sizes, write `<name>.jsonl`."""
    rows = read_ag_news_csv(path)
    if sum(sizes.values()) > len(rows):
        raise ValueError(f"{path} has {len(rows)} rows; the splits ask for {sum(sizes.values())}")
    random.Random(seed).shuffle(rows)
    out.mkdir(parents=True, exist_ok=True)
    written, start = {}, 0
    for name, size in sizes.items():
        target = out / f"{name}.jsonl"
        with target.open("w", encoding="utf-8") as fh:
            for row in rows[start:start + size]:
                fh.write(json.dumps(row, ensure_ascii=False) + "\n")
        written[name], start = target, start + size
    return written
