#!/bin/bash
# device call 43 (session 9) at $TDMAPS_COMMIT: our epilogue's atomics conditional again (as 87871cd), sm90-evt's
# unconditional (hist_pair<_, Branchless>) and its reductions on the cooperative kernel by default; bench_gram built
# here; the checks of sm90-evt and sm90-ws in every precision (float64; the bracketed exact mode on every data kind),
# memcheck / racecheck of sm90-evt; at N = 10^6, d = 128 the fused histogram and eps count of both kernels in TF32 /
# BF16 / FP16 (gram.csv), then the exact mode at N = 10^6 on sm90-evt (gram_exact.csv) with the time left.
set -o pipefail; export TDMAPS_COMMIT=$(cat .carry/bin/COMMIT) BOOST_ROOT=$PWD/.carry/boost
echo "$TDMAPS_COMMIT" > .tdmaps-commit
[ -d .carry/cutlass/include ] || tar xJf .carry/cutlass_inc.tar.xz -C .carry
R=/tmp/r43; mkdir -p $R; T0=$SECONDS; B=build-d
pack() { tar czf $OUT/r43.tgz -C $R . 2>/dev/null; }
[ -d $B ] || meson setup $B -Dgpu_arch=sm_90 -Dgram_bench=enabled -Dcutlass=$PWD/.carry/cutlass/include -Dfigures=disabled -Dpython=disabled > $R/setup.log 2>&1 || { tail -20 $R/setup.log; pack; exit 1; }
ninja -C $B -j16 experiments/gram/bench_gram experiments/gpu_slug > $R/build.log 2>&1; rc=$?; echo "build rc=$rc at $((SECONDS-T0)) s"
[ $rc -ne 0 ] && { grep -E "error|FAILED" $R/build.log | head -30; pack; exit 1; }
BG=$B/experiments/gram/bench_gram; export TDMAPS_GPU_SLUG_PROGRAM=$PWD/$B/experiments/gpu_slug
strip -o /tmp/bench_gram $BG && gzip -c /tmp/bench_gram > $OUT/bench_gram_c43.gz
timeout 150 $BG --kernel sm90-evt,sm90-ws --prec tf32,3xtf32,bf16,fp16 --N 4096 --d 128 --sym none --verify-max 300 --samples 256 --reps 3 --out $R/quick > $R/quick.log 2>&1; echo "quick rc=$? at $((SECONDS-T0)) s"
grep -E "check failed|bracketed" $R/quick.log | cut -c1-400 | head; pack
for tool in memcheck racecheck; do
timeout 60 compute-sanitizer --tool $tool $BG --kernel sm90-evt --prec tf32,3xtf32,bf16 --N 256 --d 64 --sym none --verify-max 130 --samples 64 --reps 1 --exact-N 300 --out $R/san_$tool > $R/${tool}_bench.log 2>&1; echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/${tool}_bench.log | tr '\n' ' ') at $((SECONDS-T0)) s"
done; pack
A="--N 1024 --d 64 --prec tf32 --sym none --verify-max 200 --samples 256 --reps 5 --hist-N 1000000"
timeout 200 $BG $A --kernel sm90-evt,sm90-ws --hist-prec tf32,bf16,fp16 --out $R/res > $R/hist.log 2>&1; echo "hist rc=$? at $((SECONDS-T0)) s"
grep -E "^\[hist\].*N=|^\[count\]|check failed" $R/hist.log; pack
left=$((585 - SECONDS + T0)); echo "exact with $left s"
timeout $left $BG --N 1024 --d 64 --prec tf32 --sym none --kernel sm90-evt --verify-max 200 --samples 256 --reps 3 --exact-N 1000000 --out $R/res_exact > $R/exact.log 2>&1; echo "exact rc=$? at $((SECONDS-T0)) s"
grep -E "^\[exact\]|check failed|wrote" $R/exact.log | head -20; pack
echo total $((SECONDS-T0)) s
