// src/support/results/model.hpp — the results layer: what the figure functions, the claim rules,
// the report and the README blocks share: the papers' reported values
// (paper/reported.csv), the results of each GPU (read lazily, by file and column name),
// curves of a quantity against N and the quantities computed from the map library itself.
// Below figures/ and paper/: it includes neither (the look of each map is figures/looks.hpp).
#pragma once
#include "csv.hpp"
#include "layouts.hpp"
#include "readme_template.hpp"

#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace results {

// ---- the rule parameters (printed in the report's method section) ------------------
constexpr int kRho = 16;            // block side of the claims: 001 §I "16×16", 000 Fig. 3 "ρ = 16"
constexpr double kLargeN = 15000;   // "large N" (000 §V: the K40 maps converge "once N > 15000")
constexpr double kTolI = 0.05;      // tolerance on an improvement factor I (or a ratio of I)
constexpr double kTolPct = 5.0;     // tolerance on an improvement in percent (points)
constexpr double kTolRel = 0.20;    // relative tolerance on times, speedups and sizes
constexpr int kRho3 = 8;            // block side of the 3D counts (rho^3 = 512 threads)

// ---- paper/reported.csv -------------------------------------------------------------
// paper_value grammar: [<|<=|>|>=|~] number  |  number-number (a range)  |  free text.
struct PaperValue {
  std::string cmp;  // "=", "<", "<=", ">", ">=", "range", or "" for text
  double lo = NAN, hi = NAN;
  std::string text;
  bool numeric() const { return !cmp.empty(); }
};
PaperValue parse_value(const std::string& s);

struct Mark {
  std::string fig, series;  // figure stem and map (or slot) the value belongs to
  double x = NAN;           // "@x": where on the x axis (NaN: at the right edge)
};

// One condition of a claim (paper/conditions.csv): the paper's words that fix it, or, where the
// paper does not, the readings computed side by side.
struct Condition {
  std::string name;      // grid, rho, N, kernel, features, rounding, gpu
  std::string ours;      // what our rows use
  std::string fixed_by;  // the paper's words (or "not stated ...", "n/a")
  std::vector<std::string> readings;  // empty: one reading (fixed, or the only one measured)
};
// The conditions' names every family gives, in order.
const std::vector<std::string>& condition_names();
// paper/conditions.csv: family -> its conditions (in file order); empty map on error (*why).
std::map<std::string, std::vector<Condition>> load_conditions(const std::string& path, std::string* why);

struct Claim {
  std::string id, seed, section, quantity, value, unit, gpu, context, figure;
  std::string family;               // column `conditions` of reported.csv: a family of paper/conditions.csv
  std::vector<Condition> conds;     // that family's conditions (load_claims fills them)
  // The readings of condition `name` ({} when fixed or absent).
  std::vector<std::string> readings_of(const std::string& name) const {
    for (const Condition& c : conds)
      if (c.name == name) return c.readings;
    return {};
  }
  PaperValue pv;
  std::vector<Mark> marks;
  std::string seed_short() const { return seed.substr(0, 3); }
};
std::vector<Claim> load_claims(const std::string& path, std::string* why);

// ---- results ------------------------------------------------------------------------
// A folder of results: its tables opened by layout (layouts.hpp) only, so that no reader names a file by a
// string.
struct GpuData {
  std::string slug, dir;
  // The table <dir>/<l.file>, or nullptr (reason(l) says why).
  const Table* get(const results::Layout& l) const { return get_file(l.file); }
  std::string reason(const results::Layout& l) const { return reason_file(l.file); }
  // First metadata value of `key` among this folder's tables ("" if none).
  std::string meta(const std::string& key) const;
  std::string name() const;  // the GPU's name from the metadata, else the slug
  std::vector<std::string> files() const;  // *.csv in dir, sorted
  // The layouts of this folder's CSVs, in files()' order; a CSV without a declared layout is left out
  // (the drift test's check_layouts fails on one).
  std::vector<const results::Layout*> layouts() const;

 private:
  mutable std::map<std::string, std::optional<Table>> cache;
  mutable std::map<std::string, std::string> why;
  const Table* get_file(const std::string& file) const;
  std::string reason_file(const std::string& file) const;
};

struct FigRec {
  std::string name;     // file stem
  std::string gpu;      // slug ("" for figures that need no GPU data)
  std::string png, svg; // paths as written
  std::string caption;  // what it shows
  std::string reading;  // generated from the data
  bool ok = false;
  std::string why;      // when skipped
};

// Library-derived counts (no GPU): 2D at rho 16 over the papers' sweep, 3D at rho 8.
struct Wasted2 {
  std::vector<double> N, n;
  std::map<std::string, std::vector<double>> wasted;    // per map; NaN where the map refuses N
  std::map<std::string, std::vector<double>> launched;  // per map
  std::vector<double> balanced;                          // paper's n'×n' LTM grid
  std::vector<double> rec_passes, rec_k;                 // REC launches and levels (NaN if N invalid)
};
struct Wasted3 {
  std::vector<double> N, n;
  std::vector<double> bb3_launched, bb3_wasted, tet_launched, tet_wasted;  // blocks
  std::vector<double> tet_wasted_threads, bb3_wasted_threads;
};

