"""Probes for Part 2: hand the student's data and model weights out, inside the kernel.

Why so small, again: this runs next to the student's code, and nothing it could say
about itself is trusted. `processed_samples` hands back the first training samples as
the student prepared them. `export_model` hands back the fine-tuned model as data: its
weights (the state dict, piece by piece) and a few names (class, model type, label
count, the tokenizer's name and size). It predicts nothing: a clean evaluator outside
the kernel, which never ran the student's code, builds the library's class from the
pack's checkpoint, loads these weights, tokenizes the hidden texts with the pack's
tokenizer and predicts (grader/evaluate/). So a tokenizer that classifies, a replaced
`forward`, a stand-in module that rewrites a list in a caller's frame, or a forged file
name, changes nothing of what is scored: they are not in the weights.

This file imports nothing at probe time: a notebook can put what it likes in
`sys.modules`. It uses the `torch` the harness hands it (loaded before the student's
first cell) and calls only the model's `state_dict`, whose result is data checked
outside (names, shapes and dtypes against the checkpoint's config).

A case carries its settings: `model` / `tokenizer` (the names the template fixes),
`family` or `family_not` (the model type the question asks for, to find a model the
student named differently), and for `export_model` which piece of the weights it hands
back (`shard` of `shards`, each case `part` of it).
"""

torch = globals()["torch"]  # the harness's (tests pass theirs); never `import` here


def _model_type(model):
    return str(getattr(getattr(model, "config", None), "model_type", ""))


def _fits(model, case):
    """A classifier with the question's label count and of the family the question wants."""
    config = getattr(model, "config", None)
    if config is None or getattr(config, "num_labels", None) != case["num_labels"]:
        return False
    kind = _model_type(model)
    if case.get("family") and kind != case["family"]:
        return False
    return not (case.get("family_not") and kind == case["family_not"])


def _find_model(student, case):
    """The model by the template's name; else the one classifier in the namespace that fits."""
    module = torch.nn.Module
    named = student.value(case["model"], None)
    if isinstance(named, module) and _fits(named, case):
        return case["model"], named
    found = [(name, value) for name, value in student.instances(module) if _fits(value, case)]
    if not found:
        wanted = case.get("family") or f"not {case.get('family_not')}"
        raise LookupError(
            f"no fine-tuned model found: `{case['model']}` is not a {case['num_labels']}-label "
            f"classifier ({wanted}), and no other variable holds one")
    return found[-1]


def _tokenizer_facts(student, case):
    """The tokenizer's class, name and size, as names: shown to the TA, never used to
    tokenize (the evaluator uses the pack's tokenizer)."""
    named = student.value(case.get("tokenizer") or "", None)
    if named is None:
        return {"tokenizer": None}
    facts = {"tokenizer": type(named).__name__,
             "tokenizer_name": str(getattr(named, "name_or_path", ""))[:64]}
    try:
        facts["tokenizer_size"] = int(len(named))
    except Exception:  # noqa: BLE001 - a tokenizer without a size says so
        facts["tokenizer_size"] = None
    return facts


