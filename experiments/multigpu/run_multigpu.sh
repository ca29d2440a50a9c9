#!/usr/bin/env bash
# The multi-GPU runs of issues #16 and #17 on the GPU machine, in one call.
#   run_multigpu.sh MULTI_HIST OUT [phase ...]
# Phases (default: all, in this order):
#   verify     every split (1, 2, 4, 8 chunks; 1 and all GPUs) against the CPU oracle, SDH and three-body
#   faults     bad input and a GPU failing mid-run (TDMAPS_TEST_FAULT_GPU): one line, non-zero exit, no row
#   sdh        SDH at N = 1e6 and 4e6: 1 GPU x 1, 8 chunks and (with 2+ GPUs) 2 GPUs x 1, 8 chunks,
#              interleaved in one run -> OUT/<gpu>/sdh_multigpu.csv (split cost and scaling)
#   threebody  the three-body histogram at N = 16384 (TB_N): 1 and 2 GPUs, 1 and 8 chunks
#              -> OUT/<gpu>/threebody_multigpu.csv
# The defaults are the committed runs' (experiments/results/<gpu>/*_multigpu.csv: their metadata line
# has the arguments): 5 timed repetitions after one warm-up, every timed configuration checked at its
# own size (counts sum to the pairs / triplets; every bucket equal to 1 GPU x 1 chunk's).
#   mpi        multi_hist_mpi (MULTI_HIST_MPI, default beside MULTI_HIST) under mpirun (MPIRUN, default
#              mpirun): one rank per GPU verified against the CPU oracle; one rank more than the GPUs
#              refused in one line (exit 2)
# Environment: SDH_N, TB_N, REPS, CHUNKS (sdh phase, default 1,8) override the sizes.
# NVLink multicast stays off (NCCL_NVLS_ENABLE=0, as the device notes ask).
set -uo pipefail
prog=$1 out=$2
shift 2
phases=("$@")
[ ${#phases[@]} -eq 0 ] && phases=(verify faults sdh threebody)
export NCCL_NVLS_ENABLE=0
mkdir -p "$out/logs"
ngpu=$(nvidia-smi -L 2>/dev/null | wc -l)
counts="1"; [ "$ngpu" -ge 2 ] && counts="1,2"
SDH_N=${SDH_N:-1000000,4000000}
TB_N=${TB_N:-16384}
REPS=${REPS:-5}
status=0
run() {  # run NAME CMD...: log to OUT/logs/NAME.log, remember failures
  local name=$1; shift
  echo "== $name: $*" | tee -a "$out/logs/summary.txt"
  local t0=$SECONDS
  "$@" >"$out/logs/$name.log" 2>&1; local rc=$?
  echo "   rc=$rc ($((SECONDS - t0)) s)" | tee -a "$out/logs/summary.txt"
  tail -n 3 "$out/logs/$name.log" | sed 's/^/   | /' | tee -a "$out/logs/summary.txt"
  return $rc
}
expect_fail() {  # expect_fail NAME PATTERN CMD...: must exit non-zero with PATTERN in its output
  local name=$1 pat=$2; shift 2
  run "$name" timeout 120 "$@"; local rc=$?
  if [ $rc -ne 0 ] && [ $rc -ne 124 ] && grep -q -- "$pat" "$out/logs/$name.log"; then
    echo "   ok: refused" | tee -a "$out/logs/summary.txt"
  else
    echo "   FAIL: rc=$rc, expected a refusal matching '$pat'" | tee -a "$out/logs/summary.txt"; status=1
  fi
}
for ph in "${phases[@]}"; do
  case $ph in
    verify)
      run verify_sdh "$prog" --app sdh --N 1000,10001,65537 --gpu-counts "$counts" --chunks 1,2,4,8 --reps 2 \
          --out "$out/verify" || status=1
      run verify_threebody "$prog" --app threebody --N 200,777,1024 --gpu-counts "$counts" --chunks 1,2,4,8 --reps 2 \
          --out "$out/verify" || status=1
      # rho = 1 at N = 2400: tet(N) = 2.3e9 blocks, so a range of 1 or 2 workers takes a multi-row grid (wide path)
      run verify_threebody_wide "$prog" --app threebody --rho 1 --N 2400 --verify-max 2400 --gpu-counts "$counts" \
          --chunks 1,2 --reps 1 --csv threebody_multigpu_wide.csv --out "$out/verify" || status=1 ;;
    faults)
      expect_fail gpus_too_many "GPU" "$prog" --app sdh --N 1000 --gpus "$ngpu"
      expect_fail gpu_counts_too_many "only" "$prog" --app sdh --N 1000 --gpu-counts $((ngpu + 1))
      expect_fail predicted_hours "predicted" "$prog" --app sdh --N 100000000 --reps 3
      expect_fail gpu_fails_midrun "failed" env TDMAPS_TEST_FAULT_GPU=$((ngpu - 1)) "$prog" --app sdh \
          --N 100000 --gpu-counts "$counts" --out "$out/faults"
      if grep -q "^sdh," "$out/faults"/*/sdh_multigpu.csv 2>/dev/null; then
        echo "   FAIL: a row was written by the failing run" | tee -a "$out/logs/summary.txt"; status=1
      fi ;;
    sdh)
      run sdh "$prog" --app sdh --N "$SDH_N" --gpu-counts "$counts" --chunks "${CHUNKS:-1,8}" --reps "$REPS" --warmup 1 \
          --max-minutes 9 --out "$out" || status=1 ;;
    threebody)
      run threebody "$prog" --app threebody --N "$TB_N" --gpu-counts "$counts" --chunks 1,8 --reps "$REPS" --warmup 1 \
          --max-minutes 9 --out "$out" || status=1 ;;
    mpi)
      mp=${MULTI_HIST_MPI:-$(dirname "$prog")/multi_hist_mpi}
      mr=${MPIRUN:-mpirun}
      ( export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
        s=0
        run mpi_rank_per_gpu timeout 300 "$mr" -np "$ngpu" "$mp" --app sdh --N 1000,65537 --chunks 1,2 --reps 2 \
            --out "$out/mpi" || s=1
        status=0
        expect_fail mpi_more_ranks_than_gpus "start at most one rank per GPU" "$mr" -np $((ngpu + 1)) "$mp" \
            --app sdh --N 1000 --out "$out/mpi_refused"
        exit $((s | status)) ) || status=1 ;;
    *) echo "unknown phase $ph"; exit 2 ;;
  esac
done
echo "run_multigpu: status $status" | tee -a "$out/logs/summary.txt"
exit $status