struct Ctx {
  std::string results = "experiments/results", out = "figures/out", report = "paper/report.md";
  std::string reported = results::repo_path(results::layout::reported);
  std::string cpu_exact = results::repo_path(results::layout::exact_ranges_cpu);
  std::string bib = "paper/references.bib";
  std::string report_template = "paper/report.template.md";  // the report's prose, with named slots
  std::string captions = "figures/captions.template.md";     // the figures' captions and readings, with named slots
  // README's generated blocks' prose, with named slots (readme_template.hpp); `readme` is it, loaded by tdmaps_figures
  std::string readme_template = "src/support/results/readme.template.md";
  ReadmeTemplate readme;
  bool svg = true;
  std::vector<Claim> claims;
  std::vector<GpuData> gpus;
  GpuData cpu;  // <results>/cpu
  std::optional<Table> cpu_exact_table;
  std::vector<std::string> notices;
  std::vector<FigRec> figs;
  // The report's figure order: (name, heading) of every figure the program knows, in order
  // (the figure registry, figures/figures.hpp, fills it: the report does not include figures/).
  std::vector<std::pair<std::string, std::string>> fig_order;
  bool gnuplot_ok = true;
  std::string cpu_check;  // <results>/cpu/wasted3d.csv against the map library ("" if not checked)

  void notice(const std::string& s);
  const Claim* claim(const std::string& id) const;
  const Wasted2& wasted2() const;
  const Wasted3& wasted3() const;

 private:
  mutable std::optional<Wasted2> w2_;
  mutable std::optional<Wasted3> w3_;
};

// ---- the block side of the reading being evaluated ---------------------------------------------
// kRho unless a RhoScope is active: a claim whose ρ the paper does not fix is evaluated once per
// reading (paper/conditions.csv), each inside a RhoScope; every Sel made meanwhile selects that ρ.
double current_rho();
struct RhoScope {
  explicit RhoScope(double rho);
  ~RhoScope();
  RhoScope(const RhoScope&) = delete;
  RhoScope& operator=(const RhoScope&) = delete;

 private:
  double saved_;
};

// ---- curves ---------------------------------------------------------------------------
using Pts = std::vector<std::pair<double, double>>;  // (x, y), sorted by x

// TableRow filter: column == value for each entry of eq (a column the table lacks is
// ignored), rho == this (when the table has rho; NaN = any), and, unless exact_only
// is false, not exact == 0 nor verified == 0.
struct Sel {
  std::map<std::string, std::string> eq;
  double rho = current_rho();
  bool exact_only = true;
};
bool selected(const TableRow& r, const Sel& s);
// The improvement factor of a row: column I, else bb_median_ms (or bb3_median_ms) / median_ms.
double row_improvement(const TableRow& r);
// y (a column, or "I") against N for one map; rows of one N are merged by median.
Pts curve(const Table& t, const Sel& s, const std::string& map, const std::string& ycol = "I",
          const std::string& xcol = "N");
std::vector<std::string> maps_in(const Table& t, const Sel& s);  // in display order
std::vector<double> distinct(const Table& t, const std::string& col);

double median(std::vector<double> v);
double mean(const std::vector<double>& v);
double med_from(const Pts& p, double xmin);  // median of y over x >= xmin
std::pair<double, double> max_pt(const Pts& p);  // (x, y) of the largest y; NaN if empty
std::pair<double, double> last_pt(const Pts& p); // at the largest x
std::vector<double> ys(const Pts& p);

// ---- the display order of the maps -----------------------------------------------------------
// Maps in the drawing / table order (kOrder of model.cpp), unknown ones last by name.
std::vector<std::string> order_maps(std::vector<std::string> maps);
// Whether `map` has a place in that order; a "-fast" variant's base map.
bool in_map_order(const std::string& map);
std::string base_map(const std::string& map);
// `path` as a link from the file `from_file` (README's gallery, the report's figures): relative to
// its folder, generic separators.
std::string rel_to(const std::string& path, const std::string& from_file);

// ---- formatting -----------------------------------------------------------------------
std::string fmt(double v, int prec = 3);   // fixed decimals; "—" for NaN
std::string fmt_g(double v, int sig = 4);  // significant digits
std::string fmt_with(double v, const char* printf_format);  // one double by a printf format ("%.2f×"); "—" for NaN
std::string fmt_int(double v);             // thousands separated by commas
std::string join(const std::vector<std::string>& v, const std::string& sep);

// ---- the papers' SDH ladder -------------------------------------------------------------
// Slot ("cpu", "cpu-mt", "v1".."v5") of an implementation name, or "": the list of SDH implementations' facts
// (registry/sdh_rungs.hpp seed_slot: the CPU loops' slots, the ladder rungs' seed versions).
std::string sdh_slot(const std::string& impl);
// Whether an implementation is one of the seed report's GPU versions V1..V5 (registry/sdh_rungs.hpp is_seed_version).
bool sdh_seed_version(const std::string& impl);
// The slots in the seed report's order: cpu, cpu-mt, v1..v5 (registry/sdh_rungs.hpp seed_slots).
std::vector<std::string> sdh_slots();

}  // namespace results
