"""The sandbox a student's kernel runs in: bubblewrap, rlimits and a throwaway user.

Why not Docker: a TA's laptop or a cluster node rarely has a Docker engine, and an
image rebuilt per batch is the slow part of today's graders. bubblewrap (Debian
package `bubblewrap`) gives the same isolation from namespaces alone, for about
0.05 s per notebook.

What the kernel sees (recipe measured in ../shared/FIELD-NOTES.md):

- no network (a new network namespace holds only a loopback device);
- its own process tree (`/proc` shows the sandbox's processes, never the grader's);
- the system (`/usr`, a few files of `/etc`) and the Python environment, read-only;
- one writable folder at `/home/student` holding a copy of the submission: a tmpfs of
  `Limits.scratch_bytes`, filled at start from the run's scratch folder (bound read-only
  at `SEED_MOUNT`), so that a notebook cannot fill the grader's disk;
- a private `/tmp` in memory, and the runtime folder with its connection file;
- `/run`, the run's hidden folder: mode 0711 and owned by root, so the kernel's user can
  enter a folder in it by name but cannot list it. It holds the telemetry folder and,
  once the probes start, the probes' io folder `g-<random>`; neither is a mount point, so
  the mount table names only `/run`;
- nothing else: not `reference/`, not hidden data, not other submissions.

Limits: rlimits are set by `prlimit` before `bwrap` starts, so they hold for every
process of the sandbox, each on its own; the whole sandbox is bounded together by a
cgroup (memory, pids; `grader.run.cgroup`) where the grader can make one, and its /tmp
and working folder are tmpfs of a fixed size, which count against that memory too
(`limits_mechanism` says which held). When the grader runs as root the kernel drops to a
random unprivileged uid with no capabilities (`setpriv`), because root keeps its
capabilities inside bwrap and the process-count limit binds only non-root users.
"""

from __future__ import annotations

import contextlib
import functools
import os
import posixpath
import secrets
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from grader.run import sandbox_processes as processes
from grader.run.limits import Limits

SCRATCH_MOUNT = "/home/student"
"""Where the submission's scratch copy appears inside the sandbox (also $HOME and the cwd):
a tmpfs of `Limits.scratch_bytes`, filled from `SEED_MOUNT` when the kernel starts."""
SEED_MOUNT = "/opt/grader-seed"
"""The run's scratch folder, read-only: what the working folder starts with."""

ETC_FILES = (
    "/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/localtime",
    "/etc/nsswitch.conf", "/etc/passwd", "/etc/group", "/etc/hosts", "/etc/ssl",
    "/etc/ca-certificates", "/etc/alternatives", "/etc/mime.types", "/etc/fonts",
)
"""The few files of /etc a Python kernel needs; the rest of /etc stays out of sight."""

ALIASES = (("/content", SCRATCH_MOUNT), ("/kaggle/working", SCRATCH_MOUNT))
"""Links to the working folder where notebooks written for Colab or Kaggle expect theirs
(`/content/data.txt` is the submission's `data.txt`; grader/run/kernel_side/shims)."""

SYSTEM_DIRS = ("/usr", "/opt/conda")
"""System trees bound read-only when they exist (the /bin, /lib symlinks are recreated)."""


class SandboxUnavailable(RuntimeError):
    """bubblewrap is missing or cannot create namespaces on this machine."""


