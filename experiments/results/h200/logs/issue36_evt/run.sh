#!/bin/bash
# The device run of issue #36 item 2 (kernel sm90-evt in bench_gram), as sent: from the repository root of
# The repository root with .carry/ (epi/tree.tgz: `git archive` of branch epi; cutlass/include; boost), on one H200.
# Writes $OUT/run.log (everything), $OUT/res/<gpu>/gram.csv, $OUT/ncu_sm90-evt.txt.
R=$PWD; T=/tmp/t; mkdir -p $T && tar xzf .carry/epi/tree.tgz -C $T && cd $T || exit 1
exec > >(tee $OUT/run.log) 2>&1
s=$SECONDS; t() { echo; echo "=== [$((SECONDS - s)) s] $*"; }
t setup; date -u; nvidia-smi --query-gpu=name,uuid,driver_version,clocks.max.sm,clocks.max.mem --format=csv
export BOOST_ROOT=$R/.carry/boost
t configure + build bench_gram
meson setup b -Dgpu_arch=sm_90 -Dcutlass=$R/.carry/cutlass/include -Dgram_bench=enabled -Dfigures=disabled >b.log 2>&1 || { tail -30 b.log; exit 1; }
grep -i "bench_gram\|CUTLASS" b.log
ninja -C b -j16 experiments/gram/bench_gram >>b.log 2>&1 || { grep -B2 -A10 -i "error" b.log | head -60; exit 1; }
B=b/experiments/gram/bench_gram
t "1. check + time: sm90-ws, sm90-evt (TF32), N 32768 65536, d 64 128 256, with cuBLAS + write peers"
$B --kernel sm90-ws,sm90-evt --prec tf32 --N 32768,65536 --d 64,128,256 --reps 10 --out $OUT/res; echo "rc=$?"
t "2. memcheck of sm90-evt at small N"
timeout 100 compute-sanitizer --tool memcheck --print-limit 20 $B --kernel sm90-evt --prec tf32 --N 1000 --d 64 --verify-max 256 --reps 1 --warmup 1 --min-reps 1 --samples 256 --out /tmp/mc 2>&1 | tail -n 12; echo "memcheck rc=${PIPESTATUS[0]}"
t "3. ncu: one launch of the ltm-e lower kernel at N=65536, d=128"
# launches of the LowerTriangle kernel before the timed size's: the check's 2 (lower, sqrt) x 4 (N x d)
timeout 120 ncu --clock-control none --kernel-name-base mangled --kernel-name regex:LowerTriangle --launch-skip 8 --launch-count 1 \
  --section SpeedOfLight --section MemoryWorkloadAnalysis --section LaunchStats --section Occupancy \
  $B --kernel sm90-evt --prec tf32 --N 65536 --d 128 --verify-max 256 --reps 1 --warmup 1 --min-reps 1 --samples 256 --out /tmp/ncu \
  > $OUT/ncu_sm90-evt.txt 2>&1; echo "ncu rc=$?"; grep -E "Duration|Throughput|DRAM|Memory \[|L2 Hit|Registers|Achieved Occ|Block Limit|==PROF==|==ERROR==" $OUT/ncu_sm90-evt.txt | head -40
t done
