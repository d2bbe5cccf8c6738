#!/usr/bin/env bash
# The fast tier on each other Python the grader supports (3.12 and 3.13; .venv is 3.11),
# each in a venv of its own made by `scripts/install.sh X.Y`, and the whole sample class
# on the first of them with the scores its README promises (issue 24: on 3.12 every
# grading hung until the harness allowed for where 3.12 keeps `open`).
#
#   bash scripts/test_pythons.sh            # 3.12 and 3.13
#   bash scripts/test_pythons.sh 3.13       # one
#
# A missing interpreter is an error under CI (CI=true) and a warning elsewhere.
set -euo pipefail
cd "$(dirname "$0")/.."

versions=("$@")
[ ${#versions[@]} -gt 0 ] || versions=(3.12 3.13)
first=1
for version in "${versions[@]}"; do
    if ! bash scripts/find_python.sh "$version" >/dev/null; then
        if [ "${CI:-}" = "true" ]; then exit 1; fi
        echo "warning: Python $version is not here: not tested" >&2
        continue
    fi
    echo "== Python $version: install" >&2
    bash scripts/install.sh "$version"
    echo "== Python $version: the fast tier" >&2
    ".venv-$version/bin/pytest" -p no:cacheprovider
    if [ "$first" = 1 ]; then
        echo "== Python $version: the whole sample class, scored as its README says" >&2
        ".venv-$version/bin/pytest" -p no:cacheprovider --tier full \
            tests/grader/test_grade_samples.py
        first=0
    fi
done
