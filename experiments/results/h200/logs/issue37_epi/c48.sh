#!/bin/bash
# device call 48 (session 10) at $TDMAPS_COMMIT: bench_gram built here with sm90-ws's reductions persistent (a block
# takes tiles b, b + grid, ..; the histogram's copies zeroed and flushed once a block); the checks of classic,
# sm80-8w and sm90-ws in every precision; memcheck and racecheck of sm90-ws's reductions; hist and count at N = 10^6.
set -o pipefail; export TDMAPS_COMMIT=$(cat .carry/bin/COMMIT) BOOST_ROOT=$PWD/.carry/boost
echo "$TDMAPS_COMMIT" > .tdmaps-commit
[ -d .carry/cutlass/include ] || tar xJf .carry/cutlass_inc.tar.xz -C .carry
R=/tmp/r48; mkdir -p $R; T0=$SECONDS; B=build-d
pack() { tar czf $OUT/r48.tgz -C $R . 2>/dev/null; }
meson setup $B -Dgpu_arch=sm_90 -Dgram_bench=enabled -Dcutlass=$PWD/.carry/cutlass/include -Dfigures=disabled -Dpython=disabled > $R/setup.log 2>&1 || { tail -20 $R/setup.log; pack; exit 1; }
timeout 240 ninja -C $B -j16 experiments/gram/bench_gram > $R/build.log 2>&1; rc=$?; echo "build rc=$rc at $((SECONDS-T0)) s"
[ $rc -ne 0 ] && { grep -E "error|FAILED" $R/build.log | head -30; pack; exit 1; }
BG=$B/experiments/gram/bench_gram
strip -o /tmp/bench_gram $BG && gzip -c /tmp/bench_gram > $OUT/bench_gram_c48.gz
timeout 60 $BG --kernel classic,sm80-8w,sm90-ws --prec tf32,3xtf32,bf16,fp16 --N 2048 --d 128 --sym none --verify-max 300 --samples 256 --reps 2 --out $R/quick > $R/quick.log 2>&1; echo "quick rc=$? at $((SECONDS-T0)) s"
grep -cE "^\[check\]" $R/quick.log; grep -E "check failed|error" $R/quick.log | head -3; pack
timeout 100 $BG --N 1024 --d 64 --prec tf32 --sym none --kernel sm90-ws --verify-max 200 --samples 256 --reps 5 --hist-N 1000000 --hist-prec tf32,bf16 --out $R/res > $R/hist.log 2>&1; echo "hist rc=$? at $((SECONDS-T0)) s"; grep -E "^\[hist\].*N=|^\[count\]|check failed" $R/hist.log; pack
for tool in memcheck racecheck; do
timeout 75 compute-sanitizer --tool $tool $BG --kernel sm90-ws --prec tf32,3xtf32,bf16 --N 256 --d 64 --sym none --verify-max 130 --samples 64 --reps 1 --exact-N 300 --out $R/san_$tool > $R/${tool}.log 2>&1; echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/${tool}.log | tr '\n' ' ') at $((SECONDS-T0)) s"
pack; done
echo total $((SECONDS-T0)) s
