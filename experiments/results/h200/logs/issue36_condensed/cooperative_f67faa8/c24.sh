#!/bin/bash
# device call 24 (session 5) at $TDMAPS_COMMIT: sm90-evt condensed on the cooperative kernel, checked and timed;
# where it beats the ping-pong record (7.35 ms at N = 65536, d = 128) by 10 %: its sanitizers and bench_gram of record
set -o pipefail; export TDMAPS_COMMIT=$(cat .carry/bin/COMMIT)
R=$OUT; mkdir -p $R; T0=$SECONDS
gunzip -c .carry/bin/bench_gram.gz > /tmp/bench_gram && chmod +x /tmp/bench_gram
export TDMAPS_GPU_SLUG_PROGRAM=$PWD/build/experiments/gpu_slug
timeout 100 /tmp/bench_gram --kernel sm90-evt --prec tf32 --N 32768,65536 --d 64,128,256 --sym none --out $R/quick > $R/quick.log 2>&1; rc=$?
echo "bench quick rc=$rc at $((SECONDS-T0)) s"; grep -E "failed" $R/quick.log | head -5
f=$(ls $R/quick/*/gram.csv 2>/dev/null | head -1); [ -n "$f" ] && grep -E "condensed|,lower,|,write" $f | grep -E "sm90-evt|write" | cut -d, -f1-5,10,23
tar czf $OUT/r24.tgz -C $R .
[ $rc -ne 0 ] && exit 1
m=$(grep "^65536,128,tf32,condensed,tdmaps-ltm-e-sm90-evt" $f | cut -d, -f10); echo "condensed 65536/128: $m ms"
awk -v m=$m 'BEGIN { exit !(m < 6.6) }' || { echo "not 10 % faster than ping-pong (7.35 ms): stop"; exit 3; }
timeout 60 compute-sanitizer --tool memcheck /tmp/bench_gram --kernel sm90-evt --prec tf32 --N 516 --d 64 --sym none --verify-max 200 --samples 64 --reps 1 --out $R/san > $R/memcheck_bench.log 2>&1; echo "memcheck rc=$? $(grep -E 'ERROR SUMMARY' $R/memcheck_bench.log)"
timeout 90 compute-sanitizer --tool racecheck /tmp/bench_gram --kernel sm90-evt --prec tf32 --N 516 --d 64 --sym none --verify-max 200 --samples 64 --reps 1 --out $R/san > $R/racecheck_bench.log 2>&1; echo "racecheck rc=$? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' $R/racecheck_bench.log | tr '\n' ' ')"
tar czf $OUT/r24.tgz -C $R .
timeout 200 /tmp/bench_gram --kernel classic,sm80-8w,sm90-ws,sm90-evt --hist-N 1000000 --out $R/res > $R/bench_gram.log 2>&1; echo "record rc=$? at $((SECONDS-T0)) s"; tail -2 $R/bench_gram.log
tar czf $OUT/r24.tgz -C $R .; echo total $((SECONDS-T0)) s
