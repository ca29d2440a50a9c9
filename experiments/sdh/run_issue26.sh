#!/bin/bash
# experiments/sdh/run_issue26.sh BIN OUT STEPS — the GPU runs of issue #26 on one GPU, in order of
# priority, each step bounded by `timeout`. BIN holds the built programs (gpu_verify_sdh,
# bench_sdh, multi_hist, bench_maps3d), OUT receives res/<gpu>/sdh.csv (the ladder: every version,
# the committed sdh.csv's run), large/<gpu>/sdh.csv (N = 1e7), logs/ (verification, ncu, clocks) and
# one tarball. STEPS: a comma list of verify, ladder, ncu, multi, threebody, large, large-band, e8.
# LADDER_IMPL (default all), NCU_IMPL (default fast-gram2-r2,fast-gram2-dyn), MG_IMPL / E8_IMPL: the
# kernel of the multi and e8 steps (default fast-gram2-dyn).
# The committed issue #26 rows: experiments/sdh/run_issue26.sh BIN OUT verify,ladder,ncu,multi
set -u
BIN=$1; OUT=$2; STEPS=,$3,
mkdir -p "$OUT/res" "$OUT/large" "$OUT/logs" "$OUT/mg"
L=$OUT/logs
has() { case "$STEPS" in *,$1,*) return 0 ;; esac; return 1; }
step() { echo "== $(date -u +%T) $*" | tee -a "$L/steps.txt"; }
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.sm,clocks.max.sm,power.limit,temperature.gpu --format=csv > "$L/smi.txt" 2>&1
# SM clock, power and temperature every 250 ms through every step
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu,utilization.gpu --format=csv,noheader -lms 250 > "$L/clocks.csv" 2>/dev/null &
SMI=$!

if has verify; then
  step "gpu_verify_sdh"
  timeout 150 "$BIN/gpu_verify_sdh" > "$L/gpu_verify_sdh.txt" 2>&1; echo "rc=$?" | tee -a "$L/steps.txt"
  grep -E "band|test cases" "$L/gpu_verify_sdh.txt" | tail -40
fi
if has ladder; then
  step "bench_sdh ladder 1e4,1e5,1e6"
  timeout 240 "$BIN/bench_sdh" --N 10000,100000,1000000 \
    --impl "${LADDER_IMPL:-all}" --cpu-max-s 25 --gpu-max-s 8 --transfer-reps "${LADDER_TRANSFER_REPS:-3}" --budget-s "${LADDER_BUDGET_S:-300}" \
    --out "$OUT/res" 2> "$L/bench_sdh_ladder.txt"; echo "rc=$?" | tee -a "$L/steps.txt"
  grep -E "band|fast-|verified" "$L/bench_sdh_ladder.txt" | tail -24
fi
if has ncu; then
  step "ncu: ${NCU_IMPL:=fast-gram2-r2,fast-gram2-dyn} at N = 2e5 (clocks not locked)"
  M=smsp__inst_executed.sum,smsp__thread_inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__cycles_elapsed.avg.per_second,gpu__time_duration.sum,sm__inst_executed_pipe_fma.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_alu.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_active,sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active,sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_active,sm__pipe_shared_cycles_active.avg.pct_of_peak_sustained_active,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,launch__grid_size,smsp__average_warp_latency_issue_stalled_mio_throttle.ratio,smsp__average_warp_latency_issue_stalled_short_scoreboard.ratio,smsp__average_warp_latency_issue_stalled_lg_throttle.ratio,smsp__average_warp_latency_issue_stalled_math_pipe_throttle.ratio,smsp__average_warp_latency_issue_stalled_wait.ratio,smsp__average_warp_latency_issue_stalled_barrier.ratio,smsp__average_warp_latency_issue_stalled_not_selected.ratio,smsp__average_warp_latency_issue_stalled_selected.ratio
  timeout 200 ncu --clock-control none --kernel-name regex:'k_(fast|band|gram)' --metrics $M --csv --page raw \
    "$BIN/bench_sdh" --N 200000 --impl "$NCU_IMPL" --reps 1 --min-reps 1 --warmup 1 --transfer-reps 0 \
    --budget-s 0 --verify-max 2000 --out "$OUT/ncu_res" > "$L/ncu_sdh.csv" 2> "$L/ncu_sdh_stderr.txt"; echo "rc=$?" | tee -a "$L/steps.txt"
