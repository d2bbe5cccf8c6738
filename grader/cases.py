"""Probe cases as data: the file format shared by packs, the grader and the kernel harness.

A case is a plain dict `{"name", "tensors", "params"}`. On disk (safetensors, never
pickle) tensors are keyed `<target>/<case>/in/<name>` for inputs and
`<target>/<case>/out/<name>` for expected outputs; the params of every case sit in
the metadata as JSON (`{"params": {target: {case: {...}}}, "format": "grader.cases/1"}`).
The files the kernel receives hold one check's inputs only, keyed `<case>/in/<name>`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import torch
from safetensors import safe_open
from safetensors.torch import save_file

FORMAT = "grader.cases/1"

Case = dict[str, Any]
Outputs = dict[str, torch.Tensor]


def read_demo(path: Path) -> tuple[dict[str, list[Case]], dict[str, dict[str, Outputs]]]:
    """Public demo cases and their expected outputs, by target then case name."""
    with safe_open(str(path), framework="pt") as fh:
        meta = fh.metadata() or {}
        if meta.get("format") != FORMAT:
            raise ValueError(f"{path}: not a {FORMAT} file")
        params = json.loads(meta["params"])
        raw = {key: fh.get_tensor(key) for key in fh.keys()}  # noqa: SIM118 - not a dict
    cases: dict[str, list[Case]] = {}
    expected: dict[str, dict[str, Outputs]] = {}
    for target, by_case in params.items():
        for name, case_params in by_case.items():
            prefix = f"{target}/{name}/"
            tensors = {k[len(prefix) + 3:]: v for k, v in raw.items() if k.startswith(prefix + "in/")}
            outs = {k[len(prefix) + 4:]: v for k, v in raw.items() if k.startswith(prefix + "out/")}
            cases.setdefault(target, []).append({"name": name, "tensors": tensors,
                                                 "params": case_params})
            expected.setdefault(target, {})[name] = outs
    return cases, expected


def write_inputs(path: Path, cases: Iterable[Case]) -> None:
    """One check's cases for the kernel: inputs only, never expected outputs."""
    tensors: dict[str, torch.Tensor] = {}
    params: dict[str, Any] = {}
    for case in cases:
        params[case["name"]] = case["params"]
        for key, value in case["tensors"].items():
            tensors[f"{case['name']}/in/{key}"] = value.detach().contiguous()
    save_file(tensors, str(path), metadata={"params": json.dumps(params), "format": FORMAT})


def flat(case: Case) -> dict[str, Any]:
    """A case as the probes and the reference see it: tensors and params in one dict."""
    return {**case["params"], **case["tensors"]}
