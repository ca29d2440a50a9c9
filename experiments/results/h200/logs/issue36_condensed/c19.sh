#!/bin/bash
# device call 19 (session 5): sm90-evt condensed v2 (staged, bulk copies) checked and timed at 7026690, its sanitizers,
# then bench_gram of record (every kernel, the fused histogram at N = 10^6)
set -o pipefail; export TDMAPS_COMMIT=7026690cb435
R=$OUT; mkdir -p $R; T0=$SECONDS
gunzip -c .carry/bin/bench_gram.gz > /tmp/bench_gram && chmod +x /tmp/bench_gram
export TDMAPS_GPU_SLUG_PROGRAM=$PWD/build/experiments/gpu_slug
timeout 120 /tmp/bench_gram --kernel sm90-evt --prec tf32 --N 32768,65536 --d 64,128,256 --out $R/quick > $R/quick.log 2>&1; rc=$?
echo "bench quick rc=$rc at $((SECONDS-T0)) s"; grep -E "check|failed|left out" $R/quick.log | head -12
f=$(ls $R/quick/*/gram.csv 2>/dev/null | head -1); [ -n "$f" ] && grep -E "condensed|,lower,|,write" $f | grep -E "sm90-evt|write" | cut -d, -f1-5,10,11,12,23
tar czf $OUT/r19.tgz -C $R .
[ $rc -ne 0 ] && exit 1
timeout 100 compute-sanitizer --tool memcheck /tmp/bench_gram --kernel sm90-evt --prec tf32 --N 516 --d 64 --verify-max 200 --samples 64 --reps 1 --out $R/san > $R/memcheck_bench.log 2>&1; echo "memcheck rc=$? $(grep -E 'ERROR SUMMARY' $R/memcheck_bench.log)"
timeout 120 compute-sanitizer --tool racecheck /tmp/bench_gram --kernel sm90-evt --prec tf32 --N 516 --d 64 --verify-max 200 --samples 64 --reps 1 --out $R/san > $R/racecheck_bench.log 2>&1; echo "racecheck rc=$? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' $R/racecheck_bench.log | tr '\n' ' ')"
tar czf $OUT/r19.tgz -C $R .
timeout 330 /tmp/bench_gram --kernel classic,sm80-8w,sm90-ws,sm90-evt --hist-N 1000000 --out $R/res > $R/bench_gram.log 2>&1; echo "record rc=$? at $((SECONDS-T0)) s"; tail -4 $R/bench_gram.log
tar czf $OUT/r19.tgz -C $R .; echo total $((SECONDS-T0)) s
