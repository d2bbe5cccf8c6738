"""Behavioural fingerprints: what each student's code returned on the same hidden inputs.

Why this is the strongest evidence the grader holds: every student of a batch is called
on the same hidden cases (one seed per batch), and the stored run keeps what came back
(`.runs/<key>/probes/<probe>.safetensors`, and per case its status, error message and
the operators that ran). Two students whose attention returns the same *wrong* tensor,
bit for bit, on a case neither ever saw share a mistake, and renaming variables does not
change a single bit of it. A right output means nothing (it is what the reference
returns), so only outputs the record marks wrong are fingerprinted; and a wrong output
many students share is a common mistake (forgetting the 1/sqrt(d_k) scale), which the
rarity weighting makes worth little or nothing.

Per hidden case and output, three fingerprints:

- exact: sha256 of dtype, shape and the raw bytes;
- within tolerance: outputs of one shape whose elements all differ by at most the
  check's `atol` are one class. Found without comparing all pairs: the distinct wrong
  outputs are sorted by their L2 norm, and since | |a| - |b| | <= |a - b| <= sqrt(n) atol,
  only neighbours within that window are compared element by element;
- errors: the case's error message (numbers blanked) and the student's line that raised;

and per probe the set of operators the student's code ran (`aten::einsum`, ...), which
tells implementations apart but is shared by every student who wrote it alike, so it
weighs a quarter. Read with a small safetensors reader of our own (header + raw
bytes): no torch, and bfloat16 is read too.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import struct
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from grader.similarity.classroom import Classroom, Work
from grader.similarity.settings import Settings

_DTYPES = {"F64": np.float64, "F32": np.float32, "F16": np.float16, "I64": np.int64,
           "I32": np.int32, "I16": np.int16, "I8": np.int8, "U8": np.uint8, "BOOL": np.bool_,
           "U16": np.uint16, "U32": np.uint32, "U64": np.uint64}
MAX_HEADER = 1 << 24
ERROR_KINDS = {"exception", "output", "signature", "timeout"}
"""Case errors worth comparing: what the student's code raised or returned. `missing` and
`not_implemented` are the template's own ("raise NotImplementedError"): shared by all
who did not answer."""


@dataclass
class Tensor:
    dtype: str
    shape: tuple[int, ...]
    raw: bytes

    def digest(self) -> str:
        h = hashlib.sha256(f"{self.dtype}{self.shape}".encode())
        h.update(self.raw)
        return h.hexdigest()[:24]

    def values(self) -> np.ndarray | None:
        """As float64, or None for a dtype compared exactly only (float8)."""
        if self.dtype == "BF16":
            bits = np.frombuffer(self.raw, dtype=np.uint16).astype(np.uint32) << 16
            return bits.view(np.float32).astype(np.float64).reshape(self.shape)
        kind = _DTYPES.get(self.dtype)
        if kind is None:
            return None
        return np.frombuffer(self.raw, dtype=kind).astype(np.float64).reshape(self.shape)


def read_safetensors(path: Path) -> dict[str, Tensor]:
    """name -> Tensor from a safetensors file; {} when it is missing or malformed (a stored
    run is the grader's own file, but an old or cut one must not stop a report)."""
    try:
        data = path.read_bytes()
        (size,) = struct.unpack("<Q", data[:8])
        if size > MAX_HEADER:
            return {}
        header = json.loads(data[8:8 + size])
    except (OSError, struct.error, ValueError):
        return {}
    body = data[8 + size:]
    out = {}
    for name, meta in header.items():
        if name == "__metadata__" or not isinstance(meta, dict):
            continue
        start, end = meta.get("data_offsets", (0, 0))
        out[name] = Tensor(str(meta.get("dtype")), tuple(meta.get("shape", ())), body[start:end])
    return out


@dataclass
class Item:
    """One behavioural fingerprint of one student."""

    kind: str  # output | error | ops
    question: str
    probe: str
    case: str
    output: str
    exact: str
    judged: bool = True
    """False where the grader does not say right or wrong per case (fine-tune probes)."""
    tensor: Tensor | None = None
    shown: str = ""
    error: dict[str, Any] = field(default_factory=dict)
    """The record's evidence for this case (max abs error, norm) or the error message."""


def _question_of(probe: str, record_questions: list[str]) -> str:
    for q in sorted(record_questions, key=len, reverse=True):
        if probe.startswith(q + "-"):
            return q
    return probe


def _case_verdicts(work: Work) -> dict[tuple[str, str], dict[str, Any]]:
    """(question, case) -> the evidence row of a check of outputs (`Kind.evidence_of`),
    from the record."""
    from grader.checks.registry import with_evidence

    rows: dict[tuple[str, str], dict[str, Any]] = {}
    if work.record is None:
        return rows
    outputs = with_evidence("outputs")
    for q in work.record.questions:
        for check in q.checks:
            if check.kind in outputs and isinstance(check.evidence, list):
                for row in check.evidence:
                    if isinstance(row, dict) and "case" in row:
                        rows[(q.id, str(row["case"]))] = row
    return rows


_DIGITS = re.compile(r"\d+")


def read_meta(work: Work) -> dict[str, Any] | None:
    """The stored run's run.json, or None (no run, or unreadable)."""
    if work.run_dir is None:
        return None
    try:
        return json.loads((work.run_dir / "run.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def items_of(work: Work, meta: dict[str, Any] | None = None) -> list[Item]:
    """The student's behavioural fingerprints from the stored run the record names."""
    meta = meta if meta is not None else read_meta(work)
    if meta is None or work.record is None or work.run_dir is None:
        return []
    verdicts = _case_verdicts(work)
    qids = [q.id for q in work.record.questions]
    status = {q.id: q.status for q in work.record.questions}
    found: list[Item] = []
    for probe, payload in (meta.get("probes") or {}).items():
        question = _question_of(probe, qids)
        tensors: dict[str, Tensor] | None = None
        judged = any(q == question for q, _ in verdicts)
        ops: set[str] = set()
        errors: dict[str, dict[str, Any]] = {}
        for case, info in (payload.get("cases") or {}).items():
            row = verdicts.get((question, case))
            if judged and row is None:
                continue  # a demo case: public, not what this compares
            if not judged and status.get(question) == "passed":
                continue
            ops.update((payload.get("ops") or {}).get(case, []))
            if info.get("status") != "ok":
                if info.get("kind") in ERROR_KINDS:
                    where = info.get("where") or {}
                    text = _DIGITS.sub("0", str(info.get("message", "")))
                    code = " ".join(str(where.get("code", "")).split())
                    errors.setdefault(text + "\x1f" + code, {
                        "message": str(info.get("message", "")), "code": code, "case": case})
                continue
            if row is not None and row.get("passed"):
                continue  # a right output means nothing
            if tensors is None:
                tensors = read_safetensors(work.run_dir / "probes" / f"{probe}.safetensors")
            for output in (info.get("outputs") or {}):
                t = tensors.get(f"{case}/{output}")
                if t is None:
                    continue
                evidence = next((o for o in (row or {}).get("outputs", [])
                                 if o.get("output") == output), {})
                found.append(Item("output", question, probe, case, output, t.digest(),
                                  judged=judged, tensor=t, error=dict(evidence)))
        for key, info in errors.items():
            found.append(Item("error", question, probe, info["case"], "", hashlib.sha256(
                key.encode()).hexdigest()[:24], shown=info["message"], error=info))
        if ops and any(i.probe == probe for i in found):  # only beside wrong outputs or errors
            found.append(Item("ops", question, probe, "", "", hashlib.sha256(
                "\n".join(sorted(ops)).encode()).hexdigest()[:24],
                shown=_ops_text(ops)))
    return found


def _ops_text(ops: set[str], most: int = 14) -> str:
    names = sorted({o.split("::")[-1] for o in ops if not o.startswith("grader::")})
    more = f", … ({len(names)} in all)" if len(names) > most else ""
    return ", ".join(names[:most]) + more


@dataclass
class BehaviourIndex:
    items: dict[str, list[Item]]
    holders: dict[tuple[str, str, str, str], list[str]]
    """(kind, probe, case/output slot, fingerprint) -> students holding it."""
    tolerant: dict[tuple[str, str, str], dict[str, int]]
    """(probe, case, output) -> exact digest -> tolerance class id."""
    class_holders: dict[tuple[str, str, str, int], list[str]]
    class_size: dict[str, int]
    """Probe -> students with a stored run of it (the n of rarity)."""


def _slot(item: Item) -> str:
    return f"{item.case}/{item.output}" if item.kind == "output" else item.kind


def _tolerance_classes(items: list[Item], atol: float) -> dict[str, int]:
    """Exact digests of one slot grouped into classes of outputs equal within `atol`."""
    distinct: dict[str, np.ndarray] = {}
    for item in items:
        if item.exact not in distinct and item.tensor is not None:
            values = item.tensor.values()
            if values is not None and np.all(np.isfinite(values)):
                distinct[item.exact] = values
    parent = {d: d for d in distinct}

    def find(d: str) -> str:
        while parent[d] != d:
            parent[d] = parent[parent[d]]
            d = parent[d]
        return d

    by_shape: dict[tuple[int, ...], list[tuple[float, str]]] = defaultdict(list)
    for d, v in distinct.items():
        by_shape[v.shape].append((float(np.linalg.norm(v)), d))
    for shape, entries in by_shape.items():
        entries.sort()
        window = math.sqrt(max(1, math.prod(shape))) * atol
        for i, (norm_i, di) in enumerate(entries):
            for norm_j, dj in entries[i + 1:]:
                if norm_j - norm_i > window:
                    break
                if find(di) != find(dj) and np.max(np.abs(distinct[di] - distinct[dj])) <= atol:
                    parent[find(dj)] = find(di)
    roots: dict[str, int] = {}
    return {d: roots.setdefault(find(d), len(roots)) for d in distinct}


def build_index(classroom: Classroom, settings: Settings) -> BehaviourIndex:
    items: dict[str, list[Item]] = {}
    class_size: dict[str, int] = defaultdict(int)
    for w in classroom.works:
        meta = read_meta(w)
        items[w.key] = items_of(w, meta) if meta is not None else []
        for probe in (meta or {}).get("probes") or {}:
            class_size[probe] += 1
    holders: dict[tuple[str, str, str, str], list[str]] = defaultdict(list)
    by_slot: dict[tuple[str, str, str], list[Item]] = defaultdict(list)
    for key, found in items.items():
        for item in found:
            holders[(item.kind, item.probe, _slot(item), item.exact)].append(key)
            if item.kind == "output":
                by_slot[(item.probe, item.case, item.output)].append(item)
    tolerant = {slot: _tolerance_classes(found, classroom.starter.tolerances.get(slot[0], 1e-3))
                for slot, found in by_slot.items()}
    class_holders: dict[tuple[str, str, str, int], list[str]] = defaultdict(list)
    for key, found in items.items():
        for item in found:
            if item.kind == "output":
                cid = tolerant[(item.probe, item.case, item.output)].get(item.exact)
                if cid is not None:
                    class_holders[(item.probe, item.case, item.output, cid)].append(key)
    return BehaviourIndex(items, dict(holders), tolerant, dict(class_holders), dict(class_size))


def candidate_pairs(index: BehaviourIndex, settings: Settings) -> set[tuple[str, str]]:
    """Pairs sharing a fingerprint that is not common."""
    pairs: set[tuple[str, str]] = set()
    groups = [(k[1], v) for k, v in index.holders.items()] + [
        (k[0], v) for k, v in index.class_holders.items()]
    for probe, keys in groups:
        n = index.class_size.get(probe, len(keys))
        if 2 <= len(set(keys)) <= _common_cap(n, settings):
            ordered = sorted(set(keys))
            pairs.update((a, b) for i, a in enumerate(ordered) for b in ordered[i + 1:])
    return pairs


def _common_cap(n: int, settings: Settings) -> float:
    return max(settings.common_min, settings.common_share * n)


def bits(k: int, n: int, settings: Settings) -> float:
    """Evidence of a fingerprint k of n students hold: log2(n / k) bits, the surprise of
    finding it in a given student; 0 for a common one."""
    if k < 2 or k > _common_cap(n, settings) or n <= k:
        return 0.0
    return math.log2(n / k)


def _preview(t: Tensor | None, count: int = 6) -> list[float]:
    v = t.values() if t is not None else None
    return [] if v is None else [round(float(x), 5) for x in v.reshape(-1)[:count]]


def compare(index: BehaviourIndex, a: str, b: str, settings: Settings) -> list[dict[str, Any]]:
    """Per question, the strongest behavioural evidence the pair shares (with its bits,
    already weighted), and the rest it shares, for the report."""
    mine = defaultdict(list)
    for item in index.items.get(a, []):
        mine[(item.kind, item.probe, _slot(item))].append(item)
    best: dict[str, dict[str, Any]] = {}
    ops_bits: dict[str, dict[str, Any]] = {}
    shared: dict[str, int] = defaultdict(int)
    for y in index.items.get(b, []):
        for x in mine.get((y.kind, y.probe, _slot(y)), []):
            n = index.class_size.get(y.probe, 0)
            entry: dict[str, Any] | None = None
            if x.exact == y.exact:
                k = len(index.holders[(y.kind, y.probe, _slot(y), y.exact)])
                weight = {"output": settings.output_weight, "error": settings.error_weight,
                          "ops": settings.ops_weight}[y.kind]
                entry = {"match": "exact", "holders": k, "bits": bits(k, n, settings) * weight}
            elif y.kind == "output":
                classes = index.tolerant[(y.probe, y.case, y.output)]
                cx, cy = classes.get(x.exact), classes.get(y.exact)
                if cx is not None and cx == cy:
                    k = len(index.class_holders[(y.probe, y.case, y.output, cy)])
                    entry = {"match": "within tolerance", "holders": k,
                             "bits": bits(k, n, settings) * settings.tolerance_weight}
            if entry is None:
                continue
            entry.update(kind=y.kind, question=y.question, probe=y.probe, case=y.case,
                         output=y.output, class_size=n, judged=y.judged)
            if y.kind == "output":
                entry.update(
                    a={"values": _preview(x.tensor), "shape": list(x.tensor.shape) if x.tensor
                       else [], "max_abs_error": x.error.get("max_abs_error"),
                       "norm": x.error.get("norm")},
                    b={"values": _preview(y.tensor), "shape": list(y.tensor.shape) if y.tensor
                       else [], "max_abs_error": y.error.get("max_abs_error"),
                       "norm": y.error.get("norm")},
                    expected_norm=y.error.get("expected_norm"))
                if not y.judged:
                    entry["bits"] *= 0.5
            elif y.kind == "error":
                entry.update(a={"message": x.shown, "code": x.error.get("code", "")},
                             b={"message": y.shown, "code": y.error.get("code", "")})
            else:
                entry.update(a={"ops": x.shown}, b={"ops": y.shown})
            if y.kind == "ops":
                ops_bits[y.question] = entry
                continue
            shared[y.question] += 1
            current = best.get(y.question)
            if current is None or entry["bits"] > current["bits"]:
                best[y.question] = entry
    out = []
    for question in sorted(best.keys() | ops_bits.keys()):
        if not (best.get(question) or {}).get("bits"):
            continue  # only common things shared (or operators alone): nothing to weigh
        main = best.get(question)
        ops = ops_bits.get(question)
        entry = dict(main) if main else dict(ops or {})
        entry["ops"] = ops
        entry["shared"] = shared.get(question, 0)
        entry["score"] = (main["bits"] if main else 0.0) + (ops["bits"] if ops and main else 0.0)
        out.append(entry)
    return out
