// paper/claims/test_claims.cpp — meson test `claims_rules`: every claim id of
// paper/reported.csv has a rule in the rule table (rules.cpp) and every rule a claim;
// ids are unique; and the verdict rule's directions (a bound on a gain, within noise).
#include "claims.hpp"
#include "rules.hpp"

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
