#!/bin/bash
# device call 54 (session 11) at $TDMAPS_COMMIT: bench_gram's bracketed exact mode timed on centered operands at
# N = 65536 and 10^6 (classic, sm90-ws; TF32 and 3xTF32; gram_exact.csv), then ncu of sm90-ws's 3xTF32 count-exact
# kernel and of the float64 replay (N = 65536). The binary of call 53 (built at 79aa715).
set -o pipefail; export TDMAPS_COMMIT=$(cat .carry/bin/COMMIT)
echo "$TDMAPS_COMMIT" > .tdmaps-commit
R=/tmp/r54; mkdir -p $R; T0=$SECONDS
pack() { tar czf $OUT/r54.tgz -C $R . 2>/dev/null; }
gunzip -c .carry/bin/bench_gram_c53.gz > /tmp/bench_gram && chmod +x /tmp/bench_gram; BG=/tmp/bench_gram
nvidia-smi -q -d CLOCK,POWER > $R/nvidia_smi.txt 2>&1
timeout 470 $BG --N 1024 --d 64 --prec tf32 --sym none --kernel classic,sm90-ws --verify-max 300 --samples 256 --reps 3 --exact-N 65536,1000000 --out $R/res > $R/exact.log 2>&1; echo "exact rc=$? at $((SECONDS-T0)) s"
grep -E "^\[exact\]|check failed" $R/exact.log | cut -c1-220; pack
A="--N 1024 --d 64 --prec tf32 --sym none --kernel sm90-ws --verify-max 130 --samples 64 --reps 1 --exact-N 65536"
S="--section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section SchedulerStats"
for k in countx:gram_kernel_sm90_persistentILNS_4PrecE1E.*OutE6E replay:replay_kernel; do
  [ $((SECONDS-T0)) -gt 540 ] && break
  name=${k%%:*}; re="${k#*:}"
  timeout 45 ncu --kernel-name-base mangled --kernel-name "regex:$re" --launch-count 1 $S -o $R/ncu_$name $BG $A --out $R/x > $R/ncu_${name}_run.log 2>&1; echo "ncu $name rc=$? at $((SECONDS-T0)) s"
  ncu --import $R/ncu_$name.ncu-rep --page details > $R/ncu_$name.txt 2>&1; ncu --import $R/ncu_$name.ncu-rep --page raw --csv > $R/ncu_${name}_raw.csv 2>&1; rm -f $R/ncu_$name.ncu-rep
  grep -E "Duration|Issue Slots Busy|Warp Cycles Per Issued" $R/ncu_$name.txt | head -4
  pack
done
echo total $((SECONDS-T0)) s
