#!/bin/bash
# device call 55 (session 11): ncu (ncu_binds' sections) at the timed size N = 65536, d = 128 of sm90-ws's 3xTF32
# count-exact (persistent kernel), hist-exact (65 buckets) and the float64 replay of the count; the binary of call 53
# (79aa715). Launches counted first (LaunchStats), then the one of the timed run profiled.
set -o pipefail
R=/tmp/r55; mkdir -p $R; T0=$SECONDS
pack() { tar czf $OUT/r55.tgz -C $R . 2>/dev/null; }
gunzip -c .carry/bin/bench_gram_c53.gz > /tmp/bench_gram && chmod +x /tmp/bench_gram; BG=/tmp/bench_gram
A="--N 1024 --d 64 --prec tf32 --sym none --kernel sm90-ws --verify-max 130 --samples 64 --reps 1 --warmup 1 --min-reps 1 --exact-N 65536"
S="--section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section SchedulerStats"
# name:regex:launches back from the last (1: the last; count replay: 2, the 3xTF32 one; hist-exact: 4, the 65-bucket case)
for k in countx:gram_kernel_sm90_persistentILNS_4PrecE1E.*OutE6E:1 histx:gram_kernel_sm90ILNS_4PrecE1E.*OutE7E:4 replay:replay_kernelILN.*WhatE1E:2; do
  [ $((SECONDS-T0)) -gt 500 ] && break
  IFS=: read name re back <<< "$k"
  ncu --kernel-name-base mangled --kernel-name "regex:$re" --section LaunchStats $BG $A --out $R/y > $R/ncu_${name}_count.log 2>&1
  m=$(grep -c '==PROF== Profiling' $R/ncu_${name}_count.log); echo "$name: $m launches at $((SECONDS-T0)) s"
  grep -E "Grid Size" $R/ncu_${name}_count.log | tail -$back | head -1
  [ "$m" -lt $back ] && continue
  timeout 90 ncu --kernel-name-base mangled --kernel-name "regex:$re" --launch-skip $((m-back)) --launch-count 1 $S -o $R/ncu_$name $BG $A --out $R/x > $R/ncu_${name}_run.log 2>&1; echo "ncu $name rc=$? at $((SECONDS-T0)) s"
  ncu --import $R/ncu_$name.ncu-rep --page details > $R/ncu_$name.txt 2>&1; ncu --import $R/ncu_$name.ncu-rep --page raw --csv > $R/ncu_${name}_raw.csv 2>&1; rm -f $R/ncu_$name.ncu-rep
  grep -E "Duration|Grid Size|Issue Slots Busy|Warp Cycles Per Issued" $R/ncu_$name.txt | head -4
  pack
done
echo total $((SECONDS-T0)) s
