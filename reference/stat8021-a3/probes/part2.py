"""Probes for Part 2: look at the student's data and models, inside the student's kernel.

Why so small, again: this runs next to the student's code. It holds no labels, no
expected accuracy and no comparison. `processed_samples` hands back the first
training samples as the student prepared them; `predict` gives texts to the
student's fine-tuned model and hands back its predicted class ids. The grader, outside
the kernel, holds the labels and computes the accuracy. It imports only torch and
transformers, which the notebook already has.

A case carries its settings: `model` / `tokenizer` (the names the template fixes),
`family` or `family_not` (the model type the question asks for, to find a model the
student named differently), and for `predict` the `texts` to classify.
"""

import resource

import torch


def _pretrained_model_class():
    from transformers import PreTrainedModel

    return PreTrainedModel


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
    named = student.value(case["model"], None)
    base = _pretrained_model_class()
    if isinstance(named, base) and _fits(named, case):
        return case["model"], named
    found = [(name, value) for name, value in student.instances(base) if _fits(value, case)]
    if not found:
        wanted = case.get("family") or f"not {case.get('family_not')}"
        raise LookupError(
            f"no fine-tuned model found: `{case['model']}` is not a {case['num_labels']}-label "
            f"classifier ({wanted}), and no other variable holds one")
    return found[-1]


def _find_tokenizer(student, case, model):
    """The tokenizer by the template's name, else one whose vocabulary fits the model."""
    from transformers import PreTrainedTokenizerBase

    vocab = getattr(model.config, "vocab_size", None)
    named = student.value(case.get("tokenizer") or "", None)
    if isinstance(named, PreTrainedTokenizerBase) and len(named) <= (vocab or len(named)):
        return named
    for _name, value in student.instances(PreTrainedTokenizerBase):
        if vocab is None or len(value) <= vocab:
            return value
    raise LookupError(f"no tokenizer found for the model: `{case.get('tokenizer')}` is missing")


def _not_library(model):
    """Why the model is not the library's own classifier running the library's forward, or
    "" when it is: a subclass defined in the notebook, a forward replaced on the class, an
    instance or a submodule, or forward hooks that can rewrite what it computes."""
    import inspect

    import transformers

    cls = type(model)
    if getattr(transformers, cls.__name__, None) is not cls or \
            not cls.__module__.startswith("transformers."):
        return f"`{cls.__name__}` is defined in your notebook, not by transformers"
    for name, module in model.named_modules():
        where = f"`{name}`" if name else "the model"
        kind = type(module)
        if not kind.__module__.startswith(("transformers.", "torch.")):
            return f"{where} is a `{kind.__name__}` defined in your notebook"
        if "forward" in vars(module):
            return f"{where} has its own `forward` assigned on it"
        try:
            source = inspect.getfile(kind.forward)
        except TypeError:
            source = ""
        if "/transformers/" not in source and "/torch/" not in source:
            return f"the `forward` of {where} ({kind.__name__}) was replaced"
        if module._forward_hooks or module._forward_pre_hooks:
            return f"{where} has forward hooks that can change its outputs"
    from torch.nn.modules import module as torch_module

    if torch_module._global_forward_hooks or torch_module._global_forward_pre_hooks:
        return "global forward hooks are installed"
    return ""


def _distance_from_checkpoint(model):
    """Relative L2 distance of the encoder's weights from the checkpoint they came from
    (the classification head aside), or None when the checkpoint cannot be loaded."""
    name = getattr(model.config, "_name_or_path", "")
    if not name:
        return None
    try:
        start = type(model).from_pretrained(name, num_labels=model.config.num_labels)
    except Exception:  # noqa: BLE001 - no checkpoint to compare with: say so, not fail
        return None
    before = start.state_dict()
    moved = total = 0.0
    with torch.no_grad():
        for key, value in model.state_dict().items():
            old = before.get(key)
            if old is None or old.shape != value.shape or "classifier" in key:
                continue
            old, new = old.double(), value.detach().to("cpu").double()
            moved += float((new - old).pow(2).sum())
            total += float(old.pow(2).sum())
    return (moved / total) ** 0.5 if total else None


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


def predict(student, case):
    """Class ids the student's model predicts for `case["texts"]`, batch by batch."""
    name, model = _find_model(student, case)
    not_library = _not_library(model)
    if not_library:
        raise TypeError(f"the model `{name}` must be the library's classifier fine-tuned, "
                        f"not code of your own: {not_library}")
    tokenizer = _find_tokenizer(student, case, model)
    device = next(model.parameters()).device
    was_training = model.training
    model.eval()
    predictions = []
    texts = list(case["texts"])
    try:
        with torch.no_grad():
            for start in range(0, len(texts), case["batch_size"]):
                enc = tokenizer(texts[start:start + case["batch_size"]], truncation=True,
                                padding=True, max_length=case["max_length"],
                                return_tensors="pt")
                logits = model(input_ids=enc["input_ids"].to(device),
                               attention_mask=enc["attention_mask"].to(device)).logits
                predictions.append(logits.argmax(-1).to("cpu"))
    finally:
        model.train(was_training)
    info = {"model_name": name, "class": type(model).__name__, "model_type": _model_type(model),
            "parameters": sum(p.numel() for p in model.parameters()),
            "device": str(device), "tokenizer": type(tokenizer).__name__,
            "kernel_peak_rss_bytes": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024,
            "weight_distance": _distance_from_checkpoint(model)}
    if device.type == "cuda":
        info["device_name"] = torch.cuda.get_device_name(device)
        info["cuda_peak_bytes"] = torch.cuda.max_memory_allocated(device)
    out = torch.cat(predictions) if predictions else torch.zeros(0, dtype=torch.long)
    return {"predictions": out, "__info__": info}
