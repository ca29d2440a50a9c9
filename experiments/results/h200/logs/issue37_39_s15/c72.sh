#!/bin/bash
# device call 72 (session 15, 2 H200s) at $TDMAPS_COMMIT: the GPU code changed since call 70 (issue #37: the count's eps test before
# the branch, 96cb0f9; condensed's Gram form, 80e3d30; issue #39: bench_apps' words, the Layout renames, bench_maps3d's row
# helper, multi_hist's pool). The whole tree built on the device, then the whole meson GPU suite.
set -o pipefail; export TDMAPS_COMMIT=$(cat .carry/bin/COMMIT) BOOST_ROOT=$PWD/.carry/boost
echo "$TDMAPS_COMMIT" > .tdmaps-commit
[ -d .carry/cutlass/include ] || tar xJf .carry/cutlass_inc.tar.xz -C .carry
R=/tmp/r72; mkdir -p $R; T0=$SECONDS; B=build-s
pack() { tar czf $OUT/r72.tgz -C $R . 2>/dev/null; }
nvidia-smi -q -d CLOCK,POWER > $R/nvidia_smi.txt 2>&1
bash experiments/multigpu/build_device.sh $B > $R/build_multi.log 2>&1; echo "configure+multi rc=$? at $((SECONDS-T0)) s"
[ -f $B/nccl_ld_path ] && export LD_LIBRARY_PATH=$(cat $B/nccl_ld_path):$LD_LIBRARY_PATH
ninja -C $B -j16 > $R/build.log 2>&1; rc=$?; echo "build rc=$rc at $((SECONDS-T0)) s"
[ $rc -ne 0 ] && { grep -E "error|FAILED" $R/build.log | head -20; pack; exit 1; }
left=$((540 - SECONDS + T0)); echo "meson GPU suite with $left s left"
timeout $left meson test -C $B --no-rebuild --suite gpu --num-processes 1 --print-errorlogs > $R/suite_gpu.log 2>&1; echo "suite gpu rc=$? at $((SECONDS-T0)) s"
cp $B/meson-logs/testlog.txt $R/suite_gpu_testlog.txt 2>/dev/null; grep -E "^ *[0-9]+/[0-9]+ |^Ok:|^Fail:|^Skipped:|^Expected|^Unexpected|^Timeout" $R/suite_gpu.log | tail -40
for f in tet_exact_range_gpu.csv exact_range_gpu.csv; do g=$(find $B -name $f | head -1); [ -n "$g" ] && cp $g $R/; done
pack; echo total $((SECONDS-T0)) s
