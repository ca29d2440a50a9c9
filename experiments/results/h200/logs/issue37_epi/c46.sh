#!/bin/bash
# device call 46 (session 10): ncu of sm90-ws's fused hist and count (TF32, N = 65536, d = 128, the last timed
# launch), the binary of call 39 (39dfe1e: sm90-ws's form of record), no build.
R=/tmp/r46; mkdir -p $R; T0=$SECONDS
pack() { tar czf $OUT/r46.tgz -C $R . 2>/dev/null; }
gunzip -c .carry/bin/bench_gram.gz > /tmp/bg && chmod +x /tmp/bg; BG=/tmp/bg
S="--section SpeedOfLight --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables --section WarpStateStats --section SchedulerStats --section LaunchStats --section Occupancy --section InstructionStats --section ComputeWorkloadAnalysis"
A="--N 1024 --d 64 --prec tf32 --sym none --kernel sm90-ws --verify-max 130 --samples 64 --reps 2 --hist-N 65536 --hist-verify 512"
timeout 60 $BG $A --out $R/t > $R/time.log 2>&1; echo "time rc=$? at $((SECONDS-T0)) s"; grep -E "^\[hist\].*N=|^\[count\]" $R/time.log
for k in hist:OutE2E count:OutE4E; do
  name=${k%%:*}; re="gram_kernel_sm90.*${k##*:}"
  ncu --kernel-name-base mangled --kernel-name "regex:$re" --section LaunchStats $BG $A --out $R/y > $R/ncu_${name}_count.log 2>&1
  m=$(grep -c '==PROF== Profiling' $R/ncu_${name}_count.log); echo "$name: $m launches at $((SECONDS-T0)) s"
  [ "$m" -lt 1 ] && continue
  timeout 150 ncu --kernel-name-base mangled --kernel-name "regex:$re" --launch-skip $((m-1)) --launch-count 1 $S -o $R/ncu_$name $BG $A --out $R/x > $R/ncu_${name}_run.log 2>&1; echo "ncu $name rc=$? at $((SECONDS-T0)) s"
  ncu --import $R/ncu_$name.ncu-rep --page details > $R/ncu_$name.txt 2>&1; ncu --import $R/ncu_$name.ncu-rep --page raw --csv > $R/ncu_${name}_raw.csv 2>&1; rm -f $R/ncu_$name.ncu-rep
  grep -E "Duration|Grid Size|Block Size|DRAM Throughput|Compute \(SM\) Throughput|Issue Slots Busy|Warp Cycles Per Issued|Registers Per|Achieved Occupancy|Dynamic Shared|L2 Cache Throughput|Executed Ipc A" $R/ncu_$name.txt | head -16
  pack
done
echo total $((SECONDS-T0)) s
