#!/bin/bash
# device call 36 (session 8) at $TDMAPS_COMMIT: kernel sm90-ws gets the extra outputs (mirror, count, minmax and the
# exact mode's count-exact / hist-exact; gram_sm90_extra.cu, issue #37). The whole tree built here (Boost and CUTLASS
# carried, -Dgram_bench=enabled), then the meson GPU suite (make verify-gpu's command: its bench_gram smoke line
# checks every kernel's extra outputs and the bracketed exact mode against float64), then memcheck and racecheck of
# sm90-ws's new kernels. bench_gram comes back for the timing call.
set -o pipefail; export TDMAPS_COMMIT=$(cat .carry/bin/COMMIT) BOOST_ROOT=$PWD/.carry/boost
echo "$TDMAPS_COMMIT" > .tdmaps-commit
tar xJf .carry/cutlass_inc.tar.xz -C .carry
R=/tmp/r36; mkdir -p $R; T0=$SECONDS; B=build-d
pack() { tar czf $OUT/r36.tgz -C $R . 2>/dev/null; }
nvidia-smi -q > $R/nvidia_smi_q.txt 2>&1
meson setup $B -Dgpu_arch=sm_90 -Dgram_bench=enabled -Dcutlass=$PWD/.carry/cutlass/include -Dfigures=disabled -Dpython=disabled > $R/setup.log 2>&1 || { tail -20 $R/setup.log; pack; exit 1; }
ninja -C $B -j15 > $R/build.log 2>&1; rc=$?; echo "build rc=$rc at $((SECONDS-T0)) s"
[ $rc -ne 0 ] && { grep -E "error|FAILED" $R/build.log | head -20; pack; exit 1; }
strip -o /tmp/bench_gram $B/experiments/gram/bench_gram && gzip -c /tmp/bench_gram > $OUT/bench_gram.gz
export TDMAPS_GPU_SLUG_PROGRAM=$PWD/$B/experiments/gpu_slug
for tool in memcheck racecheck; do
timeout 120 compute-sanitizer --tool $tool $B/experiments/gram/bench_gram --kernel sm90-ws --prec tf32,3xtf32,bf16 --N 516 --d 64 --sym none --verify-max 200 --samples 64 --reps 1 --hist-N 600 --hist-verify 600 --exact-N 300 --out $R/san_$tool > $R/${tool}_bench.log 2>&1; echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/${tool}_bench.log | tr '\n' ' ') at $((SECONDS-T0)) s"
done; pack
left=$((590 - SECONDS + T0)); echo "meson GPU suite with $left s left"
timeout $left meson test -C $B --suite gpu --num-processes 1 --print-errorlogs > $R/suite_gpu.log 2>&1; echo "suite gpu rc=$? at $((SECONDS-T0)) s"
cp $B/meson-logs/testlog.txt $R/suite_gpu_testlog.txt 2>/dev/null; grep -E "^ *[0-9]+/[0-9]+ |^Ok:|^Fail:|^Skipped:|^Expected|^Unexpected|^Timeout" $R/suite_gpu.log | tail -30; pack
echo total $((SECONDS-T0)) s