def _peak_rss():
    """The kernel's peak resident memory from /proc (not from a `resource` module, which
    the notebook may have replaced in sys.modules), or None."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def _peft_facts(model):
    """For a PEFT model: the adapter's scaling settings, which the evaluator needs to merge
    its LoRA weights into the base weights; {} otherwise."""
    configs = getattr(model, "peft_config", None)
    if not isinstance(configs, dict) or not configs:
        return {}
    name = getattr(model, "active_adapter", None)
    name = name if isinstance(name, str) and name in configs else next(iter(configs))
    config = configs[name]
    return {"peft_adapter": str(name)[:64], "lora_r": getattr(config, "r", None),
            "lora_alpha": getattr(config, "lora_alpha", None),
            "lora_rslora": bool(getattr(config, "use_rslora", False)),
            "peft_type": str(getattr(config, "peft_type", ""))[:64]}


def pieces(entries, shard_bytes, case_tensors, chunk_bytes):
    """Cut a state dict into pieces that fit the probe channel: (shard, part, key, rows
    start, rows end) per piece, in key order. A tensor over `chunk_bytes` is cut into row
    ranges; a shard holds at most `shard_bytes`, a part (one case) `case_tensors` pieces.
    `entries` is (key, rows, bytes per row) per tensor. The grader's side (finetune_export)
    plans the same numbers and puts the pieces back together."""
    out, shard, part, in_shard, in_part = [], 0, 0, 0, 0
    for key, rows, row_bytes in entries:
        step = max(1, chunk_bytes // max(row_bytes, 1)) if rows else 1
        starts = range(0, rows, step) if rows else [0]
        for start in starts:
            stop = min(rows, start + step) if rows else 0
            size = max(stop - start, 1) * row_bytes
            if in_shard and in_shard + size > shard_bytes:
                shard, part, in_shard, in_part = shard + 1, 0, 0, 0
            if in_part >= case_tensors:
                part, in_part = part + 1, 0
            out.append((shard, part, key, start, stop))
            in_shard += size
            in_part += 1
    return out


def export_model(student, case):
    """One case's piece of the model's weights, and (in every case) the names the grader
    shows; tensors named `w/<key>`, or `w/<key>/rows-<start>-<stop>` for a range of rows."""
    name, model = _find_model(student, case)
    state = model.state_dict()
    entries = []
    for key, value in state.items():
        if not isinstance(value, torch.Tensor):
            raise TypeError(f"the weights of `{name}` hold `{str(key)[:60]}`, not a tensor")
        rows = int(value.shape[0]) if value.dim() else 0
        row_bytes = value.element_size() * (value[0].numel() if value.dim() else 1)
        entries.append((str(key), rows, row_bytes))
    entries.sort()
    placed = pieces(entries, case["shard_bytes"], case["case_tensors"], case["chunk_bytes"])
    last = max((p[0] for p in placed), default=0)
    config = getattr(model, "config", None)
    architectures = getattr(config, "architectures", None) or [""]
    info = {"model_name": name, "class": type(model).__name__, "model_type": _model_type(model),
            "num_labels": getattr(config, "num_labels", None),
            "architecture": str(architectures[0])[:64],
            "name_or_path": str(getattr(config, "_name_or_path", ""))[:64],
            "parameters": sum(int(v.numel()) for v in state.values()),
            "tensors": len(entries), "pieces": len(placed), "shards_needed": last + 1,
            "kernel_peak_rss_bytes": _peak_rss(), **_tokenizer_facts(student, case),
            **_peft_facts(model)}
    device = next((v.device for v in state.values()), None)
    info["device"] = device.type if device is not None else "cpu"
    if device is not None and device.type == "cuda":
        info["device_name"] = torch.cuda.get_device_name(device)
        info["cuda_peak_bytes"] = torch.cuda.max_memory_allocated(device)
    out = {"__info__": info}
    if last >= case["shards"]:
        return out  # more weights than the grader planned for: it says so, from the info
    for shard, part, key, start, stop in placed:
        if shard != case["shard"] or part != case["part"]:
            continue
        value = state[key]
        if value.dim() and (start, stop) != (0, value.shape[0]):
            out[f"w/{key}/rows-{start}-{stop}"] = value[start:stop]
        else:
            out[f"w/{key}"] = value
    return out


def processed_samples(student, case):
    """The first `count` items of the student's processed training set, as tensors."""
    dataset = student.value(case["dataset"])
    out = {}
    for i in range(case["count"]):
        item = dataset[i]
        for key in ("input_ids", "attention_mask"):
            if key not in item:
                raise KeyError(f"{case['dataset']}[{i}] has no `{key}`")
            value = item[key]
            if not isinstance(value, torch.Tensor):
                raise TypeError(f"{case['dataset']}[{i}]['{key}'] is a {type(value).__name__}, "
                                "not a tensor: set the dataset's format to torch")
            out[f"{i}/{key}"] = value
    return out
