// src/support/results/model.cpp — see model.hpp.
#include "model.hpp"

#include <tdmaps/counts.hpp>
#include <tdmaps/registry.hpp>
#include "registry/experiments.hpp"  // the maps' traits and the experiments' lists (not installed)
#include "registry/map_names.hpp"     // a map by the name a CSV spells (its "-fast" kernel)
#include "registry/sdh_rungs.hpp"   // the SDH implementations' names and seed-report slots

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <set>

namespace fs = std::filesystem;

namespace results {

// ---- paper/reported.csv -----------------------------------------------------------------
PaperValue parse_value(const std::string& raw) {
  PaperValue v;
  v.text = trim(raw);
  std::string s = v.text;
  std::string cmp = "=";
  for (const char* c : {"<=", ">=", "<", ">", "~"}) {
    if (s.rfind(c, 0) == 0) {
      cmp = (std::string(c) == "~") ? "=" : c;
      s = trim(s.substr(std::string(c).size()));
      break;
    }
  }
  const double one = to_num(s);
  if (std::isfinite(one)) {
    v.cmp = cmp;
    v.lo = v.hi = one;
    return v;
  }
  // a range "a-b": the '-' follows a digit (not an exponent's 'e')
  for (size_t k = 1; k + 1 < s.size(); ++k) {
    if (s[k] == '-' && std::isdigit(static_cast<unsigned char>(s[k - 1]))) {
      const double a = to_num(trim(s.substr(0, k))), b = to_num(trim(s.substr(k + 1)));
      if (std::isfinite(a) && std::isfinite(b) && cmp == "=") {
        v.cmp = "range";
        v.lo = std::min(a, b);
        v.hi = std::max(a, b);
        return v;
      }
    }
  }
  return v;  // free text
}

namespace {
double& rho_slot() {
  static thread_local double rho = kRho;
  return rho;
}
}  // namespace
double current_rho() { return rho_slot(); }
RhoScope::RhoScope(double rho) : saved_(rho_slot()) { rho_slot() = rho; }
RhoScope::~RhoScope() { rho_slot() = saved_; }

const std::vector<std::string>& condition_names() {
  static const std::vector<std::string> v = {"grid", "rho", "N", "kernel", "features", "rounding", "gpu"};
  return v;
}
std::map<std::string, std::vector<Condition>> load_conditions(const std::string& path, std::string* why) {
  std::map<std::string, std::vector<Condition>> out;
  const std::optional<Table> t = read_table(path, results::layout::conditions, why);
  if (!t) return out;
  for (const TableRow& r : t->rows()) {
    Condition c;
    c.name = r.s("condition");
    c.ours = r.s("ours");
    c.fixed_by = r.s("fixed_by");
    const std::string rd = r.s("readings");
    size_t s = 0;
    while (!rd.empty() && s <= rd.size()) {
      size_t e = rd.find(';', s);
      if (e == std::string::npos) e = rd.size();
      const std::string x = trim(rd.substr(s, e - s));
      if (!x.empty()) c.readings.push_back(x);
      s = e + 1;
    }
    out[r.s("family")].push_back(c);
  }
  return out;
}

std::vector<Claim> load_claims(const std::string& path, std::string* why) {
  std::vector<Claim> out;
  const std::optional<Table> t = read_table(path, results::layout::reported, why);
  if (!t) return out;
  std::string cwhy;
  const auto conds = load_conditions((fs::path(path).parent_path() / results::layout::conditions.file).string(), &cwhy);
  const std::string miss = t->missing({"id", "seed_file", "section", "quantity", "paper_value", "unit", "gpu",
                                       "context", "figure"});
  if (!miss.empty() && why) *why = "lacks column(s) " + miss;
  for (const TableRow& r : t->rows()) {
    Claim c;
    c.id = r.s("id");
    if (c.id.empty()) continue;
    c.seed = r.s("seed_file");
    c.section = r.s("section");
    c.quantity = r.s("quantity");
    c.value = r.s("paper_value");
    c.unit = r.s("unit");
    c.gpu = r.s("gpu");
    c.context = r.s("context");
    c.figure = r.s("figure");
    c.family = r.s("conditions");
    if (const auto it = conds.find(c.family); it != conds.end()) c.conds = it->second;
    c.pv = parse_value(c.value);
    // figure: "fig[:series][@x]" items separated by ';'
    size_t s = 0;
    while (s <= c.figure.size()) {
      size_t e = c.figure.find(';', s);
      if (e == std::string::npos) e = c.figure.size();
      std::string item = trim(c.figure.substr(s, e - s));
      s = e + 1;
      if (item.empty()) continue;
      Mark m;
      const size_t at = item.find('@');
      if (at != std::string::npos) {
        m.x = to_num(item.substr(at + 1));
        item = item.substr(0, at);
      }
      const size_t colon = item.find(':');
      m.fig = item.substr(0, colon);
      if (colon != std::string::npos) m.series = item.substr(colon + 1);
      c.marks.push_back(m);
    }
    out.push_back(std::move(c));
  }
  return out;
}

// ---- results --------------------------------------------------------------------------------
const Table* GpuData::get_file(const std::string& file) const {
  auto it = cache.find(file);
  if (it == cache.end()) {
    std::string w;
    // through its layout (every file get() asks for has one), so that a misspelt column throws (csv.hpp)
    const results::Layout* l = results::layout_of(file);
    const std::string path = (fs::path(dir) / file).string();
    it = cache.emplace(file, l ? read_table(path, *l, &w) : read_table(path, &w)).first;
    if (!it->second) why[file] = w;
  }
  return it->second ? &*it->second : nullptr;
}
std::string GpuData::reason_file(const std::string& file) const {
  const auto it = why.find(file);
  return (fs::path(dir) / file).string() + ": " + (it == why.end() ? std::string("not read") : it->second);
}
std::vector<std::string> GpuData::files() const {
  std::vector<std::string> v;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return v;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.is_regular_file() && e.path().extension() == ".csv") v.push_back(e.path().filename().string());
  std::sort(v.begin(), v.end());
  return v;
}
std::vector<const results::Layout*> GpuData::layouts() const {
  std::vector<const results::Layout*> v;
  for (const std::string& f : files())
    if (const results::Layout* l = results::layout_of(f)) v.push_back(l);
  return v;
}
std::string GpuData::meta(const std::string& key) const {
  for (const results::Layout* l : layouts()) {
    const Table* t = get(*l);
    if (t && !t->meta_or(key).empty()) return t->meta_or(key);
  }
  return "";
}
std::string GpuData::name() const {
  const std::string n = meta("gpu");
  return n.empty() ? slug : n;
}

