#!/usr/bin/env bash
# verify/test_throwaway_family.sh SOURCE_ROOT WORKDIR — the throwaway-rung and throwaway-3D-map tests
# (issue #39, make verify). In a scratch copy of the source tree (WORKDIR/tree; the build folders, .tools,
# .git and the results are left out) it adds, exactly as CONTRIBUTING.md's recipes say and nothing else:
#   an SDH rung  one line in src/support/registry/sdh_rungs.hpp: its entry in the table sdh_rung_table
#                (tmp-rung: the fast family at 64 threads x 2 points, lane histograms, in the --quick
#                default), from which the rung types and their list sdh_rungs are derived;
#   a 3D map     one header, src/lib/tdmaps/map_tmp3.hpp (TET over TET-E's root under the name tmp-tet),
#                its #include and one line in maps3d (src/lib/tdmaps/registry.hpp), and its entry in the
#                experiments table (src/support/registry/experiments.hpp, its map_traits joining
#                experiment::dummy: bench_maps3d's default);
# checks that the copy differs from the source in exactly those four files (sdh_rungs.hpp by that one added line);
# then builds the CPU parts that read these registries (no CUDA, -O0, a unity build: tdmap, sdh_rungs,
# maps3d_lists, test_maps3d where Boost.Test is found, synth_results where the figures are) and checks that
#   the rung reaches impl_list (a row of sdh_rungs with its family, threads and rule), bench_sdh's
#     --impl all, its --quick default and its --impl help line, gpu_verify_sdh's list and multi_hist's
#     --impl choices and help line, its default unchanged (the lists bench_sdh.cu, gpu_verify_sdh.cu and
#     multi_hist_plan.cuh take from sdh_rungs.hpp: impl_list, quick_impls_csv, impl_help, multi_hist_impls,
#     multi_hist_impl_help, multi_hist_default_rung; sdh_rungs prints what those functions return);
#   the 3D map reaches `tdmap list` (a 3D row) and `tdmap range/info`, bench_maps3d's --maps choices,
#     default and help line, gpu_verify_3d's maps (every size) and its exact-range sweeps: their roots
#     and its four sweeps (layer and row, 64- and 32-bit paths, each that must be exact; gpu_verify_3d
#     runs maps3d_host.hpp's tet_exact_jobs, and maps3d_gpu.cu's dispatch by name walks maps3d), and the 3D
#     oracle's block-level sweep (test_maps3d's blocks_every_n_up_to_96 walks every map of maps3d: its case for
#     tmp-tet alone, which prints "tmp-tet: block-level coverage proven for n = 1..96");
#   both reach the synthetic results (synth_results, where the figures are built): the rung a row of sdh.csv, the
#     3D map rows of tet_dummy.csv, tet_threebody.csv and tet_layout.csv.
# Not proven without CUDA: that the rung's kernels compile and are right, and the 3D map's (make
# verify-gpu on a GPU: gpu_verify_sdh, gpu_verify_3d).
# Where the figures are not built (no gnuplot-iostream: no synth_results), the rest is checked and, none failing,
# the test exits 77 (meson: skipped), since its figure part could not run.
set -euo pipefail
src=$(cd "${1:?usage: test_throwaway_family.sh SOURCE_ROOT WORKDIR}" && pwd)
work=${2:?usage: test_throwaway_family.sh SOURCE_ROOT WORKDIR}
meson=$(cat "$src/.tools/meson" 2>/dev/null || command -v meson)
source "$(dirname "$0")/throwaway_lib.sh"  # throwaway_copy, throwaway_touched
rm -rf "$work"
tree="$work/tree"
throwaway_copy "$src" "$tree"

# ---- the SDH recipe: one line, its entry at the end of the table sdh_rung_table
rungs="$tree/src/support/registry/sdh_rungs.hpp"
sed -i '/^inline constexpr RungEntry sdh_rung_table\[\] = {$/,/^};$/s|^};$|    {"tmp-rung", true, fast_rung(64, 2, hm_lane)},\n&|' "$rungs"
grep -q '^    {"tmp-rung", true, fast_rung(64, 2, hm_lane)},$' "$rungs" ||
  { echo "FAIL: sdh_rungs.hpp's layout changed (no 'inline constexpr RungEntry sdh_rung_table[] = {' ... '};'); update this test"; exit 1; }
