#!/usr/bin/env bash
# experiments/run_gpu_profile.sh [--dry-run] BUILD RESULTS [probe|full] — everything a results
# folder holds, on the GPU of this machine, in one command: every step of experiments/experiments.list
# (the one list of experiments), in its order: the SASS checks, the GPU verification (every kernel
# against the CPU, both index paths; the multi-GPU splits), then the exact ranges measured on the
# device and the sweeps (2D maps, EDM and collision, 3D maps, SDH, multi-GPU, the PyTorch peers).
# Results land in RESULTS/<gpu_slug>/, logs in RESULTS/<gpu_slug>/logs/<step>.log. A failed step
# stops the run (a failed verification before anything is timed).
#   probe  small sweeps: each step's args + quick (mostly the --quick profile of each program)
#   full   the full sweeps behind the committed CSVs: args + full (not timed end to end: three
#          90-s budgets of bench_maps3d and the SDH sweep to N = 1e6 alone take several minutes)
#   --dry-run  prints each step's command line ("NAME: COMMAND", one a line) and runs nothing; the
#          GPU's folder name is TDMAPS_GPU_SLUG (default "gpu"). The test experiments_list holds it
#          to the list.
# Steps whose needs are not met here are skipped with a line (nccl: multi_hist not built; torch:
# python3 without torch).
# RESULTS is a folder of its own, e.g. experiments/results/local: the committed folder
# (experiments/results) is refused, so a rerun never overwrites the committed results;
# experiments/promote_results.sh RESULTS/<gpu_slug> makes a run the committed one.
# `make figures` (run_figures.sh) runs this profile (probe unless FULL=1) into
# experiments/results/local and then draws it into figures/local.
set -euo pipefail
dry=0; [ "${1:-}" = --dry-run ] && { dry=1; shift; }
build=${1:?usage: run_gpu_profile.sh [--dry-run] BUILD RESULTS [probe|full]}
res=${2:?usage: run_gpu_profile.sh [--dry-run] BUILD RESULTS [probe|full]}
profile=${3:-full}
case "$profile" in probe|full) ;; *) echo "run_gpu_profile: profile must be probe or full (got '$profile')" >&2; exit 2 ;; esac
here=$(cd "$(dirname "$0")" && pwd)
if [ "$(realpath -m "$res")" = "$(realpath -m "$here/results")" ]; then
  echo "run_gpu_profile: $res is the committed results folder; run into a folder of its own (e.g." \
       "experiments/results/local), then experiments/promote_results.sh makes it the committed one" >&2
  exit 2
fi
# shellcheck source=experiments.sh
. "$here/experiments.sh"
exp_load
if [ $dry = 1 ]; then
  slug=${TDMAPS_GPU_SLUG:-gpu}
else
  # the folder name of this GPU, one per model (the program gpu_slug: the rule's one definition,
  # src/support/gpu/gpu_slug.hpp): "NVIDIA H100 80GB HBM3" -> h100, "NVIDIA H100 PCIe" -> h100-pcie
  slug=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | "$build/experiments/gpu_slug")
fi
export TDMAPS_GPU_SLUG_PROGRAM="$build/experiments/gpu_slug"  # the Python programs' (experiments/gpu_slug.py)
EXP_E="$build/experiments" EXP_OUT="$res" EXP_LOGS="$res/$slug/logs"
logs=$EXP_LOGS
export NCCL_NVLS_ENABLE=0  # NVLink multicast off (the multi-GPU steps; NCCL)
if [ $dry = 0 ]; then
  mkdir -p "$logs"
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.sm,temperature.gpu,power.draw --format=csv > "$logs/nvidia_smi.txt" 2>&1 || true
  [ -e "$res/cpu" ] || ln -s "$here/results/cpu" "$res/cpu"  # the CPU tables a drawing of RESULTS needs
fi
for name in "${EXP_NAMES[@]}"; do
  if [ "$profile" = probe ]; then exp_command "$name" "${EXP_QUICK[$name]}"; else exp_command "$name" "${EXP_FULL[$name]}"; fi
  if [ $dry = 1 ]; then echo "$name: ${CMD[*]}"; continue; fi
  if ! exp_runnable "$name"; then echo "== $name: skipped (needs ${EXP_NEEDS[$name]}, not here)" >&2; continue; fi
  echo "== ${CMD[*]}" >&2
  t0=$SECONDS
  "${CMD[@]}" > "$logs/$name.log" 2>&1 || { rc=$?; echo "FAILED ($rc): ${CMD[*]}  (log: $logs/$name.log)" >&2; tail -n 20 "$logs/$name.log" >&2; exit 1; }
  echo "   ok in $((SECONDS - t0)) s: $(tail -n 1 "$logs/$name.log")" >&2
done
[ $dry = 1 ] || echo "results in $res/$slug (draw them: build/figures/tdmaps_figures --results $res --out figures/local" \
     "--report figures/local/report.md; make them the committed ones: experiments/promote_results.sh $res/<gpu_slug>)" >&2
