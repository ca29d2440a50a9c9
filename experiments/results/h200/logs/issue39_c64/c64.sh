#!/bin/bash
# device call 64 (session 13, one H200) at $TDMAPS_COMMIT: issue #39's last step. The whole tree built on the device
# (Boost and CUTLASS carried, -Dgram_bench=enabled, multi_hist with NCCL), gpu_verify_3d first (tet.cuh's merged
# root_check3), then the whole meson GPU suite; then compute-sanitizer racecheck and memcheck of bench_gram's sm90-ws
# count (the ping-pong kernel) at small N, and multi_hist's --help (the registry-driven --impl list).
set -o pipefail; export TDMAPS_COMMIT=$(cat .carry/bin/COMMIT) BOOST_ROOT=$PWD/.carry/boost
echo "$TDMAPS_COMMIT" > .tdmaps-commit
[ -d .carry/cutlass/include ] || tar xJf .carry/cutlass_inc.tar.xz -C .carry
R=/tmp/r64; mkdir -p $R; T0=$SECONDS; B=build-s
pack() { tar czf $OUT/r64.tgz -C $R . 2>/dev/null; }
nvidia-smi -q -d CLOCK,POWER > $R/nvidia_smi.txt 2>&1
bash experiments/multigpu/build_device.sh $B > $R/build_multi.log 2>&1; echo "configure+multi rc=$? at $((SECONDS-T0)) s"
[ -f $B/nccl_ld_path ] && export LD_LIBRARY_PATH=$(cat $B/nccl_ld_path):$LD_LIBRARY_PATH
ninja -C $B -j16 > $R/build.log 2>&1; rc=$?; echo "build rc=$rc at $((SECONDS-T0)) s"
[ $rc -ne 0 ] && { grep -E "error|FAILED" $R/build.log | head -20; pack; exit 1; }
timeout 60 meson test -C $B --no-rebuild --suite gpu gpu_verify_3d --print-errorlogs > $R/suite_3d.log 2>&1; echo "gpu_verify_3d rc=$? at $((SECONDS-T0)) s"
grep -E "^ *[0-9]+/[0-9]+ " $R/suite_3d.log
$B/experiments/multigpu/multi_hist --help > $R/multi_hist_help.txt 2>&1; echo "multi_hist --help rc=$?"; grep -E "impl" $R/multi_hist_help.txt | head -5
left=$((470 - SECONDS + T0)); echo "meson GPU suite with $left s left"
timeout $left meson test -C $B --no-rebuild --suite gpu --num-processes 1 --print-errorlogs > $R/suite_gpu.log 2>&1; echo "suite gpu rc=$? at $((SECONDS-T0)) s"
cp $B/meson-logs/testlog.txt $R/suite_gpu_testlog.txt 2>/dev/null; grep -E "^ *[0-9]+/[0-9]+ |^Ok:|^Fail:|^Skipped:|^Expected|^Unexpected|^Timeout" $R/suite_gpu.log | tail -40; pack
left=$((580 - SECONDS + T0))
[ $left -gt 30 ] && { timeout $((left/2)) compute-sanitizer --tool racecheck $B/experiments/gram/bench_gram --kernel sm90-ws --prec tf32 --N 516 --d 64 --sym none --verify-max 200 --samples 64 --reps 1 --out $R/race > $R/racecheck_bench.log 2>&1; echo "racecheck rc=$? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' $R/racecheck_bench.log | tr '\n' ' ') at $((SECONDS-T0)) s"; }
left=$((585 - SECONDS + T0))
[ $left -gt 20 ] && { timeout $left compute-sanitizer --tool memcheck $B/experiments/gram/bench_gram --kernel sm90-ws --prec tf32,bf16 --N 516 --d 64 --sym none --verify-max 200 --samples 64 --reps 1 --out $R/mem > $R/memcheck_bench.log 2>&1; echo "memcheck rc=$? $(grep -E 'ERROR SUMMARY' $R/memcheck_bench.log | tr '\n' ' ') at $((SECONDS-T0)) s"; }
pack; echo total $((SECONDS-T0)) s
