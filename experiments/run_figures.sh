#!/usr/bin/env bash
# make figures: with a GPU, rerun every experiment (quick profile; FULL=1 for the full
# sweeps) into experiments/results/<gpu>/; then redraw every figure and regenerate
# paper/report.md from the CSVs. Without a GPU: redraw from the committed results.
set -euo pipefail
build="${1:-build}"
cd "$(dirname "$0")/.."
E="$build/experiments"
quick="--quick"; label=quick; [ "${FULL:-0}" = 1 ] && { quick=""; label=full; }
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1 && [ -x "$E/maps2d/bench_maps" ]; then
  echo "figures: GPU found ($(nvidia-smi -L | head -1)); running the $label experiment profile" >&2
  step() { echo "figures: $*" >&2; "$@"; }
  step "$E/maps2d/gpu_exact_range"
  step "$E/maps2d/bench_maps" --test dummy $quick
  step "$E/maps2d/bench_maps" --test sqrt $quick
  step "$E/apps2d/bench_apps" --test edm $quick
  step "$E/apps2d/bench_apps" --test collision $quick
  step "$E/maps3d/gpu_verify_3d" ${quick:+--quick}
  for t in dummy threebody layout; do step "$E/maps3d/bench_maps3d" --test $t $quick --budget-s 90; done
  if [ -n "$quick" ]; then step "$E/sdh/bench_sdh" --quick
  else step "$E/sdh/bench_sdh" --N 10000,100000,1000000 --cpu-max-s 25 --gpu-max-s 8; fi
  if [ -x "$E/multigpu/multi_hist" ]; then  # past one GPU: every visible GPU, 1 and 8 chunks (experiments/multigpu)
    if [ -n "$quick" ]; then step env NCCL_NVLS_ENABLE=0 "$E/multigpu/multi_hist" --app sdh --N 1000000 --chunks 1,8 --reps 3
    else
      step env NCCL_NVLS_ENABLE=0 "$E/multigpu/multi_hist" --app sdh --N 1000000,10000000 --chunks 1,8 --reps 3
      step env NCCL_NVLS_ENABLE=0 "$E/multigpu/multi_hist" --app threebody --N 16384 --chunks 1,8 --reps 3
    fi
  fi
  if command -v python3 >/dev/null && python3 -c 'import torch' 2>/dev/null; then
    step python3 experiments/peers/torch_peers.py $quick
  fi
else
  echo "figures: no GPU here (or GPU programs not built): drawing from the committed results" >&2
fi
if [ -x "$build/figures/tdmaps_figures" ]; then
  "$build/figures/tdmaps_figures" --results experiments/results --out figures/out --readme-gallery README.md
else
  echo "figures: the figure program is not built (needs gnuplot-iostream: run .ci/deps.sh as root)" >&2
  exit 1
fi
