#!/usr/bin/env bash
# experiments/run_sanitizer.sh [--dry-run] BUILD LOGDIR — compute-sanitizer memcheck and racecheck
# of every step of experiments/experiments.list with a sanitize column (its args + sanitize: tiny
# sizes; both index paths of the 2D maps, EDM plain and fast, collision, the tetrahedral kernels).
# Logs: LOGDIR/{memcheck,racecheck}-<step>.log; exits non-zero when a run reports an error or a
# hazard. --dry-run prints each run's command line ("TOOL NAME: COMMAND") and runs nothing (the
# test experiments_list holds it to the list).
set -uo pipefail
dry=0; [ "${1:-}" = --dry-run ] && { dry=1; shift; }
build=${1:?usage: run_sanitizer.sh [--dry-run] BUILD LOGDIR}
logs=${2:?usage: run_sanitizer.sh [--dry-run] BUILD LOGDIR}
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=experiments.sh
. "$here/experiments.sh"
exp_load || exit 2
if [ $dry = 1 ]; then tmp=/scratch; else mkdir -p "$logs"; tmp=$(mktemp -d); fi
EXP_E="$build/experiments" EXP_OUT="$tmp" EXP_LOGS="$tmp/logs"
cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
fail=0
for tool in memcheck racecheck; do
  for name in "${EXP_NAMES[@]}"; do
    [ "${EXP_SANITIZE[$name]}" = - ] && continue
    exp_command "$name" "${EXP_SANITIZE[$name]}"
    if [ $dry = 1 ]; then echo "$tool $name: ${CMD[*]}"; continue; fi
    "$cs" --tool "$tool" --error-exitcode 9 "${CMD[@]}" > "$logs/$tool-$name.log" 2>&1
    rc=$?
    echo "$tool $name: rc=$rc $(tail -n 1 "$logs/$tool-$name.log")" >&2
    [ $rc -eq 0 ] || fail=1
  done
done
[ $dry = 1 ] || rm -rf "$tmp"
exit $fail
