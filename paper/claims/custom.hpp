// paper/claims/custom.hpp — the one-off rules of the claim table (custom.cpp and custom_*.cpp,
// one file per section).
#pragma once
#include "rules.hpp"
#include "select.hpp"  // pick_rows
#include "registry/sdh_rungs.hpp"  // the seed report's SDH slots (cpu_st_impl, seed_version)

namespace claims {
using namespace results;  // the results layer (src/support/results/), which the claims build on
namespace rules {

// The seed report's slots of sdh.csv's rows (004: its CPU loop, V1..V5), as the SDH rung list declares them
// (registry/sdh_rungs.hpp: the one-thread CPU loop's slot, each ladder rung's seed_version); sdh_ladder() keys its
// rows by them (results::sdh_slot).
namespace sdh_seed {
namespace S = tdmaps::gpu::sdh;
inline constexpr const char* cpu = S::cpu_st_impl.slot;
inline constexpr const char* v1 = S::seed_version(S::Ladder::v1);
inline constexpr const char* v2 = S::seed_version(S::Ladder::v2);
inline constexpr const char* v3 = S::seed_version(S::Ladder::v3);
inline constexpr const char* v4 = S::seed_version(S::Ladder::v4);
inline constexpr const char* v5 = S::seed_version(S::Ladder::v5);
}  // namespace sdh_seed

struct RangeVal {
  double N = NAN;
  bool lower_bound = false;  // nothing failed below searched_up_to
  std::string source;
};
// Largest exact N at rho 16 of `variant`: the GPU table first, then the CPU oracle; fma
// selects the FMA-contracted mode (the rows of rounding tdmaps::Fused::name).
std::optional<RangeVal> exact_N(const Ctx& ctx, const GpuData* g, const std::string& variant, bool fma, bool gpu_only);
// "≥ N (source)" or "—" (custom_ranges.cpp), and the files the exact ranges come from
std::string range_text(const std::optional<RangeVal>& r);
// The dummy kernel's store rows (the bound and the apps' sections read them).
inline Sel dummy_store() { return pick_rows::dummy(pick_rows::Form::Store); }
inline const std::string kRangeFiles = "exact_range_gpu.csv / verify/results/exact_ranges_cpu.csv";

Rule bound_I(bool hypothesis);
Rule wasted_bb();
Rule wasted_ltm();
Rule rb_wasted();
Rule rec_passes();
Rule eq9_printed();
Rule rb_printed();
Rule eq14_float();
Rule n800();
Rule hw_context();
Rule sblocks_context();  // 000 Table I sblocks: the most resident blocks of our GPU beside the paper's
// LTM judged on grid g (the papers' n'×n' grid or our linear one: rules.cpp by_grid)
Rule sqrt_all_alike(pick_rows::Grid g = pick_rows::Grid::Linear);
Rule rsqrt_best(pick_rows::Grid g = pick_rows::Grid::Linear);
Rule range_at_least(std::vector<std::string> variants);
// The same in one rounding mode only (fma: nvcc's default contraction; else the library's pinned rounding).
Rule range_at_least_mode(std::vector<std::string> variants, bool fma);
// Why UTM's exact range ends where it does (its root's radicand at the first wrong N; custom_ranges.cpp).
std::string utm_radicand_note(double N);
Rule utm_range();
Rule utm_range_mode(bool fma);
// The readings of a condition the paper does not fix, rounding: FMA and pinned side by side.
Rule range_readings(std::vector<std::string> variants);
Rule utm_range_readings();
Rule utm_arg();
Rule range_10x();
Rule dummy_converge();
Rule rec_from_N();
Rule feat_flat(pick_rows::Grid g = pick_rows::Grid::Linear);
Rule feat_utm();
Rule col_utm_low();
Rule col_utm_overtaken(pick_rows::Grid g = pick_rows::Grid::Linear);
Rule map_6x();
Rule layout_2f();
Rule fa_layouts();
Rule fa128();
Rule blocks_6x();
Rule tet_threads();
Rule cites_2d();
Rule sdh_time_context(const std::string& slot);
Rule sdh_ratio(const std::string& num, const std::string& den, std::optional<Tol> tol = std::nullopt);
Rule sdh_speedup_context();
Rule sdh_tpb();
Rule sdh_steps();
Rule sdh_internal();
// The outcome of the first alternative that has rows (labelled), the others' reasons appended.
// #24 item 6: the claims added on a second reading of the seeds.
Rule fewer_instructions();   // 000 §III-A: g(λ) uses fewer floating-point operations than UTM
Rule eq16_printed_001();     // 001 §III-A eq. (16) as printed: x / rsqrtf(x)
Rule eq15_printed_000();     // 000 §IV-A eq. (15) as printed: x / rsqrtf(x) = x · rsqrtf(x)
Rule maps_differ_edm(pick_rows::Grid g = pick_rows::Grid::Linear);     // 000 §V: EDM performance differences manifest on every GPU
Rule feat_similar(pick_rows::Grid g = pick_rows::Grid::Linear);     // 001 §IV: EDM with 2 and 3 features like 1 and 4
Rule feat_rec();              // 001 §IV: the number of features has an impact on REC
Rule eq5_W();                 // 003 eq. (5): W ≤ n²/4k² + n/2k
Rule blocked_size();          // 003 §III-A: the blocked layout is O(n³) + o(n³), padding within n²ρ³
Rule two_conditionals();     // 001 §I: Avril's map, every error fixed by two conditionals
Rule tet_eq16_exact();       // 003 eq. (16) in exact arithmetic
Rule eq2_printed();          // 000/001 eq. (2), with the diagonal, as printed
Rule utm_printed();          // 000 §IV-B / 001 §III-B: UTM's formula as printed
Rule error_le_one();         // 001 §V: an error e ≤ 1 is fixed by block-level conditionals

Rule first_measured(std::vector<std::pair<std::string, Rule>> alts);
// Every reading of a condition the paper leaves open, evaluated side by side: the verdict is the
// readings' common verdict when every measured reading agrees, else "depends on the reading"
// (the readings named). A reading without data is named as not measured and does not vote.
Rule readings(std::vector<std::pair<std::string, Rule>> alts);
// A condition the paper fixes (`fixed`, with the paper's words in its label): the verdict is that
// reading's; the other readings are computed and shown beside it, without a vote.
Rule fixed_reading(std::pair<std::string, Rule> fixed, std::vector<std::pair<std::string, Rule>> shown);

}  // namespace rules
}  // namespace claims
