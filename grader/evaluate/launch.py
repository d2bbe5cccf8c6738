"""Start the clean evaluator (`clean.py`) in a fresh sandbox and read back what it found.

The sandbox is the kernels' own (`grader.run.sandbox.Sandbox`: bubblewrap, no network, a
throwaway uid, rlimits) with the pack's interpreter and the model cache read-only; only
the command differs: a script instead of a kernel. What goes in is data the grader holds:
the exported weights as safetensors, the texts to classify, the checkpoints the pack
names. What comes out is one JSON file, bounded and typed before it is used. Nothing of
the student's code runs in it, so the hidden texts may go in: there is no one there to
read them.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from grader.run.limits import Limits
from grader.run.sandbox import Sandbox, gpus_from_env

SCRIPT = Path(__file__).with_name("clean.py")
MAX_RESULT_BYTES = 4 << 20
"""The evaluator's JSON: predictions for a few thousand texts, and names."""
TIMEOUT = 600.0
"""Seconds the evaluation may take (model load, a few thousand texts on one CPU thread)."""


@dataclass
class ModelJob:
    """One model to evaluate: which library class (by model type and label count) and the
    checkpoints it may come from (the pack's, in order)."""

    model_type: str
    num_labels: int
    candidates: list[str]
    batch_size: int = 64
    max_length: int = 128
    peft: dict[str, Any] | None = None


@dataclass
class Job:
    """Every model of one submission (one start of the libraries), and the texts by role."""

    models: dict[str, ModelJob]
    texts: dict[str, list[str]]

    def to_json(self) -> str:
        return json.dumps({"models": {k: m.__dict__ for k, m in self.models.items()},
                           "texts": self.texts})


class Tried(BaseModel):
    model_config = ConfigDict(extra="forbid")
    checkpoint: str
    missing: list[str]
    unknown: list[str]
    shapes: list[str]
    dtypes: list[str]
    missing_count: int
    unknown_count: int


class ModelResult(BaseModel):
    """What the evaluator found of one model (clean.py's `evaluate_one`), typed at the edge."""

    model_config = ConfigDict(extra="forbid")
    status: Literal["ok", "not_evaluable", "error"]
    why: str = ""
    device: str = "cpu"
    device_name: str | None = None
    checkpoint: str | None = None
    architecture: str | None = None
    tokenizer: str | None = None
    tokenizer_size: int | None = None
    library_tokenizers: list[str] = Field(default_factory=list)
    predictions: dict[str, list[int]] = Field(default_factory=dict)
    distances: dict[str, float | None] = Field(default_factory=dict)
    weight_distance: float | None = None
    tried: list[Tried] = Field(default_factory=list)
    peft_merged: bool = False
    load_seconds: float | None = None
    predict_seconds: float | None = None


class Result(BaseModel):
    """What the evaluator writes (clean.py's `evaluate`)."""

    model_config = ConfigDict(extra="forbid")
    status: Literal["ok", "error"]
    why: str = ""
    import_seconds: float | None = None
    models: dict[str, ModelResult] = Field(default_factory=dict)
    seconds: float | None = None
    """Wall time of the whole evaluation, sandbox start included (set by the grader)."""
    sandbox: str = ""


def evaluator_box(kind: str, python: str, hf_cache: Path | None,
                  gpus: tuple[str, ...] | None = None) -> Sandbox:
    """The sandbox the evaluator runs in: bwrap when the kernels ran in it, else none (a
    student's own laptop, `--sandbox none`), with the given interpreter and cache."""
    box = Sandbox.create("bwrap") if kind == "bwrap" else Sandbox(kind="none")
    # absolute and normalised, not resolved: a venv's python is a link to its base
    # interpreter, and the sandbox binds only the trees the interpreter names
    return replace(box, python=os.path.normpath(os.path.abspath(python)),
                   gpus=gpus_from_env() if gpus is None else gpus,
                   hf_cache=str(hf_cache) if hf_cache is not None and hf_cache.is_dir()
                   else None)


def _command(box: Sandbox, argv: list[str], script: str, io: str) -> list[str]:
    """The sandbox's kernel command with the kernel replaced by the evaluator script."""
    for i in range(len(argv) - 2):
        if argv[i] == box.python and argv[i + 1:i + 3] == ["-m", "ipykernel_launcher"]:
            return [*argv[:i], box.python, script, io]
    raise RuntimeError("the sandbox's command has no kernel to replace")


def run(job: Job, states: dict[str, dict[str, Any]], box: Sandbox, limits: Limits,
        timeout: float = TIMEOUT) -> Result:
    """Evaluate each model's state dict (`states`: model -> name -> tensor) as `job` says,
    in `box`. Weights that do not fit are that model's `not_evaluable` result; a failure
    of the evaluator itself is an `error` result, never an exception."""
    from safetensors.torch import save_file

    from grader.run.payload import BadPayload, parse_json, read_bounded

    started = time.perf_counter()
    root = Path(tempfile.mkdtemp(prefix="grader-eval-"))
    proc: subprocess.Popen[bytes] | None = None
    try:
        paths = box.prepare(root)
        box.open_io(paths)
        inside = paths.io / "in"
        # cloned: tensors sharing memory (tied weights) cannot be saved as they are
        save_file({f"{model}/{k}": v.detach().to("cpu").contiguous().clone()
                   for model, state in states.items() for k, v in state.items()},
                  str(inside / "weights.safetensors"))
        (inside / "job.json").write_text(job.to_json(), encoding="utf-8")
        shutil.copyfile(SCRIPT, inside / "clean.py")
        for file in inside.iterdir():
            file.chmod(0o644)
        io_mount = paths.io_mount
        argv = _command(box, box.kernel_argv(paths, limits), f"{io_mount}/in/clean.py",
                        io_mount)
        log = (root / "evaluator.log").open("wb")
        proc = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True)
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return Result(status="error", why=f"the evaluation took over {timeout:.0f} s",
                          sandbox=box.kind)
        finally:
            log.close()
        try:
            data = read_bounded(paths.io / "out" / "result.json", MAX_RESULT_BYTES)
            if data is None:
                tail = (root / "evaluator.log").read_bytes()[-600:].decode("utf-8", "replace")
                return Result(status="error", sandbox=box.kind,
                              why=f"the evaluator wrote nothing (exit {proc.returncode}): "
                                  f"{tail.strip()[-300:]}")
            result = Result.model_validate(parse_json(data, "result.json"))
        except (BadPayload, ValueError) as exc:
            return Result(status="error", why=f"the evaluator's result is unreadable: {exc}",
                          sandbox=box.kind)
        return result.model_copy(update={"seconds": round(time.perf_counter() - started, 3),
                                         "sandbox": box.kind})
    finally:
        if proc is not None and proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        box.kill_leftovers()
        shutil.rmtree(root, ignore_errors=True)
