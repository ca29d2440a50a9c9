#!/bin/bash
# device call 28 (session 6) at $TDMAPS_COMMIT: ncu of sm90-evt's lower and mirror at N = 65536, d = 128, every launch
# of each (its checks at small N and the timed size; ncu_binds reads the longest). Calls 25-26 skipped 8 launches of
# each, past the count of lower's and mirror's. One archive back.
set -o pipefail; export TDMAPS_COMMIT=$(cat .carry/bin/COMMIT)
R=/tmp/r28; mkdir -p $R; T0=$SECONDS
pack() { tar czf $OUT/r28.tgz -C $R . 2>/dev/null; }
gunzip -c .carry/bin/bench_gram.gz > /tmp/bench_gram && chmod +x /tmp/bench_gram
export TDMAPS_GPU_SLUG_PROGRAM=$PWD/build/experiments/gpu_slug
S="--section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section SchedulerStats --section Occupancy"
E="--kernel sm90-evt --prec tf32 --N 65536 --d 128 --sym none --reps 1 --samples 64 --verify-max 200"
R3='INS1I_11Sm90ComputeINS1B_6thread4ReLu'
for k in lower mirror; do
  re="DiagonalFixE0EEEJNS1J_$R3"; [ $k = mirror ] && re="DiagonalFixE1EEEJNS1J_$R3"
  timeout 200 ncu --kernel-name-base mangled --kernel-name "regex:$re" --launch-count 16 $S -o $R/ncu_$k /tmp/bench_gram $E --out $R/ncu_x > $R/ncu_${k}_run.log 2>&1; echo "ncu $k rc=$? at $((SECONDS-T0)) s: $(grep -c '==PROF== Profiling' $R/ncu_${k}_run.log) launches"
  ncu --import $R/ncu_$k.ncu-rep --page details > $R/ncu_$k.txt 2>&1; ncu --import $R/ncu_$k.ncu-rep --page raw --csv > $R/ncu_${k}_raw.csv 2>&1
  grep -E "Duration" $R/ncu_$k.txt | tail -3
  pack
done
echo total $((SECONDS-T0)) s
