"""What the kernel writes is the student's data: every payload is checked here before use.

The harness writes probe payloads (JSON + safetensors) and telemetry snapshots (JSON)
from inside the student's kernel, where the student's code runs beside it: a notebook
can patch what the harness uses, or rewrite a file after the harness wrote it. So
nothing read back is trusted. Each file is bounded in size before it is read, its JSON
in nesting depth before it is parsed (no `NaN`/`Infinity` tokens), and then held to a
schema of what the harness writes: known keys, typed values, short strings from known
sets, tensors that match the metadata declared for them. A payload that fails is that
probe's failure (`ProbePayload(status="invalid")`) with a message saying why, never an
exception in the grader.

Free text the kernel sends back (a student's exception message, the line it came from,
a model's class name) is cut short and scrubbed (`clean_text`): tensor reprs and runs of
numbers are dropped, and so is any stretch of a hidden input's text, so that a report
cannot carry a hidden case back to the student.
"""

from __future__ import annotations

import json
import math
import os
import re
import stat
from collections.abc import Callable, Iterable
from itertools import accumulate
from pathlib import Path
from typing import Any

MAX_PROBE_JSON_BYTES = 1 << 20
"""A probe's JSON: per-case status and output metadata (a few kB in practice)."""
MAX_SNAPSHOT_JSON_BYTES = 4 << 20
"""A telemetry snapshot (about 130 kB with torch and transformers imported)."""
MAX_TENSOR_BYTES = 64 << 20
"""A probe's safetensors file (predicted ids, attention outputs: kB to a few MB)."""
MAX_DEPTH = 16
"""Nesting depth of any JSON the kernel writes (the harness writes at most 5)."""
MAX_CASES = 1_000
MAX_OUTPUTS = 256
MAX_DIMS = 8
MAX_OPS = 256
"""Operator names kept per case (sorted; a longer list is cut and marked)."""
MAX_MESSAGE = 300
"""Characters of a message built from a student's exception."""
MAX_INFO = 32
"""Facts in a probe's `__info__`."""
MAX_INFO_TEXT = 64
"""Characters of a string fact (a class or variable name, a device name)."""
INFO_KEY = "__info__"
OPS_KEY = "ops"

DTYPES = frozenset({
    "float16", "bfloat16", "float32", "float64", "int8", "int16", "int32", "int64",
    "uint8", "uint16", "uint32", "uint64", "bool", "float8_e4m3fn", "float8_e5m2"})
INTEGER_DTYPES = frozenset({"int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                            "uint64"})
INTEGER_OUTPUTS = frozenset({"predictions", "input_ids", "attention_mask"})
"""Outputs the checks read as integers (class ids, token ids, a 0/1 mask): a float tensor
there (a `NaN` "argmax") is refused here, not met by `int()` in a check."""
ERROR_KINDS = frozenset({"missing", "signature", "not_implemented", "exception", "output",
                         "timeout"})
_NAME = re.compile(r"[A-Za-z0-9_.\-/]{1,128}")
_OP = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,31}::[A-Za-z0-9_.\-*]{1,128}")
_INFO_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,63}")
_DEVICE = re.compile(r"[a-z]{1,16}")
_IDENT = re.compile(r"[A-Za-z_<>][A-Za-z0-9_.<>]{0,99}")
_MODULE_FILE = re.compile(r"[\w][\w.\- ]{0,80}(/[\w][\w.\- ]{0,80}){0,8}\.py")
"""A student's module as the harness names it: relative to the working folder, a few
folders deep, plain names (no leading `/` or `.`, so neither the sandbox's paths nor
`..`)."""
_INFO_TEXT = re.compile(r"[^A-Za-z0-9_.:\-/ ()+,…]")


class BadPayload(ValueError):
    """A payload the grader will not use; the message says why, for the record."""


# ----------------------------------------------------------------------------------------
# reading


