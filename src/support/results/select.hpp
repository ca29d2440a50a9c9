// src/support/results/select.hpp — THE SELECTIONS: which rows of a results CSV a number is taken
// from, named once. The claim rules (paper/claims), the report, the figures and the README
// blocks (readme.cpp) all select through these functions, so "large N", "the shared-memory
// kernel" or "the papers' grid" mean one thing everywhere.
#pragma once
#include "gram_names.hpp"
#include "layouts.hpp"
#include "model.hpp"
#include "registry/map_names.hpp"  // a map's family and papers'-grid variant by name

#include <string>
#include <vector>

namespace results {
namespace pick_rows {

// ---- the dummy kernel (dummy.csv, sqrt.csv: layout::dummy) --------------------------------
// form=store: one-address store, the papers' kernel; form=cond: contention-free (every thread writes its own cell)
enum class Form { Store, Cond };
inline const char* form_name(Form f) { return f == Form::Store ? "store" : "cond"; }
inline Sel dummy(Form f, bool exact_only = true, double rho = current_rho()) {
  Sel s;
  s.eq = {{"form", form_name(f)}};
  s.exact_only = exact_only;
  s.rho = rho;
  return s;
}

// ---- EDM (edm.csv: layout::edm) ----------------------------------------------------------------
// variant (edm_variant): full, the N×N matrix (the papers' form); packed, the lower triangle only
inline Sel edm(const std::string& variant, int features, bool exact_only = true, double rho = current_rho()) {
  Sel s;
  s.eq = {{"variant", variant}, {"features", std::to_string(features)}};
  s.exact_only = exact_only;
  s.rho = rho;
  return s;
}

// ---- collision detection (collision.csv: layout::collision) -------------------------------------
// Kernel style, column `test`: Shared = test=collision, the papers' shared-memory kernel
// (000 §V: "the maps ... use shared memory"); Direct = test=collision-direct, every thread reads
// its two points from global memory (the only form UTM, a thread map, can run). The two are
// never pooled: a number names its kernel style.
enum class Kernel { Shared, Direct };
inline const char* kernel_test(Kernel k) {
  return k == Kernel::Shared ? apps_test::collision : apps_test::collision_direct;
}
inline const char* kernel_words(Kernel k) {
  return k == Kernel::Shared ? "shared-memory kernel (test=collision)" : "direct kernel (test=collision-direct)";
}
// dim: collision_dim::d3 (3 coordinates) or collision_dim::d1
inline Sel collision(Kernel k, const std::string& dim, bool exact_only = true, double rho = current_rho()) {
  Sel s;
  s.eq = {{"test", kernel_test(k)}, {"variant", dim}};
  s.exact_only = exact_only;
  s.rho = rho;
  return s;
}

// ---- the strategies of the papers' comparisons, as map candidates (first with rows) ------------
// Grid of LTM: Papers = the papers' balanced n'×n' grid (000 §III-A: "n' = ⌈√(n(n+1)/2)⌉"), maps
// ltm-r-sq / ltm-e-sq; Linear = our one-dimensional grid of n(n+1)/2 blocks.
enum class Grid { Papers, Linear };
// A map name on grid g: Linear as given; Papers turns an LTM map on the linear grid into the same root on the papers'
// grid, its registered variant there (map_variants.hpp LtmSquare; registry/map_names.hpp). An LTM map with no such
// variant (ltm-lut) gets the name the variant would have, "<name>-sq", which no CSV has, so a reading on the papers'
// grid is "not measured" for it rather than judged on another grid.
inline constexpr const char* kPapersGridSuffix = "-sq";
// Whether m is a map on the papers' grid (a registered LtmSquare).
inline bool on_papers_grid(const std::string& m) {
  const auto n = tdmaps::map_named(m);
  return n && n->linear;
}
// The map an LTM on the papers' grid runs on the linear grid (ltm-r-sq → ltm-r); any other name as given.
inline std::string off_papers_grid(const std::string& m) {
  const auto n = tdmaps::map_named(m);
  return n && n->linear ? n->linear : m;
}
inline std::string on_grid(Grid g, const std::string& m) {
  const auto n = tdmaps::map_named(m);
  if (g != Grid::Papers || !n || n->family != tdmaps::map_family::ltm || n->linear) return m;
  return n->papers && !n->fast ? std::string(n->papers) : m + kPapersGridSuffix;
}
inline std::vector<std::string> on_grid(Grid g, std::vector<std::string> ms) {
  for (std::string& m : ms) m = on_grid(g, m);
  return ms;
}
// The families' maps by their types' names (tdmaps/registry.hpp), in the order the tables and legends show them.
inline std::vector<std::string> ltm(Grid g) {
  return on_grid(g, {tdmaps::LTM_R::name, tdmaps::LTM_E::name, tdmaps::LTM_X::name, tdmaps::LTM_N::name, tdmaps::LTM_D::name});
}
// RB: in the shared-memory kernels only the block-level form rb-b runs (a thread-level fold
// cannot share a tile); elsewhere rb, the papers' thread-level RB.
inline std::vector<std::string> rb(Kernel k) { return {k == Kernel::Shared ? tdmaps::RB_B::name : tdmaps::RB::name}; }
inline std::vector<std::string> rb() { return {tdmaps::RB::name}; }
inline std::vector<std::string> rec() { return {tdmaps::REC::name}; }
inline std::vector<std::string> utm() { return {tdmaps::UTM_N::name, tdmaps::UTM_X::name}; }

// ---- statistics over N ---------------------------------------------------------------------------
// "large N": N ≥ kLargeN (000 §V: the K40 maps converge "once N > 15000"); every median "over
// large N" of the claims, the report and the README is this one (README's words for it: partial `large_words` of
// readme.template.md).
inline double large_median(const Pts& p) { return med_from(p, kLargeN); }

// ---- tensor-core pairwise distances (gram.csv: layout::gram; peers_gram.csv: layout::peers_gram) -----
// One row by (N, d, precision, output, impl); nullptr when absent. README's gram block, its issue #27
// targets, the report's target rows and the gram figures all read through these.
inline const TableRow* gram(const std::vector<TableRow>& rows, const std::string& N, const std::string& d, const std::string& prec,
                       const std::string& output, const std::string& impl) {
  for (const TableRow& r : rows)
    if (r.s("N") == N && r.s("d") == d && r.s("precision") == prec && r.s("output") == output && r.s("impl") == impl)
      return &r;
  return nullptr;
}
// Our kernels scheduled by the map (gram::impl_of: impl gram::impl_name(Sched::ltm_e, k)): true and the
// kernel k; false for another impl (the bb-grid's, full-sm90-evt, the peers').
inline bool gram_ltm_kernel(const std::string& impl, gram::Kernel& k) {
  gram::Sched s = gram::Sched::bb;  // set by impl_of where it returns true
  return gram::impl_of(impl, s, k) && s == gram::Sched::ltm_e;
}
// The same, as the kernel's name (gram::name(k)); "" for another impl.
inline std::string gram_kernel(const std::string& impl) {
  gram::Kernel k;
  return gram_ltm_kernel(impl, k) ? gram::name(k) : "";
}
// The fastest of our LTM-E kernels at (N, d, precision, output): a row that failed its check
// (verified = 0) or has no median is left out; nullptr when none.
inline const TableRow* gram_best(const std::vector<TableRow>& rows, const std::string& N, const std::string& d,
                            const std::string& prec, const std::string& output) {
  const TableRow* best = nullptr;
  for (const TableRow& r : rows) {
    if (r.s("N") != N || r.s("d") != d || r.s("precision") != prec || r.s("output") != output) continue;
    if (gram_kernel(r.s("impl")).empty() || r.d("verified") == 0 || !(r.d("median_ms") > 0)) continue;
    if (!best || r.d("median_ms") < best->d("median_ms")) best = &r;
  }
  return best;
}
// The sizes of issue #27's targets: N ∈ {32768, 65536} × d ∈ {64, 128, 256}; the fused histogram's N and d.
inline const std::vector<std::string>& gram_target_N() {
  static const std::vector<std::string> v{"32768", "65536"};
  return v;
}
inline const std::vector<std::string>& gram_target_d() {
  static const std::vector<std::string> v{"64", "128", "256"};
  return v;
}
inline constexpr const char* kGramHistN = "1000000";
inline constexpr const char* kGramHistD = "128";

// ---- the Python package against its peers (peers_python.csv: layout::peers_python, issue #38) -----------
// One row by (N, d, impl, output); nullptr when absent. README's python block reads through these.
// prec: that precision alone (torch.cdist has a row of each); empty: the first row of any.
inline const TableRow* python(const std::vector<TableRow>& rows, const std::string& N, const std::string& d,
                         const std::string& impl, const std::string& output, const std::string& prec = "") {
  for (const TableRow& r : rows)
    if (r.s("N") == N && r.s("d") == d && r.s("impl") == impl && r.s("output") == output &&
        (prec.empty() || r.s("precision") == prec))
      return &r;
  return nullptr;
}
// Issue #38's sizes: the Python call's overhead over the C++ call at N = 1024, the "thin binding" at
// N = 32768, both at d = 128 (their bounds: 38-overhead and 38-thin of paper/targets.csv).
inline constexpr const char* kPythonOverheadN = "1024";
inline constexpr const char* kPythonThinN = "32768";
inline constexpr const char* kPythonD = "128";
// the names of the rows (tdmaps.pdist, the C++ call's impl, the outputs, the peers): python_names.hpp

}  // namespace pick_rows
}  // namespace results
