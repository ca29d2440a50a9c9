// paper/claims/report_data.cpp — see report_data.hpp.
#include "report_data.hpp"
#include "claims.hpp"               // papers_dummy: the rule table's mark of a dummy-kernel claim
#include "registry/map_names.hpp"  // a map's family by name
#include "select.hpp"               // the dummy kernel's forms' names (pick_rows::form_name)

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;

namespace claims {

std::pair<double, double> reps_range(const Ctx& ctx) {
  double rmin = NAN, rmax = NAN;
  for (const GpuData& g : ctx.gpus)
    for (const results::Layout* l : g.layouts())
      if (const Table* t = g.get(*l))
        for (const TableRow& r : t->rows()) {
          // unchecked (csv.hpp's *_opt): every layout of the folder, not all with reps or map
          const double v = r.d_opt("reps");
          if (!std::isfinite(v) || r.s_opt("map") == results::kWriteBwMap) continue;
          if (!(v >= rmin)) rmin = v;
          if (!(v <= rmax)) rmax = v;
        }
  return {rmin, rmax};
}

std::string sanitizer_dir(const GpuData& g) { return (fs::path(g.dir) / "logs" / "sanitizer").string(); }

std::vector<SanitizerLog> sanitizer_logs(const GpuData& g) {
  std::vector<SanitizerLog> out;
  const fs::path dir = sanitizer_dir(g);
  if (!fs::is_directory(dir)) return out;
  std::vector<fs::path> logs;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".log") logs.push_back(e.path());
  std::sort(logs.begin(), logs.end());
  for (const fs::path& p : logs) {
    std::ifstream in(p);
    std::string line;
    SanitizerLog l{p.filename().string()};
    while (std::getline(in, line)) {
      if (line.find("ERROR SUMMARY:") != std::string::npos || line.find("RACECHECK SUMMARY:") != std::string::npos) {
        ++l.runs;
        if (line.find(": 0 errors") != std::string::npos || line.find(": 0 hazards") != std::string::npos) ++l.clean;
      }
    }
    out.push_back(l);
  }
  return out;
}

namespace {
// The largest N with a row of `map` under selection s, or `from` where none is larger (NaN: none at all).
double largest_n(const Table& t, const Sel& s, const std::string& map, double from = NAN) {
  double n = from;
  for (const TableRow& r : t.rows())
    if (r.s("map") == map && selected(r, s) && !(r.d("N") <= n)) n = r.d("N");
  return n;
}
// The rows of one (map, N) under selection s: the median of their times and of their launched blocks.
struct AtN {
  size_t rows = 0;
  double ms = NAN, blocks = NAN;  // median_ms, launched_blocks (median over the rows)
};
AtN median_at(const Table& t, const Sel& s, const std::string& map, double n) {
  std::vector<double> ms, lb;
  for (const TableRow& r : t.rows())
    if (r.s("map") == map && selected(r, s) && r.d("N") == n) {
      ms.push_back(r.d("median_ms"));
      lb.push_back(r.d("launched_blocks"));
    }
  return {ms.size(), median(ms), median(lb)};
}
// The form's selection of dummy.csv (every row where the table has no form column).
Sel form_sel(const Table& t, const std::string& form) {
  Sel s;
  if (t.has("form")) s.eq["form"] = form;
  return s;
}
const char* const kRateMaps[2] = {tdmaps::BB::name, tdmaps::LTM_R::name};  // the maps of the launch-rate rows: BB and the papers' LTM
}  // namespace

