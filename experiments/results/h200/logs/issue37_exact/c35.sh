#!/bin/bash
# device call 35 (session 7) at $TDMAPS_COMMIT: issue #37 item 2, the bracketed exact mode (count-exact, hist-exact on
# the tensor cores, the straddling pairs replayed in float64), and issue #36's last gaps: every kernel checked against
# float64 (bench_gram --quick, the bracketed checks on uniform / coarse / offset points included), memcheck and
# racecheck of every kernel, sm90-evt and its BF16 / FP16 product included, the smoke line of experiments.list, then
# the exact mode's timing at N = 65536 and 10^6 (gram_exact.csv). One archive back.
set -o pipefail; export TDMAPS_COMMIT=$(cat .carry/bin/COMMIT)
R=/tmp/r35; mkdir -p $R; T0=$SECONDS
pack() { tar czf $OUT/r35.tgz -C $R . 2>/dev/null; }
gunzip -c .carry/bin/bench_gram.gz > /tmp/bench_gram && chmod +x /tmp/bench_gram
export TDMAPS_GPU_SLUG_PROGRAM=$PWD/build/experiments/gpu_slug
timeout 200 /tmp/bench_gram --quick --kernel classic,sm80-8w,sm90-ws,sm90-evt --prec tf32,3xtf32,bf16,fp16 --hist-N 100000 --exact-N 16384 --out $R/quick > $R/quick.log 2>&1; rc=$?
echo "quick rc=$rc at $((SECONDS-T0)) s"; grep -iE "fail|error" $R/quick.log | head -5; grep -E "^\[exact\]|bracketed" $R/quick.log | head -30
pack; [ $rc -ne 0 ] && exit 1
timeout 60 /tmp/bench_gram --out $R/smoke --kernel classic,sm80-8w,sm90-ws,sm90-evt --skip-if-no-gpu --N 1024 --d 64 --reps 2 --warmup 1 --min-reps 1 --verify-max 300 --samples 256 --exact-N 300 > $R/smoke.log 2>&1; echo "smoke line rc=$? at $((SECONDS-T0)) s"
for tool in memcheck racecheck; do
timeout 150 compute-sanitizer --tool $tool /tmp/bench_gram --kernel classic,sm80-8w,sm90-ws,sm90-evt --prec tf32,bf16,fp16 --N 516 --d 64 --sym 256x128 --verify-max 200 --samples 64 --reps 1 --hist-N 600 --hist-verify 600 --exact-N 300 --out $R/san_$tool > $R/${tool}_bench.log 2>&1; echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/${tool}_bench.log | tr '\n' ' ') at $((SECONDS-T0)) s"
done; pack
left=$((585 - SECONDS + T0)); echo "exact timing with $left s left"
timeout $left /tmp/bench_gram --N 1024 --d 64 --prec tf32 --sym none --kernel classic,sm80-8w --verify-max 300 --samples 256 --reps 3 --exact-N 65536,1000000 --out $R/res > $R/exact.log 2>&1; echo "exact rc=$? at $((SECONDS-T0)) s"
grep -E "^\[exact\]|check failed|wrote" $R/exact.log | head -30; pack
echo total $((SECONDS-T0)) s