void Ctx::notice(const std::string& s) {
  notices.push_back(s);
  std::cerr << "note: " << s << "\n";
}
const Claim* Ctx::claim(const std::string& id) const {
  for (const Claim& c : claims)
    if (c.id == id) return &c;
  return nullptr;
}

namespace {
using namespace tdmaps;

template <class M>
std::optional<Counts> try_counts2(i64 N, int rho) {
  try {
    return counts2<M>(M::plan(N, rho));
  } catch (const unsupported&) {
    return std::nullopt;
  }
}
}  // namespace

const Wasted2& Ctx::wasted2() const {
  if (w2_) return *w2_;
  Wasted2 w;
  for (i64 N = 1024; N <= 30720; N += 1024) {
    const i64 n = ceil_div(N, kRho);
    w.N.push_back(double(N));
    w.n.push_back(double(n));
    // map M's counts, under its name (M::name)
    const auto put = [&](auto m) {
      using M = decltype(m);
      const std::optional<Counts> c = try_counts2<M>(N, kRho);
      w.wasted[M::name].push_back(c ? double(c->wasted_blocks()) : NAN);
      w.launched[M::name].push_back(c ? double(c->launched_blocks) : NAN);
    };
    put(BB{});
    put(LTM_E{});
    put(RB{});
    put(REC{});
    put(UTM_N{});
    // the paper's balanced grid: n' = ceil(sqrt(n(n+1)/2)) blocks per side (000 §III-A)
    const u64 T = tri(u64(n));
    u64 s = u64(std::sqrt(double(T)));  // refined to ceil(sqrt(T)) below
    while (s * s < T) ++s;
    while (s > 0 && (s - 1) * (s - 1) >= T) --s;
    w.balanced.push_back(double(s * s - T));
    try {
      const REC::Params p = REC::plan(N, kRho);
      w.rec_passes.push_back(p.passes);
      i64 m = N / kRho;  // the recursion levels k of N = m*2^k*rho, counted here, not read from the plan
      int k = 0;
      for (; m % 2 == 0; m /= 2) ++k;
      w.rec_k.push_back(k);
    } catch (const unsupported&) {
      w.rec_passes.push_back(NAN);
      w.rec_k.push_back(NAN);
    }
  }
  w2_ = std::move(w);
  return *w2_;
}