# one line: the copy's sdh_rungs.hpp is the source's plus that line, nothing removed or changed
d=$(diff "$src/src/support/registry/sdh_rungs.hpp" "$rungs" | grep -c '^[<>]' || true)
[ "$d" = 1 ] || { echo "FAIL: the rung is not one added line of sdh_rungs.hpp ($d lines differ)"; exit 1; }
echo "ok: the rung is one line of sdh_rungs.hpp"

# ---- the 3D map recipe: one header ...
cat > "$tree/src/lib/tdmaps/map_tmp3.hpp" <<'H'
// a throwaway 3D map of verify/test_throwaway_family.sh: TET-E's root under another name
#pragma once
#include "map_3d.hpp"

namespace tdmaps {

struct TetRootTmp : TetRootE {
  static constexpr const char* name = "tmp-tet";
};
using TMP3 = TET<TetRootTmp>;

}  // namespace tdmaps
H
# ... and its line in the registry (with its #include)
reg="$tree/src/lib/tdmaps/registry.hpp"
sed -i 's|^#include "tet_fast.hpp"$|&\n#include "map_tmp3.hpp"|' "$reg"
sed -i '0,/^    TET_FAST>;$/s//    TET_FAST,\n    TMP3>;/' "$reg"
grep -q '^#include "map_tmp3.hpp"$' "$reg" && grep -q '^    TMP3>;$' "$reg" ||
  { echo "FAIL: the registry's layout changed (no '#include \"tet_fast.hpp\"' or '    TET_FAST>;' line); update this test"; exit 1; }
# ... and its entry in the experiments table
table="$tree/src/support/registry/experiments.hpp"
python3 - "$table" <<'PY2'
import sys
p = sys.argv[1]
s = open(p).read()
mark = "\n// ---- the lists the experiments take"
assert s.count(mark) == 1, "experiments.hpp: the table's end changed; update verify/test_throwaway_family.sh"
entry = """
template <>
struct map_traits<TMP3> {
  static constexpr unsigned joins = experiment::dummy;  // bench_maps3d's --maps default
  static constexpr look style{"#abcdef", 6};
  static constexpr const char* about = "the throwaway 3D map of the test";
};
"""
s = s.replace(mark, entry + mark)
open(p, "w").write(s)
PY2
# ---- exactly the recipes' files changed: the rung's 1 (one line of sdh_rungs.hpp), the 3D map's 3 (its header, the registry,
# the experiments table; CONTRIBUTING.md)
want="src/lib/tdmaps/map_tmp3.hpp
src/lib/tdmaps/registry.hpp
src/support/registry/experiments.hpp
src/support/registry/sdh_rungs.hpp"
throwaway_touched "$src" "$tree" "$work" "$want"

# ---- build the CPU parts that read the registries
"$meson" setup "$work/build" "$tree" -Dcuda=disabled -Doptimization=0 -Dunity=on -Dunity_size=100 > "$work/setup.log" 2>&1 ||
  { tail -n 20 "$work/setup.log"; echo "FAIL: meson setup"; exit 1; }
targets=(src/tdmap experiments/sdh_rungs experiments/maps3d_lists)
oracle3=0  # test_maps3d is built where Boost.Test is found (verify/meson.build)
grep -q '^build verify/test_maps3d:' "$work/build/build.ninja" && oracle3=1 && targets+=(verify/test_maps3d)
synth=0  # synth_results is built where the figures are (gnuplot-iostream; figures/meson.build)
grep -q '^build figures/synth_results:' "$work/build/build.ninja" && synth=1 && targets+=(figures/synth_results)
ninja -C "$work/build" "${targets[@]}" > "$work/build.log" 2>&1 ||
  { tail -n 30 "$work/build.log"; echo "FAIL: build"; exit 1; }

