"""Probe harness: executed inside the student's kernel, one grader cell at a time.

The runner sends this file's text plus one call (`snapshot(...)`, `neutralise(...)`
or `probe(...)`) as a cell, executed in a fresh dictionary: no name is left in the
student's namespace and no state survives to the next cell. Outputs leave as data:
JSON snapshots in the run's telemetry folder, and probe payloads (JSON and safetensors)
in its io folder, which is created, and first named in a cell, only after the student's
cells have run. Nothing is compared here. Comparison with the reference
happens in the grader process, so patching torch or builtins from the notebook can
only spoil the student's own outputs, never earn points.

What runs beside the harness. A notebook can leave threads and processes running after
its cells, and they could rewrite a payload after the harness wrote it. We stop them
before probing rather than run the probes in a fresh interpreter: a fresh interpreter
would have to rebuild the student's objects, and Part 2's fine-tuned models exist only in
this kernel's memory (re-running the training costs minutes, and a forked copy cannot use
CUDA). So the runner kills the notebook's other processes from outside, and `_quiesce`,
before the "after" snapshot and again before each probe writes, kills any process left in
the sandbox's pid namespace and raises SystemExit in every thread the kernel did not have
at the baseline (tqdm's monitor is asked to stop in its own way). A thread still running
Python code after `STOP_WINDOW` (it swallowed the exception) means the harness will not
vouch for anything it writes: the probes are not used. A thread blocked in C the whole
window is left blocked, with the exception pending for when it wakes. The harness also
keeps what it writes with to itself: its JSON writer is its own (the `json` module is the
notebook's to patch), the C functions and builtins it uses are checked to be the
interpreter's own each time (`_integrity`), an audit hook installed at the baseline
refuses later audit hooks, and the notebook's gc callbacks, timers and event-loop
callbacks are removed with its IPython hooks (`neutralise`).
"""

import _signal
import _thread
import builtins
import gc
import inspect
import json
import os
import re
import sys
import time
import traceback

# ----------------------------------------------------------------------------------------
# Integrity: the harness shares the kernel with the student's code, which can replace any
# module, module attribute or builtin it uses, and can make a function describe itself as
# anything (a function compiled under `.../safetensors/torch.py` has that `co_filename`).
# So nothing here is judged by a name. Before the student's first cell the baseline keeps
# the objects the harness will use (`_make_vault`: the builtins, the C functions, torch,
# safetensors' writer and its module's globals, torch.Tensor's methods) where no notebook
# name reaches them: in the closure of the audit hook it installs (`_guard`), which hands a
# copy back only by raising it from inside an audited C operation (`_vault`): a notebook
# can neither add an audit hook after it nor stand between the hook and the harness. Each
# grader cell takes its objects from there, never `import`s what `sys.modules` may now
# hold, and compares what is bound now with them by identity (`_integrity`); anything
# replaced is named and the grader refuses what would be written.

_TYPE = ().__class__.__class__
_C_DEPENDENCIES = (
    ("os", ("kill", "listdir", "getpid")),
    ("sys", ("_current_frames", "_getframe", "gettrace", "settrace", "getprofile",
             "setprofile", "addaudithook")),
    ("time", ("perf_counter", "sleep")),
    ("gc", ("collect", "disable", "enable", "isenabled")),
    ("_signal", ("setitimer", "signal", "getsignal")),
    ("_thread", ("get_ident",)),
)
_MODULES = ("_signal", "_thread", "builtins", "gc", "inspect", "json", "os", "re", "sys",
            "time", "traceback")
"""The modules this file imports at its top: each must be the baseline's module object."""
_KERNEL_REBINDS = {"input": None, "raw_input": None, "_": None, "__": None, "___": None}
"""Builtins the kernel itself rebinds as it runs cells (stdin forwarding, the last
results)."""
_TORCH_NAMES = ("Tensor", "device", "dtype", "Size")
"""What safetensors' writer reads from the torch module by name."""


def _names_used(code, found):
    """Every name `code` and the code nested in it use (keys of `found`, a dict)."""
    found.update({}.fromkeys(code.co_names))
    for const in code.co_consts:
        if _TYPE(const) is _TYPE(code):
            _names_used(const, found)
    return found


_VAULT_REQUEST = "_grader_vault_request"


def _vault():
    """The baseline's objects (a copy of the dict `_make_vault` made), or None when no
    baseline guard answers (before the baseline, or if it was never installed).

    The request is an assignment to a function's `__code__`, which the interpreter audits
    in C whatever the notebook rebound; the guard answers by raising the vault out of that
    assignment. Nothing of the notebook runs between the two (no other audit hook may
    exist, and a tracer set now is refused by `_integrity`)."""

    def _grader_vault_request():
        return None

    try:
        _grader_vault_request.__code__ = _grader_vault_request.__code__
    except BaseException as exc:  # noqa: BLE001 - the guard's answer is an exception
        box = exc.args[0] if exc.args else None
        return box if _TYPE(box) is _TYPE({}) and "builtins" in box else None
    return None