def read_bounded(path: Path, limit: int) -> bytes | None:
    """The file's bytes, or None when it is missing; BadPayload when it is not a plain file
    (a link, a folder, a FIFO) or is larger than `limit` (checked before reading)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise BadPayload(f"{path.name} cannot be opened as a plain file ({exc.strerror})") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise BadPayload(f"{path.name} is not a plain file")
        if info.st_size > limit:
            raise BadPayload(f"{path.name} is {info.st_size:,} bytes, over the limit of "
                             f"{limit:,}")
        chunks, left = [], limit + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        data = b"".join(chunks)
        if len(data) > limit:
            raise BadPayload(f"{path.name} grew past the limit of {limit:,} bytes while read")
        return data
    finally:
        os.close(fd)


_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")
_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"')


def json_depth(data: bytes) -> int:
    """The nesting depth of JSON text, found without parsing (a parser would recurse once
    per level): brackets counted outside strings; an unterminated string counts its own."""
    brackets = _STRING.sub(b'""', data).translate(None, _BRACKETS)
    return max(accumulate(1 if b in (91, 123) else -1 for b in brackets), default=0)


def _no_constants(token: str) -> Any:
    raise ValueError(f"{token} is not JSON")


def parse_json(data: bytes, name: str, *, depth: int = MAX_DEPTH) -> Any:
    """JSON text parsed under a depth limit, with NaN and Infinity refused."""
    if json_depth(data) > depth:
        raise BadPayload(f"{name} is nested deeper than {depth} levels")
    try:
        return json.loads(data.decode("utf-8"), parse_constant=_no_constants)
    except (ValueError, RecursionError, UnicodeDecodeError) as exc:
        raise BadPayload(f"{name} is not valid JSON ({type(exc).__name__})") from None


def load_json(path: Path, limit: int) -> Any:
    """A kernel-written JSON file, bounded and parsed; None when the file is missing."""
    data = read_bounded(path, limit)
    return None if data is None else parse_json(data, path.name)


# ----------------------------------------------------------------------------------------
# free text


_TENSOR_REPR = re.compile(r"(tensor|Parameter containing:|array)\s*\(", re.IGNORECASE)
_FLOAT = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+)(?:[eE][-+]?\d+)?|[-+]?\d+[eE][-+]?\d+|"
                    r"\b(?:nan|inf)\b", re.IGNORECASE)
_NUMBER_RUN = re.compile(r"(?:[-+]?\d+[\s,;]+){5,}[-+]?\d+")
_GRAM = 16
_STRIDE = 8
"""A stretch of a hidden text found in a message is cut out when it is `_GRAM + _STRIDE - 1`
(23) characters or more (often from 16)."""


def _drop_tensor_reprs(text: str) -> str:
    out, i = [], 0
    for match in _TENSOR_REPR.finditer(text):
        if match.start() < i:
            continue
        out.append(text[i:match.start()])
        depth, j = 1, match.end()
        while j < len(text) and depth:
            depth += {"(": 1, ")": -1}.get(text[j], 0)
            j += 1
        out.append(f"{match.group(1)}(…)")
        i = j
    out.append(text[i:])
    return "".join(out)


def scrub_hidden(text: str, hidden: str) -> str:
    """`text` with every stretch it shares with `hidden` (hidden texts joined by NUL) of
    `_GRAM + _STRIDE - 1` characters or more replaced by "…" (windows of `_GRAM` are looked
    up every `_STRIDE` characters, then grown to the whole shared stretch)."""
    if not hidden or len(text) < _GRAM:
        return text
    size = len(text)
    cut = [False] * size
    starts = list(range(0, size - _GRAM + 1, _STRIDE))
    if starts[-1] != size - _GRAM:
        starts.append(size - _GRAM)
    for i in starts:
        if cut[i] or text[i:i + _GRAM] not in hidden:
            continue
        a, b = i, i + _GRAM
        while a > 0 and text[a - 1:b] in hidden:
            a -= 1
        while b < size and text[a:b + 1] in hidden:
            b += 1
        for j in range(a, b):
            cut[j] = True
    if not any(cut):
        return text
    out, previous = [], False
    for char, gone in zip(text, cut, strict=True):
        if gone and not previous:
            out.append("…")
        elif not gone:
            out.append(char)
        previous = gone
    return "".join(out)


Hidden = str | Callable[[], str]
"""Hidden texts joined by NUL, or a function returning them (read only when needed)."""


def clean_text(value: object, limit: int = MAX_MESSAGE, hidden: Hidden = "") -> str:
    """Free text from the kernel as a report may show it: a string, without tensor values,
    number runs, control characters or hidden inputs, at most `limit` characters."""
    text = value if isinstance(value, str) else ""
    text = text[:limit * 8]  # bound the work below; cut to `limit` at the end
    text = "".join(c if c.isprintable() or c == " " else " " for c in text)
    text = _drop_tensor_reprs(text)
    text = _NUMBER_RUN.sub("…", text)
    text = _FLOAT.sub("…", text)
    if len(text) >= _GRAM:
        text = scrub_hidden(text, hidden() if callable(hidden) else hidden)
    text = re.sub(r"\s{2,}", " ", text).strip()
    return text if len(text) <= limit else text[:limit - 1] + "…"


def hidden_texts(params: object, minimum: int = _GRAM) -> str:
    """Every string of `minimum`+ characters in a probe's case parameters, joined by NUL:
    what `scrub_hidden` keeps out of messages."""
    found: list[str] = []

    def walk(value: object) -> None:
        if isinstance(value, str):
            if len(value) >= minimum:
                found.append(value)
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list | tuple):
            for item in value:
                walk(item)

    walk(params)
    return "\0".join(found)


# ----------------------------------------------------------------------------------------
# probe payloads


def _fail(where: str, what: str) -> BadPayload:
    return BadPayload(f"{where}: {what}")


def _dict(value: object, where: str, allowed: Iterable[str] | None = None,
          limit: int = 10_000) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _fail(where, f"a {type(value).__name__} where an object belongs")
    if len(value) > limit:
        raise _fail(where, f"{len(value)} entries, more than {limit}")
    if allowed is not None:
        unknown = sorted(set(value) - set(allowed))
        if unknown:
            raise _fail(where, f"unknown key {str(unknown[0])[:40]!r}")
    return value


def _finite(value: object, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise _fail(where, "not a finite number")
    return float(value)


def _meta(value: object, where: str) -> dict[str, Any]:
    meta = _dict(value, where, ("shape", "dtype", "device", "requires_grad"))
    shape, dtype = meta.get("shape"), meta.get("dtype")
    if not isinstance(shape, list) or len(shape) > MAX_DIMS or not all(
            isinstance(n, int) and not isinstance(n, bool) and 0 <= n < 1 << 40 for n in shape):
        raise _fail(where, "shape is not a list of sizes")
    if dtype not in DTYPES:
        raise _fail(where, f"unknown dtype {str(dtype)[:20]!r}")
    device = meta.get("device", "cpu")
    if not isinstance(device, str) or not _DEVICE.fullmatch(device):
        raise _fail(where, "device is not a device type")
    if not isinstance(meta.get("requires_grad", False), bool):
        raise _fail(where, "requires_grad is not true or false")
    return {"shape": list(shape), "dtype": dtype, "device": device,
            "requires_grad": meta.get("requires_grad", False)}


def _info(value: object, where: str, hidden: Hidden) -> dict[str, Any]:
    info = _dict(value, where, limit=MAX_INFO)
    out: dict[str, Any] = {}
    for key, item in info.items():
        if not _INFO_KEY.fullmatch(key):
            raise _fail(where, f"key {key[:40]!r} is not a name")
        if item is None or isinstance(item, bool):
            out[key] = item
        elif isinstance(item, int):
            out[key] = item if abs(item) < 1 << 63 else None
        elif isinstance(item, float):
            out[key] = item if math.isfinite(item) else None
        elif isinstance(item, str):  # a name: a class, a variable, a device
            out[key] = _INFO_TEXT.sub("?", clean_text(item, MAX_INFO_TEXT, hidden))
        else:
            raise _fail(f"{where}.{key}", f"a {type(item).__name__}, not a number or a name")
    return out


def _ops(value: object, where: str) -> list[str]:
    if not isinstance(value, list) or len(value) > MAX_OPS + 3:  # + two marks, "more"
        raise _fail(where, "not a list of operator names")
    if not all(isinstance(op, str) and _OP.fullmatch(op) for op in value):
        raise _fail(where, "an entry is not an operator name")
    return sorted(set(value))


def _case(name: str, value: object, hidden: Hidden) -> dict[str, Any]:
    where = f"case {name}"
    case = _dict(value, where)
    status = case.get("status")
    if status == "ok":
        _dict(case, where, ("status", "outputs", "seconds", OPS_KEY))
        outputs = _dict(case.get("outputs", {}), f"{where} outputs", limit=MAX_OUTPUTS)
        clean: dict[str, Any] = {}
        for key, meta in outputs.items():
            if key == INFO_KEY:
                clean[key] = _info(meta, f"{where} {INFO_KEY}", hidden)
                continue
            if not _NAME.fullmatch(key):
                raise _fail(where, f"output name {key[:40]!r} is not a name")
            clean[key] = _meta(meta, f"{where} output {key}")
        out = {"status": "ok", "outputs": clean,
               "seconds": _finite(case.get("seconds", 0.0), f"{where} seconds")}
        if OPS_KEY in case:
            out[OPS_KEY] = _ops(case[OPS_KEY], f"{where} ops")
        return out
    if status == "error":
        _dict(case, where, ("status", "kind", "message", "where"))
        kind = case.get("kind")
        if kind not in ERROR_KINDS:
            raise _fail(where, f"unknown error kind {str(kind)[:20]!r}")
        out = {"status": "error", "kind": kind,
               "message": clean_text(case.get("message", ""), MAX_MESSAGE, hidden)}
        spot = case.get("where")
        if spot is not None:
            spot = _dict(spot, f"{where} where", ("line", "code", "function", "file"))
            line = spot.get("line")
            function = spot.get("function")
            out["where"] = {
                "line": line if isinstance(line, int) and not isinstance(line, bool)
                and 0 <= line < 1 << 31 else None,
                "code": clean_text(spot.get("code", ""), 200, hidden),
                "function": function if isinstance(function, str)
                and _IDENT.fullmatch(function) else "?"}
            file = spot.get("file")
            if isinstance(file, str) and _MODULE_FILE.fullmatch(file) and ".." not in file:
                out["where"]["file"] = file  # a module beside the notebook, relative
        return out
    raise _fail(where, f"unknown status {str(status)[:20]!r}")


def check_probe(data: object, check_id: str, sent: Iterable[str], hidden: Hidden = "",
                ) -> dict[str, dict[str, Any]]:
    """The per-case results of a probe's JSON, rebuilt from what the schema allows.

    `sent`: the case names the grader sent (a payload may report fewer: a timeout stops the
    probe; never others). `hidden`: the hidden texts to keep out of messages.
    """
    top = _dict(data, "payload", ("check", "cases"))
    if top.get("check") != check_id:
        raise BadPayload("payload: it is not this probe's")
    cases = _dict(top.get("cases"), "payload cases", limit=MAX_CASES)
    known = set(sent)
    out = {}
    for name, case in cases.items():
        if name not in known:
            raise BadPayload(f"payload: case {name[:40]!r} was never sent")
        out[name] = _case(name, case, hidden)
    return out


def check_tensors(tensors: dict[str, Any], cases: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The tensors of a probe, each declared by an ok case with the same shape and dtype, and
    every declared output present; integer outputs (`INTEGER_OUTPUTS`) of an integer dtype."""
    declared = {}
    for name, case in cases.items():
        if case["status"] != "ok":
            continue
        for key, meta in case["outputs"].items():
            if key != INFO_KEY and meta["device"] != "meta":
                declared[f"{name}/{key}"] = meta
    extra = sorted(set(tensors) - set(declared))
    if extra:
        raise BadPayload(f"tensor {extra[0][:60]!r} was not declared by its case")
    for key, meta in declared.items():
        tensor = tensors.get(key)
        if tensor is None:
            raise BadPayload(f"tensor {key[:60]!r} is declared but missing")
        dtype = str(tensor.dtype).replace("torch.", "")
        if list(tensor.shape) != meta["shape"] or dtype != meta["dtype"]:
            raise BadPayload(f"tensor {key[:60]!r} is not what its case declares")
        if key.rsplit("/", 1)[-1] in INTEGER_OUTPUTS and dtype not in INTEGER_DTYPES:
            raise BadPayload(f"`{key.rsplit('/', 1)[-1]}` of case {key.split('/', 1)[0]!r} is "
                             f"{dtype}, not integer ids")
    return tensors


