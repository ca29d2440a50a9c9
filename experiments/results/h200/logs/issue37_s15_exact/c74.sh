#!/bin/bash
# device call 74 (session 15, one H200) at $TDMAPS_COMMIT: issue #37. bench_gram built on the device (Boost and CUTLASS
# carried), then: compute-sanitizer memcheck and racecheck of classic and sm80-8w (the count's eps test before the branch,
# 96cb0f9; condensed's Gram form, 80e3d30; the checks' new near-ulp points) at small N; the meson test bench_gram; and
# gram_exact.csv re-recorded at the current code (call 54's command: every row compared with the all-float64 exact mode
# at the same N before it is timed).
set -o pipefail; export TDMAPS_COMMIT=$(cat .carry/bin/COMMIT) BOOST_ROOT=$PWD/.carry/boost
echo "$TDMAPS_COMMIT" > .tdmaps-commit
[ -d .carry/cutlass/include ] || tar xJf .carry/cutlass_inc.tar.xz -C .carry
R=/tmp/r74; mkdir -p $R; T0=$SECONDS; B=build-s; BG=$B/experiments/gram/bench_gram
pack() { tar czf $OUT/r74.tgz -C $R . 2>/dev/null; }
nvidia-smi -q -d CLOCK,POWER > $R/nvidia_smi.txt 2>&1
meson setup $B -Dgpu_arch=sm_90 -Dgram_bench=enabled -Dcutlass=$PWD/.carry/cutlass/include -Dfigures=disabled -Dpython=disabled > $R/setup.log 2>&1
timeout 300 ninja -C $B -j16 experiments/gram/bench_gram > $R/build.log 2>&1; rc=$?; echo "build rc=$rc at $((SECONDS-T0)) s"
[ $rc -ne 0 ] && { grep -E "error|FAILED" $R/build.log | head -20; pack; exit 1; }
SAN="--kernel classic,sm80-8w --prec tf32,bf16 --N 516 --d 64 --sym none --verify-max 200 --samples 64 --reps 1 --hist-N 600 --hist-verify 600"
timeout 100 compute-sanitizer --tool memcheck $BG $SAN --out $R/mem > $R/memcheck.log 2>&1; echo "memcheck rc=$? $(grep -E 'ERROR SUMMARY' $R/memcheck.log | tr '\n' ' ') at $((SECONDS-T0)) s"
timeout 100 compute-sanitizer --tool racecheck $BG $SAN --out $R/race > $R/racecheck.log 2>&1; echo "racecheck rc=$? $(grep -E 'RACECHECK SUMMARY' $R/racecheck.log | tr '\n' ' ') at $((SECONDS-T0)) s"
grep -E "near-ulp" $R/memcheck.log | head -2 | cut -c1-250
left=$((560 - SECONDS + T0)); echo "gram_exact with $left s left"
timeout $left $BG --N 1024 --d 64 --prec tf32 --sym none --kernel classic,sm90-ws --verify-max 300 --samples 256 --reps 3 --exact-N 65536,1000000 --out $R/res > $R/exact.log 2>&1; echo "exact rc=$? at $((SECONDS-T0)) s"
grep -E "^\[exact\]|check failed" $R/exact.log | cut -c1-200; grep -c "near-ulp" $R/exact.log
pack; echo total $((SECONDS-T0)) s
