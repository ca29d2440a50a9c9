#!/usr/bin/env bash
# verify/test_throwaway_map.sh SOURCE_ROOT WORKDIR — the throwaway-map, throwaway-figure and
# throwaway-experiment tests (issues #25, #39; make verify). In a scratch copy of the source tree (WORKDIR/tree; the build folders,
# .tools, .git and the results are left out) it adds, exactly as CONTRIBUTING.md's recipes say and
# nothing else:
#   a map      one header, src/lib/tdmaps/map_tmp.hpp (a policy, here BB's arithmetic under the name
#              tmp-bb), its #include and one line in maps2d (src/lib/tdmaps/registry.hpp), and its
#              entry in the experiments table (src/support/registry/experiments.hpp, its map_traits:
#              joins experiment::dummy, a figure style, a line of prose);
#   a float map the same for a map with a float root, src/lib/tdmaps/map_tmpx.hpp: LTM-X's square root
#              under the name tmp-x, its table entry declaring the root (root_facts: a row, proven on the
#              CPU, an fma row);
#   a figure   one entry of the figure registry (figures/figures.hpp), its draw function inline:
#              tmp_fig, drawn from no GPU data, gallery position 10, its row in figures/README.md's table
#              and its section (its caption) in figures/captions.template.md;
#   an experiment  tmp_exp: its kernel (src/support/gpu/tmp_exp.cuh) and program
#              (experiments/maps2d/bench_tmp.cu; CUDA, not compiled here), its executable
#              (experiments/maps2d/meson.build) and its name in exp_programs (experiments/meson.build),
#              its line in experiments/experiments.list, its CSV's layout (src/support/results/layouts.hpp)
#              and its synthetic rows (figures/synth_results.cpp);
# and checks that the tree differs from the source in exactly those fourteen files;
# then builds the CPU parts that read the registries (no CUDA, -O0, a unity build: tdmap, maps2d_lists, test_maps2d, test_registry,
# and where gnuplot-iostream and gnuplot are found tdmaps_figures) and checks that
#   the map reaches the oracle sweeps (test_maps2d's block-level sweep names it), `tdmap list` (a
#     row) and the benchmark's default list (maps2d_lists says it joins dummy: the trait that puts it
#     in maps2d_dummy, bench_maps' --maps default), the figure styles and drawing order
#     (test_registry), README's generated map table (tdmaps_figures --readme-gallery on the copy);
#   the float map reaches the checks of its constants (test_exact's registry walk, both roundings;
#     -- --maps tmp-x: its checks alone) and the CPU oracle's exact-range table (exact_table --maps tmp-x:
#     its rows, searched), README's rounding table (from that table: its row, both roundings); the GPU
#     sweep (gpu_exact_range) walks the registry the same way (for_each_root) but is CUDA, not built here;
#   both reach the synthetic results (synth_results, one fake GPU): tmp-bb the rows of dummy.csv
#     (maps2d_dummy, as bench_maps' default), tmp-x the rows of exact_range_gpu.csv (for_each_root);
#   the figure is drawn (its PNG), has its section in the report with the caption of its Markdown section,
#     its cell in README's gallery and its line in the figure list (tdmaps_figures --list: what figures_smoke
#     requires drawn), and the captions check passes with it (tdmaps_figures --check-captions, the test
#     figures_captions);
#   the experiment is a step of the device profile (probe and full), of `make figures` and of both
#     sanitizer runs (the scripts' dry runs), passes the test experiments_list (its CSV a per-GPU layout)
#     and has synthetic rows under its layout's header (check_layouts). Not proven without CUDA: its
#     program compiles and its meson test of suite gpu runs (make verify-gpu).
# Where the figures are not built (no gnuplot-iostream or no gnuplot), the parts above that need no figure program
# are checked and, none failing, the test exits 77 (meson: skipped), since its figure parts could not run.
set -euo pipefail
src=$(cd "${1:?usage: test_throwaway_map.sh SOURCE_ROOT WORKDIR}" && pwd)
work=${2:?usage: test_throwaway_map.sh SOURCE_ROOT WORKDIR}
meson=$(cat "$src/.tools/meson" 2>/dev/null || command -v meson)
source "$(dirname "$0")/throwaway_lib.sh"  # throwaway_copy, throwaway_touched
rm -rf "$work"
tree="$work/tree"
throwaway_copy "$src" "$tree"

