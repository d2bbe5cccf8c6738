"""The clean evaluator: run as a script in a fresh sandboxed process, never in a kernel.

    python clean.py IO        # reads IO/in/job.json and IO/in/weights.safetensors
                              # (each model's tensors under `<model>/`), writes
                              # IO/out/result.json

Why a process of its own: the student's kernel can replace anything in it (a tokenizer
whose `__call__` classifies, a `forward` compiled under the library's file name, a
stand-in module in `sys.modules`), so Part 2's accuracy is computed where none of the
student's code ever ran. This process imports only the pack environment's torch,
transformers and safetensors, reads the weights with safetensors (no pickle), builds the
library's classifier from the *pack's* checkpoint config (never from the student's),
loads the weights with their names, shapes and dtypes checked, tokenizes with the pack's
tokenizer from the offline cache, and predicts. It also measures how far the encoder
moved from every checkpoint it fits, so editing `config._name_or_path` changes nothing.

Self-contained on purpose: the grader package is not importable here (the sandbox sees
the pack's interpreter and the model cache, nothing of the grader).
"""

import json
import math
import os
import sys
import time

MODEL_KEYS = {"model_type", "num_labels", "candidates", "batch_size", "max_length", "peft"}


def _fail(out, why, **facts):
    out.update(status="not_evaluable", why=why, **facts)
    return out


def _merge_peft(state, peft, torch):
    """A PEFT model's state dict as the base model's: LoRA deltas merged into their base
    weights (scaling alpha/r, or alpha/sqrt(r) for rsLoRA), `modules_to_save` copies used,
    the `base_model.model.` prefix and `.base_layer` wrappers dropped."""
    r, alpha = peft.get("lora_r"), peft.get("lora_alpha")
    if not isinstance(r, int) or r <= 0 or not isinstance(alpha, (int, float)):
        raise ValueError("a PEFT model without a LoRA rank and alpha")
    scaling = alpha / (math.sqrt(r) if peft.get("lora_rslora") else r)
    adapter = peft.get("peft_adapter") or "default"
    base, lora_a, lora_b = {}, {}, {}
    for key, value in state.items():
        name = key[len("base_model.model."):] if key.startswith("base_model.model.") else key
        if f".lora_A.{adapter}." in name:
            lora_a[name.replace(f".lora_A.{adapter}.", ".")] = value
        elif f".lora_B.{adapter}." in name:
            lora_b[name.replace(f".lora_B.{adapter}.", ".")] = value
        elif f".modules_to_save.{adapter}." in name:
            base[name.replace(f".modules_to_save.{adapter}.", ".")] = value
        elif ".original_module." in name or ".lora_" in name:
            continue
        else:
            base.setdefault(name.replace(".base_layer.", "."), value)
    for name, a in lora_a.items():
        if name not in lora_b or name not in base:
            raise ValueError(f"LoRA weights for `{name}` without their pair or base weight")
        base[name] = base[name].float() + (lora_b[name].float() @ a.float()) * scaling
    return base


def _fit(model, state, torch):
    """Problems of `state` against the model built from the checkpoint's config: names
    missing or unknown, shapes that differ, dtypes that are not the parameter's kind."""
    own = model.state_dict()
    missing = sorted(set(own) - set(state))
    unknown = sorted(set(state) - set(own))
    shapes, dtypes = [], []
    for key in sorted(set(own) & set(state)):
        if tuple(own[key].shape) != tuple(state[key].shape):
            shapes.append(f"{key} {list(state[key].shape)} (the config's: {list(own[key].shape)})")
        elif own[key].is_floating_point() != state[key].is_floating_point():
            dtypes.append(f"{key} {str(state[key].dtype).replace('torch.', '')}")
    return {"missing": missing[:20], "unknown": unknown[:20], "shapes": shapes[:20],
            "dtypes": dtypes[:20], "missing_count": len(missing), "unknown_count": len(unknown)}


def _distance(state, start):
    """Relative L2 distance of the encoder's weights from the checkpoint's (classification
    head aside)."""
    moved = total = 0.0
    for key, old in start.items():
        new = state.get(key)
        if new is None or "classifier" in key or new.shape != old.shape \
                or not old.is_floating_point():
            continue
        old, new = old.double(), new.double()
        moved += float((new - old).pow(2).sum())
        total += float(old.pow(2).sum())
    return (moved / total) ** 0.5 if total else None


def _library_tokenizers(names):
    """The tokenizer class names transformers has for a model type, slow and fast."""
    names = [names] if isinstance(names, str) else [n for n in names or () if n]
    found = []
    for name in names:
        base = name[:-4] if name.endswith("Fast") else name
        found += [base, base + "Fast"]
    return sorted(set(found))


