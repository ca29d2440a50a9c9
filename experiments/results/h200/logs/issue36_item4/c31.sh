#!/bin/bash
# device call 31 (session 6) at $TDMAPS_COMMIT: ncu of the kernels behind the other missed Gram targets: sm90-ws's fused
# histogram (27-hist, 37-hist) and sm80-8w's eps-count (37-count) at N = 10^6, d = 128, and sm90-ws 3xTF32 lower (27-syrk)
# at N = 65536, d = 128; every launch of each up to a count, ncu_binds reads the longest. One archive back.
set -o pipefail; export TDMAPS_COMMIT=$(cat .carry/bin/COMMIT)
R=/tmp/r31; mkdir -p $R; T0=$SECONDS
pack() { tar czf $OUT/r31.tgz -C $R . 2>/dev/null; }
gunzip -c .carry/bin/bench_gram.gz > /tmp/bench_gram && chmod +x /tmp/bench_gram
export TDMAPS_GPU_SLUG_PROGRAM=$PWD/build/experiments/gpu_slug
S="--section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section SchedulerStats"
prof() {  # prof NAME REGEX SKIP COUNT bench_gram-args...
  local k=$1 re=$2 skip=$3 count=$4; shift 4
  local left=$((570-(SECONDS-T0))); [ $left -lt 40 ] && { echo "ncu $k: no time left"; return; }
  timeout $left ncu --kernel-name-base mangled --kernel-name "regex:$re" --launch-skip $skip --launch-count $count $S -o $R/ncu_$k /tmp/bench_gram "$@" --out $R/ncu_x > $R/ncu_${k}_run.log 2>&1; echo "ncu $k rc=$? at $((SECONDS-T0)) s: $(grep -c '==PROF== Profiling' $R/ncu_${k}_run.log) launches"
  ncu --import $R/ncu_$k.ncu-rep --page details > $R/ncu_$k.txt 2>&1; ncu --import $R/ncu_$k.ncu-rep --page raw --csv > $R/ncu_${k}_raw.csv 2>&1; rm -f $R/ncu_$k.ncu-rep
  grep -E "Duration" $R/ncu_$k.txt | sort -k3 -n | tail -1
  pack
}
H="--N 1024 --d 128 --sym none --verify-max 200 --samples 64 --reps 1 --hist-N 1000000"
prof hist 'gram_kernel_sm90ILNS_4PrecE0EN6tdmaps7TileMapINS3_3LTMINS3_5SqrtEEEEEELNS_3OutE2E' 5 2 --kernel sm90-ws --prec tf32 $H
prof count 'gram_kernel_classicILNS_4PrecE0EN6tdmaps7TileMapINS2_3LTMINS2_5SqrtEEEEEELNS_3OutE4ENS_10Warp8Shape' 0 12 --kernel sm80-8w --prec tf32 $H
prof syrk_lower 'gram_kernel_sm90ILNS_4PrecE1EN6tdmaps7TileMapINS3_3LTMINS3_5SqrtEEEEEELNS_3OutE0E' 0 8 --kernel sm90-ws --prec 3xtf32 --N 65536 --d 128 --sym none --verify-max 200 --samples 64 --reps 1
echo total $((SECONDS-T0)) s