# ---- the recipe: one header ...
cat > "$tree/src/lib/tdmaps/map_tmp.hpp" <<'EOF'
// a throwaway map of verify/test_throwaway_map.sh: BB's arithmetic under another name
#pragma once
#include "map_bb.hpp"

namespace tdmaps {

struct TMP : BB {
  static constexpr const char* name = "tmp-bb";
};

}  // namespace tdmaps
EOF
# the float map's header: LTM-X's root under another name
cat > "$tree/src/lib/tdmaps/map_tmpx.hpp" <<'EOF'
// a throwaway float map of verify/test_throwaway_map.sh: LTM-X's square root under another name
#pragma once
#include "map_ltm.hpp"

namespace tdmaps {

struct SqrtTmp : SqrtX {
  static constexpr const char* name = "tmp-x";
};
using TMPX = LTM<SqrtTmp>;

}  // namespace tdmaps
EOF
# ... their lines in the registry (with their #include)
reg="$tree/src/lib/tdmaps/registry.hpp"
sed -i 's|^#include "tet_fast.hpp"$|&\n#include "map_tmp.hpp"\n#include "map_tmpx.hpp"|' "$reg"
sed -i '0,/^    BB,$/s//    BB,\n    TMP,/' "$reg"
sed -i '0,/^    UTM_N>;$/s//    UTM_N,\n    TMPX>;/' "$reg"
grep -q '^#include "map_tmp.hpp"$' "$reg" && grep -q '^    TMP,$' "$reg" && grep -q '^    TMPX>;$' "$reg" ||
  { echo "FAIL: the registry's layout changed (no '#include \"tet_fast.hpp\"', '    BB,' or '    UTM_N>;' line); update this test"; exit 1; }
# ... and their entries in the experiments table (the float map's declaring its root; its notes
# without a comma: exact_table writes them unquoted, a comma would split the CSV's column)
table="$tree/src/support/registry/experiments.hpp"
python3 - "$table" <<'PY2'
import sys
p = sys.argv[1]
s = open(p).read()
mark = "\n// ---- the lists the experiments take"
assert s.count(mark) == 1, "experiments.hpp: the table's end changed; update verify/test_throwaway_map.sh"
entries = """
template <>
struct map_traits<TMP> {
  static constexpr unsigned joins = experiment::dummy;
  static constexpr look style{"#123456", 3};
  static constexpr const char* about = "the throwaway map of the test";
};
template <>
struct map_traits<TMPX> {
  static constexpr unsigned joins = experiment::none;
  static constexpr look style{"#654321", 4};
  static constexpr const char* about = "the throwaway float map of the test";
  static constexpr root_facts root = root_facts{root_kind::row}
      .with_monotone(true)
      .with_fma(true)
      .with_fma_limit((long long)limits::ltm_x_fma_blocks)
      .with_note("the throwaway float map")
      .with_fma_note("the throwaway float map (fused)");
};
"""
s = s.replace(mark, entries + mark)
open(p, "w").write(s)
PY2
# the figure: one entry of the figure registry
python3 - "$tree/figures/figures.hpp" <<'PY'
import sys
p = sys.argv[1]
s = open(p).read()
end = "\n  };\n  return r;\n}"
assert s.count(end) == 1, "figures.hpp: the registry's end changed; update verify/test_throwaway_map.sh"
entry = """
      {"tmp_fig", "A throwaway figure", Scope::cpu_only,
       [](Ctx& c, G) {
         Figure f;
         f.name = "tmp_fig";
         f.title = "a throwaway figure";
         Panel p;
         Series s;
         s.label = "tmp";
         s.x = {1, 2, 3};
         s.y = {1, 4, 9};
         p.series.push_back(s);
         f.panels.push_back(p);
         emit(c, f, nullptr, Slots().set("what", "throwaway"));
       }, 10, "throwaway figure"},"""
