#!/bin/bash
# device call 26 (session 6) at $TDMAPS_COMMIT: bench_gram of record (every kernel checked against float64 before it
# is timed), racecheck of the new epilogue again (call 25's log did not come back), and ncu of sm90-evt's lower and
# mirror at N = 65536, d = 128 and of the BF16 product at N = 8192, K = 4096 (call 25's regexes named type aliases,
# which mangled names do not hold: DiagonalTile<DiagonalFix 0 / 1>). Everything goes back in one archive.
set -o pipefail; export TDMAPS_COMMIT=$(cat .carry/bin/COMMIT)
R=/tmp/r26; mkdir -p $R; T0=$SECONDS
pack() { tar czf $OUT/r26.tgz -C $R . 2>/dev/null; }
gunzip -c .carry/bin/bench_gram.gz > /tmp/bench_gram && chmod +x /tmp/bench_gram
export TDMAPS_GPU_SLUG_PROGRAM=$PWD/build/experiments/gpu_slug
timeout 220 /tmp/bench_gram --kernel classic,sm80-8w,sm90-ws,sm90-evt --hist-N 1000000 --out $R/res > $R/bench_gram.log 2>&1; echo "record rc=$? at $((SECONDS-T0)) s"; tail -2 $R/bench_gram.log; grep -c "^\[check\]" $R/bench_gram.log
pack
timeout 100 compute-sanitizer --tool racecheck /tmp/bench_gram --kernel classic,sm80-8w,sm90-ws --prec tf32 --N 516 --d 64 --sym none --verify-max 200 --samples 64 --reps 1 --hist-N 600 --hist-verify 600 --out $R/san_racecheck > $R/racecheck_bench.log 2>&1; echo "racecheck rc=$? $(grep -E 'RACECHECK SUMMARY' $R/racecheck_bench.log) at $((SECONDS-T0)) s"
pack
S="--section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section SchedulerStats --section Occupancy"
prof() {  # prof NAME REGEX SKIP bench_gram-args...: one kernel's ncu report, its pages as text and CSV
  local k=$1 re=$2 skip=$3; shift 3
  local left=$((575-(SECONDS-T0))); [ $left -lt 40 ] && { echo "ncu $k: no time left"; return; }
  timeout $left ncu --kernel-name-base mangled --kernel-name "regex:$re" --launch-skip $skip --launch-count 1 $S -o $R/ncu_$k /tmp/bench_gram "$@" --reps 1 --samples 64 --verify-max 200 --out $R/ncu_x > $R/ncu_${k}_run.log 2>&1; echo "ncu $k rc=$? at $((SECONDS-T0)) s"
  ncu --import $R/ncu_$k.ncu-rep --page details > $R/ncu_$k.txt 2>&1; ncu --import $R/ncu_$k.ncu-rep --page raw --csv > $R/ncu_${k}_raw.csv 2>&1
  grep -E "Duration|DRAM Throughput|L2 Cache Throughput|Compute \(SM\) Throughput|Warp Cycles Per Issued" $R/ncu_$k.txt | head -6
  pack
}
E="--kernel sm90-evt --prec tf32 --N 65536 --d 128 --sym none"
R3='INS[0-9A-Z_]+11Sm90ComputeINS[0-9A-Z_]+6thread4ReLu'
prof lower "DiagonalFixE0EEEJNS[0-9A-Z_]+$R3" 8 $E
prof mirror "DiagonalFixE1EEEJNS[0-9A-Z_]+$R3" 8 $E
prof mirror_gram Sm90AccFetch 4 --kernel sm90-evt --prec bf16 --N 8192 --d 4096 --sym 8192x4096
pack; echo total $((SECONDS-T0)) s
