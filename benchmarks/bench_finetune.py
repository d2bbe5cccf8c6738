"""What Part 2 costs: the solution graded in full and in quick mode, per model.

Run: .venv/bin/python benchmarks/bench_finetune.py [--hf-cache DIR] [--gpus 0]
         [--full-size] [--check-cuda] [--modes full,quick] [--sandbox auto|none] [--json F]

Grades `submissions/stat8021-a3/solution.ipynb` in the sandbox (full, then quick:
`GRADER_QUICK=1`, 400 items, one epoch) and prints, for each fine-tuned model, the
training time (wall time of its cells), the accuracy the grader re-evaluated on the
hidden split, the peak memory (CUDA when a GPU was given, else the kernel's peak RSS),
and the whole grading's wall time. With tiny models from `grader models seed --tiny`
this is the CI/laptop cost; with real checkpoints on a GPU (`--gpus 0`) it is the
official grading cost.

`--full-size` first builds DistilBERT-base and RoBERTa-base at their real sizes (66M
and 125M parameters) from config into `--hf-cache`, under the hub names the notebook
loads: a machine with no internet (the lent GPU machine) can then measure what the real
architectures cost to fine-tune and grade. Their weights are random, so the time and the
memory are the real ones and the accuracy is not. `--check-cuda` first runs a one-cell
notebook in the same sandbox and stops (exit 3) when a GPU was asked for but the kernel
cannot see it: a CPU fallback of full-size models would run for many minutes.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from grader.grade import grade_notebook  # noqa: E402
from grader.models.cache import cache_dir, install_snapshot  # noqa: E402
from grader.pack import load_pack  # noqa: E402
from grader.run.limits import Limits  # noqa: E402
from grader.run.runner import Runner  # noqa: E402
from grader.run.sandbox import Sandbox  # noqa: E402

NOTEBOOK = ROOT / "submissions" / "stat8021-a3" / "solution.ipynb"
PACK = ROOT / "reference" / "stat8021-a3"

CUDA_PROBE = """\
import json, torch
info = {"torch": torch.__version__, "cuda_available": torch.cuda.is_available(),
        "device_count": torch.cuda.device_count()}
if info["cuda_available"]:
    info["device_name"] = torch.cuda.get_device_name(0)
    x = torch.randn(1024, 1024, device="cuda")
    info["matmul_ok"] = bool(torch.isfinite(x @ x).all().item())
