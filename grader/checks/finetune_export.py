"""Part 2's model leaves the kernel as data: the export requests, and the weights put back.

The probe (`export_model` in the pack's probes) hands back the fine-tuned model's state
dict and a few names; nothing it says about itself decides a score. The probe channel
bounds each probe's tensors file (`grader.run.payload.MAX_TENSOR_BYTES`, 64 MiB) and each
case's outputs (`MAX_OUTPUTS`), so a model is cut into pieces: a shard per probe request,
a part per case, rows of a large tensor (an embedding matrix) in ranges. The number of
shards is planned from the checkpoints the pack names in the model cache (a model is
about the size of its checkpoint); a model larger than planned is not evaluated, and the
record says how many shards it would need.
"""

from __future__ import annotations

import json
import math
import re
import struct
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from grader.checks.kind import Probe
from grader.pack import Pack
from grader.run.result import ProbePayload

if TYPE_CHECKING:
    from grader.checks.finetune import FinetuneSettings

SHARD_BYTES = 48 << 20
"""Weights per probe request: under the channel's 64 MiB with room for one more chunk."""
CHUNK_BYTES = 8 << 20
"""Rows of a tensor larger than this travel in ranges (RoBERTa's embeddings are 154 MB)."""
CASE_TENSORS = 200
"""Pieces per case, under the channel's 256 outputs."""
FLOAT_BYTES = 4
"""A fine-tuned model is float32 whatever its checkpoint was stored in."""
PIECE = re.compile(r"w/(?P<key>.+?)(?:/rows-(?P<start>\d+)-(?P<stop>\d+))?")


def _checkpoint_size(snapshot: Path) -> tuple[int, int]:
    """(elements, tensors) of a snapshot's safetensors weights, from their headers only."""
    elements = tensors = 0
    for file in snapshot.glob("*.safetensors"):
        try:
            with file.open("rb") as fh:
                (length,) = struct.unpack("<Q", fh.read(8))
                header = json.loads(fh.read(min(length, 100 << 20)))
        except (OSError, ValueError, struct.error):
            continue
        for key, meta in header.items():
            if key != "__metadata__" and isinstance(meta, dict):
                elements += math.prod(meta.get("shape") or [1])
                tensors += 1
    return elements, tensors


UNKNOWN_TENSORS = 512
"""Tensors assumed of a checkpoint known only by its parameter count."""


def _registry_size(name: str) -> tuple[int, int]:
    """(parameters, tensors) of a checkpoint the calculators' offline registry knows, for a
    plan made without the model cache; (0, 0) for one it does not know."""
    from calculators import count_parameters
    from calculators.params import registry

    try:
        return int(count_parameters(registry.load(name)).total), UNKNOWN_TENSORS
    except Exception:  # noqa: BLE001 - an unknown name plans nothing
        return 0, 0


def plan(pack: Pack, hf_cache: Path | None) -> tuple[int, int]:
    """(shards, parts per shard) for the largest checkpoint the pack names, with room for a
    classification head and for float32. Sizes come from the cache's safetensors headers;
    a checkpoint this cache lacks (planning was not told the run's cache) is sized from
    the calculators' registry of real configs: planning too many shards costs a few probe
    cells, too few leaves a real model unevaluated."""
    from grader.models.cache import cache_dir, cached_models

    cached = cached_models(cache_dir(hf_cache))
    elements, tensors = 0, 0
    for name in pack.models:
        e, t = _checkpoint_size(cached[name]) if name in cached else _registry_size(name)
        elements, tensors = max(elements, e), max(tensors, t)
    total = int(elements * FLOAT_BYTES * 1.05) + (1 << 20)
    shards = max(1, math.ceil(total / (SHARD_BYTES - CHUNK_BYTES)))
    pieces = tensors + 16 + total // CHUNK_BYTES
    return shards, max(1, math.ceil(pieces / CASE_TENSORS))


