"""Kernel side of the grader's shims (grader/run/kernel_side/shims/__init__.py says why).

Loaded by the kernel at start as an IPython extension, inside the sandbox, as the
student: it can do nothing the notebook could not. It wraps the shell's `system` and
`getoutput` (what `!cmd` and `%pip` call) and `urllib.request`'s `urlopen` and
`urlretrieve`, and wraps the `%cd` magic. Standard library only (plus `packaging` when
the environment has it).
"""

import json
import os
import shlex
import shutil
import sys
import tempfile

NOTE = "[grader shim] "
_CONFIG = json.loads(os.environ.get("GRADER_SHIMS") or "{}")
DOWNLOADS = dict(_CONFIG.get("downloads") or {})
"""URL -> the file (inside the sandbox) that a download of it gets."""
DRIVE_ROOTS = ("/content/drive/MyDrive", "/content/drive/My Drive")


class PackageNotAvailable(RuntimeError):
    """`pip install` of a package the assignment's environment does not have."""


class DownloadNotAvailable(RuntimeError):
    """A download of a URL the assignment does not provide (the sandbox has no network)."""


def note(text):
    print(NOTE + text, file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------- pip ----

_PIP_VALUE_OPTIONS = {
    "-r", "--requirement", "-c", "--constraint", "-i", "--index-url", "--extra-index-url",
    "-f", "--find-links", "-t", "--target", "--prefix", "--root", "--upgrade-strategy",
    "--trusted-host", "--cache-dir", "--progress-bar", "--python-version", "--platform",
    "--only-binary", "--no-binary", "--implementation", "--abi", "--src", "--log",
    "--timeout", "--retries", "--proxy", "--config-settings", "-C", "--global-option",
    "--report", "--root-user-action", "--python",
}


def _requirements(args):
    """The requirement strings of `pip install ARGS` (files given with -r read)."""
    found, i = [], 0
    while i < len(args):
        arg = args[i]
        if arg in ("-r", "--requirement") and i + 1 < len(args):
            found += _requirement_file(args[i + 1])
            i += 2
            continue
        if arg.startswith("--requirement="):
            found += _requirement_file(arg.split("=", 1)[1])
        elif arg in ("-e", "--editable") and i + 1 < len(args):
            found.append(args[i + 1])
            i += 2
            continue
        elif arg in _PIP_VALUE_OPTIONS:
            i += 2
            continue
        elif not arg.startswith("-"):
            found.append(arg)
        i += 1
    return found


def _requirement_file(path):
    try:
        with open(path, encoding="utf-8") as fh:
            lines = [ln.split("#", 1)[0].strip() for ln in fh]
    except OSError:
        return [f"-r {path}"]
    return [ln for ln in lines if ln and not ln.startswith("-")]


def _installed(text):
    """(ok, what): whether requirement `text` is met by the kernel's environment."""
    from importlib import metadata

    if "://" in text or text.startswith((".", "/", "git+")) or text.endswith(
            (".whl", ".zip", ".tar.gz")) or text.startswith("-r "):
        return False, f"{text} (not a package name the environment can have)"
    try:
        from packaging.requirements import Requirement

        req = Requirement(text)
        name, spec = req.name, req.specifier
    except ImportError:
        name, spec = text.split("[")[0].split("=")[0].split("<")[0].split(">")[0].strip(), None
    except Exception:  # noqa: BLE001 - an invalid requirement is pip's error, reported
        return False, f"{text} (not a valid requirement)"
    try:
        version = metadata.version(name)
    except metadata.PackageNotFoundError:
        return False, f"{name} (not installed)"
    if spec is not None and str(spec) and not spec.contains(version, prereleases=True):
        return False, f"{text} (the environment has {name} {version})"
    return True, f"{name} {version}"


def pip(args):
    """`pip ARGS`: an install the environment already satisfies is skipped with a note;
    anything it lacks fails at once. Other pip commands are refused the same way."""
    if not args or args[0] != "install":
        note(f"pip {shlex.join(args)}: not run (the grader's sandbox does not change its "
             "packages)")
        return
    wanted = _requirements(args[1:])
    results = [(text, *_installed(text)) for text in wanted]
    missing = [what for _text, ok, what in results if not ok]
    if missing:
        raise PackageNotAvailable(
            "pip install: " + "; ".join(missing) + ". The grader installs nothing while it "
            "grades (its sandbox has no network): packages come from the assignment's "
            "environment. Ask the course staff to add it to the pack's [environment] "
            "packages, or remove this install if the notebook does not need it.")
    have = ", ".join(what for _text, _ok, what in results)
    note(f"pip install {' '.join(wanted)}: already in the assignment's environment "
         f"({have}); nothing installed")


# ---------------------------------------------------------------------- downloads ----

def _mapped(url):
    for key in (url, url.rstrip("/"), url.split("?", 1)[0], url.split("#", 1)[0]):
        if key in DOWNLOADS:
            return DOWNLOADS[key]
    return None


def _fetch(url, tool):
    source = _mapped(url)
    if source is None:
        raise DownloadNotAvailable(
            f"{tool} {url}: the grader's sandbox has no network, and the assignment "
            "provides no file for this URL (a pack maps URLs to its files with "
            "[assignment] downloads).")
    return source


def _save(url, source, target, tool):
    target = target or os.path.basename(url.split("?", 1)[0].rstrip("/")) or "index.html"
    folder = os.path.dirname(target)
    if folder:
        os.makedirs(folder, exist_ok=True)
    shutil.copyfile(source, target)
    note(f"{tool} {url}: the assignment's copy of this file was saved as {target} "
         "(no network in the sandbox)")
    return target


def wget(args):
    """`wget [opts] URL...`: -O FILE / -O - / -P DIR / the URL's file name."""
    output, prefix, urls, i = None, None, [], 0
    while i < len(args):
        arg = args[i]
        if arg.startswith("--output-document="):
            output = arg.split("=", 1)[1]
        elif arg.startswith("--directory-prefix="):
            prefix = arg.split("=", 1)[1]
        elif arg in ("--output-document", "--directory-prefix") and i + 1 < len(args):
            output, prefix = (args[i + 1], prefix) if arg == "--output-document" else (
                output, args[i + 1])
            i += 1
        elif arg.startswith("-") and not arg.startswith("--") and len(arg) > 1:
            letters = arg[1:]
            for j, letter in enumerate(letters):
                if letter in "OP":
                    value = letters[j + 1:] or (args[i + 1] if i + 1 < len(args) else "")
                    if not letters[j + 1:]:
                        i += 1
                    output, prefix = (value, prefix) if letter == "O" else (output, value)
                    break
        elif "://" in arg:
            urls.append(arg)
        i += 1
    saved = []
    for url in urls:
        source = _fetch(url, "wget")
        if output == "-":
            with open(source, "rb") as fh:
                sys.stdout.write(fh.read().decode("utf-8", "replace"))
            note(f"wget {url}: the assignment's copy of this file (no network in the sandbox)")
            continue
        target = output or os.path.join(prefix or "", os.path.basename(
            url.split("?", 1)[0].rstrip("/")) or "index.html")
        saved.append(_save(url, source, target, "wget"))
    return saved


def curl(args):
    """`curl [opts] URL...`: -o FILE / -O (the URL's file name) / else to stdout."""
    output, remote, urls, i = None, False, [], 0
    while i < len(args):
        arg = args[i]
        if arg in ("-o", "--output") and i + 1 < len(args):
            output = args[i + 1]
            i += 1
        elif arg == "--remote-name":
            remote = True
        elif arg.startswith("-") and not arg.startswith("--") and len(arg) > 1:
            letters = arg[1:]
            remote = remote or "O" in letters
            if "o" in letters:
                rest = letters[letters.index("o") + 1:]
                output = rest or (args[i + 1] if i + 1 < len(args) else None)
                if not rest:
                    i += 1
        elif "://" in arg:
            urls.append(arg)
        i += 1
    for url in urls:
        source = _fetch(url, "curl")
        if output or remote:
            _save(url, source, output, "curl")
        else:
            with open(source, "rb") as fh:
                sys.stdout.write(fh.read().decode("utf-8", "replace"))
            note(f"curl {url}: the assignment's copy of this file (no network in the sandbox)")


# ----------------------------------------------------------------------- commands ----

def _segments(command):
    """`a && b; c` as [[tokens of a], "&&", [tokens of b], ";", ...]; None when the line
    uses shell syntax this does not split safely (then it runs as written)."""
    try:
        lexer = shlex.shlex(command, posix=True, punctuation_chars=True)
        lexer.whitespace_split = True
        tokens = list(lexer)
    except ValueError:
        return None
    parts, current = [], []
    for token in tokens:
        if token in ("&&", ";", "|"):
            parts += [current, token]
            current = []
        elif token in (">", ">>", "<", "||", "&", "(", ")", "`") or "$(" in token:
            return None
        else:
            current.append(token)
    parts.append(current)
    return parts


def _tool(tokens):
    """("pip", args) / ("wget", args) / ("curl", args) / None for a command left alone."""
    if not tokens:
        return None
    head = os.path.basename(tokens[0])
    if head in ("pip", "pip3") or (head.startswith("pip3.")):
        return "pip", tokens[1:]
    if head.startswith("python") and tokens[1:3] == ["-m", "pip"]:
        return "pip", tokens[3:]
    if head in ("uv",) and tokens[1:3] == ["pip", "install"]:
        return "pip", tokens[2:]
    if head in ("wget", "curl"):
        return head, tokens[1:]
    return None


def _bridged(command):
    """True when `command` is one this module answers (wholly or in part)."""
    parts = _segments(command)
    return parts is not None and any(
        isinstance(p, list) and _tool(p) is not None for p in parts)


def _to_file(tool, args):
    """A download to stdout that feeds a pipe (`curl -sL URL | tar x`): the assignment's
    file, as `cat FILE`."""
    urls = [a for a in args if "://" in a]
    if tool not in ("wget", "curl") or len(urls) != 1:
        return None
    source = _fetch(urls[0], tool)
    note(f"{tool} {urls[0]}: the assignment's copy of this file (no network in the sandbox)")
    return ["cat", source]


def _run_bridged(command, original):
    """Run `a && b; c | d` piece by piece: bridged commands here, others by the shell.
    `;` and `&&` both go on to the next piece (a bridged failure raises and stops the
    cell); a pipeline runs in the shell, its first command bridged when it downloads."""
    parts = _segments(command)
    pipeline = []
    for i, part in enumerate(parts):
        if part == "|" or (isinstance(part, list) and i + 1 < len(parts)
                           and parts[i + 1] == "|"):
            if isinstance(part, list):
                tool = _tool(part) if not pipeline else None
                bridged = _to_file(*tool) if tool else None
                pipeline.append(shlex.join(bridged or part))
            continue
        if not isinstance(part, list) or not part:
            continue
        if pipeline:
            original(" | ".join([*pipeline, shlex.join(part)]))
            pipeline = []
            continue
        tool = _tool(part)
        if tool is None:
            original(shlex.join(part))
        else:
            {"pip": pip, "wget": wget, "curl": curl}[tool[0]](tool[1])


def _wrap_shell(ip):
    system, getoutput = ip.system, ip.getoutput

    # `!cmd` expands {name} and $name from the caller's frame (`var_expand(depth=1)`):
    # expand here, one frame nearer, to see the command; a command left alone is passed
    # on unexpanded, so that IPython expands it as before.
    def grader_system(_cmd):
        _line = ip.var_expand(_cmd, depth=1)
        if _bridged(_line):
            return _run_bridged(_line, system)
        return system(_cmd)

    def grader_getoutput(_cmd, split=True, depth=0):
        _line = ip.var_expand(_cmd, depth=depth + 1)
        if _bridged(_line):
            _run_bridged(_line, system)
            return getoutput("true", split=split, depth=depth + 1)
        return getoutput(_cmd, split=split, depth=depth + 1)

    ip.system = grader_system
    ip.getoutput = grader_getoutput


# ------------------------------------------------------------------------ urllib ----

def _wrap_urllib():
    import urllib.request
    import urllib.response
    from email.message import Message

    urlopen, urlretrieve = urllib.request.urlopen, urllib.request.urlretrieve

    def grader_urlopen(url, *args, **kwargs):
        text = url if isinstance(url, str) else getattr(url, "full_url", "")
        source = _mapped(text) if text else None
        if source is None:
            return urlopen(url, *args, **kwargs)
        note(f"urllib {text}: the assignment's copy of this file (no network in the sandbox)")
        headers = Message()
        headers["Content-Length"] = str(os.path.getsize(source))
        return urllib.response.addinfourl(open(source, "rb"), headers, text, 200)  # noqa: SIM115

    def grader_urlretrieve(url, filename=None, reporthook=None, data=None):
        source = _mapped(url)
        if source is None:
            return urlretrieve(url, filename, reporthook, data)
        if filename is None:
            handle, filename = tempfile.mkstemp()
            os.close(handle)
        _save(url, source, filename, "urllib")
        return filename, Message()

    urllib.request.urlopen = grader_urlopen
    urllib.request.urlretrieve = grader_urlretrieve


# -------------------------------------------------------------------------- magics ----

def _wrap_cd(ip):
    """`%cd /content/drive/MyDrive/<course>/<folder>` into a folder the submission does
    not have: the working folder, where the files handed in are."""
    magics = ip.magics_manager.magics["line"]
    original = magics.get("cd")
    if original is None:
        return
    # IPython 9 registers some magics lazily: a proxy that looks the magic up by name
    # each call, which would find this wrapper. Call what it resolves to now.
    resolve = getattr(original, "_resolve", None)
    if callable(resolve):
        original = resolve()

    def cd(line=""):
        target = os.path.expanduser(line.strip().strip("'\""))
        target = target.replace("\\ ", " ")
        if target.startswith(("/content/drive/", "/kaggle/input/")) and not os.path.isdir(
                target):
            home = os.environ.get("HOME") or os.getcwd()
            note(f"%cd {line.strip()}: not in the submission; the working folder "
                 "(the files handed in) instead")
            return original(home)
        return original(line)

    ip.register_magic_function(cd, "line", "cd")


def load_ipython_extension(ip):
    _wrap_shell(ip)
    _wrap_urllib()
    _wrap_cd(ip)
