#!/bin/bash
# device call 30 (session 6) at $TDMAPS_COMMIT: bench_gram of record after the mirror epilogue's fix (every kernel
# checked against float64 before it is timed), and memcheck of classic / sm80-8w mirror, count and minmax. One archive back.
set -o pipefail; export TDMAPS_COMMIT=$(cat .carry/bin/COMMIT)
R=/tmp/r30; mkdir -p $R; T0=$SECONDS
pack() { tar czf $OUT/r30.tgz -C $R . 2>/dev/null; }
gunzip -c .carry/bin/bench_gram.gz > /tmp/bench_gram && chmod +x /tmp/bench_gram
export TDMAPS_GPU_SLUG_PROGRAM=$PWD/build/experiments/gpu_slug
timeout 220 /tmp/bench_gram --kernel classic,sm80-8w,sm90-ws,sm90-evt --hist-N 1000000 --out $R/res > $R/bench_gram.log 2>&1; echo "record rc=$? at $((SECONDS-T0)) s"; tail -2 $R/bench_gram.log; grep -c "^\[check\]" $R/bench_gram.log
pack
timeout 60 compute-sanitizer --tool memcheck /tmp/bench_gram --kernel classic,sm80-8w --prec tf32,bf16 --N 516 --d 64 --sym none --verify-max 200 --samples 64 --reps 1 --out $R/san > $R/memcheck_bench.log 2>&1; echo "memcheck rc=$? $(grep -E 'ERROR SUMMARY' $R/memcheck_bench.log) at $((SECONDS-T0)) s"
pack; echo total $((SECONDS-T0)) s