s = s.replace(end, entry + end)
open(p, "w").write(s)
PY
# ... its section in figures/captions.template.md (its caption, filling the slot its draw function sets)
cat >> "$tree/figures/captions.template.md" <<'EOF2'

## `tmp_fig`

caption:
the {{what}} figure's caption
EOF2
# ... and its row in figures/README.md's table of figures (the test figures_readme)
python3 - "$tree/figures/README.md" <<'PY'
import sys
p = sys.argv[1]
s = open(p).read()
anchor = "| `block_work_I` |"
assert s.count(anchor) == 1, "figures/README.md: the table's last row changed; update verify/test_throwaway_map.sh"
s = s.replace(anchor, "| `tmp_fig` | nothing | the throwaway figure of the test |\n" + anchor)
open(p, "w").write(s)
PY
# the experiment: CONTRIBUTING.md's seven files (its kernel, its program, its executable in its area's
# meson.build, its program in exp_programs, its line in experiments.list, its CSV's layout, its synthetic
# rows). The kernel and the program are CUDA: written here as the recipe says, not compiled (no CUDA here)
cat > "$tree/src/support/gpu/tmp_exp.cuh" <<'EOF2'
// the throwaway experiment's kernel (verify/test_throwaway_map.sh): one store per useful cell
#pragma once
#include "common.cuh"

namespace tdmaps::gpu {

template <class M, class Index>
__global__ void tmp_exp_store(typename M::Params p, int pass, int* out) {
  const Cell2T<Index> c = M::template cell<Index>(p, pass, blockIdx.x, blockIdx.y, threadIdx.x, threadIdx.y);
  if (c.inside) out[0] = int(c.i + c.j);
}

}  // namespace tdmaps::gpu
EOF2
cat > "$tree/experiments/maps2d/bench_tmp.cu" <<'EOF2'
// the throwaway experiment's program (verify/test_throwaway_map.sh): its table opened, no row timed
#include <bench/gpu.cuh>
#include <gpu/tmp_exp.cuh>

using namespace tdmaps;

int main(int argc, char** argv) {
  bench::RunOptions run;
  bench::Cli cli("bench_tmp", "bench_tmp: the throwaway experiment");
  cli.add_run_options(run);
  cli.parse(argc, argv);
  bench::Session session("bench_tmp", argc, argv, run);
  const auto csv = session.table(results::layout::tmp_exp);
  return 0;
}
EOF2
sed -i 's|^m2_bench_maps = executable(.*$|&\nm2_bench_tmp = executable('"'"'bench_tmp'"'"', '"'"'bench_tmp.cu'"'"', dependencies: m2_deps)|' \
  "$tree/experiments/maps2d/meson.build"
sed -i "s|^    'maps2d/bench_maps': m2_bench_maps, |&'maps2d/bench_tmp': m2_bench_tmp, |" "$tree/experiments/meson.build"
echo "tmp_exp | gpu | maps2d/bench_tmp | --out @out@ | --quick | --N 4096 | tmp_exp.csv | --skip-if-no-gpu --N 64 | 60 | --N 64" \
  >> "$tree/experiments/experiments.list"
grep -q "^m2_bench_tmp = " "$tree/experiments/maps2d/meson.build" && grep -q "'maps2d/bench_tmp': m2_bench_tmp" "$tree/experiments/meson.build" ||
  { echo "FAIL: experiments/meson.build or maps2d/meson.build changed (no bench_maps line); update this test"; exit 1; }
python3 - "$tree/src/support/results/layouts.hpp" "$tree/figures/synth_results.cpp" <<'PY'
import sys
p = sys.argv[1]
s = open(p).read()
mark, last = "// ---- experiments/results/cpu/ ----", "&layout::peer_index_audit};"
assert s.count(mark) == 1 and s.count(last) == 1, "layouts.hpp changed; update verify/test_throwaway_map.sh"
s = s.replace(mark, 'inline constexpr Layout tmp_exp{"tmp_exp.csv", "gpu", "experiments/maps2d/bench_tmp", '
                    '"N,map,reps,median_ms,bb_median_ms,I"};\n' + mark)
