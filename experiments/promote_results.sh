#!/usr/bin/env bash
# experiments/promote_results.sh RUN_DIR [BUILD] — make a run the committed results of its GPU.
#   RUN_DIR  a GPU folder a run wrote, e.g. experiments/results/local/h200 (make figures with a
#            GPU writes there); its name is the GPU's folder name
#   BUILD    the build folder with figures/tdmaps_figures (default build)
# Copies RUN_DIR's CSVs (and logs/, if any) over experiments/results/<gpu>/, then redraws
# figures/out/, README's generated blocks and paper/report.md from the committed tree, as
# `make figures` does without a GPU. Nothing is committed: review `git diff`, run the test
# drift, and commit the CSVs, figures/out, README.md and paper/report.md in one commit.
set -euo pipefail
src=${1:?usage: promote_results.sh RUN_DIR [BUILD]   (e.g. experiments/results/local/h200)}
build=${2:-build}
cd "$(dirname "$0")/.."
[ -d "$src" ] || { echo "promote_results: $src is not a folder" >&2; exit 2; }
ls "$src"/*.csv >/dev/null 2>&1 || { echo "promote_results: $src holds no CSV (name a GPU folder of a run, e.g. experiments/results/local/h200)" >&2; exit 2; }
slug=$(basename "$(realpath "$src")")
dest=experiments/results/$slug
if [ "$(realpath -m "$src")" = "$(realpath -m "$dest")" ]; then
  echo "promote_results: $src is already the committed folder" >&2; exit 2
fi
[ -x "$build/figures/tdmaps_figures" ] || { echo "promote_results: $build/figures/tdmaps_figures is not built (make build)" >&2; exit 2; }
mkdir -p "$dest"
cp -v "$src"/*.csv "$dest"/ >&2
[ -d "$src/logs" ] && cp -r "$src/logs" "$dest"/
"$build/figures/tdmaps_figures" --results experiments/results --out figures/out --readme-gallery README.md
echo "promote_results: $src is now $dest; review 'git diff --stat', run the test drift, then commit" \
     "$dest, figures/out, README.md and paper/report.md in one commit" >&2
