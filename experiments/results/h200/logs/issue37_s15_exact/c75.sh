#!/bin/bash
# device call 75 (session 15, one H200, right after call 74 on the warm machine: its build-s) at $TDMAPS_COMMIT: issue #37's
# gram.csv of record, bench_gram as calls 50, 71 and 73 ran it, with FP16 added to --hist-prec (the fused histogram and
# the eps count timed in TF32, BF16 and FP16; every kernel checked against float64 before it is timed).
set -o pipefail; export TDMAPS_COMMIT=$(cat .carry/bin/COMMIT) BOOST_ROOT=$PWD/.carry/boost
echo "$TDMAPS_COMMIT" > .tdmaps-commit
R=/tmp/r75; mkdir -p $R; T0=$SECONDS; B=build-s; BG=$B/experiments/gram/bench_gram
pack() { tar czf $OUT/r75.tgz -C $R . 2>/dev/null; }
[ -x $BG ] || { echo "no bench_gram: the machine is not call 74's"; exit 1; }
nvidia-smi -q -d CLOCK,POWER > $R/nvidia_smi.txt 2>&1
timeout 560 $BG --kernel classic,sm80-8w,sm90-ws,sm90-evt --hist-N 1000000 --hist-prec tf32,bf16,fp16 --out $R/res > $R/bench_gram.log 2>&1; echo "record rc=$? at $((SECONDS-T0)) s"
tail -2 $R/bench_gram.log; grep -c "^\[check\]" $R/bench_gram.log; grep -E "^\[hist\].*N=|^\[count\]|check failed" $R/bench_gram.log | cut -c1-200
pack; echo total $((SECONDS-T0)) s
