#!/bin/bash
# device call 69 (session 14, nvidia-h200-x2) at $TDMAPS_COMMIT: multi_hist with one host thread a GPU (after call 68's x1.02).
# The meson multi-GPU tests on 2 GPUs (multi_gpu, multi_gpu_threebody, multi_gpu_gram, multi_gpu_gram_exact), run_multigpu.sh's
# faults and mpi phases, then issue #37 item 3 again: multi_hist --app gram --exact (3xTF32, centered, 64 buckets, d = 128)
# at N = 4*10^6 on 1 and 2 GPUs, 1 chunk, checked once at N = 4096 against the float64 CPU histogram, every timed run
# bit-identical to the first.
set -o pipefail; export TDMAPS_COMMIT=$(cat .carry/bin/COMMIT) BOOST_ROOT=$PWD/.carry/boost NCCL_NVLS_ENABLE=0
echo "$TDMAPS_COMMIT" > .tdmaps-commit
[ -d .carry/cutlass/include ] || tar xJf .carry/cutlass_inc.tar.xz -C .carry
R=/tmp/r69; mkdir -p $R; T0=$SECONDS; B=build-x2
pack() { tar czf $OUT/r69.tgz -C $R . 2>/dev/null; }
nvidia-smi -q -d CLOCK,POWER > $R/nvidia_smi.txt 2>&1; nvidia-smi topo -m > $R/topo.txt 2>&1
bash experiments/multigpu/build_device.sh $B > $R/build_multi.log 2>&1; rc=$?; echo "build rc=$rc at $((SECONDS-T0)) s"
[ $rc -ne 0 ] && { grep -E "error|FAILED" $R/build_multi.log | head -20; pack; exit 1; }
[ -f $B/nccl_ld_path ] && export LD_LIBRARY_PATH=$(cat $B/nccl_ld_path):$LD_LIBRARY_PATH
timeout 150 meson test -C $B --no-rebuild --suite gpu multi_gpu multi_gpu_threebody multi_gpu_gram multi_gpu_gram_exact --print-errorlogs > $R/suite_multigpu.log 2>&1; echo "tests rc=$? at $((SECONDS-T0)) s"
grep -E "^ *[0-9]+/[0-9]+ |^Ok:|^Fail:" $R/suite_multigpu.log; cp $B/meson-logs/testlog.txt $R/suite_multigpu_testlog.txt 2>/dev/null
timeout 60 bash experiments/multigpu/run_multigpu.sh $B/experiments/multigpu/multi_hist $R/faults_mpi faults mpi > $R/faults_mpi.log 2>&1; echo "faults+mpi rc=$? at $((SECONDS-T0)) s"; tail -6 $R/faults_mpi.log
left=$((575 - SECONDS + T0)); reps=1; [ $left -gt 300 ] && reps=2; echo "reps $reps with $left s left"
timeout $left $B/experiments/multigpu/multi_hist --app gram --exact --prec 3xtf32 --buckets 64 --d 128 --N 4000000 --warmup-N 4096 --gpu-counts 1,2 --chunks 1 --reps $reps --min-reps 1 --out $R/res > $R/multi_exact.log 2>&1; echo "multi rc=$? at $((SECONDS-T0)) s"
tail -4 $R/multi_exact.log; pack; echo total $((SECONDS-T0)) s