def request_ids(model: str, shards: int) -> list[str]:
    """The probe ids of one model's shards (the first keeps the plain id the record's
    device line reads)."""
    return [f"ft-predict-{model}" + (f"-shard{k}" if k else "") for k in range(shards)]


def requests(settings: FinetuneSettings, pack: Pack, hf_cache: Path | None) -> list[Probe]:
    """The export requests of one model: one per shard, one case per part."""
    shards, parts = plan(pack, hf_cache)
    model = str(settings.model)
    base = {"model": model, "tokenizer": settings.tokenizer,
            "family": settings.family, "family_not": settings.family_not,
            "num_labels": len(pack.labels) or 2, "shards": shards,
            "shard_bytes": SHARD_BYTES, "chunk_bytes": CHUNK_BYTES,
            "case_tensors": CASE_TENSORS}
    return [Probe(rid, "export_model", [
        {"name": f"part-{p}", "tensors": {}, "params": {**base, "shard": k, "part": p}}
        for p in range(parts)]) for k, rid in enumerate(request_ids(model, shards))]


@dataclass
class Exported:
    """What the probe handed back of one model: its weights, or why there are none."""

    state: dict[str, Any] = field(default_factory=dict)
    info: dict[str, Any] = field(default_factory=dict)
    why: str = ""


def _first_info(payload: ProbePayload) -> dict[str, Any]:
    for result in payload.cases.values():
        found = result.get("outputs", {}).get("__info__")
        if found:
            return dict(found)
    return {}


def collect(model: str, payloads: dict[str, ProbePayload]) -> Exported:
    """The model's state dict put back together from its shards' payloads, or why not."""
    import torch

    ids = sorted((rid for rid in payloads if rid == f"ft-predict-{model}"
                  or rid.startswith(f"ft-predict-{model}-shard")),
                 key=lambda rid: (rid != f"ft-predict-{model}", rid))
    if not ids:
        return Exported(why="the probe did not run")
    rows: dict[str, list[tuple[int, int, Any]]] = {}
    whole: dict[str, Any] = {}
    info: dict[str, Any] = {}
    for rid in ids:
        payload = payloads[rid]
        if payload.status != "ok":
            return Exported(info=info, why=payload.message or f"the probe ended with "
                            f"{payload.status}")
        info = info or _first_info(payload)
        for case_name, result in payload.cases.items():
            if result.get("status") != "ok":
                return Exported(info=info, why=str(result.get("message", "the probe failed")))
            prefix = f"{case_name}/"
            for key, tensor in payload.tensors.items():
                if not key.startswith(prefix):
                    continue
                match = PIECE.fullmatch(key[len(prefix):])
                if match is None:
                    return Exported(info=info, why=f"an unknown piece {key[:60]!r}")
                if match["start"] is None:
                    whole[match["key"]] = tensor
                else:
                    rows.setdefault(match["key"], []).append(
                        (int(match["start"]), int(match["stop"]), tensor))
    needed, planned = info.get("shards_needed"), len(ids)
    if isinstance(needed, int) and needed > planned:
        return Exported(info=info, why=f"its weights need {needed} probe shards of "
                        f"{SHARD_BYTES >> 20} MiB and the grader planned {planned} from the "
                        "pack's checkpoints: it is much larger than the checkpoint it should "
                        "be fine-tuned from")
    for key, ranges in rows.items():
        ranges.sort(key=lambda r: r[0])
        at = 0
        for start, stop, tensor in ranges:
            if start != at or tensor.shape[0] != stop - start:
                return Exported(info=info, why=f"the rows of `{key[:60]}` do not join up")
            at = stop
        whole[key] = torch.cat([r[2] for r in ranges])
    expected = info.get("tensors")
    if isinstance(expected, int) and expected != len(whole):
        return Exported(info=info, why=f"{len(whole)} of the {expected} weight tensors came "
                        "back (more pieces than the grader planned)")
    if not whole:
        return Exported(info=info, why="the model has no weights")
    return Exported(state=whole, info=info)
