#!/usr/bin/env bash
# verify/test_throwaway_map.sh SOURCE_ROOT WORKDIR — the throwaway-map test (issue #25, make verify).
# In a scratch copy of the source tree (WORKDIR/tree; the build folders, .tools, .git and the results
# are left out) it adds one map exactly as CONTRIBUTING.md's recipe says, and nothing else:
#   one header   src/tdmaps/map_tmp.hpp (a policy, here BB's arithmetic under the name tmp-bb, and its
#                map_traits: joins experiment::dummy, a figure style, a line of prose)
#   the registry its #include and one line in maps2d (src/tdmaps/registry.hpp)
# then builds the CPU parts that read the registry (no CUDA, -O1: tdmap, test_maps2d, test_registry)
# and checks that the map reaches
#   - the oracle sweeps (test_maps2d's block-level sweep names it),
#   - `tdmap list` (a row) and the benchmark's default list (its experiments column says dummy, the
#     trait that puts it in maps2d_dummy, bench_maps' --maps default),
#   - the figure styles and drawing order, and README's generated map table (test_registry).
set -euo pipefail
src=$(cd "${1:?usage: test_throwaway_map.sh SOURCE_ROOT WORKDIR}" && pwd)
work=${2:?usage: test_throwaway_map.sh SOURCE_ROOT WORKDIR}
meson=$(cat "$src/.tools/meson" 2>/dev/null || command -v meson)
rm -rf "$work"
mkdir -p "$work/tree"
tree="$work/tree"
tar -C "$src" -c --exclude='./build*' --exclude=./.tools --exclude=./.git --exclude=./experiments/results \
    --exclude=./figures/out --exclude=./figures/local --exclude=./.carry . | tar -C "$tree" -x

# ---- the recipe: one header ...
cat > "$tree/src/tdmaps/map_tmp.hpp" <<'EOF'
// a throwaway map of verify/test_throwaway_map.sh: BB's arithmetic under another name
#pragma once
#include "map_bb.hpp"
#include "traits.hpp"

namespace tdmaps {

struct TMP : BB {
  static constexpr const char* name = "tmp-bb";
};

template <>
struct map_traits<TMP> {
  static constexpr unsigned joins = experiment::dummy;
  static constexpr look style{"#123456", 3};
  static constexpr const char* about = "the throwaway map of the test";
};

}  // namespace tdmaps
EOF
# ... and its line in the registry (with its #include)
reg="$tree/src/tdmaps/registry.hpp"
sed -i 's|^#include "tet_fast.hpp"$|&\n#include "map_tmp.hpp"|' "$reg"
sed -i '0,/^    BB,$/s//    BB,\n    TMP,/' "$reg"
grep -q '^#include "map_tmp.hpp"$' "$reg" && grep -q '^    TMP,$' "$reg" ||
  { echo "FAIL: the registry's layout changed (no '#include \"tet_fast.hpp\"' or '    BB,' line); update this test"; exit 1; }
diff -r -q "$src/src" "$tree/src" | sed 's/^/changed: /' || true

# ---- build the CPU parts that read the registry
"$meson" setup "$work/build" "$tree" -Dcuda=disabled -Doptimization=1 > "$work/setup.log" 2>&1 ||
  { tail -n 20 "$work/setup.log"; echo "FAIL: meson setup"; exit 1; }
targets=(src/tdmap verify/test_maps2d)
grep -q "figures: building tdmaps_figures" "$work/setup.log" && targets+=(figures/test_registry)
ninja -C "$work/build" "${targets[@]}" > "$work/build.log" 2>&1 || { tail -n 30 "$work/build.log"; echo "FAIL: build"; exit 1; }

fail=0
check() {  # check WHAT CMD...: CMD must succeed
  local what=$1; shift
  if "$@"; then echo "ok: tmp-bb reaches $what"; else echo "FAIL: tmp-bb does not reach $what"; fail=1; fi
}
"$work/build/verify/test_maps2d" --run_test=block_level_every_n_up_to_384_and_edges --log_level=message --color_output=no \
  > "$work/maps2d.log" 2>&1 || { cat "$work/maps2d.log"; echo "FAIL: test_maps2d"; fail=1; }
check "the oracle's block-level sweep (test_maps2d)" grep -q "^tmp-bb: block-level coverage proven" "$work/maps2d.log"
"$work/build/src/tdmap" list > "$work/list.txt"
check "tdmap list" grep -q "^tmp-bb " "$work/list.txt"
check "the benchmark's default list (dummy)" grep -Eq "^tmp-bb +2D +block +dummy " "$work/list.txt"
check "bench_maps' --maps default (maps2d_dummy, the registry's list of the dummy trait)" \
  grep -q 'map_names_csv(maps2d_dummy{})' "$tree/experiments/maps2d/bench_maps.cu"
if [ -x "$work/build/figures/test_registry" ]; then
  "$work/build/figures/test_registry" > "$work/registry.log" 2>&1 || { cat "$work/registry.log"; fail=1; }
  check "the figure styles, the drawing order and README's map table (test_registry)" grep -q "^ok    tmp-bb$" "$work/registry.log"
else
  echo "(figures not built here: no gnuplot-iostream; the figure part is not checked)"
fi
[ $fail = 0 ] && echo "throwaway map: ok" && rm -rf "$work/tree" "$work/build"
exit $fail
