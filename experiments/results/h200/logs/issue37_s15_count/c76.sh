#!/bin/bash
# device call 76 (session 15, 2 H200s) at $TDMAPS_COMMIT (+ the working tree): issue #37 item 3's eps-count over lambda
# ranges (multi_hist --app gram --count, --exact; the count and count_exact kernels over a TileRange). multi_hist
# (NCCL) and bench_gram built on the device, then the meson GPU tests of multi_hist --app gram (histogram and count,
# approximate and exact; 1 and 2 GPUs) and bench_gram's quick run (the dispatcher's whole-grid paths).
set -o pipefail; export TDMAPS_COMMIT=$(cat .carry/bin/COMMIT) BOOST_ROOT=$PWD/.carry/boost
echo "$TDMAPS_COMMIT" > .tdmaps-commit
[ -d .carry/cutlass/include ] || tar xJf .carry/cutlass_inc.tar.xz -C .carry
R=/tmp/r76; mkdir -p $R; T0=$SECONDS; B=build-s
pack() { tar czf $OUT/r76.tgz -C $R . 2>/dev/null; }
nvidia-smi -L > $R/nvidia_smi.txt 2>&1
timeout 170 bash experiments/multigpu/build_device.sh $B > $R/build_multi.log 2>&1; echo "multi_hist rc=$? at $((SECONDS-T0)) s"
[ -f $B/nccl_ld_path ] && export LD_LIBRARY_PATH=$(cat $B/nccl_ld_path):$LD_LIBRARY_PATH
timeout 40 ninja -C $B -j32 experiments/gram/bench_gram > $R/build.log 2>&1; echo "bench_gram rc=$? at $((SECONDS-T0)) s"
grep -E "error|FAILED" $R/build_multi.log $R/build.log | head -10
left=$((225 - SECONDS + T0)); echo "tests with $left s left"
timeout $left meson test -C $B --no-rebuild --suite gpu multi_gpu_gram_count multi_gpu_gram_count_exact multi_gpu_gram multi_gpu_gram_exact bench_gram --num-processes 1 --print-errorlogs > $R/suite.log 2>&1; echo "tests rc=$? at $((SECONDS-T0)) s"
cp $B/meson-logs/testlog.txt $R/testlog.txt 2>/dev/null; grep -E "^ *[0-9]+/[0-9]+ |^Ok:|^Fail:" $R/suite.log | tail -8
find $B -path "*multigpu_checks*" -name "gram_multigpu*.csv" -exec cp {} $R/ \; 2>/dev/null
pack; echo total $((SECONDS-T0)) s
