"""Write `public/part1_demo.safetensors`: the demo inputs and the reference outputs.

Why: students check their Part 1 code in the notebook against numbers we computed, without
ever seeing the reference code. The file goes into the kernel's scratch folder with the
rest of `public/`, so it holds only the fixed demo cases, never the hidden ones.

Layout (format "grader.cases/1"):

- `{target}/{case}/in/{tensor}`: an input (float32; a mask is bool);
- `{target}/{case}/out/{output}`: the reference output for that case;
- metadata `params`: JSON `{target: {case: {param: value}}}`, the scalar settings.

Run from anywhere: `python reference/stat8021-a3/private/make_public.py`. The output is
byte-for-byte the same on every run (fixed seed, sorted keys), so a rebuild leaves git clean.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import torch
from safetensors.torch import save

PACK = Path(__file__).resolve().parents[1]
OUT = PACK / "public" / "part1_demo.safetensors"
FORMAT = "grader.cases/1"


def load_reference() -> ModuleType:
    """Import `private/reference.py` by path: the pack is a folder, not an installed package."""
    path = PACK / "private" / "reference.py"
    spec = importlib.util.spec_from_file_location("stat8021_a3_reference", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def build(reference: ModuleType) -> tuple[dict[str, torch.Tensor], dict[str, str]]:
    """Every demo case's inputs and reference outputs, and the metadata naming its params."""
    tensors: dict[str, torch.Tensor] = {}
    params: dict[str, dict[str, dict[str, object]]] = {}
    for target, cases in reference.demo_cases().items():
        run = getattr(reference, f"run_{target}")
        for case in cases:
            name = case["name"]
            for key, t in case["tensors"].items():
                # A copy: the masked demo cases share their inputs with the unmasked ones,
                # and safetensors refuses tensors that share memory.
                tensors[f"{target}/{name}/in/{key}"] = t.detach().clone().contiguous()
            for key, t in run(case).items():
                tensors[f"{target}/{name}/out/{key}"] = t.float().contiguous()
            params.setdefault(target, {})[name] = dict(case["params"])
    for key, t in tensors.items():
        assert t.dtype in (torch.float32, torch.bool), f"{key}: unexpected dtype {t.dtype}"
    metadata = {"params": json.dumps(params, sort_keys=True), "format": FORMAT}
    return dict(sorted(tensors.items())), metadata


def canonical(blob: bytes) -> bytes:
    """The same safetensors file with its JSON header's keys sorted.

    safetensors keeps the metadata in a hash map, so the order of `format` and `params` in
    the header changes from run to run; sorting makes the bytes reproducible. The header
    is padded with spaces to a multiple of 8 bytes, as safetensors itself does.
    """
    size = int.from_bytes(blob[:8], "little")
    header = json.loads(blob[8 : 8 + size])
    text = json.dumps(header, sort_keys=True, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)
    return len(text).to_bytes(8, "little") + text + blob[8 + size :]


def main() -> int:
    tensors, metadata = build(load_reference())
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_bytes(canonical(save(tensors, metadata=metadata)))
    print(f"wrote {OUT.relative_to(PACK.parent.parent)}: {len(tensors)} tensors")
    return 0


if __name__ == "__main__":
    sys.exit(main())
