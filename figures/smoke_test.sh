#!/usr/bin/env bash
# figures/smoke_test.sh SYNTH FIGURES WORKDIR SOURCE_ROOT
# The figure program on synthetic results (two fake GPUs; they hold every CSV of
# experiments/experiments.list) and on no results at all;
# everything goes under WORKDIR (in the build folder), never into the repository.
set -euo pipefail
synth="$1"; figs="$2"; work="$3"; src="$4"
rm -rf "$work"
mkdir -p "$work"
"$synth" "$work/results" 2 >/dev/null
# the synthetic results hold every CSV a step of experiments/experiments.list writes (its csv column;
# the second fake GPU, h200, has them all)
for f in $(awk -F'|' '!/^[[:space:]]*#/ && NF == 10 { gsub(/[[:space:]]/, "", $7); if ($7 != "-") print $7 }' \
             "$src/experiments/experiments.list" | tr ',' ' '); do
  test -s "$work/results/h200/$f" || { echo "synthetic results lack h200/$f (a csv of experiments/experiments.list)"; exit 1; }
done
cp "$src/README.md" "$work/README.md"  # README's generated blocks, written from the synthetic results
"$figs" --results "$work/results" --out "$work/out" --report "$work/report.md" \
        --reported "$src/paper/reported.csv" --cpu-exact "$src/verify/results/exact_ranges_cpu.csv" \
        --bib "$src/paper/references.bib" --readme "$work/README.md" 2>"$work/log.txt"
# Every figure of the figure registry (figures/figures.hpp; its entries' name and scope as
# `tdmaps_figures --list` prints them) is drawn: the CPU-only ones (PNG and SVG) and the comparisons at
# the top level, the per-GPU ones in both GPU folders (multigpu_scaling only where its CSVs are: h200, below).
registry=$("$figs" --list | awk '{ print $1, $2 }')
[ "$(printf '%s\n' "$registry" | grep -c ' cpu_only$')" -ge 3 ] &&
  [ "$(printf '%s\n' "$registry" | grep -c ' per_gpu$')" -ge 12 ] ||
  { echo "tdmaps_figures --list: the registry's entries not found"; exit 1; }
while read -r f scope; do
  case $scope in
    cpu_only) test -s "$work/out/$f.png" && test -s "$work/out/$f.svg" ||
                { echo "missing $f.png or .svg (CPU-only)"; cat "$work/log.txt"; exit 1; } ;;
    comparison) test -s "$work/out/$f.png" || { echo "missing $f.png (comparison)"; cat "$work/log.txt"; exit 1; } ;;
    per_gpu) for g in h100 h200; do
               [ "$f/$g" = multigpu_scaling/h100 ] && continue
               test -s "$work/out/$g/$f.png" || { echo "missing $g/$f.png"; cat "$work/log.txt"; exit 1; }
             done ;;
    *) echo "figures/figures.hpp: unknown scope $scope of $f; update figures/smoke_test.sh"; exit 1 ;;
  esac
done <<< "$registry"
# the multi-GPU figure: drawn where its CSVs are (h200), skipped with a notice where not (h100)
test -s "$work/out/h200/multigpu_scaling.png" || { echo "missing h200/multigpu_scaling.png"; cat "$work/log.txt"; exit 1; }
test -s "$work/out/h200/multigpu_scaling.svg" || { echo "missing h200/multigpu_scaling.svg"; exit 1; }
if [ -e "$work/out/h100/multigpu_scaling.png" ]; then echo "multigpu_scaling drawn without its CSVs"; exit 1; fi
grep -q "multigpu_scaling \[h100\]: skipped" "$work/log.txt" || { echo "no notice for the skipped multigpu_scaling"; exit 1; }
# README's python block: h200's speed-ups from its peers_python.csv, h100 (no such file) said to be not measured
python_block=$(sed -n '/<!-- python:begin -->/,/<!-- python:end -->/p' "$work/README.md")
for want in 'pip install .' 'tdmaps.pdist(x, out="square")' \
            '| NVIDIA H200 (synthetic) | 2' '**met** | 95.0 s |' \
            'no `peers_python.csv` in `experiments/results/h100/`: not measured'; do
  grep -qF -- "$want" <<< "$python_block" || { echo "README's python block lacks: $want"; echo "$python_block"; exit 1; }
