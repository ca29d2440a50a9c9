#!/usr/bin/env bash
# experiments/run_sanitizer.sh BUILD LOGDIR — compute-sanitizer memcheck and racecheck
# of every kernel family at small sizes (both index paths of the 2D maps, EDM plain and
# fast, collision, the tetrahedral kernels). Logs: LOGDIR/{memcheck,racecheck}-*.log;
# exits non-zero when a run reports an error or a hazard.
set -uo pipefail
build=${1:?usage: run_sanitizer.sh BUILD LOGDIR}
logs=${2:?usage: run_sanitizer.sh BUILD LOGDIR}
E="$build/experiments"
mkdir -p "$logs"
tmp=$(mktemp -d)
cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
fail=0
run() {  # run TOOL NAME CMD...
  local tool=$1 name=$2; shift 2
  "$cs" --tool "$tool" --error-exitcode 9 "$@" > "$logs/$tool-$name.log" 2>&1
  local rc=$?
  echo "$tool $name: rc=$rc $(tail -n 1 "$logs/$tool-$name.log")" >&2
  [ $rc -eq 0 ] || fail=1
}
apps=(--maps bb,ltm-r,ltm-e,rb,rb-b,rec,utm-n,utm-x,bb-fast,ltm-r-fast,ltm-e-fast --reps 1 --min-reps 1 --warmup 0 --out "$tmp")
for tool in memcheck racecheck; do
  run $tool maps "$E/maps2d/gpu_verify_maps" --max-N 70 --no-switch
  if [ $tool = memcheck ]; then
    run $tool apps "$E/apps2d/bench_apps" --test all --N 150 --rho 16,32 "${apps[@]}"
  else
    run $tool apps "$E/apps2d/bench_apps" --test all --N 64 --rho 16 "${apps[@]}"
  fi
  for t in dummy threebody layout; do
    run $tool "3d-$t" "$E/maps3d/bench_maps3d" --test $t --N 33 --rho 4 --reps 1 --min-reps 1 --warmup 0 --verify-max 33 --out "$tmp"
  done
done
rm -rf "$tmp"
exit $fail
