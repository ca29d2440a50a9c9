#!/bin/bash
# device call 42 (session 9) at $TDMAPS_COMMIT: the reductions' atomics made unconditional (no branch a pair); bench_gram
# built here; a second bench_gram whose TF32 sm90-evt reductions run on the cooperative kernel
# (-DTDMAPS_GRAM_EVT_REDUCE_COOPERATIVE=1, gram_sm90_evt_reduce_tf32.o alone rebuilt); the checks of sm90-evt and
# sm90-ws in TF32; then at N = 10^6, d = 128: the fused histogram and the eps count of sm90-evt (ping-pong) and sm90-ws
# in TF32 / BF16 / FP16, sm90-evt cooperative in TF32, and sm90-ws's hist of the binary of call 39 (39dfe1e: the
# conditional atomics) for the A/B of the branch.
set -o pipefail; export TDMAPS_COMMIT=$(cat .carry/bin/COMMIT) BOOST_ROOT=$PWD/.carry/boost
echo "$TDMAPS_COMMIT" > .tdmaps-commit
[ -d .carry/cutlass/include ] || tar xJf .carry/cutlass_inc.tar.xz -C .carry
R=/tmp/r42; mkdir -p $R; T0=$SECONDS; B=build-d
pack() { tar czf $OUT/r42.tgz -C $R . 2>/dev/null; }
[ -d $B ] || meson setup $B -Dgpu_arch=sm_90 -Dgram_bench=enabled -Dcutlass=$PWD/.carry/cutlass/include -Dfigures=disabled -Dpython=disabled > $R/setup.log 2>&1 || { tail -20 $R/setup.log; pack; exit 1; }
ninja -C $B -j16 experiments/gram/bench_gram experiments/gpu_slug > $R/build.log 2>&1; rc=$?; echo "build rc=$rc at $((SECONDS-T0)) s"
[ $rc -ne 0 ] && { grep -E "error|FAILED" $R/build.log | head -30; pack; exit 1; }
BG=$B/experiments/gram/bench_gram; export TDMAPS_GPU_SLUG_PROGRAM=$PWD/$B/experiments/gpu_slug
# the cooperative variant: a copy of the build, the TF32 reduction unit's command given the define
rm -rf build-c; cp -a $B build-c
python3 - <<'PY'
import re
s=open('build-c/build.ninja').read()
i=s.index('build src/support/gram/gram_sm90_evt_reduce_tf32.o:')
j=s.index('-DTDMAPS_GRAM_EVT_PREC=tf32',i)
s=s[:j]+'-DTDMAPS_GRAM_EVT_REDUCE_COOPERATIVE=1 '+s[j:]
open('build-c/build.ninja','w').write(s)
PY
ninja -C build-c -j16 experiments/gram/bench_gram > $R/build_coop.log 2>&1; echo "coop build rc=$? ($(grep -c Generating $R/build_coop.log) generated) at $((SECONDS-T0)) s"
BC=build-c/experiments/gram/bench_gram
gunzip -c .carry/bin/bench_gram.gz > /tmp/bench_gram_c39 && chmod +x /tmp/bench_gram_c39
A="--N 1024 --d 64 --prec tf32 --sym none --verify-max 200 --samples 256 --reps 5 --hist-N 1000000"
timeout 150 $BG --kernel sm90-evt,sm90-ws --prec tf32,3xtf32 --N 4096 --d 128 --sym none --verify-max 300 --samples 256 --reps 3 --out $R/quick > $R/quick.log 2>&1; echo "quick rc=$? at $((SECONDS-T0)) s"
grep -E "check failed" $R/quick.log | head; pack
timeout 200 $BG $A --kernel sm90-evt,sm90-ws --hist-prec tf32,bf16,fp16 --out $R/res > $R/hist.log 2>&1; echo "hist rc=$? at $((SECONDS-T0)) s"
grep -E "^\[hist\].*N=|^\[count\]|check failed" $R/hist.log; pack
timeout 90 $BC $A --kernel sm90-evt --out $R/res_coop > $R/hist_coop.log 2>&1; echo "coop rc=$? at $((SECONDS-T0)) s"
grep -E "^\[hist\].*N=|^\[count\]|check failed" $R/hist_coop.log; pack
left=$((590 - SECONDS + T0)); [ $left -gt 40 ] && { timeout $left /tmp/bench_gram_c39 $A --kernel sm90-ws --out $R/res_c39 > $R/hist_c39.log 2>&1; echo "c39 binary rc=$? at $((SECONDS-T0)) s"; grep -E "^\[hist\].*N=|^\[count\]" $R/hist_c39.log; }
pack; echo total $((SECONDS-T0)) s
