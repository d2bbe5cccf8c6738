"""What judging Part 2 from exported weights costs: the export, and the clean evaluator.

Run: .venv/bin/python benchmarks/bench_part2_export.py [--hf-cache DIR] [--repeat 3]
         [--full-size] [--sandbox bwrap|none] [--json F]

For the pack's two models (tiny DistilBERT and RoBERTa from `grader models seed --tiny`;
with `--full-size`, DistilBERT-base and RoBERTa-base at their real sizes built from config
into a temporary cache), it measures:

- export: the Part 2 probe's `export_model` on the model, each shard's outputs through the
  runner's own payload checks, and the state dict put back together (`collect`): the
  grader-side and kernel-side work of the new path, without the cell round trips;
- evaluation: one clean evaluator process in the sandbox for both models (start, imports,
  building and loading each model, tokenizing and predicting the public test, hidden and
  external splits: 812 texts per model);
- for comparison, what the old probe did in the kernel: tokenize and predict the same
  texts with the model already in memory.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import torch  # noqa: E402

from grader.checks import finetune_export  # noqa: E402
from grader.checks.finetune import read_split  # noqa: E402
from grader.evaluate import launch  # noqa: E402
from grader.models.cache import cache_dir, cached_models  # noqa: E402
from grader.pack import load_pack  # noqa: E402
from grader.run import payload as channel  # noqa: E402
from grader.run.result import ProbePayload  # noqa: E402

PACK = ROOT / "reference" / "stat8021-a3"
MODELS = {"model": ("distilbert-base-uncased", "distilbert"),
          "model2": ("roberta-base", "roberta")}


class Student:
    def __init__(self, namespace: dict[str, Any]) -> None:
        self.namespace = namespace

    def value(self, name: str, default: Any = None) -> Any:
        return self.namespace.get(name, default)

    def instances(self, kind: type) -> list[tuple[str, Any]]:
        return [(k, v) for k, v in self.namespace.items() if isinstance(v, kind)]


def export(probe: dict[str, Any], student: Student, name: str, shards: int,
           parts: int) -> dict[str, ProbePayload]:
    payloads = {}
    for shard, rid in enumerate(finetune_export.request_ids(name, shards)):
        cases, tensors = {}, {}
        for part in range(parts):
            case = {"model": name, "tokenizer": "", "family": "", "family_not": "",
                    "num_labels": 4, "shards": shards, "shard": shard, "part": part,
                    "shard_bytes": finetune_export.SHARD_BYTES,
                    "chunk_bytes": finetune_export.CHUNK_BYTES,
                    "case_tensors": finetune_export.CASE_TENSORS}
            out = probe["export_model"](student, case)
            meta = {"__info__": out.pop("__info__")}
            for key, value in out.items():
                meta[key] = {"shape": list(value.shape),
                             "dtype": str(value.dtype).replace("torch.", ""), "device": "cpu"}
                tensors[f"part-{part}/{key}"] = value.detach().contiguous().clone()
            cases[f"part-{part}"] = {"status": "ok", "outputs": meta, "seconds": 0.0}
        checked = channel.check_probe({"check": rid, "cases": cases}, rid, list(cases))
        payloads[rid] = ProbePayload(rid, "ok", cases=checked,
                                     tensors=channel.check_tensors(tensors, checked))
    return payloads


def in_kernel_predict(model: Any, tokenizer: Any, texts: list[str]) -> float:
    """What the old probe did with the model in the kernel: seconds."""
    start = time.perf_counter()
    model.eval()
    with torch.no_grad():
        for at in range(0, len(texts), 64):
            enc = tokenizer(texts[at:at + 64], truncation=True, padding=True, max_length=128,
                            return_tensors="pt")
            model(**enc).logits.argmax(-1)
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hf-cache")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--full-size", action="store_true")
    parser.add_argument("--sandbox", choices=("bwrap", "none"), default="bwrap")
    parser.add_argument("--json")
    args = parser.parse_args()
    torch.set_num_threads(1)
    pack = load_pack(PACK)
    cache = cache_dir(args.hf_cache)
    tmp = None
    if args.full_size:
        from bench_finetune import seed_full_size

        tmp = tempfile.TemporaryDirectory(prefix="bench-full-size-")
        cache = Path(tmp.name)
        seed_full_size(cache)
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    snapshots = cached_models(cache)
    probe: dict[str, Any] = {"torch": torch}
    exec(compile((PACK / "probes" / "part2.py").read_text(), "part2.py", "exec"), probe)
    shards, parts = finetune_export.plan(pack, cache)
    texts = {role: read_split(pack.data[role])[0] for role in ("test", "hidden", "external")}
    every = [t for items in texts.values() for t in items]
    report: dict[str, Any] = {"cache": "full-size" if args.full_size else "tiny",
                              "plan": {"shards": shards, "parts": parts}, "models": {}}
    states, jobs = {}, {}
    for name, (repo, model_type) in MODELS.items():
        model = AutoModelForSequenceClassification.from_pretrained(
            str(snapshots[repo]), num_labels=4)
        tokenizer = AutoTokenizer.from_pretrained(str(snapshots[repo]))
        student = Student({name: model})
        seconds = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            exported = finetune_export.collect(name, export(probe, student, name, shards, parts))
            seconds.append(time.perf_counter() - start)
        assert exported.why == "", exported.why
        states[name] = exported.state
        jobs[name] = launch.ModelJob(model_type, 4, [repo])
        old = [in_kernel_predict(model, tokenizer, every) for _ in range(args.repeat)]
        report["models"][name] = {
            "parameters": sum(p.numel() for p in model.parameters()),
            "bytes": sum(v.numel() * v.element_size() for v in exported.state.values()),
            "export_seconds": round(statistics.median(seconds), 3),
            "old_in_kernel_predict_seconds": round(statistics.median(old), 3)}
    box = launch.evaluator_box(args.sandbox, sys.executable, cache, gpus=())
    job = launch.Job(jobs, texts)
    runs = []
    for _ in range(args.repeat):
        result = launch.run(job, states, box, pack.limits)
        assert result.status == "ok", result.why
        runs.append(result)
    report["evaluation"] = {
        "texts_per_model": len(every), "sandbox": args.sandbox,
        "wall_seconds": [r.seconds for r in runs],
        "median_wall_seconds": statistics.median(r.seconds or 0 for r in runs),
        "import_seconds": [r.import_seconds for r in runs],
        "per_model": {name: {"load_seconds": [r.models[name].load_seconds for r in runs],
                             "predict_seconds": [r.models[name].predict_seconds for r in runs]}
                      for name in jobs}}
    print(json.dumps(report, indent=2))
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2))
    if tmp is not None:
        tmp.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main())