done
grep -q "## 5. Claims" "$work/report.md" || { echo "report lacks the claims table"; exit 1; }
grep -q "## 6. Dummy kernel on Hopper vs Kepler" "$work/report.md" || { echo "report lacks the Hopper vs Kepler section"; exit 1; }
# The captions (figures/captions.template.md; figures/captions.hpp) fail loudly: checked against the registry before
# anything is drawn (exit 2, naming what is wrong), a figure whose section is gone, a section or partial that serves
# nothing; and a slot the draw function does not fill stops the program when it draws that figure (exit 2).
caps="$src/figures/captions.template.md"
"$figs" --check-captions --captions "$caps" > "$work/captions.txt" 2>&1 || { cat "$work/captions.txt"; echo "captions check failed"; exit 1; }
captions_fail() {  # captions_fail WHAT FILE WANT: tdmaps_figures on captions FILE exits 2 saying WANT
  local rc=0
  "$figs" --captions "$2" --results "$work/none" --out "$work/out_captions" --no-report --no-svg \
          --reported "$src/paper/reported.csv" --cpu-exact "$src/verify/results/exact_ranges_cpu.csv" \
          > "$work/captions_bad.txt" 2>&1 || rc=$?
  [ "$rc" = 2 ] && grep -qF -- "$3" "$work/captions_bad.txt" ||
    { echo "captions, $1: exit $rc, not 2 with '$3':"; cat "$work/captions_bad.txt"; exit 1; }
}
awk '/^## /{ gone = ($0 == "## `tet_wasted`") } !gone' "$caps" > "$work/caps_gone.md"
captions_fail "a section removed" "$work/caps_gone.md" "figure tet_wasted has no section"
{ cat "$caps"; printf '\n## `no_such_figure`\n\ncaption:\nnothing\n'; } > "$work/caps_orphan.md"
captions_fail "a section of no figure" "$work/caps_orphan.md" "section \`no_such_figure\` (line"
{ cat "$caps"; printf '\n## partial `unused`\n\nnothing\n'; } > "$work/caps_partial.md"
captions_fail "a partial included nowhere" "$work/caps_partial.md" "partial unused is included by no template"
sed 's/^At N = {{n_max}} BB wastes/At N = {{no_such_slot}} BB wastes/' "$caps" > "$work/caps_slot.md"
cmp -s "$caps" "$work/caps_slot.md" && { echo "captions: fig3_wasted's reading changed; update figures/smoke_test.sh"; exit 1; }
captions_fail "a slot not filled" "$work/caps_slot.md" "fig3_wasted's reading: slot {{no_such_slot}} is not defined"
# README's blocks' prose (src/support/results/readme.template.md; readme_template.hpp) fails loudly the same way:
# checked before anything is drawn (a section the blocks fill missing, one nothing fills: exit 2), and a slot the
# blocks do not fill stops the program before README is written (exit 2, README untouched).
rtpl="$src/src/support/results/readme.template.md"
"$figs" --check-readme-template --readme-template "$rtpl" --reported "$src/paper/reported.csv" > "$work/rtpl.txt" 2>&1 ||
  { cat "$work/rtpl.txt"; echo "README template check failed"; exit 1; }