s = s.replace(last, "&layout::peer_index_audit, &layout::tmp_exp};")
open(p, "w").write(s)
p = sys.argv[2]
s = open(p).read()
mark = "void write_gpu(const fs::path& dir, const std::string& gpu, const std::string& slug, double speed) {\n  fs::create_directories(dir);\n"
assert s.count(mark) == 1, "synth_results.cpp: write_gpu changed; update verify/test_throwaway_map.sh"
s = s.replace(mark, mark + """  {
    results::CsvFile o = csv(dir, layout::tmp_exp, metadata(gpu, slug, "bench_tmp", ""));
    o.row(RowOf<layout::tmp_exp>().set("N", 1024).set("map", "bb").set("reps", 3).set("median_ms", sig(1.0))
              .set("bb_median_ms", sig(1.0)).set("I", sig(1.0)));
  }
""")
open(p, "w").write(s)
PY

# ---- exactly the recipes' files changed: the map's 3 (header, registry, table), the float map's 3 (its
# header; the same registry and table), the figure's 3 (its entry, its README row, its captions section) and the
# experiment's 7 (CONTRIBUTING.md)
want="experiments/experiments.list
experiments/maps2d/bench_tmp.cu
experiments/maps2d/meson.build
experiments/meson.build
figures/README.md
figures/captions.template.md
figures/figures.hpp
figures/synth_results.cpp
src/lib/tdmaps/map_tmp.hpp
src/lib/tdmaps/map_tmpx.hpp
src/lib/tdmaps/registry.hpp
src/support/gpu/tmp_exp.cuh
src/support/registry/experiments.hpp
src/support/results/layouts.hpp"
throwaway_touched "$src" "$tree" "$work" "$want"

# ---- build the CPU parts that read the registry
# -O0 and a unity build (each target one translation unit: its headers parsed once; about 40 %
# less CPU than one object per source, the same programs). Two files of one target that define the
# same name in their anonymous namespaces clash here: name it once in a shared header instead.
"$meson" setup "$work/build" "$tree" -Dcuda=disabled -Doptimization=0 -Dunity=on -Dunity_size=100 > "$work/setup.log" 2>&1 ||
  { tail -n 20 "$work/setup.log"; echo "FAIL: meson setup"; exit 1; }
targets=(src/tdmap experiments/maps2d_lists verify/test_maps2d verify/test_exact verify/exact_table paper/check_layouts)
figs=0
grep -q "figures: building tdmaps_figures" "$work/setup.log" && command -v gnuplot >/dev/null && figs=1
[ $figs = 1 ] && targets+=(figures/test_registry figures/tdmaps_figures figures/synth_results)
ninja -C "$work/build" "${targets[@]}" > "$work/build.log" 2>&1 || { tail -n 30 "$work/build.log"; echo "FAIL: build"; exit 1; }

fail=0
check() {  # check WHAT CMD...: CMD must succeed
  local what=$1; shift
  if "$@"; then echo "ok: tmp-bb reaches $what"; else echo "FAIL: tmp-bb does not reach $what"; fail=1; fi
}
# the block-level sweep's sample of tmp-bb, the second blockwise map (after bb); a wrong index
# walks another map and the check below fails
"$work/build/verify/test_maps2d" --run_test=block_level_every_n_up_to_384_and_edges/_1 --log_level=message --color_output=no \
  > "$work/maps2d.log" 2>&1 || { cat "$work/maps2d.log"; echo "FAIL: test_maps2d"; fail=1; }
check "the oracle's block-level sweep (test_maps2d)" grep -q "^tmp-bb: block-level coverage proven" "$work/maps2d.log"
"$work/build/src/tdmap" list > "$work/list.txt"
check "tdmap list" grep -q "^tmp-bb " "$work/list.txt"
# the CLI tests and the fuzz test, which read `tdmap list`, on the copy's tdmap: both maps among theirs
check "the CLI tests (verify/test_cli.sh on the copy's tdmap)" \
  bash -c "bash '$tree/verify/test_cli.sh' '$work/build/src/tdmap' > '$work/cli.log' 2>&1 && grep -q ', 0 failed\$' '$work/cli.log'"
