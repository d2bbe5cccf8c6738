#!/usr/bin/env bash
# Install everything a fresh Debian/Ubuntu machine needs to develop and test:
# bubblewrap (the sandbox grading runs in) and chromium (the browser tests drive
# it through Playwright) from the system's packages, then the project and its dev
# extras in .venv (torch pinned to the CPU build, see README).
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

python3 -m venv .venv
.venv/bin/pip install -e ".[dev]"
