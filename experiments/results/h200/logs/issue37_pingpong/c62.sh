#!/bin/bash
# device call 62 (session 12) at $TDMAPS_COMMIT (built from .carry/tree.tar.xz, git archive of that commit): the count's
# three forms in one binary (TDMAPS_SM90_COUNT = cluster (default), pingpong, persistent), after call 61's cluster
# hang (every block loaded the halves of cluster rank 0: load() was given rank 0). Checks (every precision; N = 300,
# 1000, 2048, 8200: partial tiles, odd tile counts (the cluster's clamped tiles), many tiles a block; the bracketed
# exact mode), memcheck, then count at N = 10^6 (TF32, BF16) and 3xTF32 count-exact at N = 262144, each form.
set -o pipefail; export TDMAPS_COMMIT=$(cat .carry/bin/COMMIT) BOOST_ROOT=$PWD/.carry/boost
W=/tmp/tree; mkdir -p $W; tar xJf .carry/tree.tar.xz -C $W; echo "$TDMAPS_COMMIT" > $W/.tdmaps-commit
mkdir -p .carry/cutlass; tar xJf .carry/cutlass_inc.tar.xz -C .carry; CUT=$PWD/.carry/cutlass/include; [ -d $CUT ] || CUT=$(dirname $(find $PWD/.carry/cutlass -name cutlass -maxdepth 3 -type d | head -1))
R=/tmp/r62; mkdir -p $R; T0=$SECONDS; B=$W/build-d
pack() { tar czf $OUT/r62.tgz -C $R . 2>/dev/null; }
nvidia-smi -q -d CLOCK,POWER > $R/nvidia_smi.txt 2>&1
(cd $W && meson setup $B -Dgpu_arch=sm_90 -Dgram_bench=enabled -Dcutlass=$CUT -Dfigures=disabled -Dpython=disabled) > $R/setup.log 2>&1 || { tail -20 $R/setup.log; pack; exit 1; }
timeout 300 ninja -C $B -j16 experiments/gram/bench_gram > $R/build.log 2>&1; rc=$?; echo "build rc=$rc at $((SECONDS-T0)) s"
[ $rc -ne 0 ] && { grep -E "error|FAILED" $R/build.log | head -30; pack; exit 1; }
BG=$B/experiments/gram/bench_gram
timeout 60 $BG --kernel sm90-ws --prec tf32,3xtf32,bf16,fp16 --N 300,1000,2048,8200 --d 128 --sym none --verify-max 300 --samples 256 --reps 2 --exact-N 300 --out $R/quick > $R/quick.log 2>&1; q=$?; echo "quick (cluster) rc=$q at $((SECONDS-T0)) s"
grep -cE "^\[check\]" $R/quick.log; grep -iE "check failed|error|fail" $R/quick.log | head -5; pack
forms="pingpong persistent"; [ $q -eq 0 ] && forms="cluster pingpong persistent"
if [ $q -eq 0 ]; then
timeout 50 compute-sanitizer --tool memcheck $BG --kernel sm90-ws --prec tf32,3xtf32 --N 1000 --d 64 --sym none --verify-max 130 --samples 64 --reps 1 --exact-N 300 --out $R/san > $R/memcheck.log 2>&1; echo "memcheck rc=$? $(grep -E 'ERROR SUMMARY' $R/memcheck.log | tr '\n' ' ') at $((SECONDS-T0)) s"; pack
fi
for mode in $forms; do
  TDMAPS_SM90_COUNT=$mode timeout 60 $BG --N 1024 --d 64 --prec tf32 --sym none --kernel sm90-ws --verify-max 200 --samples 256 --reps 5 --hist-N 1000000 --hist-prec tf32,bf16 --out $R/res_$mode > $R/count_$mode.log 2>&1; echo "count $mode rc=$? at $((SECONDS-T0)) s"
  grep -E "^\[count\]|check failed" $R/count_$mode.log; pack
done
for mode in $forms; do
  [ $((SECONDS-T0)) -gt 540 ] && break
  TDMAPS_SM90_COUNT=$mode timeout 45 $BG --N 1024 --d 64 --prec 3xtf32 --sym none --kernel sm90-ws --verify-max 200 --samples 256 --reps 3 --exact-N 262144 --out $R/exact_$mode > $R/exact_$mode.log 2>&1; echo "exact $mode rc=$? at $((SECONDS-T0)) s"
  grep -E "3xtf32 count-exact.*N=262144|check failed" $R/exact_$mode.log | tail -2; pack
done
echo total $((SECONDS-T0)) s
