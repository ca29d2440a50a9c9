#!/bin/bash
# device call 63 (session 12) at $TDMAPS_COMMIT (built from .carry/tree.tar.xz): the kept form (count on the ping-pong
# kernel, count_exact on the persistent one, the cluster form and the switch gone): the checks of every precision at
# N = 300, 1000, 2048, 8200 and the bracketed exact mode, then count at N = 10^6 (TF32, BF16) as far as the session's
# device time goes.
set -o pipefail; export TDMAPS_COMMIT=$(cat .carry/bin/COMMIT) BOOST_ROOT=$PWD/.carry/boost
W=/tmp/tree; mkdir -p $W; tar xJf .carry/tree.tar.xz -C $W; echo "$TDMAPS_COMMIT" > $W/.tdmaps-commit
mkdir -p .carry/cutlass; tar xJf .carry/cutlass_inc.tar.xz -C .carry; CUT=$PWD/.carry/cutlass/include; [ -d $CUT ] || CUT=$(dirname $(find $PWD/.carry/cutlass -name cutlass -maxdepth 3 -type d | head -1))
R=/tmp/r63; mkdir -p $R; T0=$SECONDS; B=$W/build-d
pack() { tar czf $OUT/r63.tgz -C $R . 2>/dev/null; }
nvidia-smi -q -d CLOCK,POWER > $R/nvidia_smi.txt 2>&1
(cd $W && meson setup $B -Dgpu_arch=sm_90 -Dgram_bench=enabled -Dcutlass=$CUT -Dfigures=disabled -Dpython=disabled) > $R/setup.log 2>&1 || { tail -20 $R/setup.log; pack; exit 1; }
timeout 200 ninja -C $B -j16 experiments/gram/bench_gram > $R/build.log 2>&1; rc=$?; echo "build rc=$rc at $((SECONDS-T0)) s"
[ $rc -ne 0 ] && { grep -E "error|FAILED" $R/build.log | head -30; pack; exit 1; }
BG=$B/experiments/gram/bench_gram
timeout 60 $BG --kernel sm90-ws --prec tf32,3xtf32,bf16,fp16 --N 300,1000,2048,8200 --d 128 --sym none --verify-max 300 --samples 256 --reps 2 --exact-N 300 --out $R/quick > $R/quick.log 2>&1; echo "quick rc=$? at $((SECONDS-T0)) s"
grep -cE "^\[check\]" $R/quick.log; grep -iE "check failed|error|fail" $R/quick.log | head -5; pack
left=$((250 - SECONDS + T0)); [ $left -gt 45 ] && { timeout $left $BG --N 1024 --d 64 --prec tf32 --sym none --kernel sm90-ws --verify-max 200 --samples 256 --reps 5 --hist-N 1000000 --hist-prec tf32,bf16 --out $R/res > $R/count.log 2>&1; echo "count rc=$? at $((SECONDS-T0)) s"; grep -E "^\[count\]|check failed" $R/count.log; pack; }
echo total $((SECONDS-T0)) s