def load_tensors(path: Path) -> dict[str, Any]:
    """A probe's safetensors file, bounded in size; {} when there is none."""
    data = read_bounded(path, MAX_TENSOR_BYTES)
    if data is None:
        return {}
    from safetensors.torch import load

    try:
        return dict(load(data))
    except Exception as exc:  # noqa: BLE001 - a forged file is the student's loss
        raise BadPayload(f"{path.name} is not a safetensors file ({type(exc).__name__})") from None


# ----------------------------------------------------------------------------------------
# telemetry snapshots


def _names(value: object, where: str, limit: int = 1_000) -> list[str | None]:
    if not isinstance(value, list) or len(value) > limit:
        raise _fail(where, "not a list of names")
    if not all(v is None or isinstance(v, str) and len(v) <= 300 for v in value):
        raise _fail(where, "an entry is not a name")
    return value


def check_threads(data: object, nonce: str) -> list[int]:
    """The kernel's own thread idents as the baseline lists them (`kernel_threads()`),
    written before the student's first cell, with the nonce they were asked with."""
    found = _dict(data, "kernel threads", ("nonce", "threads"))
    if found.get("nonce") != nonce:
        raise BadPayload("kernel threads: not the list asked for (a stale or copied file)")
    idents = _names(found.get("threads"), "kernel threads", limit=1_000)
    if not idents or not all(isinstance(t, str) and t.isdigit() for t in idents):
        raise _fail("kernel threads", "not a list of thread idents")
    return [int(t) for t in idents if t is not None]


