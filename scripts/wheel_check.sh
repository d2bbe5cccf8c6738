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
"$outside/venv/bin/pip" install "${wheel[0]}[grading,reports,models,service]"
cp submissions/stat8021-a3/wrong-q1c-missing-scale.ipynb "$outside/"
# The README's LMS example needs a class download: a Moodle zip (issue 27) where one
# student handed in a report beside the notebook, one a report alone, one nothing.
mkdir "$outside/lms"
python3 - "$outside/lms/moodle-download.zip" <<'PY'
import sys, zipfile
nb = open("submissions/stat8021-a3/wrong-q1c-missing-scale.ipynb", "rb").read()
report = "## Question 3\n\n(c) The attention scores take **25.77 GB**.\n"
with zipfile.ZipFile(sys.argv[1], "w") as zf:
    zf.writestr("Ada Lovelace_101_assignsubmission_file_/Transformer_practice.ipynb", nb)
    zf.writestr("Ada Lovelace_101_assignsubmission_file_/report.md", report)
    zf.writestr("Bob Ng_102_assignsubmission_file_/report.md", report)
    zf.writestr(zipfile.ZipInfo("Cy Oh_103_assignsubmission_file_/"), b"")
PY
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

    # The README's LMS example, literally (its two lines, a relative --out), in a folder
    # holding only the download: every student has a record, the reports are read.
    (
        cd lms
        "$outside/venv/bin/grader" grade moodle-download.zip -a stat8021-a3 --out grades
        "$outside/venv/bin/grader" report grades --out feedback
    )
    venv/bin/python - <<'PY'
import csv, json
def record(key):
    return json.load(open(f"lms/grades/{key}.json"))
for key in ("ada-lovelace-101", "bob-ng-102"):
    reports = [r for r in record(key)["submission"]["reports"] if not r.get("intake")]
    assert [r["name"] for r in reports] == ["report.md"] and not reports[0].get("error"), reports
    q3c = next(q for q in record(key)["questions"] if q["id"] == "q3c")
    assert q3c["score"] == q3c["max"], (key, q3c["message"])
assert "nothing was handed in" in record("cy-oh-103")["questions"][0]["message"]
rows = {r["key"] for r in csv.DictReader(open("lms/feedback/gradebook.csv"))}
assert {"ada-lovelace-101", "bob-ng-102", "cy-oh-103"} <= rows, rows
print("LMS example: 3 records, reports read")
PY

    # `grader serve` from this empty folder serves the installed example packs and
    # checks a Part 3 answer (its key computed on the server, never sent).
    port="$(venv/bin/python -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
    GRADER_SERVICE_COMPUTE_WORKERS=1 "$grader" serve --port "$port" >serve.log 2>&1 &
    served=$!
    status=0
    venv/bin/python - "$port" <<'PY' || status=$?
import json, sys, time, urllib.error, urllib.request
base = f"http://127.0.0.1:{sys.argv[1]}"
deadline = time.monotonic() + 180
while True:
    try:
        urllib.request.urlopen(base + "/healthz", timeout=5)
        break
    except (urllib.error.URLError, OSError):
        if time.monotonic() > deadline:
            sys.exit("grader serve did not answer /healthz in 180 s")
        time.sleep(0.5)
ids = [a["id"] for a in json.load(urllib.request.urlopen(base + "/v1/assignments"))["assignments"]]
assert "stat8021-a3" in ids, ids
ask = urllib.request.Request(base + "/v1/answers/check", method="POST",
    headers={"content-type": "application/json"},
    data=json.dumps({"assignment": "stat8021-a3", "question": "q3c", "answer": "25.77 GB"}).encode())
reply = json.load(urllib.request.urlopen(ask, timeout=60))
assert reply["verdict"] == "correct", reply
print("grader serve: packs", ids, "q3c", reply["verdict"])
PY
    kill -INT "$served" 2>/dev/null || true
    wait "$served" || true
    [ "$status" -eq 0 ] || { cat serve.log >&2; exit 1; }
)
