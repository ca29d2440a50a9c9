#!/bin/bash
# device call 21 (session 5): ncu of sm90-evt condensed (v3, 31f78e2) against lower at N = 32768, d = 128
R=$OUT; mkdir -p $R; T0=$SECONDS; export TDMAPS_COMMIT=31f78e263064
gunzip -c .carry/bin/bench_gram.gz > /tmp/bench_gram && chmod +x /tmp/bench_gram
export TDMAPS_GPU_SLUG_PROGRAM=$PWD/build/experiments/gpu_slug
M=dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_op_write.sum,lts__t_requests_op_write.sum,lts__t_sectors_op_read.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,gpu__time_duration.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,lts__throughput.avg.pct_of_peak_sustained_elapsed,dram__throughput.avg.pct_of_peak_sustained_elapsed
for k in CondensedStore KeepAbove; do
timeout 150 ncu --kernel-name-base mangled --kernel-name regex:$k --launch-skip 8 --launch-count 1 --metrics $M --section WarpStateStats --section SchedulerStats /tmp/bench_gram --kernel sm90-evt --prec tf32 --N 32768 --d 128 --reps 1 --samples 64 --verify-max 200 --out $R/x > $R/ncu_$k.txt 2>&1; echo "ncu $k rc=$? at $((SECONDS-T0)) s"
grep -E "dram__|lts__|l1tex__|gpu__time|sm__throughput|Stall|Warp Cycles|Issued|Eligible|Active Warps|No Eligible" $R/ncu_$k.txt | head -40
tar czf $OUT/r21.tgz -C $R .
done