def _make_vault():
    """What the harness will use later, taken before the student's first cell."""
    import asyncio
    import ctypes
    import threading

    vault = {"modules": {name: _GLOBALS.get(name) for name in _MODULES},
             "builtins": dict(builtins.__dict__), "threading": threading, "ctypes": ctypes,
             "asyncio": asyncio, "json.loads": json.loads, "sys.modules": sys.modules,
             "c": {f"{module}.{name}": _GLOBALS[module].__dict__.get(name)
                   for module, names in _C_DEPENDENCIES for name in names}}
    vault["raise_in"] = ctypes.pythonapi.PyThreadState_SetAsyncExc
    try:
        import torch
        from torch.overrides import TorchFunctionMode
        from torch.utils._python_dispatch import TorchDispatchMode
    except ImportError:
        return vault
    vault.update(torch=torch, TorchFunctionMode=TorchFunctionMode,
                 TorchDispatchMode=TorchDispatchMode,
                 tensor_dicts=[(klass, dict(klass.__dict__))
                               for klass in (torch.Tensor, torch._C.TensorBase)],
                 torch_names={name: torch.__dict__.get(name) for name in _TORCH_NAMES})
    try:
        import safetensors.torch as writer
        from safetensors import safe_open
    except ImportError:
        return vault
    save_file = writer.__dict__["save_file"]
    vault.update(safe_open=safe_open, writer=writer, writer_dict=dict(writer.__dict__),
                 save_file=save_file,
                 save_file_parts=(save_file.__code__, save_file.__defaults__,
                                  save_file.__kwdefaults__))
    return vault


def _integrity(writes_tensors=False):
    """What of the harness's own dependencies the notebook replaced (names), or [].
    `writes_tensors`: also what a probe writes tensors with (safetensors' writer, the
    globals and builtins it calls, torch.Tensor's methods).

    Written with statements, `is` and the methods of the vault's own dicts only: a
    replaced builtin (`sorted`, `set`, `any`) cannot hide itself by being the check."""
    v = _VAULT
    if v is None:
        return ["the grader's baseline objects (its audit guard is gone or never answered)"]
    replaced = []
    for name, module in v["modules"].items():
        if _GLOBALS.get(name) is not module:
            replaced.append(f"sys.modules[{name!r}]")
    if v["modules"]["sys"].__dict__.get("modules") is not v["sys.modules"]:
        replaced.append("sys.modules")
    baseline = v["builtins"]
    table = _GLOBALS.get("__builtins__", v["modules"]["builtins"])
    table = table if _TYPE(table) is _TYPE({}) else table.__dict__
    names = baseline if writes_tensors else _names_used(_HARNESS_CODE, {})
    for name in names:
        if name in baseline and name not in _KERNEL_REBINDS and \
                table.get(name) is not baseline[name]:
            replaced.append(f"builtins.{name}")
    for key, obj in v["c"].items():
        module, name = key.split(".", 1)
        if v["modules"][module].__dict__.get(name) is not obj:
            replaced.append(key)
    if not writes_tensors:
        return replaced
    if v["c"]["sys.gettrace"]() is not None or v["c"]["sys.getprofile"]() is not None:
        replaced.append("sys.settrace/setprofile (a tracer is set)")
    for klass, before in v.get("tensor_dicts", ()):
        now = klass.__dict__
        for key in now:
            if now.get(key) is not before.get(key):
                replaced.append(f"{klass.__name__}.{key}")
        for key in before:
            if key not in now:
                replaced.append(f"{klass.__name__}.{key}")
    for key, obj in v.get("torch_names", {}).items():
        if v["torch"].__dict__.get(key) is not obj:
            replaced.append(f"torch.{key}")
    if "writer" in v:
        now, save_file = v["writer"].__dict__, v["save_file"]
        for key, obj in v["writer_dict"].items():
            if now.get(key) is not obj:
                replaced.append(f"safetensors.torch.{key}")
        code, defaults, kwdefaults = v["save_file_parts"]
        if save_file.__code__ is not code or save_file.__defaults__ is not defaults or \
                save_file.__kwdefaults__ is not kwdefaults:
            replaced.append("safetensors.torch.save_file.__code__")
    return replaced


_VAULT = _vault()
if _VAULT is not None:
    _getframe = _VAULT["c"]["sys._getframe"]
    _HARNESS_CODE, _GLOBALS = _getframe().f_code, _getframe().f_globals
else:  # before the baseline: nothing of the notebook's has run yet
    _HARNESS_CODE, _GLOBALS = sys._getframe().f_code, sys._getframe().f_globals

_CELL_FILE = re.compile(r"ipykernel_\d+|<ipython-input-")
_MAX_MESSAGE = 600
"""The harness cuts here; the grader cuts to 300 and scrubs (grader/run/payload.py)."""
INFO_KEY = "__info__"


