// experiments/maps2d/test_maps2d_host.cu — host-only tests of the map-only GPU
// programs (no GPU needed): the coverage logic of src/support/gpu/dummy.cuh, run through
// its CPU emulation on every 2D map and on deliberately broken maps, and the
// helpers of maps2d_host.hpp (map lists, exact-range arithmetic). Compiled by nvcc because dummy.cuh declares the kernels; it
// makes no CUDA call.
#include "maps2d_host.hpp"

#include <gpu/dummy.cuh>
#include <tdmaps/counts.hpp>

#include <cstdio>
#include <string>

using namespace tdmaps;
using namespace tdmaps::gpu;
using namespace tdmaps::exp2d;

namespace {

int n_pass = 0, n_fail = 0;
void expect(bool ok, const std::string& what) {
  if (ok) {
    ++n_pass;
  } else {
    ++n_fail;
    std::printf("FAIL: %s\n", what.c_str());
  }
}
template <class F>
bool throws_bad_input(F&& f) {
  try {
    f();
  } catch (const bad_input&) {
    return true;
  }
  return false;
}
bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// ---- coverage of the real maps, through the CPU emulation of coverage2 ---------------
void test_real_maps() {
  const i64 ns[] = {1, 2, 3, 7, 15, 16, 17, 31, 32, 33, 64, 96, 100, 128, 255, 256};
  const int rhos[] = {1, 2, 3, 4, 16, 32};
  for_each_map(maps2d{}, [&](auto m) {
    using M = decltype(m);
    int ran = 0;
    for (int rho : rhos)
      for (i64 N : ns) {
        typename M::Params p;
        try {
          p = M::plan(N, rho);
        } catch (const unsupported&) {
          continue;
        }
        ++ran;
        const Counts c = counts2<M>(p);
        const std::string err = check_coverage(N, emulate_coverage2<M>(p), (long long)c.useful_blocks);
        expect(err.empty(), std::string(M::name) + " N=" + std::to_string(N) + " rho=" + std::to_string(rho) + ": " + err);
      }
    expect(ran > 0, std::string(M::name) + ": no size ran");
  });
}

// ---- broken maps must be caught ----------------------------------------------------------
struct DupMap : BB {  // cell (5, 3) produced as (5, 2): one duplicate, one missing
  template <class Index = i64>
  static Cell2 cell(const Params& p, int pass, u32 bx, u32 by, u32 tx, u32 ty) {
    Cell2 c = BB::cell(p, pass, bx, by, tx, ty);
    if (c.inside && c.i == 5 && c.j == 3) c.j = 2;
    return c;
  }
};
struct OodMap : BB {  // cell (4, 1) produced as (1, 4): above the diagonal
  template <class Index = i64>
  static Cell2 cell(const Params& p, int pass, u32 bx, u32 by, u32 tx, u32 ty) {
    Cell2 c = BB::cell(p, pass, bx, by, tx, ty);
    if (c.inside && c.i == 4 && c.j == 1) c = Cell2{1, 4, true};
    return c;
  }
};
struct DropMap : BB {  // the last cell never produced
  template <class Index = i64>
  static Cell2 cell(const Params& p, int pass, u32 bx, u32 by, u32 tx, u32 ty) {
    Cell2 c = BB::cell(p, pass, bx, by, tx, ty);
    if (c.inside && c.i == p.N - 1 && c.j == p.N - 1) return outside2();
    return c;
  }
};
struct RowOutMap : BB {  // a cell past the last row
  template <class Index = i64>
  static Cell2 cell(const Params& p, int pass, u32 bx, u32 by, u32 tx, u32 ty) {
    Cell2 c = BB::cell(p, pass, bx, by, tx, ty);
    if (c.inside && c.i == 0) c.i = p.N;
    return c;
  }
};

void test_broken_maps() {
  const BB::Params p = BB::plan(40, 16);
  const long long ub = (long long)counts2<BB>(p).useful_blocks;
  expect(check_coverage(40, emulate_coverage2<BB>(p), ub).empty(), "bb N=40 passes");
  std::string e = check_coverage(40, emulate_coverage2<DupMap>(p), ub);
  expect(contains(e, "1 duplicate") && contains(e, "1 cells never produced (first: i=5 j=3)"), "dup map: " + e);
  e = check_coverage(40, emulate_coverage2<OodMap>(p), ub);
  expect(contains(e, "1 out-of-domain") && contains(e, "first: i=4 j=1"), "ood map: " + e);
  e = check_coverage(40, emulate_coverage2<DropMap>(p), ub);
  expect(contains(e, "produced 819 cells, expected 820") && contains(e, "first: i=39 j=39"), "drop map: " + e);
  e = check_coverage(40, emulate_coverage2<RowOutMap>(p), ub);
  expect(contains(e, "out-of-domain") && contains(e, "first: i=0 j=0"), "row-out map: " + e);
  // a wrong useful-block count is reported
  e = check_coverage(40, emulate_coverage2<BB>(p), ub + 1);
  expect(contains(e, "useful blocks"), "useful blocks: " + e);
  // padding bits past the last cell
  CoverageRun r = emulate_coverage2<BB>(p);
  r.bits.back() |= 0x80000000u;  // tri(40) = 820 = 25*32 + 20: bit 31 of the last word is padding
  expect(contains(check_coverage(40, r, ub), "past the last cell"), "padding bit");
  // the bitmap index is 64-bit: tri(65537) > 2^31
  expect(coverage_words(65537) == (tri(65537) + 31) / 32 && tri(65537) > (u64(1) << 31), "64-bit bitmap size");
}

// ---- helpers of maps2d_host.hpp ----------------------------------------------------------
void test_helpers() {
  // the map lists (the list grammar itself: src/support/bench/test_bench.cpp)
  const auto m = parse_maps({"bb,ltm-r", "ltm-r", "utm-n"});
  expect(m.size() == 3 && m[0] == "bb" && m[1] == "ltm-r" && m[2] == "utm-n", "parse_maps dedup");
  expect(throws_bad_input([] { parse_maps({"ltm-q"}); }), "parse_maps unknown");
  expect(parse_maps({map2_names()}).size() == map2_list().size(), "every 2D map of the registry by name");
  expect(throws_bad_input([] { parse_rhos({"33"}); }), "rho 33");

  // largest n with tri(n) <= b, and agreement with LTM's plan() refusal
  for (u64 b : {u64(0), u64(1), u64(2), u64(3), u64(5), u64(6), u64(1316253), u64(2110485), u64(10619135), u64(1) << 32}) {
    const u64 n = largest_n_tri(b);
    expect(tri(n) <= b && tri(n + 1) > b, "largest_n_tri(" + std::to_string(b) + ")");
  }
  expect(largest_n_tri(10619135) == 4607, "ltm-x: tri(4608) = 10619136 is one past");
  for (int rho : {8, 16, 32}) {
    const i64 N = i64(largest_n_tri(LTM_X::exact_blocks)) * rho;
    bool ok = true, refused = false;
    try { LTM_X::plan(N, rho); } catch (const unsupported&) { ok = false; }
    try { LTM_X::plan(N + 1, rho); } catch (const unsupported&) { refused = true; }
    expect(ok && refused, "ltm-x edge at rho " + std::to_string(rho) + " agrees with plan()");
  }
  for (u64 b : {u64(0), u64(1), u64(3), u64(4), u64(10), u64(11), u64(1) << 34}) {
    const u64 n = largest_n_tet(b);
    expect(tet(n) <= b && tet(n + 1) > b, "largest_n_tet(" + std::to_string(b) + ")");
  }

  // the column-major enumeration gpu_exact_range checks UTM against
  for (i64 N : {1, 2, 5, 64}) {
    i64 k = 0;
    bool ok = true;
    for (i64 j = 0; j < N; ++j)
      for (i64 i = j; i < N; ++i, ++k) ok = ok && colmajor_index(N, i, j) == k;
    expect(ok && k == i64(tri(u64(N))), "colmajor_index N=" + std::to_string(N));
  }
  // ... which is UTM's own order where UTM is exact (N <= its proven range)
  for (i64 N : {1, 7, 100, 1000}) {
    bool ok = true;
    for (i64 j = 0; j < N; ++j)
      for (i64 i = j; i < N; ++i) {
        const Cell2 x = UTM_X::map_thread(N, colmajor_index(N, i, j)), n = UTM_N::map_thread(N, colmajor_index(N, i, j));
        ok = ok && x.i == i && x.j == j && n.i == i && n.j == j;
      }
    expect(ok, "utm order N=" + std::to_string(N));
  }

}

}  // namespace

int main() {
  test_real_maps();
  test_broken_maps();
  test_helpers();
  std::printf("test_maps2d_host: %d passed, %d failed\n", n_pass, n_fail);
  return n_fail ? 1 : 0;
}