readme_fail() {  # readme_fail WHAT FILE WANT: tdmaps_figures --readme with README template FILE exits 2 saying WANT
  local rc=0
  cp "$src/README.md" "$work/README_bad.md"
  "$figs" --readme-template "$2" --results "$work/none" --out "$work/out_readme" --no-report --no-svg \
          --readme "$work/README_bad.md" --reported "$src/paper/reported.csv" \
          --cpu-exact "$src/verify/results/exact_ranges_cpu.csv" > "$work/readme_bad.txt" 2>&1 || rc=$?
  [ "$rc" = 2 ] && grep -qF -- "$3" "$work/readme_bad.txt" ||
    { echo "README template, $1: exit $rc, not 2 with '$3':"; cat "$work/readme_bad.txt"; exit 1; }
  cmp -s "$src/README.md" "$work/README_bad.md" || { echo "README template, $1: README written anyway"; exit 1; }
}
awk '/^## /{ gone = ($0 == "## `python`") } !gone' "$rtpl" > "$work/rtpl_gone.md"
readme_fail "a section removed" "$work/rtpl_gone.md" "no section \`python\`"
{ cat "$rtpl"; printf '\n## `no_such_block`\n\nnothing\n'; } > "$work/rtpl_orphan.md"
readme_fail "a section nothing fills" "$work/rtpl_orphan.md" "section \`no_such_block\` is filled by no block"
sed 's/; {{> python_how}} writes it/; {{no_such_slot}} writes it/' "$rtpl" > "$work/rtpl_slot.md"
cmp -s "$rtpl" "$work/rtpl_slot.md" && { echo "README template: the python section changed; update figures/smoke_test.sh"; exit 1; }
readme_fail "a slot not filled" "$work/rtpl_slot.md" "section \`python\`: slot {{no_such_slot}} is not defined"
# one GPU: no comparison figure (an old one is removed); the multi-GPU figure from one of its two CSVs
rm "$work/results/h200/threebody_multigpu.csv"
"$figs" --results "$work/results" --out "$work/out" --gpu h200 --no-report --no-svg \
        --reported "$src/paper/reported.csv" --cpu-exact "$src/verify/results/exact_ranges_cpu.csv" 2>"$work/log_one.txt"
if ls "$work/out"/gpus_*.png >/dev/null 2>&1; then echo "comparison figure left with one GPU"; exit 1; fi
grep -q "drew .*/h200/multigpu_scaling.png" "$work/log_one.txt" || { echo "multigpu_scaling not drawn from sdh_multigpu.csv alone"; cat "$work/log_one.txt"; exit 1; }
# a multi-GPU CSV without its app column (layouts.hpp multigpu_app): not drawn, one line naming the file and the
# column; the app is never guessed from the file's name
awk '/^#/ { print; next } { sub(/^[^,]*,/, ""); print }' "$work/results/h200/sdh_multigpu.csv" > "$work/noapp.csv"
head -n 2 "$work/noapp.csv" | grep -q '^N,kernel,gpus,' || { echo "synthetic sdh_multigpu.csv: app is not its first column; update figures/smoke_test.sh"; exit 1; }
mv "$work/noapp.csv" "$work/results/h200/sdh_multigpu.csv"
"$figs" --results "$work/results" --out "$work/out_noapp" --gpu h200 --no-report --no-svg \
        --reported "$src/paper/reported.csv" --cpu-exact "$src/verify/results/exact_ranges_cpu.csv" 2>"$work/log_noapp.txt"
grep -q "multigpu_scaling \[h200\]: .*/h200/sdh_multigpu.csv lacks column(s) app (not drawn)$" "$work/log_noapp.txt" ||
  { echo "no notice naming sdh_multigpu.csv's missing app column"; cat "$work/log_noapp.txt"; exit 1; }
if [ -e "$work/out_noapp/h200/multigpu_scaling.png" ]; then echo "multigpu_scaling drawn from a CSV without its app column"; exit 1; fi
# no results at all: the CPU-only figures, exit 0
"$figs" --results "$work/none" --out "$work/out_none" --report "$work/report_none.md" \
        --reported "$src/paper/reported.csv" --cpu-exact "$src/verify/results/exact_ranges_cpu.csv" 2>"$work/log_none.txt"
test -s "$work/out_none/fig3_wasted.png" || { echo "CPU-only figure missing without results"; exit 1; }
grep -q "not measured" "$work/report_none.md" || { echo "report without results lacks 'not measured'"; exit 1; }
# no results: README's python block says nothing was measured, with no number
cp "$src/README.md" "$work/README_none.md"
"$figs" --results "$work/none" --out "$work/out_none" --no-report --no-svg --readme "$work/README_none.md" \
        --reported "$src/paper/reported.csv" --cpu-exact "$src/verify/results/exact_ranges_cpu.csv" 2>>"$work/log_none.txt"
python_none=$(sed -n '/<!-- python:begin -->/,/<!-- python:end -->/p' "$work/README_none.md")
grep -qF "Speed-ups: not measured yet" <<< "$python_none" || { echo "README's python block without results:"; echo "$python_none"; exit 1; }
echo "figures smoke test: ok"
