#!/usr/bin/env bash
# make figures — what it writes (README "What each command writes"):
#   with a GPU: runs the device profile (experiments/run_gpu_profile.sh: every step of
#     experiments/experiments.list, the checks first; the probe profile, FULL=1 for the full sweeps)
#     into experiments/results/local/<gpu>/ (RESULTS=DIR for another folder), never over the
#     committed results, and draws that run into figures/local/ (figures and report.md).
#     The committed results, figures/out/, README and paper/report.md are left as they are.
#     Making a run the committed one is a step of its own:
#       experiments/promote_results.sh experiments/results/local/<gpu>
#   without a GPU (or without the GPU programs): redraws figures/out/, README's generated blocks
#     and paper/report.md from the committed results (unchanged unless the CSVs or the figure
#     code changed: test drift).
#   --dry-run (run_figures.sh --dry-run BUILD): prints what the GPU branch would run (the profile's
#     dry run) and runs nothing; the test experiments_list holds it to the list.
set -euo pipefail
dry=0; [ "${1:-}" = --dry-run ] && { dry=1; shift; }
build="${1:-build}"
cd "$(dirname "$0")/.."
E="$build/experiments"
profile=probe; label=quick; [ "${FULL:-0}" = 1 ] && { profile=full; label=full; }
committed=experiments/results
if [ $dry = 1 ]; then
  exec bash experiments/run_gpu_profile.sh --dry-run "$build" "${RESULTS:-$committed/local}" $profile
fi
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1 && [ -d "$E/maps2d" ]; then
  out="${RESULTS:-$committed/local}"
  if [ "$(realpath -m "$out")" = "$(realpath -m "$committed")" ]; then
    echo "figures: RESULTS=$out is the committed results folder; a run goes to a folder of its own, and" \
         "experiments/promote_results.sh makes it the committed one" >&2
    exit 2
  fi
  mkdir -p "$out"
  echo "figures: GPU found ($(nvidia-smi -L | head -1)); running the $label experiment profile into $out/" >&2
  bash experiments/run_gpu_profile.sh "$build" "$out" $profile
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