def evaluate_one(spec, state, texts, libs):
    """One model: the first checkpoint of the model's type whose classifier its weights fit
    exactly, then its tokenizer and predictions; the distance from every fitting one."""
    torch = libs["torch"]
    auto_config, auto_model, auto_tokenizer = libs["config"], libs["model"], libs["tokenizer"]
    started = time.perf_counter()
    out = {"status": "ok", "device": "cpu",
           "library_tokenizers": _library_tokenizers(libs["names"].get(spec["model_type"]))}
    if spec.get("peft"):
        try:
            state = _merge_peft(state, spec["peft"], torch)
        except ValueError as exc:
            return _fail(out, f"its PEFT adapter cannot be merged: {exc}")
        out["peft_merged"] = True
    fitting, tried = [], []
    for name in spec["candidates"]:
        try:
            config = auto_config.from_pretrained(name, local_files_only=True)
        except (OSError, ValueError):
            continue
        if config.model_type != spec["model_type"]:
            continue
        config.num_labels = spec["num_labels"]
        torch.manual_seed(0)
        model = auto_model.from_config(config)
        problems = _fit(model, state, torch)
        tried.append({"checkpoint": name, **problems})
        if not any(problems[k] for k in ("missing", "unknown", "shapes", "dtypes")):
            fitting.append((name, config, model))
    if not fitting:
        return _fail(out, "its weights are not those of the library's classifier for any "
                     f"checkpoint of type `{spec['model_type']}` the pack names",
                     tried=tried[:3])
    name, config, model = fitting[0]
    own = model.state_dict()
    model.load_state_dict({k: v.to(own[k].dtype) for k, v in state.items()}, strict=True)
    distances = {}
    for other, _config, _model in fitting:
        try:
            start = auto_model.from_pretrained(other, num_labels=spec["num_labels"],
                                               local_files_only=True)
        except (OSError, ValueError):
            continue
        distances[other] = _distance(state, start.state_dict())
        del start
    tokenizer = auto_tokenizer.from_pretrained(name, local_files_only=True)
    vocab = getattr(config, "vocab_size", None)
    if vocab is not None and len(tokenizer) > vocab:
        return _fail(out, f"the checkpoint's tokenizer ({len(tokenizer)} tokens) is larger "
                     f"than its model's vocabulary ({vocab})")
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model.to(device).eval()
    loaded = time.perf_counter()
    predictions = {}
    size = spec["batch_size"]
    with torch.no_grad():
        for role, items in texts.items():
            found = []
            for at in range(0, len(items), size):
                enc = tokenizer(items[at:at + size], truncation=True, padding=True,
                                max_length=spec["max_length"], return_tensors="pt")
                logits = model(input_ids=enc["input_ids"].to(device),
                               attention_mask=enc["attention_mask"].to(device)).logits
                found.extend(int(i) for i in logits.argmax(-1).tolist())
            predictions[role] = found
    distance = [d for d in distances.values() if d is not None]
    out.update(checkpoint=name, architecture=type(model).__name__,
               tokenizer=type(tokenizer).__name__, tokenizer_size=len(tokenizer),
               predictions=predictions, distances=distances,
               weight_distance=min(distance) if distance else None,
               device=device.type,
               device_name=torch.cuda.get_device_name(device) if device.type == "cuda" else None,
               load_seconds=round(loaded - started, 3),
               predict_seconds=round(time.perf_counter() - loaded, 3))
    return out


def evaluate(io):
    """Every model of the job, with one import of the libraries."""
    started = time.perf_counter()
    import torch
    from safetensors.torch import load_file
    from transformers import AutoConfig, AutoModelForSequenceClassification, AutoTokenizer
    from transformers.models.auto.tokenization_auto import TOKENIZER_MAPPING_NAMES

    libs = {"torch": torch, "config": AutoConfig, "model": AutoModelForSequenceClassification,
            "tokenizer": AutoTokenizer, "names": TOKENIZER_MAPPING_NAMES}
    with open(os.path.join(io, "in", "job.json"), encoding="utf-8") as fh:
        job = json.load(fh)
    unknown = set(job) - {"models", "texts"}
    if unknown:
        raise ValueError(f"unknown job keys {sorted(unknown)}")
    weights = load_file(os.path.join(io, "in", "weights.safetensors"))
    imported = round(time.perf_counter() - started, 3)
    models = {}
    for key, spec in job["models"].items():
        unknown = set(spec) - MODEL_KEYS
        if unknown:
            raise ValueError(f"unknown model keys {sorted(unknown)}")
        prefix = f"{key}/"
        state = {k[len(prefix):]: v for k, v in weights.items() if k.startswith(prefix)}
        models[key] = evaluate_one(spec, state, job["texts"], libs)
    return {"status": "ok", "import_seconds": imported, "models": models}


def main(argv):
    io = argv[1]
    try:
        out = evaluate(io)
    except Exception as exc:  # noqa: BLE001 - the grader reads the reason
        out = {"status": "error", "why": f"{type(exc).__name__}: {str(exc)[:300]}"}
    tmp = os.path.join(io, "out", "result.json.tmp")
    with open(tmp, "w", encoding="utf-8") as fh:
        json.dump(out, fh)
    os.replace(tmp, os.path.join(io, "out", "result.json"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