def _name(obj):
    """A stable, printable name for a hook, transformer or trace function."""
    if obj is None:
        return None
    mod = getattr(obj, "__module__", None) or type(obj).__module__
    qual = getattr(obj, "__qualname__", None) or type(obj).__qualname__
    return f"{mod}.{qual}"


_ESCAPES = {i: f"\\u{i:04x}" for i in range(32)}
_ESCAPES.update({ord('"'): '\\"', ord("\\"): "\\\\"})


def _dumps(value):
    """JSON text of plain data, written here rather than by the `json` module, which the
    notebook shares and can patch. Non-finite floats become null (the grader refuses NaN);
    anything else that is not plain data becomes its `str`."""
    kind = type(value)
    if value is None:
        return "null"
    if kind is bool:
        return "true" if value else "false"
    if kind is int:
        return int.__repr__(value)
    if kind is float:
        return float.__repr__(value) if value - value == 0.0 else "null"
    if kind is str:
        return '"' + str.translate(value, _ESCAPES) + '"'
    if kind is list or kind is tuple:
        return "[" + ",".join([_dumps(v) for v in value]) + "]"
    if kind is dict:
        return "{" + ",".join([_dumps(k if type(k) is str else str(k)) + ":" + _dumps(v)
                               for k, v in value.items()]) + "}"
    return _dumps(str(value))


def _write_json(path, data):
    text = _dumps(data)  # a str from here on: nothing can change it on its way out
    with open(path, "w", encoding="utf-8", errors="backslashreplace") as fh:
        fh.write(text)


def _hooks(ip):
    """Event callbacks and input/AST transformers, by name."""
    found = {f"events.{ev}": [_name(cb) for cb in cbs] for ev, cbs in ip.events.callbacks.items()}
    for attr in ("input_transformers_cleanup", "input_transformers_post", "ast_transformers"):
        found[attr] = [_name(t) for t in getattr(ip, attr, [])]
    manager = getattr(ip, "input_transformer_manager", None)
    for attr in ("cleanup_transforms", "line_transforms", "token_transformers"):
        found[f"input_transformer_manager.{attr}"] = [_name(t) for t in getattr(manager, attr, [])]
    return found


_MRO = _TYPE.__dict__["__mro__"]
_DICT = _TYPE.__dict__["__dict__"]


def _static(namespace):
    """Name -> value of a module or class, as `getattr` would find it without running any
    descriptor or `__getattr__` (what `inspect.getattr_static` does, per name; this reads
    the dictionaries once, through descriptors of `type` no notebook can replace)."""
    if _TYPE(namespace) is _TYPE(sys):
        return dict(namespace.__dict__)
    table = {}
    for klass in reversed(_MRO.__get__(namespace)):
        table.update(_DICT.__get__(klass))
    return table


def _ids(namespace, prefix, out, wraps=None):
    function = _TYPE(_ids)
    for key, value in _static(namespace).items():
        out[f"{prefix}{key}"] = id(value)
        if wraps is None or _TYPE(value) is not function:
            continue  # only Python functions wrap; C functions and proxies are skipped
        inner = value.__dict__.get("__wrapped__")
        if inner is not None:
            # torch wraps some of its own functions lazily (manual_seed, on first use of
            # dynamo): record what wraps what, and where the wrapper was written
            wraps[f"{prefix}{key}"] = {"wrapped": id(inner), "file": value.__code__.co_filename}


# ----------------------------------------------------------------------------------------
# What outlives the notebook's cells: stopped before the probes, and again before each
# probe writes its payload, so that nothing of the notebook runs beside the harness.

STOP_WINDOW = 1.0
"""Seconds the notebook's threads have to end once asked (SystemExit raised in them)."""


def _thread_names():
    threading = _VAULT["threading"]
    return {ident: f"{getattr(t, 'name', '?')}"[:60] for ident, t in
            list(getattr(threading, "_active", {}).items())}


def _zombie(pid):
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as fh:
            return fh.read().rsplit(")", 1)[-1].split()[:1] == ["Z"]
    except OSError:
        return True  # gone


def _kill_other_processes():
    """SIGKILL every other process of the sandbox (the kernel is pid 2 of its own pid
    namespace, bwrap's init pid 1); how many. Only in that namespace: elsewhere the others
    are the machine's."""
    me, killed = os.getpid(), 0
    if me != 2:
        return 0
    for _round in range(20):
        others = [int(p) for p in os.listdir("/proc") if p.isdigit() and int(p) not in (1, me)
                  and not _zombie(p)]
        if not others:
            break
        for sig in (19, 9):  # SIGSTOP first: a fork bomb cannot refill while it is emptied
            for pid in others:
                try:
                    os.kill(pid, sig)
                except OSError:
                    continue
        killed += len(others)
        time.sleep(0.01)
    return killed


