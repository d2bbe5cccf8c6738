#!/usr/bin/env bash
# GPU proof run: the solution notebook graded with full-size DistilBERT and RoBERTa
# (built from config: no download) on CUDA, through the real sandbox with --gpus 0.
#
# Why a script: the GPU machine is lent for minutes, has no internet and lacks the
# grader's own packages (nbclient, ipykernel, pydantic, tomlkit, datasets, ...) and
# bubblewrap. They travel in .whl/ (cp312 wheels and Debian .debs, ignored by git) and
# this script installs them, checks the machine, then runs:
#   (a) benchmarks/bench_finetune.py --full-size --check-cuda --gpus 0 (full, then quick):
#       training time, hidden accuracy, peak CUDA memory and device per model;
#   (b) grader grade of the solution with --gpus 0: the record's GPU fields.
# Every step prints its exit code and the script goes on after a failure. Results go to
# $OUT (at most 8 files; default /tmp/gpu-proof-out) and a summary to stdout.
#
# Where the wheels go: into the interpreter's own site-packages, not a --target folder
# on PYTHONPATH. The sandboxed kernel runs the grader's interpreter with a cleared
# environment (its PYTHONPATH is the kernel shims' folder) and a private /tmp, so only
# packages inside the interpreter's tree are importable there; the machine is
# throwaway, so installing into it is harmless. If that tree is read-only the wheels go
# to /tmp/site instead and the kernel runs without the sandbox (said in the output).
#
# With no GPU (a developer's machine) it exercises the same path cheaply: tiny models
# from `grader models seed --tiny`, quick mode, no --gpus.
#
# Device use (the lead's `run` tool): carry [".whl"], command `bash scripts/gpu_proof.sh`.
# .whl/ is not in git: scripts/gpu_wheels.txt lists what it held and how it was fetched.
set -u
export PYTHONUNBUFFERED=1
umask 022  # the sandboxed kernel runs as another uid: what is installed here must be readable
START=$(date +%s)
BUDGET=${GPU_PROOF_BUDGET:-510}   # seconds for everything, well inside a 600 s call
REPO=$(cd "$(dirname "$0")/.." && pwd)
cd "$REPO" || exit 1
# The kernel (another uid) reads the shims from the checkout, bound into its sandbox; a
# copy made with a restrictive umask would hide them.
chmod -R a+rX grader reference submissions 2>/dev/null
OUT=${OUT:-/tmp/gpu-proof-out}
mkdir -p "$OUT"
PY=${GPU_PROOF_PYTHON:-python3}
WHL=${GPU_PROOF_WHEELS:-.whl}   # the wheels (a developer may point it at a cp311 set)
WORK=${GPU_PROOF_WORK:-/tmp/gpu-proof}
rm -rf "$WORK"
mkdir -p "$WORK"
HF="$WORK/hf"
SUMMARY="$OUT/summary.txt"
ENVLOG="$OUT/env.txt"
: >"$SUMMARY"
: >"$ENVLOG"

say() { echo "$*" | tee -a "$SUMMARY"; }
elapsed() { echo $(($(date +%s) - START)); }
left() { echo $((BUDGET - $(date +%s) + START)); }

# step NAME MAX_SECONDS LOGFILE CMD...: run CMD under a timeout (the smaller of MAX_SECONDS
# and what is left of the budget), output to LOGFILE and the terminal, exit code said.
step() {
    local name=$1 max=$2 log=$3
    shift 3
    local t
    t=$(left)
    t=$((t - 10))
    if [ "$t" -lt 20 ]; then
        say "== $name: SKIPPED (only $(left) s of the ${BUDGET} s budget left)"
        return 124
    fi
    [ "$t" -gt "$max" ] && t=$max
    say "== $name (timeout ${t} s, at $(elapsed) s)"
    local s=$(date +%s)
    timeout --kill-after=10 "$t" "$@" 2>&1 | tee -a "$log" | sed -u "s/^/   [$name] /"
    local rc=${PIPESTATUS[0]}
    say "== $name: exit $rc after $(($(date +%s) - s)) s$([ $rc = 124 ] && echo ' (TIMED OUT)')"
    return $rc
}