fail=0
check() {  # check WHO WHAT CMD...: CMD must succeed
  local who=$1 what=$2; shift 2
  if "$@"; then echo "ok: $who reaches $what"; else echo "FAIL: $who does not reach $what"; fail=1; fi
}
"$work/build/experiments/sdh_rungs" > "$work/rungs.txt" || { cat "$work/rungs.txt"; echo "FAIL: sdh_rungs"; fail=1; }
r=tmp-rung
check $r "impl_list (its row: fast family, 64 threads, 2 points, pinned rule, quick)" \
  grep -Eq "^tmp-rung +fast +64 +2 +0 +0 +pinned +no +no +yes$" "$work/rungs.txt"
check $r "bench_sdh --impl all" grep -Eq "^bench_sdh --impl all: .*,fast-gram2-dyn,tmp-rung$" "$work/rungs.txt"
check $r "bench_sdh's --quick default" grep -Eq "^bench_sdh --quick: cpu-st,cpu-mt,.*,fast-gram2-dyn,tmp-rung$" "$work/rungs.txt"
check $r "bench_sdh --help" grep -q "^bench_sdh --help: .*fast-gram2-dyn (the Gram rule), tmp-rung; or all (default)$" "$work/rungs.txt"
check $r "gpu_verify_sdh's list" grep -Eq "^gpu_verify_sdh: .*,tmp-rung$" "$work/rungs.txt"
check $r "multi_hist's --impl choices" grep -Eq "^multi_hist --impl: .*,tmp-rung$" "$work/rungs.txt"
check $r "multi_hist --help" grep -q "^multi_hist --help: .*fast-gram2-dyn (Gram rule); tmp-rung (pinned rule); default fast-gram2-dyn " "$work/rungs.txt"
check $r "multi_hist's --impl default (unchanged)" grep -qx "multi_hist --impl default: fast-gram2-dyn" "$work/rungs.txt"
check $r "the programs' lists through sdh_rungs.hpp (bench_sdh, gpu_verify_sdh, multi_hist)" \
  bash -c "grep -q 'impl_help()' '$tree/experiments/sdh/bench_sdh.cu' && grep -q 'quick_impls_csv()' '$tree/experiments/sdh/bench_sdh.cu' &&
           grep -q 'impl_list()' '$tree/experiments/sdh/gpu_verify_sdh.cu' && grep -q 'bracket_impls()' '$tree/experiments/sdh/gpu_verify_sdh.cu' &&
           grep -q 'gs::multi_hist_impls()' '$tree/experiments/multigpu/multi_hist_plan.cuh' &&
           grep -q 'gs::multi_hist_impl_help()' '$tree/experiments/multigpu/multi_hist_plan.cuh' &&
           grep -q 'impl = gs::multi_hist_default_rung' '$tree/experiments/multigpu/multi_hist.cu'"

m=tmp-tet
"$work/build/src/tdmap" list > "$work/list.txt"
check $m "tdmap list" grep -Eq "^tmp-tet +3D +block " "$work/list.txt"
check $m "the CLI tests (verify/test_cli.sh on the copy's tdmap, which read its list)" \
  bash -c "bash '$tree/verify/test_cli.sh' '$work/build/src/tdmap' > '$work/cli.log' 2>&1 && grep -q ', 0 failed\$' '$work/cli.log'"
check $m "tdmap range and info (its plan)" \
  bash -c "'$work/build/src/tdmap' range tmp-tet >/dev/null && '$work/build/src/tdmap' info tmp-tet -N 200 >/dev/null"
