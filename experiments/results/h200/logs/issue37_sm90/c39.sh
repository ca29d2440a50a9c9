#!/bin/bash
# device call 39 (session 8) at $TDMAPS_COMMIT (clean): bench_gram built here (Boost and CUTLASS carried), then the
# exact mode's new replay (a warp per 32 pairs, rows staged through shared memory): memcheck and racecheck of the
# exact mode at N = 300, then the bracketed checks (every data kind, equal to float64 count for count) and the
# timing (gram_exact.csv) on kernels classic and sm90-ws at N = 65536 and 10^6, d = 128, every row first compared
# with the all-float64 exact mode; then ncu of the replay at N = 65536 if time is left.
set -o pipefail; export TDMAPS_COMMIT=$(cat .carry/bin/COMMIT) BOOST_ROOT=$PWD/.carry/boost
echo "$TDMAPS_COMMIT" > .tdmaps-commit
tar xJf .carry/cutlass_inc.tar.xz -C .carry
R=$OUT; mkdir -p $R; T0=$SECONDS; B=build-d
pack() { tar czf $OUT/r39.tgz -C $R . 2>/dev/null; }
meson setup $B -Dgpu_arch=sm_90 -Dgram_bench=enabled -Dcutlass=$PWD/.carry/cutlass/include -Dfigures=disabled -Dpython=disabled > $R/setup.log 2>&1 || { tail -20 $R/setup.log; pack; exit 1; }
ninja -C $B -j15 experiments/gram/bench_gram experiments/gpu_slug > $R/build.log 2>&1; rc=$?; echo "build rc=$rc at $((SECONDS-T0)) s"
[ $rc -ne 0 ] && { grep -E "error|FAILED" $R/build.log | head -20; pack; exit 1; }
BG=$B/experiments/gram/bench_gram; export TDMAPS_GPU_SLUG_PROGRAM=$PWD/$B/experiments/gpu_slug
strip -o /tmp/bench_gram $BG && gzip -c /tmp/bench_gram > $OUT/bench_gram.gz
for tool in memcheck racecheck; do
timeout 60 compute-sanitizer --tool $tool $BG --kernel classic,sm90-ws --prec tf32,3xtf32 --N 256 --d 64 --sym none --verify-max 130 --samples 64 --reps 1 --exact-N 300 --out $R/san_$tool > $R/${tool}_bench.log 2>&1; echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/${tool}_bench.log | tr '\n' ' ') at $((SECONDS-T0)) s"
done; pack
timeout $((500 - SECONDS + T0)) $BG --N 1024 --d 64 --prec tf32 --sym none --kernel classic,sm90-ws --verify-max 300 --samples 256 --reps 3 --exact-N 65536,1000000 --out $R/res > $R/exact.log 2>&1; echo "exact rc=$? at $((SECONDS-T0)) s"
grep -E "^\[exact\]|check failed|wrote" $R/exact.log | head -40; pack
S="--section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section SchedulerStats"
prof() {  # prof NAME REGEX FROM_END bench_gram-args...: the FROM_END-th launch from the run's end
  local k=$1 re=$2 back=$3; shift 3
  ncu --kernel-name-base mangled --kernel-name "regex:$re" --section LaunchStats $BG "$@" --out $R/ncu_y > $R/ncu_${k}_count.log 2>&1
  local m=$(grep -c '==PROF== Profiling' $R/ncu_${k}_count.log); echo "$k: $m launches at $((SECONDS-T0)) s"
  local left=$((575-(SECONDS-T0))); [ $left -lt 30 ] && { echo "ncu $k: no time left"; return; }
  timeout $left ncu --kill on --kernel-name-base mangled --kernel-name "regex:$re" --launch-skip $((m-back)) --launch-count 1 $S -o $R/ncu_$k $BG "$@" --out $R/ncu_x > $R/ncu_${k}_run.log 2>&1; echo "ncu $k rc=$? at $((SECONDS-T0)) s"
  ncu --import $R/ncu_$k.ncu-rep --page details > $R/ncu_$k.txt 2>&1; ncu --import $R/ncu_$k.ncu-rep --page raw --csv > $R/ncu_${k}_raw.csv 2>&1; rm -f $R/ncu_$k.ncu-rep
  grep -E "Duration|Grid Size|DRAM Throughput|Compute \(SM\) Throughput" $R/ncu_$k.txt | head -6
  pack
}
A="--N 1024 --d 64 --prec tf32 --sym none --kernel sm90-ws --verify-max 200 --samples 64 --reps 1 --exact-N 65536"
# the count's replays: 3xTF32's and TF32's alternate in the timed runs; the one before the last is 3xTF32's
prof replay_count 'replay_kernelIL.*WhatE1E' 2 $A
echo total $((SECONDS-T0)) s
