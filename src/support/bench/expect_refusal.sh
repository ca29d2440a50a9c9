#!/bin/sh
# src/support/bench/expect_refusal.sh — the prediction-and-refusal policy (bench/predict.hpp) of one
# experiment program, checked without a GPU (the refusal comes before any CUDA call).
#   expect_refusal.sh refuse PROGRAM ARGS... -- WANT...   exit 2, one line on stderr containing every WANT
#   expect_refusal.sh go     PROGRAM ARGS... -- WANT...   not refused (run with --predict-only): exit 0, stderr says the
#                                                         prediction fits; nothing runs, nothing is written
mode=$1; prog=$2; shift 2
args=""
while [ $# -gt 0 ] && [ "$1" != "--" ]; do args="$args $1"; shift; done
[ "$1" = "--" ] && shift
start=$(date +%s)
# shellcheck disable=SC2086
err=$("$prog" $args 2>&1 >/dev/null); rc=$?
took=$(( $(date +%s) - start ))
echo "$(basename "$prog")$args -> exit $rc in ${took}s: $err"
if [ "$mode" = refuse ]; then
  [ "$rc" = 2 ] || { echo "FAIL: exit $rc, want 2"; exit 1; }
  [ "$(printf '%s\n' "$err" | wc -l)" = 1 ] || { echo "FAIL: not one line"; exit 1; }
  case "$err" in *"refused:"*) ;; *) echo "FAIL: no 'refused:'"; exit 1 ;; esac
else
  [ "$rc" = 0 ] || { echo "FAIL: exit $rc, want 0"; exit 1; }
  case "$err" in *"within --max-minutes"*) ;; *) echo "FAIL: no 'within --max-minutes'"; exit 1 ;; esac
fi
for want in "$@"; do
  case "$err" in *"$want"*) ;; *) echo "FAIL: no '$want'"; exit 1 ;; esac
done
[ "$took" -le 20 ] || { echo "FAIL: took ${took}s (the prediction must come before the work)"; exit 1; }
echo ok
