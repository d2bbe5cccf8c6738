#!/usr/bin/env bash
# CI's wheel step (run by .ci/run from the checkout's root, after the tests).
set -euo pipefail
cd "$(dirname "$0")/.."

# The wheel, as `pip install` gives it: built from this tree, installed with its
# dependencies in a fresh venv outside the checkout, and run from a folder outside it
# too: the example pack is found by id and the reports render from the wheel's
# templates (issue 18, item 10). Grading one Part 1 sample takes seconds.
rm -rf build
outside="$(mktemp -d)"
trap 'rm -rf "$outside"' EXIT
.venv/bin/python -m pip wheel --no-deps . -w "$outside/dist"
wheel=("$outside"/dist/transformer_grader-*.whl)
python3 -m venv "$outside/venv"
"$outside/venv/bin/pip" install "${wheel[0]}[grading,reports,models]"
cp submissions/stat8021-a3/wrong-q1c-missing-scale.ipynb "$outside/"
(
    cd "$outside"
    unset GRADER_PACKS GRADER_TEMPLATES
    export GRADER_HF_CACHE="$outside/hf"
    grader=venv/bin/grader
    venv/bin/python - <<'PY'
import grader, sys
from grader.pack import resolve_pack
from grader.report.templates import templates_dir
where = {"code": grader.__file__, "templates": templates_dir(),
         "pack": resolve_pack("stat8021-a3").root}
print(where)
assert all("/venv/lib/" in str(p) for p in where.values()), "not the installed copy"
PY
    "$grader" pack validate "$(venv/bin/python -c \
        'from grader.pack import resolve_pack; print(resolve_pack("stat8021-a3").root)')" --quick
    "$grader" models seed --tiny
    "$grader" grade wrong-q1c-missing-scale.ipynb -a stat8021-a3 --out grades
    "$grader" report grades --out feedback -a stat8021-a3
    for html in feedback/summary.html feedback/students/wrong-q1c-missing-scale.html; do
        [ -s "$html" ] || { echo "error: $html was not written" >&2; exit 1; }
    done
    venv/bin/python -c 'import json; s = json.load(open("grades/wrong-q1c-missing-scale.json"))["score"]; assert s == 18, f"scored {s}, the sample README says 18"'
)
