#!/usr/bin/env bash
# paper/drift_test.sh — meson test `drift` (suite figures): regenerates, offline and from the
# committed CSVs only (with the committed templates: paper/report.template.md, the figures'
# captions, figures/captions.template.md, and the prose of README's blocks,
# src/support/results/readme.template.md), the report (paper/report.md), README.md's generated blocks (results,
# targets, gallery) and every SVG figure in a scratch tree, and fails if any differs from the
# committed file (byte for byte) or if a committed SVG is no longer drawn. The report holds every
# claim's verdict, so a verdict recomputed differently fails too. It also checks that every
# committed CSV's header is the layout src/support/results/layouts.hpp declares for it.
#   drift_test.sh TDMAPS_FIGURES CHECK_LAYOUTS SOURCE_ROOT SCRATCH
set -euo pipefail
fig="$1"; check="$2"; src="$(cd "$3" && pwd)"; w="$4"
rm -rf "$w"; mkdir -p "$w/experiments" "$w/verify" "$w/paper" "$w/figures"
# the results as git knows them (tracked files, as they are in the working tree): a CSV another change
# has written but not added yet is not part of what the committed README and report describe
if git -C "$src" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  # the tracked files present, copied by one cp (not three processes a file: some 350 files)
  wabs=$(cd "$w" && pwd)
  (cd "$src" && git ls-files -z -- experiments/results verify/results |
    while IFS= read -r -d '' f; do [ -f "$f" ] && printf '%s\0' "$f"; done | xargs -0 -r cp --parents -t "$wabs")
  mkdir -p "$w/experiments/results" "$w/verify/results"
else
  cp -r "$src/experiments/results" "$w/experiments/results"
  cp -r "$src/verify/results" "$w/verify/results"
fi
cp "$src/paper/reported.csv" "$src/paper/conditions.csv" "$src/paper/references.bib" "$src/paper/report.template.md" \
  "$src/paper/notes.template.md" "$src/paper/targets.csv" "$w/paper/"  # notes.template.md: the claims' reasons
cp "$src/figures/captions.template.md" "$w/figures/"  # the figures' captions and readings (found from paper/)
mkdir -p "$w/src/support/results"  # README's blocks' prose (found from paper/ too)
cp "$src/src/support/results/readme.template.md" "$w/src/support/results/"
cp "$src/README.md" "$w/README.md"
fail=0
# 1. the CSV layouts
shopt -s nullglob
csvs=("$w"/experiments/results/*/*.csv "$w"/verify/results/*.csv)
"$check" "${csvs[@]}" || fail=1
# 2. regenerate (the committed tree is never written)
( cd "$w" && "$fig" --results experiments/results --out figures/out --readme README.md > figures.log 2>&1 ) || {
  echo "drift: tdmaps_figures failed:"; cat "$w/figures.log"; exit 1; }
# 3. compare
if ! cmp -s "$w/paper/report.md" "$src/paper/report.md"; then
  echo "drift: paper/report.md differs from the regenerated one (make figures rewrites it):"
  diff "$src/paper/report.md" "$w/paper/report.md" | head -40; fail=1
fi
if ! cmp -s "$w/README.md" "$src/README.md"; then
  echo "drift: README.md's generated blocks differ from the regenerated ones (make figures rewrites them):"
  diff "$src/README.md" "$w/README.md" | head -40; fail=1
fi
n=0
while IFS= read -r f; do
  n=$((n + 1))
  if [ ! -f "$src/figures/out/$f" ]; then echo "drift: figures/out/$f is drawn but not committed"; fail=1
  elif ! cmp -s "$w/figures/out/$f" "$src/figures/out/$f"; then echo "drift: figures/out/$f differs"; fail=1; fi
done < <(cd "$w/figures/out" && find . -name '*.svg' | sed 's|^\./||' | sort)
while IFS= read -r f; do
  [ -f "$w/figures/out/$f" ] || { echo "drift: figures/out/$f is committed but no longer drawn"; fail=1; }
done < <(cd "$src/figures/out" && find . -name '*.svg' | sed 's|^\./||' | sort)
echo "drift: $n SVG figures, the report and README's blocks compared"
[ "$fail" = 0 ] && echo "drift: no drift" || echo "drift: FAILED"
exit "$fail"
