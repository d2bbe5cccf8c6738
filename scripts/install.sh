#!/usr/bin/env bash
# Install everything a fresh Debian/Ubuntu machine needs to develop and test:
# bubblewrap (the sandbox grading runs in) and chromium (the browser tests drive
# it through Playwright) from the system's packages, then the project and its dev
# extras in .venv (torch pinned to the CPU build, see README).
#
#   bash scripts/install.sh          # .venv with python3
#   bash scripts/install.sh 3.12     # .venv-3.12 with Python 3.12 (python3.12 on PATH, or
#                                    # pyenv's 3.12.x): how CI tests 3.12 and 3.13 too
#
# On Python 3.11 pip takes the CPU build of torch 2.13.0 this project's machines carry;
# for 3.12 and 3.13 no CPU build is on the machine, and pip takes PyPI's torch 2.13.0 with
# its CUDA libraries (about 5.5 GB in the venv, 3 to 5 minutes); it runs on the CPU alike.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
command -v bwrap >/dev/null 2>&1 || missing+=(bubblewrap)
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
if [ ${#missing[@]} -gt 0 ]; then
    SUDO=""
    if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
    if command -v apt-get >/dev/null 2>&1; then
        $SUDO apt-get install -y "${missing[@]}" \
            || { $SUDO apt-get update && $SUDO apt-get install -y "${missing[@]}"; }
    else
        echo "warning: install ${missing[*]} with your package manager; grading needs" \
             "bubblewrap and the browser tests need chromium" >&2
    fi
fi

if [ $# -eq 0 ]; then
    python3 -m venv .venv
    .venv/bin/pip install -e ".[dev]"
    exit 0
fi

version="$1"
python="$(bash scripts/find_python.sh "$version")" || exit 1
"$python" -m venv ".venv-$version"
".venv-$version/bin/pip" install -e ".[dev]"
