// paper/claims/targets.cpp — see targets.hpp.
#include "targets.hpp"

#include "rules.hpp"

#include <filesystem>

namespace figs {

std::string targets_path(const Ctx& ctx) {
  return (std::filesystem::path(ctx.reported).parent_path() / "targets.csv").string();
}

std::vector<Target> load_targets(const std::string& path, std::string* why) {
  std::vector<Target> out;
  const std::optional<Table> t = read_table(path, why);
  if (!t) return out;
  const std::string miss = t->missing({"id", "issue", "target", "value", "unit", "csv", "how"});
  if (!miss.empty()) {
    if (why) *why = path + " lacks column(s) " + miss;
    return out;
  }
  for (const Row& r : t->rows()) {
    Target x{r.s("id"), r.s("issue"), r.s("target"), r.s("value"), r.s("unit"), r.s("csv"), r.s("how"), {}};
    if (x.id.empty()) continue;
    x.pv = parse_value(x.value);
    out.push_back(x);
  }
  return out;
}

namespace {
// The target as a claim, so that judge() reads it as it reads a paper's value.
Claim as_claim(const Target& t) {
  Claim c;
  c.id = t.id;
  c.quantity = t.target;
  c.value = t.value;
  c.unit = t.unit;
  c.pv = t.pv;
  return c;
}
std::string met(const Outcome& o) {
  return o.verdict == "holds" ? "met" : o.verdict == "differs" ? "missed" : o.verdict;
}

// 26-sdh: the fastest version of sdh.csv at N = 10⁶ (pairs_per_s).
bool sdh_at_1M(const Target& x, const GpuData& g, TargetResult* res) {
  const Table* t = g.get(x.csv);
  if (!t) return false;
  const Row* best = nullptr;
  const std::vector<Row> rows = t->rows();  // a copy: keep it alive for `best`
  for (const Row& r : rows)
    if (r.d("N") == 1e6 && (!best || r.d("pairs_per_s") > best->d("pairs_per_s"))) best = &r;
  if (!best) return false;
  const double v = best->d("pairs_per_s");
  res->kernel = "`" + best->s("impl") + "` (`" + x.csv + "`, commit " + t->meta_or("commit", "?") + ")";
  res->measured = fmt_g(v, 4) + " (" + fmt(100 * v / x.pv.lo, 1) + " % of the target)";
  res->outcome = rules::judge(as_claim(x), v, res->measured);
  res->verdict = met(res->outcome);
  return true;
}
}  // namespace

std::vector<TargetResult> evaluate_targets(const std::vector<Target>& targets, const Ctx& ctx) {
  std::vector<TargetResult> out;
  for (const Target& x : targets) {
    if (x.id != "26-sdh") continue;  // the one rule here so far (the Gram targets: gram_targets(), readme_gram.cpp)
    for (const GpuData& g : ctx.gpus) {
      TargetResult r{&x, &g, "", "", "", {}};
      if (sdh_at_1M(x, g, &r)) out.push_back(r);
    }
  }
  return out;
}

}  // namespace figs