say "gpu_proof.sh at $(date -u +%FT%TZ) on $(cat /proc/sys/kernel/hostname), repo $REPO, python $(command -v "$PY")"

# -- 1. packages ------------------------------------------------------------------------
SITE=$("$PY" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])' 2>/dev/null)
say "interpreter site-packages: $SITE"
INSTALL_MODE=site
if ls "$WHL"/*.whl >/dev/null 2>&1; then
    if [ -w "$SITE" ]; then
        step install-wheels 120 "$OUT/install.log" "$PY" -m pip install -q --no-index \
            --no-deps --no-compile --no-cache-dir --upgrade "$WHL"/*.whl
        [ $? -ne 0 ] && INSTALL_MODE=failed
    else
        say "site-packages is not writable: wheels go to /tmp/site (kernel unsandboxed)"
        INSTALL_MODE=target
        step install-wheels-target 120 "$OUT/install.log" "$PY" -m pip install -q \
            --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site \
            "$WHL"/*.whl
    fi
else
    say "no $WHL/*.whl here: using the packages the interpreter already has"
    INSTALL_MODE=none
fi
if [ "$INSTALL_MODE" = target ]; then
    export PYTHONPATH="$REPO:/tmp/site"
else
    export PYTHONPATH="$REPO"
fi
say "PYTHONPATH=$PYTHONPATH (install: $INSTALL_MODE)"

step imports 120 "$OUT/env.txt" "$PY" -c '
import importlib, importlib.metadata as md, sys
print(sys.version)
names = ["torch", "transformers", "huggingface_hub", "tokenizers", "safetensors", "numpy",
         "pandas", "pyarrow", "fsspec", "typer", "rich", "jinja2", "sympy", "packaging",
         "nbclient", "nbformat", "jupyter_client", "jupyter_core", "ipykernel", "IPython",
         "zmq", "tornado", "traitlets", "debugpy", "pydantic", "pydantic_core", "tomlkit",
         "datasets", "dill", "multiprocess", "xxhash"]
bad = []
for n in names:
    try:
        m = importlib.import_module(n)
        version, where = getattr(m, "__version__", "?"), getattr(m, "__file__", "")
        print(f"{n:16s} {version:14s} {where}")
    except Exception as e:
        bad.append(n)
        print(f"{n:16s} IMPORT FAILED: {type(e).__name__}: {e}")
import grader.cli, grader.grade, grader.run.runner  # the grader itself
print("grader imports ok")
sys.exit(1 if bad else 0)
'

# -- 2. the machine: GPU, driver libraries, bubblewrap ------------------------------------
{
    echo "--- nvidia-smi"
    nvidia-smi 2>&1 || echo "nvidia-smi: not available"
    echo "--- /dev/nvidia*"
    ls -l /dev/nvidia* 2>&1
    echo "--- os"
    head -2 /etc/os-release 2>&1
    uname -a
    echo "LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}"
    echo "--- ld cache (libcuda)"
    ldconfig -p 2>/dev/null | grep -E "libcuda\.so|libnvidia-ml" || echo "libcuda not in the ld cache"
} >>"$ENVLOG" 2>&1
command -v nvidia-smi >/dev/null && nvidia-smi 2>&1 | head -20
GPU=$("$PY" -c 'import torch; print(torch.cuda.device_count() if torch.cuda.is_available() else 0)' 2>/dev/null)
GPU=${GPU:-0}
say "CUDA devices seen by torch in the grader's process: $GPU"

# The sandboxed kernel starts with a cleared environment (no LD_LIBRARY_PATH), so the
# driver's libcuda must be found through the ld cache, as on a grading server.
if [ "$GPU" != 0 ] && ! ldconfig -p 2>/dev/null | grep -q "libcuda\.so\.1"; then
    if [ -n "${LD_LIBRARY_PATH:-}" ] && [ -w /etc/ld.so.conf.d ]; then
        echo "${LD_LIBRARY_PATH//:/$'\n'}" >/etc/ld.so.conf.d/zz-gpu-proof.conf
        ldconfig
        say "libcuda was only on LD_LIBRARY_PATH: added its folders to the ld cache"
        ldconfig -p | grep -E "libcuda\.so" >>"$ENVLOG" 2>&1
    else
        say "WARNING: libcuda is not in the ld cache; a sandboxed kernel may not see CUDA"
    fi
fi

if ! command -v bwrap >/dev/null 2>&1; then
    if ls .whl/bubblewrap_*.deb >/dev/null 2>&1; then
        rm -rf /tmp/bw
        for deb in .whl/bubblewrap_*.deb; do dpkg -x "$deb" /tmp/bw; done
        # the libraries bwrap links against, only where the system lacks them
        if ldd /tmp/bw/usr/bin/bwrap 2>/dev/null | grep -q "not found"; then
            for deb in .whl/lib*.deb; do dpkg -x "$deb" /tmp/bw; done
            mkdir -p /tmp/bw/bin
            printf '#!/bin/sh\nLD_LIBRARY_PATH=/tmp/bw/lib/x86_64-linux-gnu:/tmp/bw/usr/lib/x86_64-linux-gnu exec /tmp/bw/usr/bin/bwrap "$@"\n' >/tmp/bw/bin/bwrap
            chmod 755 /tmp/bw/bin/bwrap
            export PATH="/tmp/bw/bin:$PATH"
            say "bubblewrap unpacked to /tmp/bw with its libraries (wrapper /tmp/bw/bin/bwrap)"
        else
            export PATH="/tmp/bw/usr/bin:$PATH"
            say "bubblewrap unpacked to /tmp/bw/usr/bin"
        fi
    else
        say "bwrap is missing and no .whl/bubblewrap_*.deb was carried"
    fi
fi
{
    echo "--- bwrap: $(command -v bwrap || echo none)"
    bwrap --version 2>&1
    ldd "$(command -v bwrap 2>/dev/null || echo /nonexistent)" 2>&1 | head
    echo "prlimit: $(command -v prlimit || echo none), setpriv: $(command -v setpriv || echo none)"
} >>"$ENVLOG" 2>&1
WHY=$("$PY" -c 'from grader.run.sandbox import bwrap_works; print(bwrap_works() or "")' 2>&1)
if [ -z "$WHY" ] && [ "$INSTALL_MODE" != target ]; then
    SANDBOX=bwrap
    say "SANDBOX: bwrap (the real sandbox) runs here"
else
    SANDBOX=none
    say "SANDBOX: FALLING BACK TO --sandbox none (no isolation): ${WHY:-wheels outside the interpreter tree}"
fi

# -- 3. the runs ------------------------------------------------------------------------
if [ "$GPU" != 0 ]; then
    GPUS=0
    SIZE=(--full-size)
    MODES=full,quick
    QUICK=()
    say "MODE: GPU: full-size DistilBERT and RoBERTa built from config, --gpus 0"
else
    GPUS=
    SIZE=()
    MODES=quick
    QUICK=(--quick)
    say "MODE: NO GPU: import path only: tiny models, quick mode, no --gpus"
    step seed-tiny 180 "$OUT/bench.log" "$PY" -m grader models seed --tiny "$HF"
fi

step bench-finetune 300 "$OUT/bench.log" "$PY" benchmarks/bench_finetune.py \
    --hf-cache "$HF" --gpus "$GPUS" --sandbox "$SANDBOX" --modes "$MODES" "${SIZE[@]}" \
    --check-cuda --json "$OUT/bench.json"
if [ $? -eq 3 ] && [ "$SANDBOX" = bwrap ]; then
    # The GPU works on the machine but not inside bwrap: full-size models on the CPU would
    # only run into the timeouts, so measure the GPU cost without isolation, said loudly.
    say "SANDBOX: the sandboxed kernel cannot see CUDA (see the probe above): FALLING BACK TO --sandbox none for the measurements"
    SANDBOX=none
    step bench-finetune-nosandbox 240 "$OUT/bench.log" "$PY" benchmarks/bench_finetune.py \
        --hf-cache "$HF" --gpus "$GPUS" --sandbox none --modes full --check-cuda \
        --json "$OUT/bench-nosandbox.json"
fi

if [ -d "$HF" ] && [ -n "$(ls -A "$HF" 2>/dev/null)" ]; then
    step grader-grade 200 "$OUT/grade.log" "$PY" -m grader grade \
        submissions/stat8021-a3/solution.ipynb -a stat8021-a3 --out "$WORK/grades" \
        --hf-cache "$HF" --sandbox "$SANDBOX" --seed 1 --no-report ${GPUS:+--gpus "$GPUS"} \
        "${QUICK[@]}"
    for f in "$WORK"/grades/*.json; do  # the record; the manifest stays (8 files at most)
        [ "$(basename "$f")" = manifest.json ] || cp "$f" "$OUT/"
    done
    ls "$WORK/grades" >>"$OUT/grade.log" 2>&1
else
    say "== grader-grade: SKIPPED (no model cache at $HF: the bench step did not seed it)"
fi

# -- 4. summary ---------------------------------------------------------------------------
"$PY" - "$OUT" "$WORK/grades" <<'EOF' 2>&1 | tee -a "$SUMMARY"
import json
import sys
from pathlib import Path

out, grades = Path(sys.argv[1]), Path(sys.argv[2])
def show_bench(bench: Path) -> None:
    b = json.loads(bench.read_text())
    print(f"{bench.name}: sandbox {b.get('sandbox')}, gpus {b.get('gpus')}, "
          f"cuda probe {json.dumps(b.get('cuda_probe'))}")
    if b.get("full_size_parameters"):
        print(f"   full-size parameters {b['full_size_parameters']}")
    for run in b.get("runs", []):
        print(f"   {run['mode']}: {run['wall_seconds']} s, score {run['score']}/"
              f"{run['max_score']}, device {run['device']}, sandbox {run['sandbox']}")
        for m in run["models"]:
            peak = m.get("peak_memory_bytes") or 0
            print(f"      {m['question']} {m['architecture']}: "
                  f"{(m.get('parameters') or 0) / 1e6:.1f}M params, train "
                  f"{m.get('train_seconds')} s, hidden acc {m.get('reevaluated_accuracy')}, "
                  f"peak {peak / 2**20:.0f} MiB")
        for hit in run.get("limits_hit") or []:
            print(f"      limit hit: {hit}")
        for err in run.get("cell_errors") or []:
            print(f"      cell error: {err}")


benches = [p for p in (out / "bench.json", out / "bench-nosandbox.json") if p.is_file()]
for bench in benches:
    show_bench(bench)
if not benches:
    print("bench: no bench.json (see bench.log)")
records = [p for p in grades.glob("*.json") if p.name not in ("manifest.json",)] \
    if grades.is_dir() else []
shown = 0
for path in sorted(records):
    try:
        rec = json.loads(path.read_text())
    except ValueError:
        continue
    if not isinstance(rec, dict) or "run" not in rec:
        continue
    shown += 1
    run = rec["run"]
    print(f"grade record {path.name}: score {rec.get('score')}/{rec.get('max_score')}, "
          f"status {rec.get('status')}, device {run.get('device')}, sandbox "
          f"{run.get('sandbox')}, quick {run.get('quick')}, {run.get('seconds')} s")
    print(f"   environment: {rec.get('environment')}")
    for m in run.get("models", []):
        peak = m.get("peak_memory_bytes") or 0
        print(f"   {m['question']} {m['architecture']}: train {m.get('train_seconds')} s, "
              f"hidden acc {m.get('reevaluated_accuracy')}, peak {peak / 2**20:.0f} MiB")
    for hit in run.get("limits_hit") or []:
        print(f"   limit hit: {hit}")
    for err in run.get("cell_errors") or []:
        print(f"   cell error: {err}")
if not shown:
    print("grade: no record (see grade.log)")
EOF
say "total $(elapsed) s; files in $OUT: $(ls "$OUT" | tr '\n' ' ')"