const Wasted3& Ctx::wasted3() const {
  if (w3_) return *w3_;
  Wasted3 w;
  std::vector<i64> ns;
  for (i64 n = 1; n <= 16; ++n) ns.push_back(n);
  for (i64 n : {20, 24, 32, 40, 48, 64, 80, 96, 112, 128}) ns.push_back(n);
  for (i64 n : ns) {
    const i64 N = n * kRho3;
    const Plan3 pb = BB3::plan(N, kRho3), pt = TET_E::plan(N, kRho3);
    const Counts cb = counts3<BB3>(pb), ct = counts3<TET_E>(pt);
    w.N.push_back(double(N));
    w.n.push_back(double(n));
    w.bb3_launched.push_back(double(cb.launched_blocks));
    w.bb3_wasted.push_back(double(cb.wasted_blocks()));
    w.tet_launched.push_back(double(ct.launched_blocks));
    w.tet_wasted.push_back(double(ct.wasted_blocks()));
    w.tet_wasted_threads.push_back(double(ct.wasted_threads()));
    w.bb3_wasted_threads.push_back(double(cb.wasted_threads()));
  }
  w3_ = std::move(w);
  return *w3_;
}

// ---- curves --------------------------------------------------------------------------------
bool selected(const TableRow& r, const Sel& s) {
  for (const auto& [col, val] : s.eq)
    if (r.has(col) && r.s(col) != val) return false;
  // unchecked (csv.hpp's *_opt): a Sel selects rows of tables of several layouts, some without rho, exact or verified
  if (std::isfinite(s.rho) && r.has_opt("rho") && r.d("rho") != s.rho) return false;
  if (s.exact_only && r.has_opt("exact") && r.s("exact") == "0") return false;
  if (s.exact_only && r.has_opt("verified") && r.s("verified") == "0") return false;
  return true;
}

double row_improvement(const TableRow& r) {
  const double i = r.d("I");
  if (std::isfinite(i)) return i;
  // unchecked (csv.hpp's *_opt): the 2D tables' BB column is bb_median_ms, the 3D tables' bb3_median_ms
  double bb = r.d_opt("bb_median_ms");
  if (!std::isfinite(bb)) bb = r.d_opt("bb3_median_ms");
  const double m = r.d("median_ms");
  return (std::isfinite(bb) && std::isfinite(m) && m > 0) ? bb / m : NAN;
}

double median(std::vector<double> v) {
  v.erase(std::remove_if(v.begin(), v.end(), [](double x) { return !std::isfinite(x); }), v.end());
  if (v.empty()) return NAN;
  std::sort(v.begin(), v.end());
  const size_t h = v.size() / 2;
  return v.size() % 2 ? v[h] : 0.5 * (v[h - 1] + v[h]);
}
double mean(const std::vector<double>& v) {
  double s = 0;
  size_t k = 0;
  for (double x : v)
    if (std::isfinite(x)) { s += x; ++k; }
  return k ? s / double(k) : NAN;
}

Pts curve(const Table& t, const Sel& s, const std::string& map, const std::string& ycol, const std::string& xcol) {
  std::map<double, std::vector<double>> by_x;
  for (const TableRow& r : t.rows()) {
    if (!map.empty() && r.has("map") && r.s("map") != map) continue;
    if (!map.empty() && !r.has("map")) continue;
    if (!selected(r, s)) continue;
    const double x = r.d(xcol);
    const double y = (ycol == "I") ? row_improvement(r) : r.d(ycol);
    if (std::isfinite(x) && std::isfinite(y)) by_x[x].push_back(y);
  }
  Pts p;
  for (const auto& [x, v] : by_x) p.emplace_back(x, median(v));
  return p;
}

std::vector<std::string> maps_in(const Table& t, const Sel& s) {
  std::set<std::string> m;
  for (const TableRow& r : t.rows())
    if (selected(r, s) && !r.s("map").empty()) m.insert(r.s("map"));
  return order_maps(std::vector<std::string>(m.begin(), m.end()));
}

std::vector<double> distinct(const Table& t, const std::string& col) {
  std::set<double> v;
  for (const TableRow& r : t.rows()) {
    const double x = r.d(col);
    if (std::isfinite(x)) v.insert(x);
  }
  return std::vector<double>(v.begin(), v.end());
}