def _stop_threads(allowed):
    """Stop the Python threads not in `allowed` (idents at the baseline): tqdm's monitor
    politely, others by raising SystemExit in them, for up to STOP_WINDOW seconds.

    `allowed` None means the grader does not know the kernel's own threads (it could not
    read them before the student's first cell): then no thread is touched at all, since
    stopping the kernel's IOPub or shell thread would leave a kernel that never answers
    again; the grader flags the record for a TA instead.

    Returns (stopped, dormant, running) names. A thread blocked in C the whole window (a
    queue's `get`, a long `wait`) cannot see the exception yet: it stays blocked with it
    pending and is *dormant*; one that ran Python code in the window and is still alive
    (it caught SystemExit, or was started in the window) is *running*, and the grader will
    not use the probes' results.
    """
    if allowed is None or _VAULT is None:
        return [], [], []
    ctypes, threading = _VAULT["ctypes"], _VAULT["threading"]
    me = _thread.get_ident()
    raise_in = _VAULT["raise_in"]
    deadline = time.perf_counter() + STOP_WINDOW
    names, first, moved, seen = {}, {}, set(), []
    rounds = 0
    while True:
        frames = sys._current_frames()
        names.update(_thread_names())
        alive = [t for t in frames if t != me and t not in allowed]
        for t in alive:
            spot = (id(frames[t]), frames[t].f_lasti)
            if t not in first:
                first[t] = spot
                seen.append(t)
                thread = threading._active.get(t)
                if type(thread).__name__ == "TMonitor" and \
                        type(thread).__module__ == "tqdm._monitor":
                    thread.was_killed.set()  # tqdm's own stop: its loop waits on this event
                if rounds:
                    moved.add(t)  # started while the others were being stopped
            elif spot != first[t]:
                moved.add(t)
        del frames
        if not alive or time.perf_counter() > deadline:
            break
        for t in alive:
            raise_in(ctypes.c_ulong(t), ctypes.py_object(SystemExit))
        rounds += 1
        time.sleep(0.02)  # let them run, and die
    stopped = [names.get(t, str(t)) for t in seen if t not in alive]
    dormant = [names.get(t, str(t)) for t in alive if t not in moved]
    running = [names.get(t, str(t)) for t in alive if t in moved]
    return stopped, dormant, running


def _quiesce(allowed, sweep):
    """Kill the notebook's other processes (`sweep`: in the sandbox's pid namespace only)
    and stop its threads; a summary for the payload."""
    killed = _kill_other_processes() if sweep else 0
    stopped, dormant, running = _stop_threads(None if allowed is None else set(allowed))
    return {"killed": killed, "stopped": stopped, "dormant": dormant, "running": running}


class _Vault(BaseException):
    """How the guard hands the baseline's objects back (see `_vault`)."""


def _guard(vault):
    """An audit hook, installed once per kernel before the student's first cell: no audit
    hook may be added after it (a hook runs at every audited event, the harness's own
    writes included, and cannot be removed), nor may this one be rewritten. It keeps
    `vault` (`_make_vault`) and answers `_vault`'s request with a copy of it."""
    copy, answer = vault.copy, _Vault

    def guard(event, args):
        if event == "sys.addaudithook":
            raise RuntimeError("audit hooks are not allowed in the grader's sandbox")
        if event == "object.__setattr__" and args:
            if args[0] is guard:
                raise RuntimeError("the grader's audit hook cannot be changed")
            try:
                asked = args[1] == "__code__" and args[2].co_name == _VAULT_REQUEST
            except BaseException:  # noqa: BLE001 - `__code__` set on some other object
                asked = False
            if asked:
                raise answer(copy())

    try:  # noqa: SIM105 - contextlib is one more module the notebook could patch
        sys.addaudithook(guard)
    except RuntimeError:
        pass  # already guarded


def kernel_threads(io, nonce):
    """The kernel's own Python threads (idents), written before anything else of the
    baseline, in a file of their own: the grader needs them to stop only the notebook's
    threads later, whatever becomes of the rest of the baseline (a snapshot refused for
    a check too strict for this interpreter must not leave it with nothing allowed)."""
    _write_json(f"{io}/out/threads.json",
                {"nonce": nonce, "threads": [str(t) for t in sys._current_frames()]})


