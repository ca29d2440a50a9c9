#!/bin/bash
# device call 25 (session 6) at $TDMAPS_COMMIT: issue #36 item 4 (the epilogue of classic, sm80-8w and sm90-ws written
# once in gram_epilogue.cuh; the persistent kernel retired; no state kept between calls): every kernel checked against
# float64 in every precision, the sanitizers on the new epilogue, and ncu of sm90-evt's lower, mirror and condensed
# at N = 65536, d = 128 and the BF16 product at N = 8192, K = 4096 (what binds each); the run of record: c26.sh
set -o pipefail; export TDMAPS_COMMIT=$(cat .carry/bin/COMMIT)
R=$OUT; mkdir -p $R; T0=$SECONDS
gunzip -c .carry/bin/bench_gram.gz > /tmp/bench_gram && chmod +x /tmp/bench_gram
export TDMAPS_GPU_SLUG_PROGRAM=$PWD/build/experiments/gpu_slug
nvidia-smi -q > $R/nvidia_smi_q.txt 2>&1
timeout 150 /tmp/bench_gram --quick --kernel classic,sm80-8w,sm90-ws,sm90-evt --prec tf32,3xtf32,bf16,fp16 --hist-N 100000 --out $R/quick > $R/quick.log 2>&1; rc=$?
echo "quick rc=$rc at $((SECONDS-T0)) s"; grep -iE "fail|error" $R/quick.log | head -5
tar czf $OUT/r25.tgz -C $R .
[ $rc -ne 0 ] && exit 1
for tool in memcheck racecheck; do
timeout 100 compute-sanitizer --tool $tool /tmp/bench_gram --kernel classic,sm80-8w,sm90-ws --prec tf32 --N 516 --d 64 --sym none --verify-max 200 --samples 64 --reps 1 --hist-N 600 --hist-verify 600 --out $R/san_$tool > $R/${tool}_bench.log 2>&1; echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/${tool}_bench.log | tr '\n' ' ') at $((SECONDS-T0)) s"
done
tar czf $OUT/r25.tgz -C $R .
S="--section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section SchedulerStats --section Occupancy"
prof() {  # prof NAME REGEX SKIP bench_gram-args...: one kernel's ncu report, its pages as text and CSV
  local k=$1 re=$2 skip=$3; shift 3
  local left=$((575-(SECONDS-T0))); [ $left -lt 40 ] && { echo "ncu $k: no time left"; return; }
  timeout $left ncu --kernel-name-base mangled --kernel-name regex:$re --launch-skip $skip --launch-count 1 $S -o $R/ncu_$k /tmp/bench_gram "$@" --reps 1 --samples 64 --verify-max 200 --out $R/ncu_x > $R/ncu_${k}_run.log 2>&1; echo "ncu $k rc=$? at $((SECONDS-T0)) s"
  ncu --import $R/ncu_$k.ncu-rep --page details > $R/ncu_$k.txt 2>&1; ncu --import $R/ncu_$k.ncu-rep --page raw --csv > $R/ncu_${k}_raw.csv 2>&1
  grep -E "Duration|DRAM Throughput|L2 Cache Throughput|Compute \(SM\) Throughput|Issue Slots Busy|Warp Cycles Per Issued" $R/ncu_$k.txt | head -8
  tar czf $OUT/r25.tgz -C $R .
}
E="--kernel sm90-evt --prec tf32 --N 65536 --d 128 --sym none"
prof lower KeepAboveDiagonal 8 $E
prof mirror ZeroDiagonal 8 $E
prof condensed CondensedStore 8 $E
prof mirror_gram Sm90AccFetch 4 --kernel sm90-evt --prec bf16 --N 8192 --d 4096 --sym 8192x4096
echo total $((SECONDS-T0)) s
