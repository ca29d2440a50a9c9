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
#   issue #40 (4 GPUs; counts 1,2,4 -- I40_COUNTS -- with 1 and 8 chunks, REPS = 5): the check-and-warm-up
#   round of every configuration once at a small N (multi_hist --warmup-N: oracle-checked), then 5 interleaved
#   timed rounds at the size, every timed run checked against 1 GPU x 1 chunk's (its sum, then every bucket)
#     i40_sdh        SDH N = 1e7 (I40_SDH_N)                                   ~350 s on 4 H200s
#     i40_threebody  three-body tet-e rho = 8, N = 33536 (I40_TB_N; ~30 s on 1 GPU)  ~540 s
#     i40_gram       gram sm90-ws tf32 d = 128, N = 4e6 (I40_GRAM_N)            ~340 s
#     i40_mpi_sdh, i40_mpi_threebody, i40_mpi_gram   multi_hist_mpi, mpirun -np <GPUs>, 1 chunk, the same
#                    size: its histogram digest (sum, FNV-1a) must equal the single process's (the i40_<app>
#                    log's, so run that phase first); the 1-GPU baseline is the single process's row
#   i37_gram_exact   issue #37 item 3: multi_hist --app gram --exact (3xTF32, 64 buckets, d = 128) at N = 4e6
#                    (I37_N) on 1 and 2 GPUs, 1 chunk, REPS (default 2 here) interleaved rounds, checked once at
#                    N = 4096 against the float64 CPU histogram -> OUT/<gpu>/gram_multigpu_exact.csv   ~190 s on 2 H200s
#     i40_wide       the wide-path check (three-body rho = 1, N = 2400) with the gap-free multi-row grid
#     meta           nvidia-smi -L / --query-gpu / topo -m, the NCCL library -> OUT/logs/meta.txt
#   Predicted totals (5 reps, the committed 1-GPU rates): 17.5 one-GPU run times an app (2 x (1 + 1/2 + 1/4)
#   per round x 5 rounds), the MPI phase 1.25; see experiments/multigpu/README.md "Issue #40".
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
i40_counts=${I40_COUNTS:-$counts}; [ -z "${I40_COUNTS:-}" ] && [ "$ngpu" -ge 4 ] && i40_counts="1,2,4"
I40_SDH_N=${I40_SDH_N:-10000000} I40_TB_N=${I40_TB_N:-33536} I40_GRAM_N=${I40_GRAM_N:-4000000}
I40_MAXMIN=${I40_MAXMIN:-30}  # the stated models are conservative (three-body: 18 min predicted for ~9)
mp=${MULTI_HIST_MPI:-$(dirname "$prog")/multi_hist_mpi}
mr=${MPIRUN:-mpirun}
i40_args() {  # i40_args APP: the size and the app's options of issue #40
  case $1 in
    sdh) echo "--app sdh --N $I40_SDH_N --warmup-N 65537" ;;
    threebody) echo "--app threebody --rho 8 --N $I40_TB_N --warmup-N 1024" ;;
    gram) echo "--app gram --d 128 --kernel sm90-ws --prec tf32 --N $I40_GRAM_N --warmup-N 4096" ;;
  esac
}
digest() { grep -o 'histogram: sum=[0-9]* fnv=[0-9a-f]*' "$1" 2>/dev/null | tail -n 1 | sed 's/histogram: //'; }
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
    i40_sdh|i40_threebody|i40_gram)
      app=${ph#i40_}
      # shellcheck disable=SC2046
      run "$ph" "$prog" $(i40_args "$app") --gpu-counts "$i40_counts" --chunks 1,8 --reps "$REPS" --min-reps "$REPS" \
          --warmup 1 --max-minutes "$I40_MAXMIN" --out "$out" || status=1 ;;
    i40_mpi_sdh|i40_mpi_threebody|i40_mpi_gram)
      app=${ph#i40_mpi_}
      # shellcheck disable=SC2046
      ( export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
        run "$ph" "$mr" -np "$ngpu" -x NCCL_NVLS_ENABLE "$mp" $(i40_args "$app") --chunks 1 --reps "$REPS" \
            --min-reps "$REPS" --warmup 1 --max-minutes "$I40_MAXMIN" --out "$out/mpi" ) || status=1
      a=$(digest "$out/logs/i40_$app.log") b=$(digest "$out/logs/$ph.log")
      if [ -n "$a" ] && [ "$a" = "$b" ]; then
        echo "   ok: $ngpu MPI ranks' histogram = the single process's ($b)" | tee -a "$out/logs/summary.txt"
      else
        echo "   FAIL: MPI '$b' vs single process '$a'" | tee -a "$out/logs/summary.txt"; status=1
      fi ;;
    i37_gram_exact)
      run i37_gram_exact "$prog" --app gram --exact --prec 3xtf32 --buckets 64 --d 128 --N "${I37_N:-4000000}" \
          --warmup-N 4096 --gpu-counts "$counts" --chunks 1 --reps "${I37_REPS:-2}" --min-reps 1 --out "$out" || status=1 ;;
    i40_wide)
      run i40_wide "$prog" --app threebody --rho 1 --N 2400 --verify-max 2400 --gpu-counts "$i40_counts" \
          --chunks 1,2 --reps 3 --csv threebody_multigpu_wide.csv --out "$out/verify" || status=1 ;;
    meta)
      { nvidia-smi -L; nvidia-smi --query-gpu=index,name,uuid,pci.bus_id,driver_version,clocks.max.sm,memory.total --format=csv
        nvidia-smi topo -m; echo "NCCL: $(strings "$prog" 2>/dev/null | grep -m1 -o 'NCCL version [0-9.]*')"
        ldd "$prog" | grep -i nccl; nvcc --version | tail -n 2; "$mr" --version | head -n 1; } >"$out/logs/meta.txt" 2>&1
      cat "$out/logs/meta.txt" ;;
    *) echo "unknown phase $ph"; exit 2 ;;
  esac
done
echo "run_multigpu: status $status" | tee -a "$out/logs/summary.txt"
exit $status