print("CUDA-PROBE " + json.dumps(info))
"""


def seed_full_size(cache: Path, pack_root: Path = PACK) -> dict[str, int]:
    """Build DistilBERT-base and RoBERTa-base at full size into `cache`; name -> parameters.

    The tokenizers are the tiny models' (trained on the pack's text by
    `grader.models.tiny.seed_tiny`), so words map to real ids; the configs are the real
    checkpoints' (vocabulary rows included), so parameter counts, activations and
    optimizer state are those of the real models.
    """
    import torch
    from transformers import (
        AutoTokenizer,
        DistilBertConfig,
        DistilBertForMaskedLM,
        RobertaConfig,
        RobertaForMaskedLM,
    )
    from transformers.utils import logging as hf_logging

    from grader.models.tiny import TINY_MODELS, read_texts, seed_tiny

    hf_logging.disable_progress_bar()
    pack = load_pack(pack_root)
    texts = read_texts(pack.data[r] for r in ("train", "test", "external") if r in pack.data)
    sizes: dict[str, int] = {}
    with tempfile.TemporaryDirectory(prefix="full-size-") as tmp:
        tiny_cache = Path(tmp) / "tiny"
        tiny = seed_tiny(tiny_cache, texts)
        for model in TINY_MODELS:
            if model.family not in ("distilbert", "roberta"):
                continue  # the pack's notebook loads these two; BERT would only cost disk
            tokenizer = AutoTokenizer.from_pretrained(str(tiny[model.names[0]]))
            torch.manual_seed(0)
            if model.family == "distilbert":  # distilbert-base-uncased's config.json
                config = DistilBertConfig(vocab_size=max(30522, len(tokenizer)),
                                          pad_token_id=tokenizer.pad_token_id)
                net = DistilBertForMaskedLM(config)
            else:  # roberta-base's config.json
                config = RobertaConfig(vocab_size=max(50265, len(tokenizer)),
                                       max_position_embeddings=514, type_vocab_size=1,
                                       layer_norm_eps=1e-5,
                                       pad_token_id=tokenizer.pad_token_id,
                                       bos_token_id=tokenizer.bos_token_id,
                                       eos_token_id=tokenizer.eos_token_id)
                net = RobertaForMaskedLM(config)
            out = Path(tmp) / model.family
            net.save_pretrained(out)
            tokenizer.save_pretrained(out)
            for name in model.names:
                install_snapshot(cache, name, out)
                sizes[name] = sum(p.numel() for p in net.parameters())
    return sizes


def check_cuda(box: Sandbox) -> dict[str, Any]:
    """What a kernel in `box` sees of CUDA: one cell run through the real runner."""
    import nbformat

    with tempfile.TemporaryDirectory(prefix="cuda-probe-") as tmp:
        path = Path(tmp) / "cuda_probe.ipynb"
        nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(CUDA_PROBE)]),
                       path)
        run = Runner(box, Limits(cell_timeout=120, startup_timeout=120)).run(path)
    text = "".join(t for _i, t in run.printed())
    errors = [f"{c.ename}: {c.evalue}" for c in run.cells if c.status not in ("ok", "skipped")]
    for line in text.splitlines():
        if line.startswith("CUDA-PROBE "):
            return {**json.loads(line[len("CUDA-PROBE "):]), "sandbox": run.sandbox}
    return {"cuda_available": False, "sandbox": run.sandbox,
            "error": "; ".join(errors) or text[-500:] or "the probe printed nothing"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hf-cache", default=None)
    parser.add_argument("--gpus", default="")
    parser.add_argument("--sandbox", default="auto", choices=("auto", "bwrap", "none"))
    parser.add_argument("--modes", default="full,quick",
                        help="Which gradings, in order: full, quick or both (full,quick).")
    parser.add_argument("--full-size", action="store_true",
                        help="First build full-size DistilBERT and RoBERTa into --hf-cache.")
    parser.add_argument("--check-cuda", action="store_true",
                        help="First check that a sandboxed kernel sees the GPU; exit 3 if not.")
    parser.add_argument("--json", default=None, help="Also write the results to this file.")
    args = parser.parse_args()
    modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    if not modes or any(m not in ("full", "quick") for m in modes):
        parser.error(f"--modes takes full and/or quick, not {args.modes!r}")
    gpus = tuple(g for g in args.gpus.split(",") if g)
    cache = cache_dir(args.hf_cache)
    result: dict[str, Any] = {"gpus": list(gpus), "hf_cache": str(cache), "runs": []}

    def save() -> None:
        if args.json:
            Path(args.json).write_text(json.dumps(result, indent=2, default=str) + "\n")

    if args.full_size:
        start = time.perf_counter()
        result["full_size_parameters"] = seed_full_size(cache)
        print(f"full-size models built into {cache} in {time.perf_counter() - start:.1f} s: "
              + ", ".join(f"{k} {v / 1e6:.1f}M" for k, v in
                          result["full_size_parameters"].items()), flush=True)
    box = Sandbox.create(args.sandbox, gpus=gpus)
    result["sandbox"] = box.kind
    print(f"sandbox: {box.kind}, gpus: {','.join(gpus) or 'none'}", flush=True)
    if args.check_cuda:
        probe = check_cuda(box)
        result["cuda_probe"] = probe
        print(f"CUDA inside the sandbox: {json.dumps(probe)}", flush=True)
        save()
        if gpus and not probe.get("cuda_available"):
            print("a GPU was asked for but the sandboxed kernel cannot see it: stopping")
            sys.exit(3)
    pack = load_pack(PACK)
    print(f"{'mode':5s} {'question':8s} {'model':36s} {'params M':>8s} {'train s':>8s} "
          f"{'hidden acc':>10s} {'peak MiB':>9s} {'device':>8s}")
    for mode in modes:
        quick = mode == "quick"
        start = time.perf_counter()
        record = grade_notebook(pack, NOTEBOOK, seed=1, sandbox=box, quick=quick, hf_cache=cache)
        wall = time.perf_counter() - start
        for model in record.run["models"]:
            peak = model["peak_memory_bytes"]
            acc = model["reevaluated_accuracy"]
            params = model.get("parameters") or 0
            print(f"{mode:5s} {model['question']:8s} {str(model['architecture']):36s} "
                  f"{params / 1e6:8.1f} {model['train_seconds'] or 0:8.1f} "
                  f"{acc if acc is not None else 0:10.3f} "
                  f"{(peak or 0) / 2**20:9.0f} {str(record.run['device']):>8s}")
        print(f"{mode:5s} whole grading (kernel start, Part 1 probes, training, "
              f"re-evaluation): {wall:.1f} s; score {record.score}/{record.max_score}",
              flush=True)
        result["runs"].append({
            "mode": mode, "wall_seconds": round(wall, 2), "score": record.score,
            "max_score": record.max_score, "device": record.run["device"],
            "models": record.run["models"], "limits_hit": record.run["limits_hit"],
            "cell_errors": record.run["cell_errors"], "sandbox": record.run["sandbox"]})
        save()


if __name__ == "__main__":
    main()
