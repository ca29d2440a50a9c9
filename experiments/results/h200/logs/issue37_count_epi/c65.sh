#!/bin/bash
# device call 65 (session 13, one H200): issue #37, sm90-ws's count epilogue at $TDMAPS_COMMIT (within_eps2, predicated
# counter adds, the flush scattered over the lanes) against bcc33d4 (the previous form), both built in this call from
# git archive; the checks of every precision (new), count and hist at N = 10^6 (TF32, BF16; new, old, in turn); ncu of
# the new ping-pong count (N = 65536, call 52's sections); racecheck and memcheck of the new count at small N.
set -o pipefail; export TDMAPS_COMMIT=$(cat .carry/bin/COMMIT) BOOST_ROOT=$PWD/.carry/boost
mkdir -p .carry/cutlass; tar xJf .carry/cutlass_inc.tar.xz -C .carry; CUT=$PWD/.carry/cutlass/include
R=/tmp/r65; mkdir -p $R; T0=$SECONDS
pack() { tar czf $OUT/r65.tgz -C $R . 2>/dev/null; }
nvidia-smi -q -d CLOCK,POWER > $R/nvidia_smi.txt 2>&1
for v in new old; do
  W=/tmp/t_$v; mkdir -p $W; f=.carry/tree.tar.xz; [ $v = old ] && f=.carry/tree_old.tar.xz; tar xJf $f -C $W
  c=$TDMAPS_COMMIT; [ $v = old ] && c=bcc33d4; echo "$c" > $W/.tdmaps-commit
  (cd $W && meson setup B -Dgpu_arch=sm_90 -Dgram_bench=enabled -Dcutlass=$CUT -Dfigures=disabled -Dpython=disabled > $R/setup_$v.log 2>&1 && TDMAPS_COMMIT=$c timeout 260 ninja -C B -j8 experiments/gram/bench_gram > $R/build_$v.log 2>&1; echo "build $v rc=$? at $((SECONDS-T0)) s") &
done; wait
NEW=/tmp/t_new/B/experiments/gram/bench_gram; OLD=/tmp/t_old/B/experiments/gram/bench_gram
[ -x $NEW ] || { grep -E "error|FAILED" $R/build_new.log | head -30; pack; exit 1; }
timeout 60 $NEW --kernel sm90-ws --prec tf32,3xtf32,bf16,fp16 --N 300,1000,2048,8200 --d 128 --sym none --verify-max 300 --samples 256 --reps 2 --exact-N 300 --out $R/quick > $R/quick.log 2>&1; echo "quick rc=$? at $((SECONDS-T0)) s"
grep -cE "^\[check\]" $R/quick.log; grep -iE "check failed|error|fail" $R/quick.log | head -5; pack
T="--N 1024 --d 64 --prec tf32 --sym none --kernel sm90-ws --verify-max 200 --samples 256 --reps 5 --hist-N 1000000 --hist-prec tf32,bf16"
for v in new old; do
  B=$NEW; [ $v = old ] && B=$OLD; [ -x $B ] || continue
  left=$((400 - SECONDS + T0)); [ $left -gt 90 ] || break
  TDMAPS_COMMIT=$([ $v = old ] && echo bcc33d4 || echo $TDMAPS_COMMIT) timeout $left $B $T --out $R/res_$v > $R/count_$v.log 2>&1; echo "count $v rc=$? at $((SECONDS-T0)) s"; grep -E "^\[count\]|^\[hist\] sm90|check failed" $R/count_$v.log; pack
done
S="--section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section SchedulerStats --section ComputeWorkloadAnalysis"
A="--N 1024 --d 64 --prec tf32 --sym none --kernel sm90-ws --verify-max 130 --samples 64 --reps 2 --hist-N 65536 --hist-verify 512"
re='gram_kernel_sm90_pingpongILNS_4PrecE0E.*OutE4E'
left=$((520 - SECONDS + T0))
if [ $left -gt 60 ]; then
  ncu --kernel-name-base mangled --kernel-name "regex:$re" --section LaunchStats $NEW $A --out $R/y > $R/ncu_launches.log 2>&1
  m=$(grep -c '==PROF== Profiling' $R/ncu_launches.log); echo "count: $m launches at $((SECONDS-T0)) s"
  left=$((540 - SECONDS + T0))
  timeout $left ncu --kernel-name-base mangled --kernel-name "regex:$re" --launch-skip $((m-1)) --launch-count 1 $S -o $R/ncu_count $NEW $A --out $R/x > $R/ncu_count_run.log 2>&1; echo "ncu rc=$? at $((SECONDS-T0)) s"
  ncu --import $R/ncu_count.ncu-rep --page details > $R/ncu_count.txt 2>&1; ncu --import $R/ncu_count.ncu-rep --page raw --csv > $R/ncu_count_raw.csv 2>&1; rm -f $R/ncu_count.ncu-rep
  grep -E "Duration|Issue Slots Busy|Warp Cycles Per Issued|Registers Per|Executed Ipc" $R/ncu_count.txt | head -6; pack
fi
left=$((585 - SECONDS + T0))
[ $left -gt 25 ] && { timeout $((left/2)) compute-sanitizer --tool racecheck $NEW --kernel sm90-ws --prec tf32 --N 516 --d 64 --sym none --verify-max 200 --samples 64 --reps 1 --out $R/race > $R/racecheck.log 2>&1; echo "racecheck rc=$? $(grep -E 'RACECHECK SUMMARY' $R/racecheck.log) at $((SECONDS-T0)) s"; }
left=$((590 - SECONDS + T0))
[ $left -gt 12 ] && { timeout $left compute-sanitizer --tool memcheck $NEW --kernel sm90-ws --prec tf32,bf16 --N 516 --d 64 --sym none --verify-max 200 --samples 64 --reps 1 --out $R/mem > $R/memcheck.log 2>&1; echo "memcheck rc=$? $(grep -E 'ERROR SUMMARY' $R/memcheck.log) at $((SECONDS-T0)) s"; }
pack; echo total $((SECONDS-T0)) s
