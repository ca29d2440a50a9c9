// paper/claims/test_claims.cpp — meson test `claims_rules`: every claim id of
// paper/reported.csv has a rule in the rule table (rules.cpp) and every rule a claim;
// ids are unique; and the verdict rule's directions (a bound on a gain, within noise).
#include "claims.hpp"
#include "rules.hpp"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>

int main(int argc, char** argv) {
  using namespace figs;
  if (argc != 2) {
    std::cerr << "usage: test_claims paper/reported.csv\n";
    return 2;
  }
  std::string why;
  const std::vector<Claim> claims = load_claims(argv[1], &why);
  int bad = 0;
  const auto fail = [&](const std::string& s) {
    std::cerr << "FAIL: " << s << "\n";
    ++bad;
  };
  if (claims.empty()) fail(std::string(argv[1]) + ": no claims (" + why + ")");
  std::set<std::string> ids;
  for (const Claim& c : claims) {
    if (!ids.insert(c.id).second) fail("claim id " + c.id + " appears twice in reported.csv");
    if (!has_rule(c.id)) fail("claim " + c.id + " has no rule in paper/claims/rules.cpp");
  }
  std::set<std::string> rids;
  for (const std::string& id : rule_ids()) {
    if (!rids.insert(id).second) fail("rule " + id + " appears twice in the rule table");
    if (!ids.count(id)) fail("rule " + id + " has no claim in reported.csv");
  }
  // every claim's conditions are data (paper/conditions.csv): a family with every condition, each
  // with the paper's words or "not stated"; a ρ the paper does not fix is read at 16 and 32, and the
  // rule must then depend on ρ (its text names the ρ it selects), else the readings are not real
  for (const Claim& c : claims) {
    if (c.family.empty()) {
      fail("claim " + c.id + " has no conditions family (column conditions of reported.csv)");
      continue;
    }
    if (c.conds.empty()) fail("claim " + c.id + ": family " + c.family + " is not in paper/conditions.csv");
    for (const std::string& n : condition_names()) {
      bool found = false;
      for (const Condition& k : c.conds)
        if (k.name == n) {
          found = true;
          if (k.fixed_by.empty()) fail("family " + c.family + ", condition " + n + ": no 'fixed_by' (the paper's words, or not stated)");
          if (k.fixed_by.rfind("not stated", 0) == 0 && k.readings.empty() && k.fixed_by.find("not measured") == std::string::npos &&
              k.fixed_by.find("our sweep") == std::string::npos && n != "N" && n != "kernel" && n != "rho")
            fail("family " + c.family + ", condition " + n + ": not stated by the paper but no readings given");
        }
      if (!found) fail("family " + c.family + " lacks condition " + n);
    }
    const std::vector<double> rhos = rho_readings(c);
    if (rhos.size() > 1 && rule_text_at(c.id, rhos[0]) == rule_text_at(c.id, rhos[1]))
      fail("claim " + c.id + " is read at several ρ but its rule does not depend on ρ: " + rule_text(c.id));
  }
  // the claims' data files: every row has the header's number of fields (a stray comma shifts a column)
  for (const std::string& f : {std::string(argv[1]),
                               (std::filesystem::path(argv[1]).parent_path() / "conditions.csv").string()}) {
    std::ifstream in(f);
    std::string line;
    size_t want = 0, n = 0;
    while (std::getline(in, line)) {
      if (line.empty() || line[0] == '#') continue;
      const size_t k = split_csv(line).size();
      if (++n == 1) want = k;
      else if (k != want) fail(f + " line " + std::to_string(n) + ": " + std::to_string(k) + " fields, the header has " + std::to_string(want));
    }
    if (n == 0) fail(f + ": empty or missing");
  }
  // the verdict rule's directions
  Claim c;
  c.unit = "x";
  c.value = "<=2";
  c.pv = parse_value(c.value);
  rules::Judge gain;
  gain.gain = true;
  if (rules::judge(c, 0.9, "", gain).verdict != "differs") fail("a slowdown satisfied a bound on a gain");
  if (rules::judge(c, 1.5, "", gain).verdict != "holds") fail("a gain within the bound did not hold");
  Claim e;
  e.unit = "I";
  e.value = "1";
  e.pv = parse_value(e.value);
  rules::Judge noisy;
  noisy.noise = 0.02;
  const Outcome o = rules::judge(e, 1.06, "", noisy);
  if (o.verdict != "differs" || !o.noise) fail("a verdict 0.01 beyond the tolerance with spread 0.02 is not 'within noise'");
  if (rules::judge(e, 1.2, "", noisy).noise) fail("a verdict far beyond its spread is marked 'within noise'");
  if (!bad) std::cout << "claims_rules: " << claims.size() << " claims, " << rids.size() << " rules: ok\n";
  return bad ? 1 : 0;
}