DummyHopper dummy_hopper(const Ctx& ctx) {
  DummyHopper d;
  d.forms = {pick_rows::form_name(pick_rows::Form::Store), pick_rows::form_name(pick_rows::Form::Cond)};
  std::vector<std::pair<const GpuData*, const Table*>> gs;
  for (const GpuData& g : ctx.gpus) {
    const Table* t = g.get(results::layout::dummy);
    if (t && t->missing({"N", "map", "median_ms"}).empty()) {
      gs.emplace_back(&g, t);
      d.usable.push_back(&g);
    } else {
      d.unusable.push_back({g.slug, t ? t->missing({"N", "map", "median_ms"}) : "", t ? "" : g.reason(results::layout::dummy)});
    }
  }
  if (!gs.empty()) {
    std::vector<std::string>& maps = d.maps;  // ltm-r first, then the other maps of any GPU
    for (const auto& [g, t] : gs) {
      Sel all;
      all.exact_only = false;
      for (const std::string& m : maps_in(*t, all))
        if (!tdmaps::in_family(m, tdmaps::map_family::bb) && std::find(maps.begin(), maps.end(), m) == maps.end()) maps.push_back(m);
    }
    maps = order_maps(maps);
    if (std::find(maps.begin(), maps.end(), tdmaps::LTM_R::name) != maps.end()) {
      maps.erase(std::find(maps.begin(), maps.end(), tdmaps::LTM_R::name));
      maps.insert(maps.begin(), tdmaps::LTM_R::name);
    }
    for (const auto& [g, t] : gs)
      for (const std::string& form : d.forms) {
        const Sel s = form_sel(*t, form);
        DummyHopper::ImprovementRow row{g, form, {}};
        for (const std::string& m : maps) row.improvement.push_back(med_from(curve(*t, s, m), kLargeN));
        d.improvement.push_back(row);
      }
    for (const auto& [g, t] : gs)
      for (const std::string& form : d.forms) {
        const Sel s = form_sel(*t, form);
        const double nmax = largest_n(*t, s, tdmaps::BB::name);  // the largest N with a BB row
        if (!std::isfinite(nmax)) continue;
        DummyHopper::RateRow row{g, form, nmax};
        for (int k = 0; k < 2; ++k) {
          const AtN a = median_at(*t, s, kRateMaps[k], nmax);
          row.ms[k] = a.ms;
          row.blocks[k] = a.blocks;
        }
        d.rates.push_back(row);
      }
  }
  // the papers' dummy-kernel numbers (Kepler): the claims the rule table marks as of the papers' dummy-kernel
  // comparison (claims.hpp: papers_dummy)
  for (const Claim& c : ctx.claims)
    if (papers_dummy(c.id) && c.pv.numeric()) d.kepler.push_back(&c);
  // the block-rate reading, from the same rows: the launch rates at the largest N with a BB row of the forms so far
  for (const auto& [g, t] : gs) {
    std::vector<double> rates;
    double ratio = NAN, nmax = NAN;
    for (const std::string& form : d.forms) {
      const Sel s = form_sel(*t, form);
      nmax = largest_n(*t, s, tdmaps::BB::name, nmax);
      double lb[2] = {NAN, NAN};
      for (int k = 0; k < 2; ++k) {
        const AtN a = median_at(*t, s, kRateMaps[k], nmax);
        if (a.rows > 0 && a.ms > 0) rates.push_back(a.blocks / a.ms / 1e6);
        lb[k] = a.blocks;
      }
      ratio = lb[0] / lb[1];
    }
    if (rates.size() < 2) continue;
    d.reading.push_back({g, *std::min_element(rates.begin(), rates.end()), *std::max_element(rates.begin(), rates.end()),
                         nmax, ratio});
  }
  if (const Table* mi = ctx.cpu.get(results::layout::map_instructions))
    for (const char* m : {tdmaps::LTM_R::name, tdmaps::LTM_E::name, tdmaps::LTM_R_SQ::name})
      for (const TableRow& r : mi->rows())
        if (r.s("map") == m && r.s("dim") == "2" && r.s("index_bits") == "32" && r.s("form") == pick_rows::form_name(pick_rows::Form::Cond))
          d.sass.emplace_back(m, r.s("map_instructions"));
  return d;
}

}  // namespace claims
