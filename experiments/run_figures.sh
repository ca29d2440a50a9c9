#!/usr/bin/env bash
# make figures: with a GPU, rerun the quick experiment profile (FULL=1 for the full
# sweeps) into experiments/results/<gpu>/; then redraw every figure from the
# committed CSVs.
set -euo pipefail
build="${1:-build}"
cd "$(dirname "$0")/.."
quick="--quick"; [ "${FULL:-0}" = 1 ] && quick=""
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1 && [ -x "$build/experiments/maps2d/bench_maps" ]; then
  echo "figures: GPU found ($(nvidia-smi -L | head -1)); running the ${quick:+quick }experiment profile" >&2
  for t in dummy sqrt; do "$build/experiments/maps2d/bench_maps" --test $t $quick; done
  for t in edm collision; do "$build/experiments/apps2d/bench_apps" --test $t $quick; done
else
  echo "figures: no GPU here (or GPU programs not built): drawing from the committed results" >&2
fi
if [ -x "$build/figures/tdmaps_figures" ]; then
  "$build/figures/tdmaps_figures" --results experiments/results --out figures/out
else
  echo "figures: the figure program is not built (needs gnuplot-iostream)" >&2
  exit 1
fi
