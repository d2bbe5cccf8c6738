#!/usr/bin/env bash
# Two separate virtual environments for the anchor benchmark (benchmarks/bench_anchors.py):
# otter-grader in one, nbgrader in the other, each with the CPU torch the equivalent
# assignment needs. Why separate and outside the repository: the anchors must not leak
# into the project's own .venv (their pins of nbconvert, jupyter_server, pandas... are
# not ours), and the two tools should not share one resolver either, so each is timed
# as an instructor would install it from PyPI.
#
# Usage: bash benchmarks/anchors/setup.sh
#   ANCHORS_HOME   where the venvs go (default $HOME/.cache/transformer-grader/anchors)
#   ANCHORS_PYTHON the interpreter that creates them (default python3.11)
#
# Re-running is cheap: pip skips what is already installed at the pinned version.
set -euo pipefail  # pipefail: a failed pip install fails the script despite the grep

ANCHORS_HOME="${ANCHORS_HOME:-$HOME/.cache/transformer-grader/anchors}"
PYTHON="${ANCHORS_PYTHON:-python3.11}"

# Pinned to what PyPI served when the figures in the report were measured.
OTTER_PIN="otter-grader==7.0.0"
NBGRADER_PIN="nbgrader==0.9.6"
# Exactly this torch: pip takes the CPU wheel this machine carries; a loose `torch`
# would pull the multi-GB CUDA build. safetensors because the student's notebook
# loads its demo data with it (same versions as the project's .venv).
COMMON=("torch==2.13.0" "safetensors==0.8.0" "ipykernel")

make_venv() {
    local dir="$1"; shift
    if [ ! -x "$dir/bin/python" ]; then
        echo "creating $dir"
        mkdir -p "$(dirname "$dir")"
        "$PYTHON" -m venv "$dir"
    fi
    # This machine's pip config lists local indexes that may be absent; drop pip's
    # "Location ... is ignored" lines so that real errors stay visible.
    "$dir/bin/python" -m pip install --quiet "$@" "${COMMON[@]}" 2>&1 \
        | { grep -v "is ignored: it is neither a file nor a directory" || true; }
    # Each venv's own kernel, so nbclient inside the tool starts *this* Python and
    # not whatever `python3` kernel spec happens to be first on the machine.
    "$dir/bin/python" -m ipykernel install --prefix "$dir" --name python3 >/dev/null
}

make_venv "$ANCHORS_HOME/otter-venv" "$OTTER_PIN"
make_venv "$ANCHORS_HOME/nbgrader-venv" "$NBGRADER_PIN"

echo "otter:    $("$ANCHORS_HOME/otter-venv/bin/python" -m pip show otter-grader | grep ^Version)"
echo "nbgrader: $("$ANCHORS_HOME/nbgrader-venv/bin/python" -m pip show nbgrader | grep ^Version)"
echo "ready under $ANCHORS_HOME"
