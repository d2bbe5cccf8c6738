"""Probe cases as data: the file format shared by packs, the grader and the kernel harness.

A case is a plain dict `{"name", "tensors", "params"}`. On disk (safetensors, never
pickle) tensors are keyed `<target>/<case>/in/<name>` for inputs and
`<target>/<case>/out/<name>` for expected outputs; the params of every case sit in
the metadata as JSON (`{"params": {target: {case: {...}}}, "format": "grader.cases/1"}`).
The files the kernel receives hold one check's inputs only, keyed `<case>/in/<name>`.

Cases are a pack author's code, so what is wrong with them is a `PackError` naming the
target and the case, never a traceback from deep in the grader: a case that is not a
dict of tensors and JSON params, a `hidden_cases` or `run_<target>` that raises, a demo
file of another format. Tensors are cloned before saving: a self-attention case that
passes one tensor as query, key and value (or two views of one tensor) would otherwise
stop safetensors with "Some tensors share memory".
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from types import ModuleType
from typing import Any

import torch
from safetensors import safe_open
from safetensors.torch import save_file

from grader.pack import PackError

FORMAT = "grader.cases/1"

Case = dict[str, Any]
Outputs = dict[str, torch.Tensor]


def read_demo(path: Path) -> tuple[dict[str, list[Case]], dict[str, dict[str, Outputs]]]:
    """Public demo cases and their expected outputs, by target then case name."""
    try:
        with safe_open(str(path), framework="pt") as fh:
            meta = fh.metadata() or {}
            if meta.get("format") != FORMAT:
                raise ValueError(f"not a {FORMAT} file (its metadata says format "
                                 f"{meta.get('format')!r})")
            params = json.loads(meta["params"])
            raw = {key: fh.get_tensor(key) for key in fh.keys()}  # noqa: SIM118 - not a dict
    except Exception as exc:  # noqa: BLE001 - any unreadable demo file is the author's slip
        raise PackError("assignment.demo", f"{path.name}: {exc}") from None
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


def write_inputs(path: Path, cases: Iterable[Case], target: str = "") -> None:
    """One check's cases for the kernel: inputs only, never expected outputs."""
    tensors: dict[str, torch.Tensor] = {}
    params: dict[str, Any] = {}
    for i, case in enumerate(cases):
        checked(case, _where(target, i, case))
        params[case["name"]] = case["params"]
        for key, value in case["tensors"].items():
            tensors[f"{case['name']}/in/{key}"] = value.detach().clone().contiguous()
    save_file(tensors, str(path), metadata={"params": json.dumps(params), "format": FORMAT})


def write_demo(path: Path, cases: dict[str, list[Case]],
               expected: dict[str, dict[str, Outputs]]) -> None:
    """A pack's public demo file: cases and expected outputs by target (what `read_demo`
    reads back), every tensor cloned, so cases may share tensors."""
    tensors: dict[str, torch.Tensor] = {}
    params: dict[str, dict[str, Any]] = {}
    for target, target_cases in cases.items():
        for i, case in enumerate(target_cases):
            checked(case, _where(target, i, case))
            name = case["name"]
            params.setdefault(target, {})[name] = case["params"]
            for key, value in case["tensors"].items():
                tensors[f"{target}/{name}/in/{key}"] = value.detach().clone().contiguous()
            for key, value in expected.get(target, {}).get(name, {}).items():
                tensors[f"{target}/{name}/out/{key}"] = value.detach().clone().contiguous()
    save_file(tensors, str(path), metadata={"params": json.dumps(params), "format": FORMAT})


def _where(target: str, index: int, case: Any) -> str:
    name = case.get("name") if isinstance(case, dict) else None
    return f"cases of {target or '?'}[{index}]" + (f" ({name!r})" if isinstance(name, str)
                                                   else "")


def checked(case: Any, where: str) -> Case:
    """`case` if it is one (a str name, a dict of tensors, JSON params); else a PackError."""
    if not isinstance(case, dict):
        raise PackError(where, f"a case is a dict with name, tensors and params, not a "
                        f"{type(case).__name__}")
    missing = [k for k in ("name", "tensors", "params") if k not in case]
    if missing:
        raise PackError(where, f"missing {', '.join(missing)}")
    if not isinstance(case["name"], str) or not case["name"] or "/" in case["name"]:
        raise PackError(where, "name must be a non-empty string without '/'")
    if not isinstance(case["tensors"], dict) or not all(
            isinstance(k, str) and isinstance(v, torch.Tensor) for k, v in case["tensors"].items()):
        bad = next((k for k, v in case["tensors"].items() if not isinstance(v, torch.Tensor)),
                   None) if isinstance(case["tensors"], dict) else None
        raise PackError(where, "tensors must map names to torch tensors" +
                        (f" ({bad!r} is not a tensor: put numbers in params)" if bad else ""))
    try:
        json.dumps(case["params"], allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise PackError(where, f"params must be plain JSON ({exc})") from None
    if not isinstance(case["params"], dict):
        raise PackError(where, "params must be a dict")
    return case


def draw_hidden(ref: ModuleType, target: str, gen: torch.Generator, prefix: str
                ) -> tuple[list[Case], dict[str, Outputs]]:
    """The reference's hidden cases of `target` (names prefixed) and their expected
    outputs; whatever goes wrong in the author's code is a PackError naming where."""
    make = getattr(ref, "hidden_cases", None)
    run = getattr(ref, f"run_{target}", None)
    if make is None:
        raise PackError("assignment.reference", "the reference defines no hidden_cases")
    if run is None:
        raise PackError("assignment.reference", f"the reference defines no run_{target}")
    try:
        drawn = make(target, gen)
    except Exception as exc:  # noqa: BLE001 - the author's code, reported as theirs
        raise PackError(f"hidden_cases({target!r})", f"raised {type(exc).__name__}: {exc}"
                        ) from None
    if not isinstance(drawn, list | tuple):
        raise PackError(f"hidden_cases({target!r})", f"returned a {type(drawn).__name__}, "
                        "not a list of cases")
    hidden = [{**checked(case, _where(target, i, case)), "name": prefix + case["name"]}
              for i, case in enumerate(drawn)]
    names = [c["name"] for c in hidden]
    if len(set(names)) != len(names):
        raise PackError(f"hidden_cases({target!r})", f"case names repeat: {names}")
    outputs: dict[str, Outputs] = {}
    for case in hidden:
        try:
            result = run(case)
        except Exception as exc:  # noqa: BLE001
            raise PackError(f"run_{target}({case['name']!r})",
                            f"raised {type(exc).__name__}: {exc}") from None
        if not isinstance(result, dict) or not all(isinstance(v, torch.Tensor)
                                                   for v in result.values()):
            raise PackError(f"run_{target}({case['name']!r})",
                            "must return a dict of output name -> tensor")
        outputs[case["name"]] = {k: v.detach() for k, v in result.items()}
    return hidden, outputs


def flat(case: Case) -> dict[str, Any]:
    """A case as the probes and the reference see it: tensors and params in one dict."""
    return {**case["params"], **case["tensors"]}
