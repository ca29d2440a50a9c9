#!/bin/bash
# device call 38 (session 8): ncu of the bracketed exact mode at N = 65536, d = 128 (bench_gram built at
# $TDMAPS_COMMIT in call 37, carried): sm90-ws's 3xTF32 count-exact kernel and the float64 replay of its pairs.
# A first pass (one cheap section) counts the kernel's launches; the profile takes the timed one.
set -o pipefail; export TDMAPS_COMMIT=$(cat .carry/bin/COMMIT)
R=/tmp/r38; mkdir -p $R; T0=$SECONDS
pack() { tar czf $OUT/r38.tgz -C $R . 2>/dev/null; }
gunzip -c .carry/bin/bench_gram.gz > /tmp/bench_gram && chmod +x /tmp/bench_gram; BG=/tmp/bench_gram
export TDMAPS_GPU_SLUG_PROGRAM=$PWD/build/experiments/gpu_slug
S="--section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section SchedulerStats"
prof() {  # prof NAME REGEX FROM_END bench_gram-args...: the FROM_END-th launch from the run's end
  local k=$1 re=$2 back=$3; shift 3
  ncu --kernel-name-base mangled --kernel-name "regex:$re" --section LaunchStats $BG "$@" --out $R/ncu_y > $R/ncu_${k}_count.log 2>&1
  local m=$(grep -c '==PROF== Profiling' $R/ncu_${k}_count.log); echo "$k: $m launches at $((SECONDS-T0)) s"
  local left=$((560-(SECONDS-T0))); [ $left -lt 30 ] && { echo "ncu $k: no time left"; return; }
  timeout $left ncu --kill on --kernel-name-base mangled --kernel-name "regex:$re" --launch-skip $((m-back)) --launch-count 1 $S -o $R/ncu_$k $BG "$@" --out $R/ncu_x > $R/ncu_${k}_run.log 2>&1; echo "ncu $k rc=$? at $((SECONDS-T0)) s"
  ncu --import $R/ncu_$k.ncu-rep --page details > $R/ncu_$k.txt 2>&1; ncu --import $R/ncu_$k.ncu-rep --page raw --csv > $R/ncu_${k}_raw.csv 2>&1; rm -f $R/ncu_$k.ncu-rep
  grep -E "Duration|Grid Size|DRAM Throughput|Compute \(SM\) Throughput" $R/ncu_$k.txt | head -6
  pack
}
A="--N 1024 --d 64 --prec tf32 --sym none --kernel sm90-ws --verify-max 200 --samples 64 --reps 1 --exact-N 65536"
prof count_exact 'gram_kernel_sm90ILNS_4PrecE1E.*OutE6E' 1 $A
# the count's replays: 3xTF32's and TF32's alternate in the timed runs; the one before the last is 3xTF32's
prof replay_count 'replay_kernelIL.*WhatE1E' 2 $A
echo total $((SECONDS-T0)) s
