#!/bin/bash
# device call 47 (session 10) at $TDMAPS_COMMIT: bench_gram built here with our epilogue's new reductions (sm90-ws's
# count from the registers, the histogram's unconditional ATOMS.POPC.INC, 32-bit cell tests, fixed-offset norms);
# the checks of classic, sm80-8w and sm90-ws in every precision; hist and count at N = 10^6, d = 128; ncu of sm90-ws's
# hist and count at N = 65536. The stripped binary comes back for the next call.
set -o pipefail; export TDMAPS_COMMIT=$(cat .carry/bin/COMMIT) BOOST_ROOT=$PWD/.carry/boost
echo "$TDMAPS_COMMIT" > .tdmaps-commit
[ -d .carry/cutlass/include ] || tar xJf .carry/cutlass_inc.tar.xz -C .carry
R=/tmp/r47; mkdir -p $R; T0=$SECONDS; B=build-d
pack() { tar czf $OUT/r47.tgz -C $R . 2>/dev/null; }
meson setup $B -Dgpu_arch=sm_90 -Dgram_bench=enabled -Dcutlass=$PWD/.carry/cutlass/include -Dfigures=disabled -Dpython=disabled > $R/setup.log 2>&1 || { tail -20 $R/setup.log; pack; exit 1; }
timeout 240 ninja -C $B -j16 experiments/gram/bench_gram > $R/build.log 2>&1; rc=$?; echo "build rc=$rc at $((SECONDS-T0)) s"
[ $rc -ne 0 ] && { grep -E "error|FAILED" $R/build.log | head -30; pack; exit 1; }
BG=$B/experiments/gram/bench_gram
strip -o /tmp/bench_gram $BG && gzip -c /tmp/bench_gram > $OUT/bench_gram_c47.gz
timeout 60 $BG --kernel classic,sm80-8w,sm90-ws --prec tf32,3xtf32,bf16,fp16 --N 2048 --d 128 --sym none --verify-max 300 --samples 256 --reps 2 --out $R/quick > $R/quick.log 2>&1; echo "quick rc=$? at $((SECONDS-T0)) s"
grep -cE "^\[check\]" $R/quick.log; grep -E "check failed|error" $R/quick.log | head -3; pack
timeout 100 $BG --N 1024 --d 64 --prec tf32 --sym none --kernel sm90-ws,sm80-8w --verify-max 200 --samples 256 --reps 5 --hist-N 1000000 --out $R/res > $R/hist.log 2>&1; echo "hist tf32 rc=$? at $((SECONDS-T0)) s"; grep -E "^\[hist\].*N=|^\[count\]|check failed" $R/hist.log; pack
timeout 60 $BG --N 1024 --d 64 --prec tf32 --sym none --kernel sm90-ws --verify-max 200 --samples 256 --reps 5 --hist-N 1000000 --hist-prec bf16 --out $R/res_bf16 > $R/hist_bf16.log 2>&1; echo "hist bf16 rc=$? at $((SECONDS-T0)) s"; grep -E "^\[hist\].*N=|^\[count\]|check failed" $R/hist_bf16.log; pack
S="--section SpeedOfLight --section WarpStateStats --section SchedulerStats --section LaunchStats --section Occupancy --section InstructionStats --section ComputeWorkloadAnalysis"
A="--N 1024 --d 64 --prec tf32 --sym none --kernel sm90-ws --verify-max 130 --samples 64 --reps 2 --hist-N 65536 --hist-verify 512"
for k in hist:OutE2E count:OutE4E; do
  [ $((SECONDS-T0)) -gt 520 ] && break
  name=${k%%:*}; re="gram_kernel_sm90.*TileMap.*${k##*:}"
  ncu --kernel-name-base mangled --kernel-name "regex:$re" --section LaunchStats $BG $A --out $R/y > $R/ncu_${name}_count.log 2>&1
  m=$(grep -c '==PROF== Profiling' $R/ncu_${name}_count.log); echo "$name: $m launches at $((SECONDS-T0)) s"
  [ "$m" -lt 1 ] && continue
  timeout 60 ncu --kernel-name-base mangled --kernel-name "regex:$re" --launch-skip $((m-1)) --launch-count 1 $S -o $R/ncu_$name $BG $A --out $R/x > $R/ncu_${name}_run.log 2>&1; echo "ncu $name rc=$? at $((SECONDS-T0)) s"
  ncu --import $R/ncu_$name.ncu-rep --page details > $R/ncu_$name.txt 2>&1; ncu --import $R/ncu_$name.ncu-rep --page raw --csv > $R/ncu_${name}_raw.csv 2>&1; rm -f $R/ncu_$name.ncu-rep
  grep -E "Duration|Grid Size|Issue Slots Busy|Warp Cycles Per Issued|Registers Per|Executed Instructions  " $R/ncu_$name.txt | head -8
  pack
done
echo total $((SECONDS-T0)) s
