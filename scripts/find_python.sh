#!/usr/bin/env bash
# Print the path of a Python interpreter of version X.Y ($1): pythonX.Y on PATH, else the
# newest pyenv X.Y.z; exit 1 naming what was looked for when there is none.
set -euo pipefail
version="$1"
if command -v "python$version" >/dev/null 2>&1 \
        && "python$version" -c 'import sys; assert sys.version_info[:2] == tuple(map(int, sys.argv[1].split(".")))' "$version" 2>/dev/null; then
    command -v "python$version"
    exit 0
fi
root="${PYENV_ROOT:-$HOME/.pyenv}"
found="$(ls -d "$root"/versions/"$version".* 2>/dev/null | sort -V | tail -1 || true)"
if [ -n "$found" ] && [ -x "$found/bin/python" ]; then
    echo "$found/bin/python"
    exit 0
fi
echo "error: no Python $version here (looked for python$version on PATH and $root/versions/$version.*)" >&2
exit 1
