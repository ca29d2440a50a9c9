// figures/looks.cpp — see looks.hpp.
#include "looks.hpp"

#include <tdmaps/registry.hpp>
#include "registry/sdh_rungs.hpp"  // the seed report's versions and CPU slots (the SDH series)
#include "registry/experiments.hpp"  // the maps' traits and the experiments' lists (not installed)

#include <algorithm>
#include <map>

namespace figs {

namespace {
// Every map's style is a trait of the map (registry/traits.hpp, beside its policy); the other
// series (SDH versions, CPU) have theirs here.
const std::map<std::string, Style>& known_styles() {
  static const std::map<std::string, Style> known = [] {
    namespace sdh = tdmaps::gpu::sdh;
    const auto v = [](sdh::Ladder l) { return std::string(sdh::seed_version(l)); };
    std::map<std::string, Style> k = {
        {results::kWasted3dTet, {"#d62728", 9, 1}},  // wasted3d.csv's TET series (fig_exact)
        {sdh::cpu_st_impl.slot, {"#7f7f7f", 7, 1}}, {sdh::cpu_mt_impl.slot, {"#555555", 5, 1}},
        {v(sdh::Ladder::v1), {"#1f77b4", 7, 1}},    {v(sdh::Ladder::v2), {"#17becf", 5, 1}},
        {v(sdh::Ladder::v3), {"#9467bd", 9, 1}},    {v(sdh::Ladder::v4), {"#ff7f0e", 11, 1}},
        {v(sdh::Ladder::v5), {"#d62728", 13, 1}}};
    const auto add = [&](auto m) {
      using T = tdmaps::map_traits<decltype(m)>;
      k[decltype(m)::name] = Style{T::style.color, T::style.point, T::style.dash};
    };
    tdmaps::for_each_map(tdmaps::maps2d{}, add);
    tdmaps::for_each_map(tdmaps::maps3d{}, add);
    return k;
  }();
  return known;
}
bool is_registered(const std::string& map) {
  bool found = false;
  const auto one = [&](auto m) { found = found || map == decltype(m)::name; };
  tdmaps::for_each_map(tdmaps::maps2d{}, one);
  tdmaps::for_each_map(tdmaps::maps3d{}, one);
  return found;
}
}  // namespace
bool has_map_style(const std::string& map) {
  return (is_registered(map) || known_styles().count(base_map(map))) && in_map_order(map);
}
Style map_style(const std::string& map) {
  const std::map<std::string, Style>& known = known_styles();
  if (is_registered(map)) return known.at(map);
  static const std::vector<std::string> extra = {"#bcbd22", "#393b79", "#637939", "#843c39", "#7b4173",
                                                 "#3182bd", "#e6550d", "#31a354"};
  const std::string b = base_map(map);
  Style s;
  const auto it = known.find(b);
  if (it != known.end()) {
    s = it->second;
  } else {
    size_t h = 0;
    for (char c : b) h = h * 131 + size_t(static_cast<unsigned char>(c));
    s = Style{extra[h % extra.size()], 7 + 2 * int(h % 4), 1};
  }
  if (b != map) {  // a -fast variant: dashed, open points
    s.dt = 2;
    s.pt = s.pt - 1;
  }
  return s;
}

Series map_series(const std::string& map, const Pts& p, const std::string& label) {
  const Style st = map_style(map);
  Series s;
  s.label = label.empty() ? map : label;
  for (const auto& [x, y] : p) {
    s.x.push_back(x);
    s.y.push_back(y);
  }
  s.color = st.color;
  s.pt = st.pt;
  s.dt = st.dt;
  return s;
}

double add_marks(Panel& panel, const Ctx& ctx, const std::string& fig, double xright, std::vector<std::string>* ids) {
  struct Shape { int pt; std::string label; };
  const auto shape = [](const Claim& c) -> Shape {
    const std::string s = c.seed_short();
    if (s == "000") {
      if (c.gpu == "GTX 680") return {8, "paper 000, GTX 680"};
      if (c.gpu == "GTX 765M") return {4, "paper 000, GTX 765M"};
      if (c.gpu == "Tesla K40") return {12, "paper 000, Tesla K40"};
      return {6, "paper 000, Kepler GPUs"};
    }
    if (s == "001") return {10, "paper 001, GTX 680"};
    return {14, "paper " + s};
  };
  std::vector<std::string> columns;  // one x column per series right of the data
  std::map<int, std::string> used;
  std::map<std::string, Series> by_key;  // (shape, series, ranged) -> points
  std::vector<std::string> key_order;
  for (const Claim& c : ctx.claims) {
    if (!c.pv.numeric() || c.pv.cmp == "<" || c.pv.cmp == "<=" || c.pv.cmp == ">" || c.pv.cmp == ">=") continue;
    if (c.unit != "I" && c.unit != "%") continue;
    for (const Mark& m : c.marks) {
      if (m.fig != fig) continue;
      const auto conv = [&](double v) { return c.unit == "%" ? 1.0 + v / 100.0 : v; };
      double x = m.x;
      if (!std::isfinite(x)) {
        auto it = std::find(columns.begin(), columns.end(), m.series);
        if (it == columns.end()) {
          columns.push_back(m.series);
          it = columns.end() - 1;
        }
        x = xright * (1.035 + 0.035 * double(it - columns.begin()));
      }
      const Shape sh = shape(c);
      used[sh.pt] = sh.label;
      const bool ranged = c.pv.cmp == "range";
      const std::string key = std::to_string(sh.pt) + "|" + m.series + "|" + (ranged ? "r" : "p");
      if (!by_key.count(key)) {
        Series s;
        s.label = "";
        s.color = m.series.empty() ? "#555555" : map_style(m.series).color;
        s.pt = sh.pt;
        s.ps = 1.3;
        s.lw = 1.8;
        s.with = ranged ? "yerrorbars" : "points";
        by_key[key] = s;
        key_order.push_back(key);
      }
      Series& s = by_key[key];
      s.x.push_back(x);
      s.y.push_back(conv(ranged ? 0.5 * (c.pv.lo + c.pv.hi) : c.pv.lo));
      s.ylo.push_back(conv(c.pv.lo));
      s.yhi.push_back(conv(c.pv.hi));
      if (ids) ids->push_back(c.id);
    }
  }
  for (const std::string& k : key_order) panel.series.push_back(by_key[k]);
  for (const auto& [pt, label] : used) panel.keys.push_back(KeyEntry{label, pt, "#555555"});
  if (!columns.empty()) panel.vlines.push_back(VLine{xright * 1.015, "papers"});
  return columns.empty() ? xright : xright * (1.035 + 0.035 * double(columns.size()) + 0.01);
}


}  // namespace figs