def snapshot(io, name, nonce, allowed=None, sweep=False):
    """Record what a notebook could have patched: hooks, tracers, builtins, torch, the shell.

    `nonce` is new for every snapshot and written into it: a copy of an earlier one is
    refused. The baseline (`name` "baseline", before the student's first cell) lists the
    kernel's own threads first (`kernel_threads`), then installs the audit guard; a later
    snapshot first stops what the notebook left running (`_quiesce`: threads not in
    `allowed`, none at all when `allowed` is None) and says what it stopped."""
    global _VAULT
    stopped = None
    baseline = name == "baseline"
    if baseline:
        kernel_threads(io, nonce)
        _guard(_make_vault())
        _VAULT = _vault()  # this kernel's first guard's (a second baseline keeps the first)
    else:
        stopped = _quiesce(allowed, sweep)
    ip = get_ipython()  # noqa: F821 - defined in every IPython kernel
    ids, wraps = {}, {}
    _ids(builtins, "builtins.", ids)
    _ids(type(ip), "shell.", ids)
    for key, value in vars(ip).items():
        if callable(value) and hasattr(type(ip), key):
            ids[f"shell.{key}"] = id(value)
    # torch as the baseline imported it (`_make_vault`), never what sys.modules holds now
    torch = (_VAULT or {}).get("torch")
    if torch is not None:
        import torch.nn.functional as functional

        for mod, prefix in ((torch, "torch."), (functional, "torch.nn.functional."),
                            (torch.Tensor, "torch.Tensor."), (torch.nn.Module, "torch.nn.Module.")):
            _ids(mod, prefix, ids, wraps)
        testing = torch.__dict__.get("testing")
        if testing is not None:
            _ids(testing, "torch.testing.", ids)
    data = {
        "nonce": nonce,
        "hooks": _hooks(ip),
        "trace": _name(sys.gettrace()),
        "profile": _name(sys.getprofile()),
        "ids": ids,
        "wraps": wraps,
        "torch_loaded": torch is not None,
        "threads": [str(t) for t in sys._current_frames()] if baseline else [],
        "integrity": _integrity(),
    }
    if stopped is not None:
        data["stopped"] = stopped
    _write_json(f"{io}/out/{name}.json", data)


def _prune(items, allowed, label, removed):
    """Remove from `items` (in place) what is not in `allowed` (names, counted)."""
    allowed = list(allowed)
    for item in list(items):
        name = _name(item)
        if name in allowed:
            allowed.remove(name)
        else:
            items.remove(item)
            removed.append(f"{label}: {name}")


def after(io, nonce, allowed, sweep, baseline_hooks, removed_nonce):
    """The grader's cell after the student's: stop what the notebook left running, take
    the "after" snapshot, then remove its hooks (one cell: one round trip less)."""
    snapshot(io, "after", nonce, allowed, sweep)
    neutralise(io, baseline_hooks, removed_nonce)


def neutralise(io, baseline_hooks, nonce):
    """Remove hooks and tracers the notebook added, so the probes run as written."""
    ip = get_ipython()  # noqa: F821
    removed = []
    for event, callbacks in ip.events.callbacks.items():
        _prune(callbacks, baseline_hooks.get(f"events.{event}", []), f"events.{event}", removed)
    for attr in ("input_transformers_cleanup", "input_transformers_post", "ast_transformers"):
        items = getattr(ip, attr, None)
        if items is not None:
            _prune(items, baseline_hooks.get(attr, []), attr, removed)
    if sys.gettrace() is not None:
        removed.append(f"sys.settrace: {_name(sys.gettrace())}")
        sys.settrace(None)
    if sys.getprofile() is not None:
        removed.append(f"sys.setprofile: {_name(sys.getprofile())}")
        sys.setprofile(None)
    _quiet_callbacks(removed)
    _write_json(f"{io}/out/neutralised.json", {"nonce": nonce, "removed": removed})


_KERNEL_LIBRARIES = ("ipykernel", "IPython", "tornado", "zmq", "asyncio", "jupyter_client",
                     "jupyter_core", "comm", "traitlets", "concurrent", "selectors")


def _origin(callback):
    """The module a scheduled callback comes from (a bound method's, a partial's)."""
    for _ in range(5):
        inner = getattr(callback, "func", None) or getattr(callback, "__func__", None)
        if inner is None:
            break
        callback = inner
    module = getattr(callback, "__module__", None) or type(callback).__module__
    return module if isinstance(module, str) else ""


def _quiet_callbacks(removed):
    """Remove what would run the notebook's code later, between or inside the grader's
    cells: gc callbacks, interval timers and their signal handlers, and callbacks and
    tasks the notebook scheduled on the kernel's event loop."""
    if gc.callbacks:
        removed.extend(f"gc.callbacks: {_name(cb)}" for cb in gc.callbacks)
        gc.callbacks.clear()
    for which in (0, 1, 2):  # ITIMER_REAL, ITIMER_VIRTUAL, ITIMER_PROF
        if _signal.setitimer(which, 0)[0]:
            removed.append(f"signal.setitimer({which})")
    for signum in (14, 26, 27, 10, 12):  # SIGALRM, SIGVTALRM, SIGPROF, SIGUSR1, SIGUSR2
        handler = _signal.getsignal(signum)
        if callable(handler):
            removed.append(f"signal handler {signum}: {_name(handler)}")
            _signal.signal(signum, _signal.SIG_IGN)
    try:
        asyncio = _VAULT["asyncio"]
        loop = asyncio.get_event_loop()
    except Exception:  # noqa: BLE001 - no loop, nothing scheduled
        return
    for handle in [*getattr(loop, "_ready", ()), *getattr(loop, "_scheduled", ())]:
        callback = getattr(handle, "_callback", None)
        if callback is not None and not _origin(callback).startswith(_KERNEL_LIBRARIES):
            removed.append(f"event loop callback: {_name(callback)}")
            handle.cancel()
    for task in asyncio.all_tasks(loop):
        coro = task.get_coro()
        module = getattr(getattr(coro, "cr_frame", None), "f_globals", {}).get("__name__", "")
        if not str(module).startswith(_KERNEL_LIBRARIES):
            removed.append(f"event loop task: {getattr(coro, '__qualname__', '?')}")
            task.cancel()