fi
if has multi; then
  step "multi_hist ${MG_IMPL:=fast-gram2-dyn}: 1, 2, 4, 8 chunks against the CPU oracle"
  timeout 120 "$BIN/multi_hist" --app sdh --impl "$MG_IMPL" --N 1000,10001,65537,1000000 --chunks 1,2,4,8 --reps 2 --warmup 1 \
    --out "$OUT/mg" > "$L/multi_hist.txt" 2>&1; echo "rc=$?" | tee -a "$L/steps.txt"
  tail -5 "$L/multi_hist.txt"
fi
if has threebody; then
  step "ncu: threebody3 (tet-e, rho 4, N = 2048) and its rate"
  timeout 150 ncu --clock-control none --kernel-name regex:'threebody3' --launch-count 4 \
    --metrics smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__cycles_elapsed.avg.per_second,gpu__time_duration.sum,sm__inst_executed_pipe_fma.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_alu.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active,launch__grid_size,launch__block_size,smsp__average_warp_latency_issue_stalled_barrier.ratio,smsp__average_warp_latency_issue_stalled_mio_throttle.ratio,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum \
    --csv --page raw "$BIN/bench_maps3d" --test threebody --N 2048 --rho 4 --maps tet-e --modes thread --reps 1 --min-reps 1 \
    --warmup 1 --budget-s 0 --verify-max 64 --out "$OUT/ncu_res" > "$L/ncu_threebody.csv" 2> "$L/ncu_threebody_stderr.txt"
  echo "rc=$?" | tee -a "$L/steps.txt"
fi
if has large; then
  step "bench_sdh N = 1e7: fast-lane, band-lane, fast-fma, fast-fma-r8 (each checked against the first version of its rule, bit for bit)"
  timeout 240 "$BIN/bench_sdh" --N 10000000 --impl fast-lane,band-lane,fast-fma,fast-fma-r8 --gpu-max-s 60 --reps 1 --min-reps 1 --warmup 1 \
    --transfer-reps 0 --budget-s 0 --out "$OUT/large" 2> "$L/bench_sdh_1e7.txt"; echo "rc=$?" | tee -a "$L/steps.txt"
  tail -4 "$L/bench_sdh_1e7.txt"
fi
if has large-band; then
  step "bench_sdh N = 1e7: band-lane"
  timeout 150 "$BIN/bench_sdh" --N 10000000 --impl band-lane --gpu-max-s 60 --reps 1 --min-reps 1 --warmup 1 \
    --transfer-reps 0 --budget-s 0 --out "$OUT/large" 2> "$L/bench_sdh_1e7.txt"; echo "rc=$?" | tee -a "$L/steps.txt"
  tail -3 "$L/bench_sdh_1e7.txt"
fi
if has e8; then
  step "bench_sdh N = 1e8 on one GPU: predicted, refused past 10 minutes"
  "$BIN/bench_sdh" --N 100000000 --impl ${E8_IMPL:-fast-gram2-dyn} --gpu-max-s 600 --max-minutes 10 > "$L/bench_sdh_1e8.txt" 2>&1
  echo "rc=$?" | tee -a "$L/steps.txt"; cat "$L/bench_sdh_1e8.txt"
fi
kill $SMI 2>/dev/null
cp "$L/steps.txt" "$OUT/steps.txt"
tar czf "$OUT/issue26.tar.gz" -C "$OUT" res large logs mg $( [ -d "$OUT/ncu_res" ] && echo ncu_res )