@cache
def bwrap_works() -> str | None:
    """None when bwrap can start a sandbox here, else the reason it cannot."""
    exe = shutil.which("bwrap")
    if exe is None:
        return "bwrap is not installed (Debian/Ubuntu: apt-get install bubblewrap)"
    probe = [exe, "--ro-bind", "/", "/", "--unshare-net", "--unshare-pid", "--dev", "/dev",
             "--proc", "/proc", "true"]
    if os.geteuid() != 0:
        probe.insert(1, "--unshare-user")
    try:
        done = subprocess.run(probe, capture_output=True, text=True, timeout=20, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"bwrap could not run: {exc}"
    if done.returncode != 0:
        return f"bwrap cannot create namespaces here: {done.stderr.strip()[:300]}"
    return None


HIDDEN_MOUNT = "/run"
"""Where the run's hidden folder (the parent of the io and telemetry folders) appears inside."""

HF_MOUNT = "/opt/hf-cache"
"""Where the Hugging Face cache appears inside the sandbox."""

NVIDIA_CONTROL = ("/dev/nvidiactl", "/dev/nvidia-uvm", "/dev/nvidia-uvm-tools",
                  "/dev/nvidia-modeset")


@functools.cache
def library_reserve(python: str) -> int:
    """Bytes of the shared libraries `import torch` maps for the kernel's interpreter: those
    of torch/lib and of the nvidia packages a CUDA build brings, in the environment that
    `python` runs in (its venv's site-packages). Read from the file sizes, once per
    interpreter, without running it."""
    prefix = Path(python).parent.parent
    total = 0
    for site in prefix.glob("lib/python3*/site-packages"):
        for folder in (site / "torch" / "lib", site / "nvidia"):
            for path in folder.rglob("*.so*") if folder.is_dir() else ():
                with contextlib.suppress(OSError):
                    total += path.stat().st_size
    return total


def gpu_device_nodes(gpus: tuple[str, ...], dev: str = "/dev") -> list[str]:
    """The device nodes a kernel needs for the given GPU indices, of those that exist.

    Only numeric indices map to nodes (`/dev/nvidia<i>`); a UUID in
    `CUDA_VISIBLE_DEVICES` cannot be mapped without the driver, so it binds every GPU
    node and lets CUDA pick by UUID.
    """
    if not gpus:
        return []
    root = Path(dev)
    if all(g.isdigit() for g in gpus):
        cards = [root / f"nvidia{g}" for g in gpus]
    else:
        cards = sorted(p for p in root.glob("nvidia[0-9]*"))
    control = [root / Path(c).name for c in NVIDIA_CONTROL]
    return [str(p) for p in [*cards, *control] if p.exists()]


def gpus_from_env(environ: dict[str, str] | None = None) -> tuple[str, ...]:
    """The GPUs this process was given: `CUDA_VISIBLE_DEVICES`, as a runner or Ray sets it."""
    value = (environ if environ is not None else os.environ).get("CUDA_VISIBLE_DEVICES", "")
    return tuple(g.strip() for g in value.split(",") if g.strip() and g.strip() != "-1")


@dataclass
class SandboxPaths:
    """Host folders of one kernel run, created fresh and removed after it."""

    scratch: Path
    """The writable copy of the submission (the kernel's cwd)."""
    runtime: Path
    """Connection file and ipc sockets; visible at the same path inside."""
    io: Path
    """Probe inputs (`io/in`, written by the grader) and payloads (`io/out`). It lives in the
    hidden folder `io.parent`, which the sandbox binds (not `io` itself, so that the mount
    table does not name it), and it is created only when the probes start (`open_io`)."""
    io_mount: str
    """Where `io` appears inside the sandbox: a random name, so cells cannot know it ahead."""
    telemetry: Path | None = None
    """Snapshot payloads (`telemetry/out`), beside `io` in the hidden folder. Not secret: the
    baseline snapshot names it before the student's first cell (IPython keeps every cell's
    source, the grader's too, in `linecache`), which is why probes have a folder of their own."""
    telemetry_mount: str = ""
    """Where `telemetry` appears inside the sandbox."""
    etc: Path | None = None
    """`passwd` and `group` for inside the sandbox (bwrap only), naming the kernel's user."""


@dataclass
class Sandbox:
    """How to wrap a kernel command; `kind` is "bwrap" or "none" (no isolation, limits only)."""

    kind: str = "bwrap"
    python: str = sys.executable
    read_only: tuple[str, ...] = ()
    """Extra host paths bound read-only at the same place (a Hugging Face cache, say)."""
    env: dict[str, str] = field(default_factory=dict)
    """Extra environment variables for the kernel."""
    uid: int | None = None
    hf_cache: str | None = None
    """A Hugging Face hub cache, bound read-only at `HF_MOUNT` with `HF_HUB_CACHE` set to it."""
    gpus: tuple[str, ...] = ()
    """GPU indices this run was given (as in `CUDA_VISIBLE_DEVICES`): their device nodes,
    and the driver's control nodes, are bound into the sandbox; no other device is."""
    mounts: tuple[tuple[str, str], ...] = ()
    """(host path, where it appears inside) bound read-only: the kernel shims and a pack's
    download files, at neutral paths that name no server folder. Without bwrap the kernel
    reads the host paths, so callers pass host paths then."""
    kernel_args: tuple[str, ...] = ()
    """Appended to the kernel's command line (`--IPKernelApp.extensions=...`)."""

    @classmethod
    def create(cls, kind: str = "auto", **kw: object) -> Sandbox:
        """`auto` uses bwrap when it works and refuses otherwise; `none` must be asked for."""
        if kind not in ("auto", "bwrap", "none"):
            raise ValueError(f"sandbox must be auto, bwrap or none, not {kind!r}")
        if kind in ("auto", "bwrap"):
            reason = bwrap_works()
            if reason:
                raise SandboxUnavailable(
                    f"{reason}. Install bubblewrap, or run without isolation with "
                    "--sandbox none (only for your own notebook)")
            kind = "bwrap"
        box = cls(kind=kind, **kw)  # type: ignore[arg-type]
        if box.uid is None and kind == "bwrap" and os.geteuid() == 0:
            box.uid = 200_000 + secrets.randbelow(100_000)
        return box

    # -- paths ------------------------------------------------------------------

    def prepare(self, root: Path) -> SandboxPaths:
        """Make the run's folders under `root` (a fresh temporary folder) with owners set.

        The probes' io folder is only named here; `open_io` creates it when the probes start.
        """
        hidden = root / "hidden"
        mount = HIDDEN_MOUNT if self.kind == "bwrap" else str(hidden)
        io = hidden / f"g-{secrets.token_hex(8)}"
        telemetry = hidden / f"t-{secrets.token_hex(4)}"
        paths = SandboxPaths(
            scratch=root / "scratch", runtime=root / "rt", io=io,
            io_mount=f"{mount}/{io.name}", telemetry=telemetry,
            telemetry_mount=f"{mount}/{telemetry.name}")
        for folder in (paths.scratch, paths.runtime, telemetry / "out"):
            folder.mkdir(parents=True, exist_ok=True)
        if self.kind == "bwrap":
            paths.etc = self._user_files(root / "etc")
        os.chmod(root, 0o755)
        os.chmod(telemetry, 0o755)
        # Traversable, not listable, for the kernel's user (when it is not the grader's own
        # user: without root the kernel runs as the grader's user, who owns the folder).
        os.chmod(hidden, 0o711)
        return paths

    def _user_files(self, folder: Path) -> Path:
        """`passwd` and `group` that name the kernel's user `student` (home: the working
        folder), beside root and nobody. A throwaway uid is in no host file, and
        `getpass.getuser()` or `pwd.getpwuid(os.getuid())` then raise KeyError: torch's
        compile cache asks at import on some releases (seen on the GPU machine: the
        Part 2 imports failed there), and students' code asks too. The host's own users
        stay out of sight."""
        uid = self.uid if self.uid is not None else os.getuid()
        gid = self.uid if self.uid is not None else os.getgid()
        folder.mkdir()
        (folder / "passwd").write_text(
            "root:x:0:0:root:/root:/usr/sbin/nologin\n"
            f"student:x:{uid}:{gid}:student:{SCRATCH_MOUNT}:/bin/sh\n"
            "nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n")
        (folder / "group").write_text(f"root:x:0:\nstudent:x:{gid}:\nnogroup:x:65534:\n")
        for f in (folder, folder / "passwd", folder / "group"):
            os.chmod(f, 0o755 if f.is_dir() else 0o644)
        return folder

    def open_io(self, paths: SandboxPaths) -> None:
        """Create the probes' io folder, just before the first probe: inputs read-only for
        the kernel's user (owned by the grader), payloads written by it."""
        (paths.io / "in").mkdir(parents=True, exist_ok=True)
        (paths.io / "out").mkdir(exist_ok=True)
        os.chmod(paths.io, 0o755)
        os.chmod(paths.io / "in", 0o755)
        self.hand_over(paths)

    def hand_over(self, paths: SandboxPaths) -> None:
        """Give the kernel's user the folders it writes: scratch, runtime, payload folders."""
        if self.uid is None:
            return
        outs = [f / "out" for f in (paths.telemetry, paths.io) if f is not None]
        for folder in (paths.scratch, paths.runtime, *outs):
            for dirpath, _dirs, files in os.walk(folder):
                os.chown(dirpath, self.uid, self.uid)
                for name in files:
                    os.chown(os.path.join(dirpath, name), self.uid, self.uid)
        os.chmod(paths.runtime, 0o700)

    # -- the command --------------------------------------------------------------

    def kernel_argv(self, paths: SandboxPaths, limits: Limits,
                    join: list[str] | None = None) -> list[str]:
        """argv of the kernel process; `{connection_file}` is filled in by jupyter_client.
        `join`: a prefix that puts the whole sandbox in its cgroup (`grader.run.cgroup`)."""
        kernel = [self.python, "-m", "ipykernel_launcher", "-f", "{connection_file}",
                  *self.kernel_args]
        if self.kind == "bwrap":
            kernel = (self._bwrap(paths, limits) + self._fill_scratch(limits)
                      + self._drop_privileges() + kernel)
        else:
            kernel = ["env", *[f"{k}={v}" for k, v in self.kernel_env(paths, limits).items()],
                      *kernel]
        return list(join or []) + self._prlimit(limits) + kernel

    def _fill_scratch(self, limits: Limits) -> list[str]:
        """Inside the sandbox, before privileges drop: copy the seed into the working
        folder (a tmpfs of `scratch_bytes`) and give it to the kernel's user."""
        if not limits.scratch_bytes:
            return []
        owner = f" && chown {self.uid}:{self.uid} {SCRATCH_MOUNT}" if self.uid is not None else ""
        script = f'cp -a {SEED_MOUNT}/. {SCRATCH_MOUNT}/{owner} && exec "$@"'
        return ["sh", "-c", script, "grader-scratch"]

    def limits_mechanism(self, limits: Limits, cgroup: str) -> str:
        """What bounds this sandbox, in words, for the record."""
        if self.kind != "bwrap":
            return "rlimits per process (prlimit); no sandbox" if shutil.which("prlimit") \
                else "none"
        parts = [cgroup or "rlimits only for memory and processes"]
        if limits.scratch_bytes:
            parts.append(f"working folder: tmpfs of {limits.scratch_bytes >> 20} MiB")
        if limits.tmp_bytes:
            parts.append(f"/tmp: tmpfs of {limits.tmp_bytes >> 20} MiB")
        parts.append("rlimits per process (prlimit)")
        return "; ".join(parts)

    def kernel_env(self, paths: SandboxPaths, limits: Limits) -> dict[str, str]:
        """The kernel's whole environment: nothing of the grader's leaks in."""
        home = SCRATCH_MOUNT if self.kind == "bwrap" else str(paths.scratch)
        venv_bin = str(Path(self.python).parent)
        env = {
            "HOME": home,
            "USER": "student",
            "LOGNAME": "student",
            "PATH": f"{venv_bin}:/usr/local/bin:/usr/bin:/bin",
            "LANG": "C.UTF-8",
            "TMPDIR": "/tmp",
            "PYTHONNOUSERSITE": "1",
            "PYTHONDONTWRITEBYTECODE": "1",
            "OMP_NUM_THREADS": "1",
            "MKL_NUM_THREADS": "1",
            "OPENBLAS_NUM_THREADS": "1",
            "HF_HUB_OFFLINE": "1",
            "TRANSFORMERS_OFFLINE": "1",
            "HF_DATASETS_OFFLINE": "1",
            "HF_HUB_DISABLE_TELEMETRY": "1",
            "MPLCONFIGDIR": "/tmp/matplotlib",
            "IPYTHONDIR": "/tmp/ipython",
            "JUPYTER_RUNTIME_DIR": str(paths.runtime),
            "JUPYTER_PLATFORM_DIRS": "1",
            "PYDEVD_DISABLE_FILE_VALIDATION": "1",
            "HF_HUB_DISABLE_PROGRESS_BARS": "1",
        }
        if self.hf_cache:
            env["HF_HUB_CACHE"] = HF_MOUNT if self.kind == "bwrap" else self.hf_cache
        env["CUDA_VISIBLE_DEVICES"] = ",".join(self.gpus)  # "" hides every GPU
        env.update(self.env)
        return env

    def _prlimit(self, limits: Limits) -> list[str]:
        if shutil.which("prlimit") is None:
            if self.kind == "bwrap":
                raise SandboxUnavailable("prlimit (util-linux) is missing; it sets the limits")
            return []  # a student's own laptop (macOS has no prlimit): no limits, no isolation
        argv = ["prlimit", "--core=0"]
        # CUDA reserves far more address space than it uses, so an address-space limit
        # stops any GPU kernel: with GPUs, memory is the GPU's and the machine's to bound.
        # Without GPUs the limit is the memory plus what torch's shared libraries map: a
        # CUDA build (PyPI's torch for 3.12, a GPU runner's) maps 4.5 GB of address space
        # on `import torch` alone, 2.5 GB more than the CPU build, and a kernel under a
        # 4 GiB limit then fails to allocate anything (MemoryError while reading a request).
        memory = None if self.gpus else (
            limits.memory_bytes + library_reserve(self.python) if limits.memory_bytes else 0)
        for flag, value in (("--as", memory), ("--nofile", limits.open_files),
                            ("--fsize", limits.file_bytes), ("--cpu", limits.cpu_seconds)):
            if value:
                argv.append(f"{flag}={value}")
        if limits.processes:
            # RLIMIT_NPROC counts every task of the uid; a fresh uid starts from zero,
            # a shared one (no root) starts from what the user already runs.
            base = 0 if self.uid is not None else processes.tasks_of_uid(os.getuid())
            argv.append(f"--nproc={limits.processes + base}")
        return [*argv, "--"]

    def _drop_privileges(self) -> list[str]:
        if self.uid is None:
            return []
        return ["setpriv", f"--reuid={self.uid}", f"--regid={self.uid}", "--clear-groups",
                "--inh-caps=-all", "--bounding-set=-all", "--no-new-privs", "--"]

    def _bwrap(self, paths: SandboxPaths, limits: Limits) -> list[str]:
        argv = ["bwrap", "--die-with-parent", "--new-session", "--unshare-net", "--unshare-pid",
                "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try", "--hostname", "sandbox"]
        if os.geteuid() != 0:
            argv.append("--unshare-user")
        made: set[str] = set()

        def parents(path: str) -> None:
            # bwrap would create missing parents readable by root only; make them 0755.
            for parent in reversed(Path(path).parents):
                p = str(parent)
                if p != "/" and p not in made:
                    made.add(p)
                    argv.extend(["--perms", "0755", "--dir", p])

        # /tmp first: a later bind under /tmp (a checkout or venv living there) stays visible.
        argv.extend(["--proc", "/proc", "--dev", "/dev"])
        tmp = ["--size", str(limits.tmp_bytes)] if limits.tmp_bytes else []
        argv.extend(["--perms", "1777", *tmp, "--tmpfs", "/tmp"])
        made.add("/tmp")
        for top in ("bin", "lib", "lib64", "sbin"):
            host = Path("/") / top
            if host.is_symlink():
                argv.extend(["--symlink", os.readlink(host), f"/{top}"])
            elif host.exists():
                argv.extend(["--ro-bind", str(host), f"/{top}"])
        for system in SYSTEM_DIRS:
            if os.path.exists(system):
                parents(system)
                argv.extend(["--ro-bind", system, system])
        for etc in ETC_FILES:
            # through `parents`, or bwrap makes /etc itself root-only: every file below it,
            # certificates, time zone and the user database included, was unreadable
            parents(etc)
            if paths.etc is not None and (paths.etc / Path(etc).name).is_file() \
                    and etc in ("/etc/passwd", "/etc/group"):
                argv.extend(["--ro-bind", str(paths.etc / Path(etc).name), etc])
            elif os.path.exists(etc):
                argv.extend(["--ro-bind", etc, etc])
        for path in self._python_trees() + list(self.read_only):
            if os.path.exists(path) and not path.startswith("/usr/"):
                parents(path)
                argv.extend(["--ro-bind", path, path])
        for host, inside in self.mounts:
            if os.path.exists(host):
                parents(inside)
                argv.extend(["--ro-bind", host, inside])
        for alias, target in ALIASES:
            parents(alias)
            argv.extend(["--symlink", target, alias])
        if self.hf_cache:
            parents(HF_MOUNT)
            argv.extend(["--ro-bind", self.hf_cache, HF_MOUNT])
        for node in gpu_device_nodes(self.gpus):
            argv.extend(["--dev-bind", node, node])
        parents(str(paths.runtime))
        argv.extend(["--bind", str(paths.runtime), str(paths.runtime)])
        parents(SCRATCH_MOUNT)
        if limits.scratch_bytes:  # a tmpfs of its own size, filled from the seed at start
            parents(SEED_MOUNT)
            argv.extend(["--ro-bind", str(paths.scratch), SEED_MOUNT,
                         "--size", str(limits.scratch_bytes), "--perms", "0755",
                         "--tmpfs", SCRATCH_MOUNT])
        else:
            argv.extend(["--bind", str(paths.scratch), SCRATCH_MOUNT])
        # The hidden folder, not the io folder: a bind of the io folder would put its name in
        # /proc/self/mountinfo, and a folder created at bwrap's start could be listed.
        hidden = posixpath.dirname(paths.io_mount)
        parents(hidden)
        argv.extend(["--bind", str(paths.io.parent), hidden])
        argv.extend(["--chdir", SCRATCH_MOUNT, "--clearenv"])
        for key, value in self.kernel_env(paths, limits).items():
            argv.extend(["--setenv", key, value])
        return [*argv, "--"]

    def _python_trees(self) -> list[str]:
        """The interpreter's installation and its environment: what the kernel imports."""
        probe = subprocess.run(
            [self.python, "-c", "import sys, os; print(sys.prefix); print(sys.base_prefix); "
             "print(os.path.realpath(sys.executable))"],
            capture_output=True, text=True, check=True, timeout=30)
        prefix, base, real = probe.stdout.split("\n")[:3]
        trees = {prefix, base, str(Path(real).parent.parent)}
        return sorted(t for t in trees if t and t != "/")

    # -- cleanup ------------------------------------------------------------------

    def kill_leftovers(self) -> int:
        """Kill any process still running as the sandbox's uid; returns how many."""
        return 0 if self.uid is None else processes.kill_uid(self.uid)

    def kernel_pid(self) -> int | None:
        """The kernel's pid as the grader sees it (pid 2 of the sandbox's pid namespace), or
        None without a uid of its own to find it by."""
        return None if self.uid is None else processes.kernel_pid(self.uid)

    def kill_strays(self) -> int:
        """Kill every process of the sandbox but the kernel (children, a fork bomb's, daemons
        reparented to bwrap's init); returns how many. The kernel is pid 2 of the sandbox's
        pid namespace (bwrap's init is 1); `grader.run.sandbox_processes` says how."""
        return 0 if self.uid is None else processes.kill_strays(self.uid)


# Kept importable from here, where they lived before `grader.run.sandbox_processes`.
_alive = processes.alive
_ns_pid = processes.ns_pid
_status_uid = processes.status_uid
_pids_of_uid = processes.pids_of_uid
_tasks_of_uid = processes.tasks_of_uid
