#!/usr/bin/env bash
# Run a command beside a CPU hog: N busy processes (default 4) that spin for as long as the
# command runs, then are killed. How the limit and hostile-sample tests are shown to hold
# on a loaded machine (issue 28: no assertion may depend on which limit trips first).
#
#   bash scripts/cpu_hog.sh .venv/bin/pytest --tier full tests/grader/run/test_hostile_channel.py
#   HOG=6 bash scripts/cpu_hog.sh .venv/bin/pytest --tier full -k limits
#   ROUNDS=3 bash scripts/cpu_hog.sh .venv/bin/pytest --tier full tests/grader/run/test_pool.py
#
# ROUNDS runs the command that many times in a row, the hog beside every round, and stops
# at the first failing round. The hog never outlives the command (a trap kills it, and each
# spinner also stops by itself after HOG_MAX_S seconds, 3 hours by default).
set -uo pipefail

if [ $# -eq 0 ]; then
    echo "usage: [HOG=4] [ROUNDS=1] bash scripts/cpu_hog.sh COMMAND [ARGS...]" >&2
    exit 2
fi
hog="${HOG:-4}"
rounds="${ROUNDS:-1}"
max_s="${HOG_MAX_S:-10800}"

spinners=()
stop_hog() {
    [ ${#spinners[@]} -gt 0 ] && kill "${spinners[@]}" 2>/dev/null
    wait "${spinners[@]}" 2>/dev/null
    spinners=()
}
trap stop_hog EXIT INT TERM

for _ in $(seq "$hog"); do
    # a shell loop: one core's worth of work each, no memory, nothing written
    timeout "$max_s" bash -c 'while :; do :; done' &
    spinners+=($!)
done
echo "cpu_hog: $hog busy processes beside: $*" >&2

status=0
for round in $(seq "$rounds"); do
    start=$(date +%s)
    "$@"
    status=$?
    echo "cpu_hog: round $round of $rounds exited $status after $(( $(date +%s) - start )) s" \
         "(load: $(cut -d' ' -f1-3 /proc/loadavg))" >&2
    [ "$status" -ne 0 ] && break
done
exit "$status"
