#!/bin/bash
# device call 52 (session 10) at $TDMAPS_COMMIT: ncu (ncu_binds' sections) of sm90-ws's TF32 hist (LTM-E) and
# persistent count, N = 65536, d = 128, the last launch of each (the timed size); bench_gram built here.
set -o pipefail; export TDMAPS_COMMIT=$(cat .carry/bin/COMMIT) BOOST_ROOT=$PWD/.carry/boost
echo "$TDMAPS_COMMIT" > .tdmaps-commit
[ -d .carry/cutlass/include ] || tar xJf .carry/cutlass_inc.tar.xz -C .carry
R=/tmp/r52; mkdir -p $R; T0=$SECONDS
pack() { tar czf $OUT/r52.tgz -C $R . 2>/dev/null; }
meson setup build-d -Dgpu_arch=sm_90 -Dgram_bench=enabled -Dcutlass=$PWD/.carry/cutlass/include -Dfigures=disabled -Dpython=disabled > $R/setup.log 2>&1
timeout 200 ninja -C build-d -j16 experiments/gram/bench_gram > $R/build.log 2>&1; echo "build rc=$? at $((SECONDS-T0)) s"; BG=build-d/experiments/gram/bench_gram
S="--section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section SchedulerStats"
A="--N 1024 --d 64 --prec tf32 --sym none --kernel sm90-ws --verify-max 130 --samples 64 --reps 2 --hist-N 65536 --hist-verify 512"
for k in hist:gram_kernel_sm90ILNS_4PrecE0EN6tdmaps7TileMapINS3_3LTM.*OutE2E count:gram_kernel_sm90_persistentILNS_4PrecE0E.*OutE4E; do
  name=${k%%:*}; re="${k#*:}"
  ncu --kernel-name-base mangled --kernel-name "regex:$re" --section LaunchStats $BG $A --out $R/y > $R/ncu_${name}_count.log 2>&1
  m=$(grep -c '==PROF== Profiling' $R/ncu_${name}_count.log); echo "$name: $m launches at $((SECONDS-T0)) s"
  [ "$m" -lt 1 ] && continue
  timeout 60 ncu --kernel-name-base mangled --kernel-name "regex:$re" --launch-skip $((m-1)) --launch-count 1 $S -o $R/ncu_$name $BG $A --out $R/x > $R/ncu_${name}_run.log 2>&1; echo "ncu $name rc=$? at $((SECONDS-T0)) s"
  ncu --import $R/ncu_$name.ncu-rep --page details > $R/ncu_$name.txt 2>&1; ncu --import $R/ncu_$name.ncu-rep --page raw --csv > $R/ncu_${name}_raw.csv 2>&1; rm -f $R/ncu_$name.ncu-rep
  grep -E "Duration|Grid Size|Issue Slots Busy|Warp Cycles Per Issued|Registers Per" $R/ncu_$name.txt | head -6
  pack
done
echo total $((SECONDS-T0)) s
