// experiments/sdh/sdh_rungs.cpp — the SDH rungs (src/support/registry/sdh_rungs.hpp) and every list the
// programs derive from them, printed without CUDA: one row per rung (its facts), then the lists of
// bench_sdh (--impl all, its --quick default, its --impl help line), gpu_verify_sdh (every rung; the
// flush cases of the bracket rungs) and multi_hist (--impl: the tile-pair rungs, its default and its --help line,
// the functions multi_hist_plan.cuh calls). Exit 1 when two
// rungs share a name or a name is not a valid --impl word. Its test (sdh_rungs, make verify) runs it;
// verify/test_throwaway_family.sh (the test throwaway_family) adds a rung and finds it in each list.
#include <registry/sdh_rungs.hpp>

#include <cstdio>
#include <set>
#include <string>

using namespace tdmaps::gpu::sdh;

int main(int argc, char**) {
  if (argc > 1) {
    std::fprintf(stderr, "sdh_rungs: no options (prints the SDH rungs and the lists derived from them)\n");
    return 2;
  }
  int bad = 0;
  std::set<std::string> seen{"all", cpu_st_impl.name, cpu_mt_impl.name};
  std::printf("%-15s %-7s %-7s %-3s %-4s %-3s %-6s %-7s %-5s %s\n", "rung", "family", "threads", "R", "HM", "J", "rule",
              "bracket", "dyn", "quick");
  for_each_rung([&](auto c) {
    using C = decltype(c);
    const std::string name = C::name;
    if (!seen.insert(name).second) { std::fprintf(stderr, "sdh_rungs: the name %s twice\n", C::name); bad = 1; }
    if (name.empty() || name.find_first_of(", ") != std::string::npos) {
      std::fprintf(stderr, "sdh_rungs: '%s' is not an --impl word\n", C::name);
      bad = 1;
    }
    std::printf("%-15s %-7s %-7s %-3d %-4d %-3d %-6s %-7s %-5s %s\n", C::name, family_name(C::family),
                C::T ? std::to_string(C::T).c_str() : "tpb", C::R, C::HM, C::J, tdmaps::sdh::rule_name(rule_v<C>),
                is_bracket_v<C> ? "yes" : "no", C::Dyn ? "yes" : "no", C::quick ? "yes" : "no");
  });
  std::string all, bracket, tile;
  for (const auto& i : impl_list()) {
    all += (all.empty() ? "" : ",") + std::string(i.name);
    if (i.bracket) bracket += (bracket.empty() ? "" : ",") + std::string(i.name);
  }
  for (const std::string& n : multi_hist_impls()) tile += (tile.empty() ? "" : ",") + n;
  std::printf("bench_sdh --impl all: %s\n", all.c_str());
  std::printf("bench_sdh --quick: %s\n", quick_impls_csv().c_str());
  std::printf("bench_sdh --help: %s\n", impl_help().c_str());
  std::printf("gpu_verify_sdh: %s\n", all.c_str());
  std::printf("gpu_verify_sdh flush cases: %s\n", bracket.c_str());
  std::printf("multi_hist --impl: %s\n", tile.c_str());
  std::printf("multi_hist --impl default: %s\n", multi_hist_default_rung);
  std::printf("multi_hist --help: %s\n", multi_hist_impl_help().c_str());
  return bad;
}