double med_from(const Pts& p, double xmin) {
  std::vector<double> v;
  for (const auto& [x, y] : p)
    if (x >= xmin) v.push_back(y);
  return median(v);
}
std::pair<double, double> max_pt(const Pts& p) {
  std::pair<double, double> b{NAN, NAN};
  for (const auto& q : p)
    if (!std::isfinite(b.second) || q.second > b.second) b = q;
  return b;
}
std::pair<double, double> last_pt(const Pts& p) {
  return p.empty() ? std::pair<double, double>{NAN, NAN} : p.back();
}
std::vector<double> ys(const Pts& p) {
  std::vector<double> v;
  for (const auto& q : p) v.push_back(q.second);
  return v;
}

// ---- the display order of the maps --------------------------------------------------------------
namespace {
// the registry's order (tdmaps/registry.hpp), each fast EDM variant right after its map
const std::vector<std::string> kOrder = [] {
  std::vector<std::string> v;
  tdmaps::for_each_map(tdmaps::maps2d{}, [&](auto m) {
    using M = decltype(m);
    v.push_back(M::name);
    if (tdmaps::map_traits<M>::joins & tdmaps::experiment::fast) v.push_back(std::string(M::name) + tdmaps::fast_suffix);
  });
  tdmaps::for_each_map(tdmaps::maps3d{}, [&](auto m) { v.push_back(decltype(m)::name); });
  return v;
}();
}  // namespace

std::string base_map(const std::string& m) {
  const std::optional<tdmaps::named_map> n = tdmaps::map_named(m);
  return n && n->fast ? n->map : m;
}

std::string rel_to(const std::string& path, const std::string& from_file) {
  const fs::path a = fs::absolute(path).lexically_normal();
  const fs::path dir = fs::path(from_file).parent_path();  // "" for a file in the working folder
  const fs::path b = fs::absolute(dir.empty() ? fs::path(".") : dir).lexically_normal();
  const fs::path r = a.lexically_relative(b);
  return r.empty() ? path : r.generic_string();
}
bool in_map_order(const std::string& m) { return std::find(kOrder.begin(), kOrder.end(), m) != kOrder.end(); }

std::vector<std::string> order_maps(std::vector<std::string> maps) {
  const auto rank = [](const std::string& m) {
    const auto it = std::find(kOrder.begin(), kOrder.end(), m);
    return it == kOrder.end() ? kOrder.size() : size_t(it - kOrder.begin());
  };
  std::sort(maps.begin(), maps.end(), [&](const std::string& a, const std::string& b) {
    const size_t ra = rank(a), rb = rank(b);
    return ra != rb ? ra < rb : a < b;
  });
  return maps;
}

// ---- formatting -------------------------------------------------------------------------------
std::string fmt(double v, int prec) {
  if (!std::isfinite(v)) return "—";
  char b[64];
  std::snprintf(b, sizeof b, "%.*f", prec, v);
  return b;
}
std::string fmt_with(double v, const char* printf_format) {
  if (!std::isfinite(v)) return "—";
  char b[64];
  std::snprintf(b, sizeof b, printf_format, v);
  return b;
}
std::string fmt_g(double v, int sig) {
  if (!std::isfinite(v)) return "—";
  char b[64];
  std::snprintf(b, sizeof b, "%.*g", sig, v);
  return b;
}
std::string fmt_int(double v) {
  if (!std::isfinite(v)) return "—";
  const long long x = std::llround(v);
  std::string s = std::to_string(x < 0 ? -x : x), o;
  for (size_t k = 0; k < s.size(); ++k) {
    if (k && (s.size() - k) % 3 == 0) o += ',';
    o += s[k];
  }
  return (x < 0 ? "-" : "") + o;
}
std::string join(const std::vector<std::string>& v, const std::string& sep) {
  std::string o;
  for (size_t k = 0; k < v.size(); ++k) o += (k ? sep : "") + v[k];
  return o;
}

std::string sdh_slot(const std::string& impl) { return tdmaps::gpu::sdh::seed_slot(impl); }
bool sdh_seed_version(const std::string& impl) { return tdmaps::gpu::sdh::is_seed_version(impl); }
std::vector<std::string> sdh_slots() { return tdmaps::gpu::sdh::seed_slots(); }

}  // namespace results