check "the fuzz test (src/lib/cli/fuzz_args.py on the copy's tdmap)" \
  python3 "$tree/src/lib/cli/fuzz_args.py" "$work/build/src/tdmap" "$work/build" --budget-s 8 --timeout-s 10 --jobs 2
"$work/build/experiments/maps2d_lists" > "$work/lists2.txt" || { cat "$work/lists2.txt"; echo "FAIL: maps2d_lists"; fail=1; }
check "the benchmark's default list (dummy; maps2d_lists)" grep -Eq "^tmp-bb dummy$" "$work/lists2.txt"
check "bench_maps' --maps default (maps2d_dummy, the registry's list of the dummy trait)" \
  grep -q 'map_names_csv(maps2d_dummy{})' "$tree/experiments/maps2d/bench_maps.cu"
# the float map: its constants checked (both roundings), its rows of the CPU exact-range table
fcheck() { local what=$1; shift; if "$@"; then echo "ok: tmp-x reaches $what"; else echo "FAIL: tmp-x does not reach $what"; fail=1; fi; }
"$work/build/verify/test_exact" --run_test=float_roots_match_their_constants --log_level=message --color_output=no \
  -- --maps tmp-x > "$work/exact.log" 2>&1 || { cat "$work/exact.log"; echo "FAIL: test_exact"; fail=1; }
fcheck "the checks of its constants (test_exact, pinned and fma)" \
  bash -c "grep -q '^tmp-x pinned: its constant 10619135 proven both ways' '$work/exact.log' &&
           grep -q '^tmp-x fma: its constant 10619135 proven both ways' '$work/exact.log'"
"$work/build/verify/exact_table" --maps tmp-x "$work/exact_table.csv" 2> "$work/exact_table.log" ||
  { cat "$work/exact_table.log"; echo "FAIL: exact_table"; fail=1; }
fcheck "the CPU exact-range table (exact_table)" \
  bash -c "grep -q '^tmp-x,block,cpu,10619135,.*,the throwaway float map,32 (narrow),pinned\$' '$work/exact_table.csv' &&
           grep -q '^tmp-x,block,cpu,10619135,.*,the throwaway float map (fused),32 (narrow),fma\$' '$work/exact_table.csv'"
# the experiment: the list's scripts run it (their dry runs: the device profile, probe and full, `make
# figures`, both sanitizer tools), the test experiments_list holds them and its CSV's layout to the list
echk() { local what=$1; shift; if "$@"; then echo "ok: tmp_exp reaches $what"; else echo "FAIL: tmp_exp does not reach $what"; fail=1; fi; }
E=/dry/build/experiments
(cd "$tree" && export TDMAPS_GPU_SLUG=gpu
 bash experiments/run_gpu_profile.sh --dry-run /dry/build /dry/res probe > "$work/probe.txt"
 bash experiments/run_gpu_profile.sh --dry-run /dry/build /dry/res full > "$work/full.txt"
 FULL=0 bash experiments/run_figures.sh --dry-run /dry/build > "$work/make_figures.txt"
 bash experiments/run_sanitizer.sh --dry-run /dry/build /dry/logs > "$work/sanitizer.txt") || { echo "FAIL: a dry run"; fail=1; }
echk "the device profile (run_gpu_profile.sh probe)" grep -qx "tmp_exp: $E/maps2d/bench_tmp --out /dry/res --quick" "$work/probe.txt"
echk "the device profile (run_gpu_profile.sh full)" grep -qx "tmp_exp: $E/maps2d/bench_tmp --out /dry/res --N 4096" "$work/full.txt"
echk "make figures (run_figures.sh)" \
  grep -qx "tmp_exp: $E/maps2d/bench_tmp --out experiments/results/local --quick" "$work/make_figures.txt"
echk "the sanitizer runs (run_sanitizer.sh, memcheck and racecheck)" \
  bash -c "[ \$(grep -cx '[a-z]*check tmp_exp: $E/maps2d/bench_tmp --out /scratch --N 64' '$work/sanitizer.txt') = 2 ]"
python3 "$tree/experiments/test_experiments_list.py" "$tree" "$work/build" > "$work/experiments_list.log" 2>&1 ||
  { cat "$work/experiments_list.log"; fail=1; }