class ProbeError(Exception):
    """The student's notebook cannot be probed as the pack expects (kind + message)."""

    def __init__(self, kind, message):
        super().__init__(message)
        self.kind = kind


_MISSING = object()


class Student:
    """What a probe may use of the student's notebook: named functions and classes."""

    def __init__(self, namespace):
        self._ns = namespace

    def _get(self, name, what):
        if name not in self._ns:
            raise ProbeError("missing", f"The notebook does not define {what} `{name}`.")
        return self._ns[name]

    def function(self, name):
        obj = self._get(name, "the function")
        if not callable(obj) or isinstance(obj, type):
            raise ProbeError("missing", f"`{name}` is a {type(obj).__name__}, not a function.")
        return obj

    def cls(self, name):
        obj = self._get(name, "the class")
        if not isinstance(obj, type):
            raise ProbeError("missing", f"`{name}` is a {type(obj).__name__}, not a class.")
        return obj

    def value(self, name, default=_MISSING):
        """Any value the notebook left under `name` (a dataset, a model, a tokenizer)."""
        if name in self._ns:
            return self._ns[name]
        if default is _MISSING:
            raise ProbeError("missing", f"The notebook does not define `{name}`.")
        return default

    def instances(self, kind):
        """(name, value) of every object of type `kind` in the notebook's namespace, for
        finding a model the student named differently from the template."""
        return [(k, v) for k, v in list(self._ns.items())
                if not k.startswith("_") and isinstance(v, kind)]

    def call(self, fn, *args, **kwargs):
        """Call the student's code after checking that the expected call binds."""
        label = getattr(fn, "__name__", None) or type(fn).__name__
        target = fn.forward if hasattr(fn, "forward") and not isinstance(fn, type) else fn
        try:
            signature = inspect.signature(target)
        except (TypeError, ValueError):
            signature = None
        if signature is not None:
            try:
                signature.bind(*args, **kwargs)
            except TypeError as exc:
                given = ", ".join([_describe(a) for a in args]
                                  + [f"{k}={_describe(v)}" for k, v in kwargs.items()])
                raise ProbeError(
                    "signature",
                    f"`{label}{signature}` cannot be called as `{label}({given})`: {exc}.",
                ) from None
        return fn(*args, **kwargs)


def _describe(value):
    """An argument as a signature error shows it: its type and size, never its values (a
    hidden case's tensor or text must not reach a message)."""
    shape = getattr(value, "shape", None)
    if shape is not None:
        return f"<tensor {tuple(shape)}>"
    if value is None or type(value) in (bool, int):
        return repr(value)
    if type(value) in (list, tuple, dict, str):
        return f"<{type(value).__name__} of {len(value)}>"
    return f"<{type(value).__name__}>"


def _student_frame(tb):
    """The last frame of the traceback in the student's code: one of their cells, or a
    module of theirs beside the notebook (under $HOME, the working folder), which is
    named by its path relative to that folder (`mycourse/layers.py`), never the
    sandbox's own path. A notebook that moves $HOME only loses its own file names."""
    where = None
    home = os.path.join(os.path.realpath(os.environ.get("HOME") or "/nonexistent"), "")
    for frame in traceback.extract_tb(tb):
        filename = frame.filename or ""
        if _CELL_FILE.search(filename):
            where = {"line": frame.lineno, "code": (frame.line or "")[:200],
                     "function": frame.name}
        elif filename.startswith(home) and "site-packages" not in filename:
            where = {"line": frame.lineno, "code": (frame.line or "")[:200],
                     "function": frame.name, "file": filename[len(home):][:200]}
    return where


def _error(exc):
    if isinstance(exc, ProbeError):
        return {"status": "error", "kind": exc.kind, "message": str(exc)[:_MAX_MESSAGE]}
    kind = "not_implemented" if isinstance(exc, NotImplementedError) else "exception"
    text = f"{type(exc).__name__}: {exc}"
    return {"status": "error", "kind": kind, "message": text[:_MAX_MESSAGE],
            "where": _student_frame(exc.__traceback__)}


