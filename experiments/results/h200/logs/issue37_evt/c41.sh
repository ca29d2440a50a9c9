#!/bin/bash
# device call 41 (session 9) at $TDMAPS_COMMIT: bench_gram built here (Boost and CUTLASS carried) with sm90-evt's fused
# reductions (issue #37 item 1: hist, count and the exact mode's as a visitor-tree root on the persistent ping-pong
# kernel); the checks of every precision (float64, the bracketed exact mode on every data kind), memcheck and
# racecheck of a small run, then the fused histogram and the eps count at N = 10^6, d = 128, in TF32 / BF16 / FP16,
# sm90-ws beside it (gram.csv rows).
set -o pipefail; export TDMAPS_COMMIT=$(cat .carry/bin/COMMIT) BOOST_ROOT=$PWD/.carry/boost
echo "$TDMAPS_COMMIT" > .tdmaps-commit
[ -d .carry/cutlass/include ] || tar xJf .carry/cutlass_inc.tar.xz -C .carry
R=/tmp/r41; mkdir -p $R; T0=$SECONDS; B=build-d
pack() { tar czf $OUT/r41.tgz -C $R . 2>/dev/null; }
[ -d $B ] || meson setup $B -Dgpu_arch=sm_90 -Dgram_bench=enabled -Dcutlass=$PWD/.carry/cutlass/include -Dfigures=disabled -Dpython=disabled > $R/setup.log 2>&1 || { tail -20 $R/setup.log; pack; exit 1; }
ninja -C $B -j16 experiments/gram/bench_gram experiments/gpu_slug > $R/build.log 2>&1; rc=$?; echo "build rc=$rc at $((SECONDS-T0)) s"
[ $rc -ne 0 ] && { grep -E "error|FAILED" $R/build.log | head -30; pack; exit 1; }
BG=$B/experiments/gram/bench_gram; export TDMAPS_GPU_SLUG_PROGRAM=$PWD/$B/experiments/gpu_slug
timeout 200 $BG --kernel sm90-evt --prec tf32,3xtf32,bf16,fp16 --N 8192 --d 128 --sym none --verify-max 300 --samples 256 --reps 3 --out $R/quick > $R/quick.log 2>&1; echo "quick rc=$? at $((SECONDS-T0)) s"
grep -E "check failed|^\[check\].*sm90-evt|error" $R/quick.log | head -20; pack
for tool in memcheck racecheck; do
timeout 75 compute-sanitizer --tool $tool $BG --kernel sm90-evt --prec tf32,3xtf32,bf16 --N 256 --d 64 --sym none --verify-max 130 --samples 64 --reps 1 --exact-N 300 --out $R/san_$tool > $R/${tool}_bench.log 2>&1; echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/${tool}_bench.log | tr '\n' ' ') at $((SECONDS-T0)) s"
done; pack
left=$((590 - SECONDS + T0)); echo "hist-N with $left s left"
timeout $left $BG --N 1024 --d 64 --prec tf32 --sym none --kernel sm90-evt,sm90-ws --verify-max 200 --samples 256 --reps 5 --hist-N 1000000 --hist-prec tf32,bf16,fp16 --out $R/res > $R/hist.log 2>&1; echo "hist rc=$? at $((SECONDS-T0)) s"
grep -E "^\[hist\]|^\[count\]|check failed" $R/hist.log | head -40; pack
echo total $((SECONDS-T0)) s
