#!/bin/bash
# device call 56 (session 11) at $TDMAPS_COMMIT: the whole tree built on the device (Boost and CUTLASS carried,
# -Dgram_bench=enabled), the meson GPU suite (suite gpu: every GPU check, multi_gpu_gram_exact among them), then
# compute-sanitizer memcheck of bench_gram's sm90-ws and the exact mode (centered and not) at small N.
set -o pipefail; export TDMAPS_COMMIT=$(cat .carry/bin/COMMIT) BOOST_ROOT=$PWD/.carry/boost
echo "$TDMAPS_COMMIT" > .tdmaps-commit
[ -d .carry/cutlass/include ] || tar xJf .carry/cutlass_inc.tar.xz -C .carry
R=/tmp/r56; mkdir -p $R; T0=$SECONDS; B=build-s
pack() { tar czf $OUT/r56.tgz -C $R . 2>/dev/null; }
nvidia-smi -q -d CLOCK,POWER > $R/nvidia_smi.txt 2>&1
bash experiments/multigpu/build_device.sh $B > $R/build_multi.log 2>&1; echo "configure+multi rc=$? at $((SECONDS-T0)) s"
[ -f $B/nccl_ld_path ] && export LD_LIBRARY_PATH=$(cat $B/nccl_ld_path):$LD_LIBRARY_PATH
ninja -C $B -j16 > $R/build.log 2>&1; rc=$?; echo "build rc=$rc at $((SECONDS-T0)) s"
[ $rc -ne 0 ] && { grep -E "error|FAILED" $R/build.log | head -20; pack; exit 1; }
left=$((500 - SECONDS + T0)); echo "meson GPU suite with $left s left"
timeout $left meson test -C $B --suite gpu --num-processes 1 --print-errorlogs > $R/suite_gpu.log 2>&1; echo "suite gpu rc=$? at $((SECONDS-T0)) s"
cp $B/meson-logs/testlog.txt $R/suite_gpu_testlog.txt 2>/dev/null; grep -E "^ *[0-9]+/[0-9]+ |^Ok:|^Fail:|^Skipped:|^Expected|^Unexpected|^Timeout" $R/suite_gpu.log | tail -30; pack
left=$((585 - SECONDS + T0))
[ $left -gt 30 ] && { timeout $left compute-sanitizer --tool memcheck $B/experiments/gram/bench_gram --kernel sm90-ws --prec tf32,3xtf32 --N 516 --d 64 --sym none --verify-max 200 --samples 64 --reps 1 --hist-N 600 --hist-verify 600 --exact-N 300 --out $R/san > $R/memcheck_bench.log 2>&1; echo "memcheck rc=$? $(grep -E 'ERROR SUMMARY' $R/memcheck_bench.log | tr '\n' ' ') at $((SECONDS-T0)) s"; }
pack; echo total $((SECONDS-T0)) s
