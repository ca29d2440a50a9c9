#!/bin/bash
# device call 45 (session 9) at $TDMAPS_COMMIT (the session's last GPU code): bench_gram built here; the checks of
# sm90-evt and sm90-ws (TF32, 3xTF32: float64 over every pair, the bracketed exact mode on every data kind); then
# sm90-evt's TF32 hist and count at N = 10^6, d = 128, with the time left.
set -o pipefail; export TDMAPS_COMMIT=$(cat .carry/bin/COMMIT) BOOST_ROOT=$PWD/.carry/boost
echo "$TDMAPS_COMMIT" > .tdmaps-commit
[ -d .carry/cutlass/include ] || tar xJf .carry/cutlass_inc.tar.xz -C .carry
R=/tmp/r45; mkdir -p $R; T0=$SECONDS; B=build-d
pack() { tar czf $OUT/r45.tgz -C $R . 2>/dev/null; }
meson setup $B -Dgpu_arch=sm_90 -Dgram_bench=enabled -Dcutlass=$PWD/.carry/cutlass/include -Dfigures=disabled -Dpython=disabled > $R/setup.log 2>&1 || { tail -20 $R/setup.log; pack; exit 1; }
timeout 175 ninja -C $B -j16 experiments/gram/bench_gram > $R/build.log 2>&1; rc=$?; echo "build rc=$rc at $((SECONDS-T0)) s"
[ $rc -ne 0 ] && { grep -E "error|FAILED" $R/build.log | head -30; pack; exit 1; }
BG=$B/experiments/gram/bench_gram
timeout 30 $BG --kernel sm90-evt,sm90-ws --prec tf32,3xtf32 --N 2048 --d 128 --sym none --verify-max 300 --samples 256 --reps 2 --out $R/quick > $R/quick.log 2>&1; echo "quick rc=$? at $((SECONDS-T0)) s"
grep -cE "^\[check\]" $R/quick.log; grep -E "check failed" $R/quick.log | head -3; pack
left=$((240 - SECONDS + T0)); echo "hist with $left s"
[ $left -gt 20 ] && { timeout $left $BG --N 1024 --d 64 --prec tf32 --sym none --kernel sm90-evt --verify-max 200 --samples 256 --reps 5 --hist-N 1000000 --out $R/res > $R/hist.log 2>&1; echo "hist rc=$? at $((SECONDS-T0)) s"; grep -E "^\[hist\].*N=|^\[count\]|check failed" $R/hist.log; }
pack; echo total $((SECONDS-T0)) s
