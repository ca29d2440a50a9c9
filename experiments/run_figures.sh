#!/usr/bin/env bash
# make figures — what it writes (README "What each command writes"):
#   with a GPU: reruns every experiment (the quick profile; FULL=1 for the full sweeps) into
#     experiments/results/local/<gpu>/ (RESULTS=DIR for another folder), never over the
#     committed results, and draws that run into figures/local/ (figures and report.md).
#     The committed results, figures/out/, README and paper/report.md are left as they are.
#     Making a run the committed one is a step of its own:
#       experiments/promote_results.sh experiments/results/local/<gpu>
#   without a GPU (or without the GPU programs): redraws figures/out/, README's generated blocks
#     and paper/report.md from the committed results (unchanged unless the CSVs or the figure
#     code changed: test drift).
set -euo pipefail
build="${1:-build}"
cd "$(dirname "$0")/.."
E="$build/experiments"
quick="--quick"; label=quick; [ "${FULL:-0}" = 1 ] && { quick=""; label=full; }
committed=experiments/results
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1 && [ -x "$E/maps2d/bench_maps" ]; then
  out="${RESULTS:-$committed/local}"
  if [ "$(realpath -m "$out")" = "$(realpath -m "$committed")" ]; then
    echo "figures: RESULTS=$out is the committed results folder; a run goes to a folder of its own, and" \
         "experiments/promote_results.sh makes it the committed one" >&2
    exit 2
  fi
  mkdir -p "$out"
  # the CPU-side tables a drawing needs beside the GPU folder: the committed ones
  [ -e "$out/cpu" ] || ln -s "$(realpath "$committed/cpu")" "$out/cpu"
  echo "figures: GPU found ($(nvidia-smi -L | head -1)); running the $label experiment profile into $out/" >&2
  step() { echo "figures: $*" >&2; "$@"; }
  step "$E/maps2d/gpu_exact_range" --out "$out"
  step "$E/maps2d/bench_maps" --test dummy $quick --out "$out"
  step "$E/maps2d/bench_maps" --test sqrt $quick --out "$out"
  step "$E/apps2d/bench_apps" --test edm $quick --out "$out"
  step "$E/apps2d/bench_apps" --test collision $quick --out "$out"
  step "$E/maps3d/gpu_verify_3d" ${quick:+--quick} --out "$out"
  for t in dummy threebody layout; do step "$E/maps3d/bench_maps3d" --test $t $quick --budget-s 90 --out "$out"; done
  if [ -n "$quick" ]; then step "$E/sdh/bench_sdh" --quick --out "$out"
  else step "$E/sdh/bench_sdh" --N 10000,100000,1000000 --cpu-max-s 25 --gpu-max-s 8 --out "$out"; fi
  if [ -x "$E/multigpu/multi_hist" ]; then  # past one GPU: every visible GPU, 1 and 8 chunks (experiments/multigpu)
    if [ -n "$quick" ]; then step env NCCL_NVLS_ENABLE=0 "$E/multigpu/multi_hist" --app sdh --N 1000000 --chunks 1,8 --reps 3 --out "$out"
    else
      step env NCCL_NVLS_ENABLE=0 "$E/multigpu/multi_hist" --app sdh --N 1000000,10000000 --chunks 1,8 --reps 3 --out "$out"
      step env NCCL_NVLS_ENABLE=0 "$E/multigpu/multi_hist" --app threebody --N 16384 --chunks 1,8 --reps 3 --out "$out"
    fi
  fi
  if command -v python3 >/dev/null && python3 -c 'import torch' 2>/dev/null; then
    step python3 experiments/peers/torch_peers.py $quick --out "$out"
  fi
else
  out=""
  echo "figures: no GPU here (or GPU programs not built): drawing from the committed results" >&2
fi
if [ ! -x "$build/figures/tdmaps_figures" ]; then
  echo "figures: the figure program is not built (needs gnuplot-iostream: run .ci/deps.sh as root)" >&2
  exit 1
fi
if [ -n "$out" ]; then
  mkdir -p figures/local
  "$build/figures/tdmaps_figures" --results "$out" --out figures/local --report figures/local/report.md
  echo "figures: this run's CSVs are in $out/, its figures and report in figures/local/; the committed" \
       "results, figures/out/, README and paper/report.md are unchanged. To make this run the committed" \
       "one: experiments/promote_results.sh $out/<gpu>" >&2
else
  "$build/figures/tdmaps_figures" --results "$committed" --out figures/out --readme-gallery README.md
  echo "figures: redrawn from $committed/: figures/out/, README's generated blocks, paper/report.md" >&2
fi