def _outputs(result, torch):
    if not isinstance(result, dict):
        raise ProbeError("output", f"the probe produced {type(result).__name__}, not outputs")
    meta, tensors = {}, {}
    info = result.pop(INFO_KEY, None)
    if info is not None:
        # small facts a probe reports beside its tensors (the model it found, the device)
        meta[INFO_KEY] = info if isinstance(info, dict) else {"info": str(info)[:100]}
    for key, value in result.items():
        if not isinstance(value, torch.Tensor):
            raise ProbeError(
                "output", f"`{key}` is a {type(value).__name__} where a tensor was expected.")
        meta[key] = {
            "shape": list(value.shape),
            "dtype": str(value.dtype).replace("torch.", ""),
            "device": value.device.type,
            "requires_grad": bool(value.requires_grad),
        }
        if value.device.type != "meta":
            tensors[key] = value.detach().to("cpu").contiguous().clone()
    return meta, tensors


MAX_OPS = 256
"""Operator names kept per case; past that the list ends with "grader::more-ops"."""


def _op_recorder(torch):
    """A context manager class recording, while a case runs, the torch operators it runs.

    Two modes, because neither sees everything alone: the dispatch mode sees every aten
    operator that reaches a kernel ("aten::_scaled_dot_product_flash_attention_for_cpu",
    whatever Python called it), but not composite operators, which decompose before it
    (`torch.ops.aten._scaled_dot_product_attention_math` shows only as bmm and softmax);
    the function mode sees the calls made from Python: `torch.ops` operators by their aten
    name, torch's C bindings as "aten::<name>" (`F.scaled_dot_product_attention` is
    "aten::scaled_dot_product_attention") and torch's Python functions as
    "torch::<module>.<name>" (`nn.MultiheadAttention` runs
    "torch::nn.functional.multi_head_attention_forward"; under a function mode torch takes
    its Python path, not the fused `_native_multi_head_attention`). The modes are created
    for each case and are pushed and popped here; a case whose code removed them, or in
    which nothing was recorded, says so ("grader::recording-stopped").

    Fail closed: an operator that reaches the dispatch mode while no call of the function
    mode is under way and torch's function modes are switched off (the call ran inside
    `torch._C.DisableTorchFunction()`, which hides it from the function mode without
    popping it) marks the case "grader::recording-bypassed": what the function mode did
    not see is not vouched for. Honest code never dispatches an operator outside a call
    the function mode sees (a `backward()` runs inside the call of `backward`).
    """
    TorchFunctionMode = _VAULT["TorchFunctionMode"]
    TorchDispatchMode = _VAULT["TorchDispatchMode"]
    modes_on = torch._C._is_torch_function_mode_enabled

    packet, overload = torch._ops.OpOverloadPacket, torch._ops.OpOverload

    def function_name(func):
        kind = type(func)
        if kind is overload:
            return func._schema.name
        if kind is packet:
            return func._qualified_op_name
        name = getattr(func, "__name__", "")
        if not isinstance(name, str) or not name or name.startswith("__"):
            return None
        owner = getattr(func, "__objclass__", None)
        module = getattr(owner if owner is not None else func, "__module__", None)
        if not isinstance(module, str) or not module.startswith("torch"):
            return None
        if kind.__name__ in ("builtin_function_or_method", "method_descriptor"):
            return f"aten::{name}"  # a C binding of the aten operator of that name
        module = module[len("torch."):] if module != "torch" else ""
        return f"torch::{module}.{name}" if module else f"torch::{name}"

    class _Dispatched(TorchDispatchMode):
        @classmethod
        def _should_skip_dynamo(cls):
            return False  # else torch imports dynamo (1.3 s) on the first operator

        def __init__(self, seen, calls):
            super().__init__()
            self.seen, self.calls = seen, calls

        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            if not self.calls[0] and not modes_on():
                self.seen.add("grader::recording-bypassed")
            if len(self.seen) <= MAX_OPS:
                self.seen.add(func._schema.name)
            return func(*args, **(kwargs or {}))

    class _Called(TorchFunctionMode):
        def __init__(self, seen, calls):
            super().__init__()
            self.seen, self.calls = seen, calls

        def __torch_function__(self, func, types, args=(), kwargs=None):
            if len(self.seen) <= MAX_OPS:
                name = function_name(func)
                if name:
                    self.seen.add(name)
            self.calls[0] += 1  # the operators this call dispatches are seen through it
            try:
                return func(*args, **(kwargs or {}))
            finally:
                self.calls[0] -= 1

    dispatch_len = torch._C._len_torch_dispatch_stack
    function_len = torch._C._len_torch_function_stack

    class Recording:
        def __init__(self):
            self.seen, calls = set(), [0]
            self.modes = (_Called(self.seen, calls), _Dispatched(self.seen, calls))

        def __enter__(self):
            self.depths = (function_len(), dispatch_len())
            for mode in self.modes:
                mode.__enter__()
            return self

        def __exit__(self, *exc):
            called, dispatched = self.modes
            intact = (torch.overrides._get_current_function_mode() is called
                      and torch.utils._python_dispatch._get_current_dispatch_mode() is dispatched)
            if intact:
                dispatched.__exit__(None, None, None)
                called.__exit__(None, None, None)
            else:  # the student's code popped or pushed modes: restore the stacks as they were
                self.seen.add("grader::recording-stopped")
                while dispatch_len() > self.depths[1]:
                    torch._C._pop_torch_dispatch_stack()
                while function_len() > self.depths[0]:
                    torch._C._pop_torch_function_stack()
            return False

        def ops(self):
            names = sorted(self.seen)
            if not names:
                return ["grader::recording-stopped"]
            marks = [n for n in names if n.startswith("grader::recording-")]  # never cut
            names = [n for n in names if n not in marks]
            return marks + names[:MAX_OPS] + (["grader::more-ops"] if len(names) > MAX_OPS
                                              else [])

    return Recording


