#!/bin/bash
# device call 50 (session 10) at $TDMAPS_COMMIT: bench_gram of record (every kernel checked against float64 before it
# is timed; the fused histogram and eps count at N = 10^6 in TF32 and BF16), the binary built at that commit.
set -o pipefail; export TDMAPS_COMMIT=$(cat .carry/bin/COMMIT) BOOST_ROOT=$PWD/.carry/boost
echo "$TDMAPS_COMMIT" > .tdmaps-commit
R=/tmp/r50; mkdir -p $R; T0=$SECONDS
pack() { tar czf $OUT/r50.tgz -C $R . 2>/dev/null; }
if [ -f .carry/bin/bench_gram_c50.gz ]; then gunzip -c .carry/bin/bench_gram_c50.gz > /tmp/bench_gram && chmod +x /tmp/bench_gram; BG=/tmp/bench_gram
else
  [ -d .carry/cutlass/include ] || tar xJf .carry/cutlass_inc.tar.xz -C .carry
  meson setup build-d -Dgpu_arch=sm_90 -Dgram_bench=enabled -Dcutlass=$PWD/.carry/cutlass/include -Dfigures=disabled -Dpython=disabled > $R/setup.log 2>&1
  timeout 240 ninja -C build-d -j16 experiments/gram/bench_gram > $R/build.log 2>&1; echo "build rc=$? at $((SECONDS-T0)) s"; BG=build-d/experiments/gram/bench_gram
fi
nvidia-smi -q -d CLOCK,POWER > $R/nvidia_smi.txt 2>&1
timeout 500 $BG --kernel classic,sm80-8w,sm90-ws,sm90-evt --hist-N 1000000 --hist-prec tf32,bf16 --out $R/res > $R/bench_gram.log 2>&1; echo "record rc=$? at $((SECONDS-T0)) s"; tail -2 $R/bench_gram.log; grep -c "^\[check\]" $R/bench_gram.log; grep -E "^\[hist\].*N=|^\[count\]|check failed" $R/bench_gram.log
pack; echo total $((SECONDS-T0)) s
