#!/bin/bash
# device call 73 (session 15, 2 H200s, right after call 72 on the warm machine: its build-s) at $TDMAPS_COMMIT:
# issue #37's gram.csv of record, bench_gram as calls 50 and 71 ran it (every kernel checked against float64 before it is
# timed). (The ncu part runs only with NCU_AT=<s>; not this call.)
set -o pipefail; export TDMAPS_COMMIT=$(cat .carry/bin/COMMIT) BOOST_ROOT=$PWD/.carry/boost
echo "$TDMAPS_COMMIT" > .tdmaps-commit
[ -d .carry/cutlass/include ] || tar xJf .carry/cutlass_inc.tar.xz -C .carry
R=/tmp/r73; mkdir -p $R; T0=$SECONDS; B=build-s; BG=$B/experiments/gram/bench_gram
pack() { tar czf $OUT/r73.tgz -C $R . 2>/dev/null; }
if [ ! -x $BG ]; then
  meson setup $B -Dgpu_arch=sm_90 -Dgram_bench=enabled -Dcutlass=$PWD/.carry/cutlass/include -Dfigures=disabled -Dpython=disabled > $R/setup.log 2>&1
  timeout 240 ninja -C $B -j16 experiments/gram/bench_gram > $R/build.log 2>&1; echo "build rc=$? at $((SECONDS-T0)) s"
fi
nvidia-smi -q -d CLOCK,POWER > $R/nvidia_smi.txt 2>&1
timeout ${REC_S:-440} $BG --kernel classic,sm80-8w,sm90-ws,sm90-evt --hist-N 1000000 --hist-prec tf32,bf16 --out $R/res > $R/bench_gram.log 2>&1; echo "record rc=$? at $((SECONDS-T0)) s"
tail -2 $R/bench_gram.log; grep -c "^\[check\]" $R/bench_gram.log; grep -E "^\[hist\].*N=|^\[count\]|check failed" $R/bench_gram.log; pack
S="--section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section SchedulerStats"
A="--N 1024 --d 64 --prec bf16 --sym none --kernel sm90-ws --verify-max 130 --samples 64 --reps 2 --hist-N 65536 --hist-prec bf16 --hist-verify 512"
re='gram_kernel_sm90ILNS_4PrecE2EN6tdmaps7TileMapINS3_3LTM.*OutE2E'
left=$((${NCU_AT:-0} - SECONDS + T0))
if [ $left -gt 50 ]; then
  timeout $((left/2)) ncu --kernel-name-base mangled --kernel-name "regex:$re" --section LaunchStats $BG $A --out $R/y > $R/ncu_launches.log 2>&1
  m=$(grep -c '==PROF== Profiling' $R/ncu_launches.log); echo "hist bf16: $m launches at $((SECONDS-T0)) s"
  left=$((470 - SECONDS + T0))
  [ "$m" -ge 1 ] && timeout $left ncu --kernel-name-base mangled --kernel-name "regex:$re" --launch-skip $((m-1)) --launch-count 1 $S -o $R/ncu_hist_bf16 $BG $A --out $R/x > $R/ncu_hist_bf16_run.log 2>&1; echo "ncu rc=$? at $((SECONDS-T0)) s"
  ncu --import $R/ncu_hist_bf16.ncu-rep --page details > $R/ncu_hist_bf16.txt 2>&1; ncu --import $R/ncu_hist_bf16.ncu-rep --page raw --csv > $R/ncu_hist_bf16_raw.csv 2>&1; rm -f $R/ncu_hist_bf16.ncu-rep
  grep -E "Duration|Issue Slots Busy|Warp Cycles Per Issued|Registers Per|gram_kernel" $R/ncu_hist_bf16.txt | head -6
fi
pack; echo total $((SECONDS-T0)) s
