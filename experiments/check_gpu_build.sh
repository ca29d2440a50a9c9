#!/usr/bin/env bash
# What a user of a fresh clone meets on a GPU machine (issue #13), each step logged:
#   configure  `meson setup` with the defaults (gpu_arch=auto): the log must say it builds for the
#              GPU that nvidia-smi reports (sm_XY of its compute capability), not the fat list
#   build      the whole tree of that build
#   gpu-tests  the GPU suite of that build (`meson test --suite gpu`: every kernel against the CPU
#              oracle, incl. tdmaps/launch.cuh and LTM-LUT's device table, and the multi-GPU checks)
#   install    the example_install test of that build: install into a scratch prefix, build
#              examples/pairs with Meson, as a Meson subproject and with CMake, and run each: the
#              GPU part (LTM-E kernel through tdmaps/launch.cuh) must agree with the CPU
#   refusal    a build for an architecture the GPU cannot run (sm_100 on sm_90 and older, else
#              sm_90): bench_sdh must refuse in one line naming both, with the rebuild command, exit 2
#   make-verify  (not in the default list) README's test command on a fresh copy of the source
#              tree (every file but the ignored build and tool folders: build*/, .tools/, .carry/,
#              .whl/, .gl/ — what a fresh clone holds; a copy rather than `git clone` so that the
#              lent machines, whose .git may lag the files sent, test the files themselves):
#              `cd <copy>; make verify`, timed; the summary gets its wall time and meson's counts,
#              OUT/make_verify_testlog.txt the test log
# Usage: check_gpu_build.sh OUT [step ...]   (default: every step but make-verify, in this order)
# Run from the source root; builds in build-gpu/ and build-refusal/ (ignored by git). MESON=...
# names the meson to use (>= 1.4). Summary in OUT/summary.txt, one log per step beside it.
set -uo pipefail
out=$1; shift
steps=("$@")
[ ${#steps[@]} -eq 0 ] && steps=(configure build gpu-tests install refusal)
meson=${MESON:-meson}
export NCCL_NVLS_ENABLE=0
mkdir -p "$out"
sum="$out/summary.txt"
status=0
say() { echo "$*" | tee -a "$sum"; }
run() {  # run NAME CMD...: output to OUT/NAME.log; returns CMD's status
  local name=$1; shift
  say "== $name: $*"
  local t0=$SECONDS
  "$@" >"$out/$name.log" 2>&1; local rc=$?
  say "   rc=$rc ($((SECONDS - t0)) s)"
  return $rc
}
cap=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n 1 | tr -d ' ')
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1)
[ -n "$cap" ] || { say "check_gpu_build: no GPU (nvidia-smi reports none)"; exit 2; }
sm="sm_${cap/./}"
say "GPU: $gpu, compute capability $cap ($sm); $($meson --version 2>/dev/null | sed 's/^/meson /'); $(nvcc --version | tail -n 2 | head -n 1)"

for st in "${steps[@]}"; do
  case $st in
    configure)
      rm -rf build-gpu
      run configure "$meson" setup build-gpu || status=1
      line=$(grep -m1 'CUDA: building GPU targets for' "$out/configure.log")
      say "   $line"
      if [[ "$line" == *"for $sm (PTX compute_${cap/./})"*"[auto: the GPUs found by nvidia-smi]"* ]]; then
        say "   ok: the default build targets the GPU present ($sm)"
      else
        say "   FAIL: expected 'building GPU targets for $sm ... [auto: the GPUs found by nvidia-smi]'"; status=1
      fi ;;
    build)
      run build ninja -C build-gpu || { status=1; tail -n 30 "$out/build.log" | tee -a "$sum"; } ;;
    gpu-tests)
      run gpu_tests "$meson" test -C build-gpu --suite gpu --num-processes 1 --print-errorlogs || status=1
      grep -E '^ *[0-9]+/[0-9]+ |^Ok:|^Fail:|^Skipped:|^Timeout:' "$out/gpu_tests.log" | sed 's/^/   | /' | tee -a "$sum"
      cp build-gpu/meson-logs/testlog.txt "$out/gpu_tests_testlog.txt" 2>/dev/null ;;
    install)
      run install "$meson" test -C build-gpu example_install --print-errorlogs -v || status=1
      grep -E '^ *(meson|subproject|cmake)\| (gpu|cpu)|GPU part|example_install:' "$out/install.log" | sed 's/^/   | /' | tee -a "$sum"
      # two GPU lines (launch<LTM_E>, for_each_cell<LTM_E>) in each of the three builds
      if [ "$(grep -cE '^ *(meson|subproject|cmake)\| gpu (launch|for_each_cell): .* ok$' "$out/install.log")" -ne 6 ]; then
        say "   FAIL: the GPU part of the example did not run and agree in all three builds"; status=1
      fi ;;
    refusal)
      other=sm_100; [ "${cap%%.*}" -ge 10 ] && other=sm_90
      rm -rf build-refusal
      run refusal_configure "$meson" setup build-refusal -Dgpu_arch=$other || status=1
      run refusal_build ninja -C build-refusal experiments/sdh/bench_sdh || status=1
      run refusal_run build-refusal/experiments/sdh/bench_sdh --N 1000 --out "$out/refusal"; rc=$?
      sed 's/^/   | /' "$out/refusal_run.log" | tee -a "$sum"
      if [ $rc -eq 2 ] && [ "$(wc -l <"$out/refusal_run.log")" -eq 1 ] &&
         grep -q "GPU code for $other.* but the GPU found is $sm.*-Dgpu_arch=$sm" "$out/refusal_run.log"; then
        say "   ok: a $other build refuses the $sm GPU in one line, exit 2"
      else
        say "   FAIL: expected one line naming $other, $sm and the rebuild command, exit 2 (got $rc)"; status=1
      fi ;;
    make-verify)
      fresh=$(mktemp -d)/tdmaps
      mkdir -p "$fresh"
      tar -c --exclude='./build' --exclude='./build-*' --exclude='./.tools' --exclude='./.carry' \
          --exclude='./.whl' --exclude='./.gl' . | tar -x -C "$fresh" || { say "   FAIL: copying the tree"; status=1; continue; }
      t0=$SECONDS
      run make_verify make -C "$fresh" verify || status=1
      say "   make verify: $((SECONDS - t0)) s wall on $(nproc) cores, a fresh copy of the tree (git HEAD there: $(git -C "$fresh" rev-parse --short=12 HEAD 2>/dev/null))"
      grep -E '^(Ok|Expected Fail|Fail|Unexpected Pass|Skipped|Timeout): ' "$out/make_verify.log" | sed 's/^/   | /' | tee -a "$sum"
      grep -E '^ *[0-9]+/[0-9]+ .*gpu' "$out/make_verify.log" | sed 's/^/   | /' | tee -a "$sum"
      cp "$fresh/build/meson-logs/testlog.txt" "$out/make_verify_testlog.txt" 2>/dev/null ;;
    *) say "unknown step $st"; exit 2 ;;
  esac
done
say "check_gpu_build: status $status"
exit $status