"$work/build/experiments/maps3d_lists" > "$work/lists3.txt" || { cat "$work/lists3.txt"; echo "FAIL: maps3d_lists"; fail=1; }
check $m "bench_maps3d's --maps choices" grep -Eq "^bench_maps3d --maps choices: bb3,.*,tmp-tet$" "$work/lists3.txt"
check $m "bench_maps3d's --maps default" grep -q "^bench_maps3d --maps default: tet-e,tet-fast,tmp-tet$" "$work/lists3.txt"
check $m "bench_maps3d --help" grep -q "^bench_maps3d --help: .*tmp-tet.* (default tet-e,tet-fast,tmp-tet)$" "$work/lists3.txt"
check $m "gpu_verify_3d's maps (every size)" grep -Eq "^gpu_verify_3d every size: .*,tmp-tet$" "$work/lists3.txt"
check $m "gpu_verify_3d's exact-range roots" grep -Eq "^gpu_verify_3d exact-range roots: .*,tmp-tet$" "$work/lists3.txt"
# its sweeps: a root without root_facts has a plan that is always exact, so all four (layer and row, 64- and
# 32-bit paths; TET-E's root: no row range of its own) and each must be exact
check $m "gpu_verify_3d's exact-range sweeps (layer and row, both paths, must be exact)" \
  bash -c "[ \$(grep -Ec '^gpu_verify_3d exact-range: tmp-tet (layer|row) path=(64 lambda<17179869184|32 lambda<2147483648) must-be-exact$' '$work/lists3.txt') = 4 ]"
# the 3D oracle's block-level sweep: its data case of tmp-tet, the map's index in maps3d (the sweep walks the
# registry's list in order; the grep below names the map, so a wrong index fails)
if [ $oracle3 = 1 ]; then
  k=$(awk '/^using maps3d = map_list<$/ { on = 1; next } on && /^ *TMP3>;/ { print k + 0; exit } on && /^ *[A-Za-z_0-9]+,/ { k++ }' "$reg")
  "$work/build/verify/test_maps3d" --run_test="blocks_every_n_up_to_96/_$k" --log_level=message --color_output=no \
    > "$work/maps3d.log" 2>&1 || { cat "$work/maps3d.log"; echo "FAIL: test_maps3d"; fail=1; }
  check $m "the 3D oracle's block-level sweep (test_maps3d)" \
    grep -qx "tmp-tet: block-level coverage proven for n = 1\.\.96" "$work/maps3d.log"
else
  echo "skipped: Boost.Test not found, test_maps3d not built: tmp-tet's block-level sweep not checked"
fi
# the synthetic results (one fake GPU): the rung's row of sdh.csv (impl_list) and the 3D map's rows of the 3D
# tables (maps3d_default: bench_maps3d's default)
if [ $synth = 1 ]; then
  "$work/build/figures/synth_results" "$work/synth" 1 > "$work/synth.log" 2>&1 || { tail -n 20 "$work/synth.log"; echo "FAIL: synth_results"; fail=1; }
  check $r "the synthetic sdh.csv (synth_results)" bash -c "grep -q '^tmp-rung,' '$work'/synth/*/sdh.csv"
  check $m "the synthetic tet_dummy.csv, tet_threebody.csv and tet_layout.csv (synth_results)" \
    bash -c "for f in tet_dummy tet_threebody tet_layout; do grep -q ',tmp-tet,' '$work'/synth/*/\$f.csv || exit 1; done"
else
  echo "skipped: the figures are not built here (no gnuplot-iostream): the synthetic rows not checked"
fi
check $m "gpu_verify_3d's exact-range job list through maps3d_host.hpp (tet_exact_jobs; no hand list)" \
  bash -c "grep -q 'tet_exact_jobs(lim, lim32)' '$tree/experiments/maps3d/gpu_verify_3d.cu' && ! grep -q 'struct Job' '$tree/experiments/maps3d/gpu_verify_3d.cu'"
if [ $fail = 0 ] && [ $synth = 0 ]; then  # the rest passed; the figure part (synth_results) could not run: skipped
  echo "throwaway rung and 3D map: ok without the synthetic results (skipped)" && rm -rf "$work/tree" "$work/build"
  exit 77
fi
[ $fail = 0 ] && echo "throwaway rung and 3D map: ok" && rm -rf "$work/tree" "$work/build"
exit $fail
