// experiments/maps3d/test_maps3d_host.cu — the host-side parts of the 3D GPU programs,
// checked without a GPU (meson default suite): the CPU references that the GPU results
// are compared with, and the command-line parsing.
//   * threebody_reference (bit rows + popcounts) equals a brute-force triple loop over
//     i <= j <= k with the kernel's own sides_below (src/support/gpu/tet.cuh);
//   * layout_reference_checksum (from the initial values, no arrays) equals the checksum
//     of diffuse_reference's output array.
// Prints "X test cases out of Y passed"; exit 1 on failure.
#include "maps3d_gpu.hpp"

#include <gpu/tet.cuh>

#include <cstdio>

using namespace tdmaps;
using namespace tdmaps::exp3d;

namespace {
int passed = 0, total = 0;
void report(bool ok, const std::string& name) {
  ++total;
  passed += ok;
  std::printf("%s %s\n", ok ? "PASS" : "FAIL", name.c_str());
}
template <class F>
bool throws_bad_input(F f) {
  try {
    f();
  } catch (const bad_input&) {
    return true;
  }
  return false;
}
}  // namespace

int main() {
  for (i64 N : {1, 2, 3, 7, 40, 63, 64, 65, 130, 201})
    for (float r : {0.05f, 0.25f, 0.6f, 2.0f}) {
      const std::vector<float4> p = make_points(N);
      std::array<u64, 4> brute{0, 0, 0, 0};
      for (i64 z = 0; z < N; ++z)
        for (i64 y = 0; y <= z; ++y)
          for (i64 x = 0; x <= y; ++x) ++brute[size_t(gpu::sides_below(p[size_t(x)], p[size_t(y)], p[size_t(z)], r * r))];
      const std::array<u64, 4> fast = threebody_reference(p, r * r);
      report(fast == brute && brute[0] + brute[1] + brute[2] + brute[3] == tet(u64(N)),
             "threebody_reference N=" + std::to_string(N) + " r=" + std::to_string(r));
    }
  for (i64 N : {1, 2, 5, 17, 64, 101}) {
    const u64 cells = tet(u64(N));
    std::vector<float> in(cells), out(cells);
    for (u64 i = 0; i < cells; ++i) in[i] = cell_value(i);
    diffuse_reference(N, in.data(), out.data(), 0, N);
    u64 sum = 0;
    for (u64 i = 0; i < cells; ++i) sum += checksum_term(out[i], i);
    report(sum == layout_reference_checksum(N), "layout_reference_checksum N=" + std::to_string(N));
  }
  report(parse_Ns({"1,5:9:2", "5"}) == std::vector<i64>{1, 5, 7, 9}, "parse_Ns list and range");
  report(throws_bad_input([] { parse_Ns({"3:1:1"}); }), "parse_Ns rejects A > B");
  report(throws_bad_input([] { parse_Ns({"x"}); }), "parse_Ns rejects non-integers");
  report(throws_bad_input([] { parse_rhos({"11"}); }), "parse_rhos rejects rho^3 > 1024");
  report(parse_maps3({"bb3,tet-fast,tet-e,tet-fast"}) == std::vector<std::string>{"tet-fast", "tet-e"}, "parse_maps3");
  report(throws_bad_input([] { parse_maps3({"bb3"}); }), "parse_maps3 needs a map besides bb3");
  // a 2D map is known but not run here; a name nobody knows is unknown (issue #28)
  const auto message = [](const std::vector<std::string>& a) {
    try {
      parse_maps3(a);
    } catch (const bad_input& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  report(message({"ltm-x"}).find("not available") != std::string::npos, "parse_maps3: ltm-x is not available here");
  report(message({"ltm-q"}).find("unknown name") != std::string::npos, "parse_maps3: ltm-q is unknown");
  report(parse_modes({"both"}) == std::vector<int>{0, 1} && parse_modes({"block,both"}) == std::vector<int>{1, 0},
         "parse_modes: both = thread and block");
  report(std::abs(eq17_bound(1 << 20) - 6.0) < 1e-4, "eq. (17) -> 6");
  std::printf("%d test cases out of %d passed\n", passed, total);
  return passed == total ? 0 : 1;
}
