#!/bin/bash
# device call 32 (session 7) at $TDMAPS_COMMIT: issue #36's last checks after the one-dispatch fold (c042102):
# every kernel and output checked against float64 in every precision (bench_gram --quick, built here), memcheck and
# racecheck of classic / sm80-8w / sm90-ws with every output (mirror, count, minmax included), while the whole tree
# builds on the device (Boost and CUTLASS carried); then the meson GPU suite (make verify-gpu's command).
set -o pipefail; export TDMAPS_COMMIT=$(cat .carry/bin/COMMIT) BOOST_ROOT=$PWD/.carry/boost
tar xJf .carry/cutlass_inc.tar.xz -C .carry   # the CUTLASS headers (.carry/cutlass/include)
R=/tmp/r32; mkdir -p $R; T0=$SECONDS; B=build-d
pack() { tar czf $OUT/r32.tgz -C $R . 2>/dev/null; }
gunzip -c .carry/bin/bench_gram.gz > /tmp/bench_gram && chmod +x /tmp/bench_gram
export TDMAPS_GPU_SLUG_PROGRAM=$PWD/build/experiments/gpu_slug
nvidia-smi -q > $R/nvidia_smi_q.txt 2>&1
( meson setup $B -Dgpu_arch=sm_90 -Dgram_bench=enabled -Dcutlass=$PWD/.carry/cutlass/include -Dfigures=disabled -Dpython=disabled > $R/setup.log 2>&1 && ninja -C $B -j12 > $R/build.log 2>&1; echo "build rc=$? at $((SECONDS-T0)) s" ) &
timeout 150 /tmp/bench_gram --quick --kernel classic,sm80-8w,sm90-ws,sm90-evt --prec tf32,3xtf32,bf16,fp16 --hist-N 100000 --out $R/quick > $R/quick.log 2>&1; echo "quick rc=$? at $((SECONDS-T0)) s"; grep -iE "fail|error" $R/quick.log | head -5; pack
for tool in memcheck racecheck; do
timeout 100 compute-sanitizer --tool $tool /tmp/bench_gram --kernel classic,sm80-8w,sm90-ws --prec tf32,bf16 --N 516 --d 64 --sym none --verify-max 200 --samples 64 --reps 1 --hist-N 600 --hist-verify 600 --out $R/san_$tool > $R/${tool}_bench.log 2>&1; echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/${tool}_bench.log | tr '\n' ' ') at $((SECONDS-T0)) s"
done; pack
wait; tail -3 $R/build.log
left=$((585 - SECONDS + T0)); echo "meson GPU suite with $left s left"
timeout $left meson test -C $B --suite gpu --num-processes 1 --print-errorlogs > $R/suite_gpu.log 2>&1; echo "suite gpu rc=$? at $((SECONDS-T0)) s"
cp $B/meson-logs/testlog.txt $R/suite_gpu_testlog.txt 2>/dev/null; grep -E "^ *[0-9]+/[0-9]+ |^Ok:|^Fail:|^Skipped:|^Expected|^Unexpected|^Timeout" $R/suite_gpu.log | tail -30; pack
echo total $((SECONDS-T0)) s