def _load_cases(path):
    """The probe's cases, in order, as (name, case) with each case's params and tensors in
    one dict; nothing else of the file is kept."""
    with _VAULT["safe_open"](path, framework="pt") as fh:
        params = _VAULT["json.loads"](fh.metadata()["params"])
        cases = []
        for name, case_params in params.items():
            case = dict(case_params)
            prefix = f"{name}/in/"
            for key in fh.keys():  # noqa: SIM118 - not a dict
                if key.startswith(prefix):
                    case[key[len(prefix):]] = fh.get_tensor(key)
            cases.append((name, case))
    cases.reverse()  # popped from the end: a case is dropped here once it runs
    return cases


def _run_case(fn, student, case, recording, torch):
    """One case, called from a frame that holds only it: the student's code, walking up the
    stack, finds this case (which it was given) and the probe, not the other cases."""
    ops = recording()
    with ops:
        returned = fn(student, case)
    meta, tensors = _outputs(returned, torch)
    return meta, tensors, ops.ops()


REFUSED = "grader-refused: "
"""How a probe cell ends when the harness will not vouch for what it would write: the
reason travels in the cell's error reply, which nothing left in the kernel can rewrite."""


def probe(io, check_id, target, probe_source, allowed=(), sweep=False):
    """Run one probe over every case of one check; write `out/<check_id>.json` + tensors.

    Before writing, what the cases left running is stopped (`_quiesce`: threads not in
    `allowed`, other processes when `sweep`) and the harness's dependencies are checked
    (`_integrity`); if a thread kept running or a dependency was replaced, nothing is
    written and the cell ends with REFUSED and the reason."""
    if _VAULT is None or "save_file" not in _VAULT:
        raise RuntimeError(REFUSED + "the grader's baseline objects cannot be reached "
                           "(its audit guard is gone or never answered)")
    torch, save_file = _VAULT["torch"], _VAULT["save_file"]
    settrace, setprofile = _VAULT["c"]["sys.settrace"], _VAULT["c"]["sys.setprofile"]
    pending = _load_cases(f"{io}/in/{check_id}.safetensors")
    space = {"__name__": "grader_probe", "torch": torch}
    exec(compile(probe_source, f"<probe {check_id}>", "exec"), space)
    fn = space[target]
    del space
    student = Student(get_ipython().user_ns)  # noqa: F821
    recording = _op_recorder(torch)
    results, saved = {}, {}
    # No automatic collection, so no finalizer of the notebook's runs at a moment of its
    # choosing; off until the run ends (the kernel ends after the probes).
    gc.disable()
    while pending:
        case_name, case = pending.pop()
        start = time.perf_counter()
        try:
            meta, tensors, ops = _run_case(fn, student, case, recording, torch)
        except KeyboardInterrupt:
            results[case_name] = {"status": "error", "kind": "timeout",
                                  "message": "interrupted: the call did not return in time"}
            break
        except BaseException as exc:  # noqa: BLE001 - the student's error is a result
            results[case_name] = _error(exc)
            continue
        finally:
            settrace(None)  # a tracer set by the call would run the harness's lines
            setprofile(None)
            del case
            elapsed = time.perf_counter() - start
        results[case_name] = {"status": "ok", "outputs": meta,
                              "seconds": round(elapsed, 4), "ops": ops}
        saved.update({f"{case_name}/{key}": value for key, value in tensors.items()})
    del pending, student, fn
    gc.disable()  # again: the notebook's code may have turned it on
    gc.collect(0)  # the cases' garbage (all young, with collection off): finalizers run now
    stopped = _quiesce(allowed, sweep)
    replaced = _integrity(writes_tensors=True)
    if stopped["running"] or replaced:
        why = (f"threads the notebook started kept running: {', '.join(stopped['running'])}"
               if stopped["running"] else f"the notebook replaced {', '.join(replaced)}")
        raise RuntimeError(REFUSED + why[:400])
    if saved:
        save_file(saved, f"{io}/out/{check_id}.safetensors")
    _write_json(f"{io}/out/{check_id}.json", {"check": check_id, "cases": results})