echk "the test experiments_list (its CSV a per-GPU layout)" grep -q "^experiments_list: ok" "$work/experiments_list.log"
if [ $figs = 1 ]; then
  "$work/build/figures/test_registry" "$tree/src/support/results/readme.template.md" > "$work/registry.log" 2>&1 || { cat "$work/registry.log"; fail=1; }
  check "the figure styles and the drawing order (test_registry)" grep -q "^ok    tmp-bb$" "$work/registry.log"
  # the figure program without GPU results (the figures drawn from no GPU data, the throwaway one
  # among them), the report and README's generated blocks in the copy; the CPU exact-range table
  # is exact_table's above (tmp-x's rows)
  (cd "$tree" && "$work/build/figures/tdmaps_figures" --results "$work/no-results" --out "$work/out" --no-svg \
      --cpu-exact "$work/exact_table.csv" --report "$work/report.md" --readme-gallery README.md) > "$work/figures.log" 2>&1 ||
    { tail -n 20 "$work/figures.log"; echo "FAIL: tdmaps_figures"; fail=1; }
  check "README's generated map table" grep -q '^| `tmp-bb` | 2D | blocks | the throwaway map of the test |' "$tree/README.md"
  fcheck "README's rounding table (its row, both roundings)" \
    grep -q '^| `tmp-x` | λ < 10,619,135 (N ≤ 73,712) | the same |$' "$tree/README.md"
  # the synthetic results (one fake GPU: the tables the figure tests read)
  "$work/build/figures/synth_results" "$work/synth" 1 > "$work/synth.log" 2>&1 ||
    { tail -n 20 "$work/synth.log"; echo "FAIL: synth_results"; fail=1; }
  check "the synthetic dummy.csv (synth_results)" \
    bash -c "grep -q '^dummy,store,1024,16,tmp-bb,' '$work'/synth/*/dummy.csv"
  fcheck "the synthetic exact_range_gpu.csv (synth_results)" \
    bash -c "grep -q '^tmp-x,block,' '$work'/synth/*/exact_range_gpu.csv"
  fig_check() { local what=$1; shift; if "$@"; then echo "ok: tmp_fig reaches $what"; else echo "FAIL: tmp_fig does not reach $what"; fail=1; fi; }
  fig_check "the figures drawn (its PNG)" test -s "$work/out/tmp_fig.png"
  fig_check "the report (its section)" grep -q "A throwaway figure" "$work/report.md"
  fig_check "the report (its caption, from its section of figures/captions.template.md)" \
    grep -q "^the throwaway figure's caption$" "$work/report.md"
  fig_check "the captions check (tdmaps_figures --check-captions, the test figures_captions)" \
    "$work/build/figures/tdmaps_figures" --check-captions --captions "$tree/figures/captions.template.md"
  fig_check "README's gallery" grep -q "tmp_fig.png" "$tree/README.md"
  fig_check "figures/README.md's table of figures (figures/check_readme_table.sh, the test figures_readme)" \
    bash "$tree/figures/check_readme_table.sh" "$work/build/figures/tdmaps_figures" "$tree/figures/README.md"
  fig_check "the figure list (tdmaps_figures --list, which figures_smoke draws)" \
    bash -c "'$work/build/figures/tdmaps_figures' --list | grep -qx 'tmp_fig cpu_only 10 A throwaway figure'"
  echk "the synthetic results (synth_results: its CSV, under its layout's header)" \
    bash -c "test -s '$work/synth/h100/tmp_exp.csv' && '$work/build/paper/check_layouts' '$work/synth/h100/tmp_exp.csv' > /dev/null"
else
  echo "skipped: figures not built here (no gnuplot-iostream or no gnuplot): the figure parts are not checked"
fi
if [ $fail = 0 ] && [ $figs = 0 ]; then  # the rest passed; the figure parts could not run: skipped (meson: 77)
  echo "throwaway map: ok without its figure parts (skipped)" && rm -rf "$work/tree" "$work/build"
  exit 77
fi
[ $fail = 0 ] && echo "throwaway map: ok" && rm -rf "$work/tree" "$work/build"
exit $fail
