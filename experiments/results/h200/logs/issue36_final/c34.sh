#!/bin/bash
# device call 34 (session 7) at $TDMAPS_COMMIT: ncu of sm80-8w's eps-count (37-count, N = 10^6, d = 128) and sm90-ws
# 3xTF32 lower (27-syrk, N = 65536, d = 128) at the timed size: a first pass (one cheap section) counts the kernel's
# launches in the run, the profile takes the last two (the timed launches; call 33 caught the checks' small ones).
set -o pipefail; export TDMAPS_COMMIT=$(cat .carry/bin/COMMIT)
R=/tmp/r34; mkdir -p $R; T0=$SECONDS
pack() { tar czf $OUT/r34.tgz -C $R . 2>/dev/null; }
gunzip -c .carry/bin/bench_gram.gz > /tmp/bench_gram && chmod +x /tmp/bench_gram
export TDMAPS_GPU_SLUG_PROGRAM=$PWD/build/experiments/gpu_slug
S="--section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section SchedulerStats"
prof() {  # prof NAME REGEX bench_gram-args...
  local k=$1 re=$2; shift 2
  ncu --kernel-name-base mangled --kernel-name "regex:$re" --section LaunchStats /tmp/bench_gram "$@" --out $R/ncu_y > $R/ncu_${k}_count.log 2>&1
  local m=$(grep -c '==PROF== Profiling' $R/ncu_${k}_count.log); echo "$k: $m launches at $((SECONDS-T0)) s"
  grep -E "Grid Size" $R/ncu_${k}_count.log | tail -3
  local left=$((560-(SECONDS-T0))); [ $left -lt 40 ] && { echo "ncu $k: no time left"; return; }
  timeout $left ncu --kill on --kernel-name-base mangled --kernel-name "regex:$re" --launch-skip $((m-2)) --launch-count 2 $S -o $R/ncu_$k /tmp/bench_gram "$@" --out $R/ncu_x > $R/ncu_${k}_run.log 2>&1; echo "ncu $k rc=$? at $((SECONDS-T0)) s: $(grep -c '==PROF== Profiling' $R/ncu_${k}_run.log) launches"
  ncu --import $R/ncu_$k.ncu-rep --page details > $R/ncu_$k.txt 2>&1; ncu --import $R/ncu_$k.ncu-rep --page raw --csv > $R/ncu_${k}_raw.csv 2>&1; rm -f $R/ncu_$k.ncu-rep
  grep -E "Duration|Grid Size" $R/ncu_$k.txt | tail -4
  pack
}
prof syrk_lower 'gram_kernel_sm90ILNS_4PrecE1EN6tdmaps7TileMapINS3_3LTMINS3_5SqrtEEEEEELNS_3OutE0E' --kernel sm90-ws --prec 3xtf32 --N 65536 --d 128 --sym none --verify-max 200 --samples 64 --reps 1
prof count 'gram_kernel_classicILNS_4PrecE0EN6tdmaps7TileMapINS2_3LTMINS2_5SqrtEEEEEELNS_3OutE4ENS_10Warp8Shape' --kernel sm80-8w --prec tf32 --N 1024 --d 128 --sym none --verify-max 200 --samples 64 --reps 1 --hist-N 1000000
echo total $((SECONDS-T0)) s