def check_snapshot(data: object, nonce: str) -> dict[str, Any]:
    """A telemetry snapshot as the harness writes it (`snapshot()`), with the nonce this
    snapshot was asked with: a copy of an earlier snapshot is refused."""
    snap = _dict(data, "snapshot", ("nonce", "hooks", "trace", "profile", "ids", "wraps",
                                    "torch_loaded", "threads", "integrity", "stopped"))
    if snap.get("nonce") != nonce:
        raise BadPayload("snapshot: not the one asked for (a stale or copied file)")
    replaced = _names(snap.get("integrity", []), "snapshot integrity")
    if replaced:
        raise BadPayload("snapshot: the notebook replaced what the grader's harness uses: "
                         + ", ".join(str(n)[:60] for n in replaced[:10]))
    hooks = _dict(snap.get("hooks", {}), "snapshot hooks", limit=100)
    for key, names in hooks.items():
        if len(key) > 200:
            raise _fail("snapshot hooks", "a key is too long")
        _names(names, f"snapshot hooks {key[:40]}")
    for key in ("trace", "profile"):
        if snap.get(key) is not None and not (isinstance(snap[key], str)
                                              and len(snap[key]) <= 300):
            raise _fail(f"snapshot {key}", "not a name")
    ids = _dict(snap.get("ids", {}), "snapshot ids", limit=100_000)
    if not all(len(k) <= 300 and isinstance(v, int) and not isinstance(v, bool)
               for k, v in ids.items()):
        raise _fail("snapshot ids", "an entry is not a name and an id")
    wraps = _dict(snap.get("wraps", {}), "snapshot wraps", limit=100_000)
    for key, wrap in wraps.items():
        wrap = _dict(wrap, "snapshot wraps", ("wrapped", "file"))
        if len(key) > 300 or not isinstance(wrap.get("wrapped"), int) or not (
                isinstance(wrap.get("file"), str) and len(wrap["file"]) <= 1_000):
            raise _fail("snapshot wraps", "an entry is not an id and a file")
    if not isinstance(snap.get("torch_loaded", False), bool):
        raise _fail("snapshot torch_loaded", "not true or false")
    _names(snap.get("threads", []), "snapshot threads")
    if "stopped" in snap:
        stopped = _dict(snap["stopped"], "snapshot stopped",
                        ("killed", "stopped", "dormant", "running"))
        if not isinstance(stopped.get("killed", 0), int):
            raise _fail("snapshot stopped", "killed is not a count")
        for key in ("stopped", "dormant", "running"):
            _names(stopped.get(key, []), f"snapshot stopped {key}")
    return {k: v for k, v in snap.items() if k not in ("nonce", "integrity")}


def check_removed(data: object, nonce: str) -> list[str]:
    """What `neutralise()` removed, as it reports it."""
    body = _dict(data, "neutralised", ("nonce", "removed"))
    if body.get("nonce") != nonce:
        raise BadPayload("neutralised: not the one asked for (a stale or copied file)")
    return [n for n in _names(body.get("removed", []), "neutralised removed") if n]
