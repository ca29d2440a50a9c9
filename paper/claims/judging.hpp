// paper/claims/judging.hpp — THE JUDGING RULES: how a claim of a given kind is read, stated once and applied to
// every claim of that kind (issue #35 item 4). Each rule names where it is applied; test_claims.cpp
// (meson test `claims_rules`) checks each on the claim table and on synthetic rows. The report's method section
// prints judging_rules() as they are here.
#pragma once
#include "model.hpp"

#include <string>
#include <utility>
#include <vector>

namespace claims {
using namespace results;  // the results layer (src/support/results/), which the claims build on

// 1. An upper bound is judged as one: a bound the paper derives ("≤ X", "< X", "≈ X ≤ Y", an analysis's "up to X" as
//    the limit of its formula) holds when ours ≤ X (never X ± a tolerance, which would let a value above the ceiling
//    hold). A measured "up to X" (the largest value the paper observed in its own runs) is a maximum, not a bound: our
//    largest value is judged against it within the tolerance. Applied in layout_2f (custom_tet.cpp: eq. (10)'s
//    "≈ 2 − F ≤ 2" judged, eq. (7)'s "at least" shown) and by judge() for every claim whose value is "<" or "<=".
inline constexpr const char* kBoundRule =
    "an upper bound the paper derives is judged as one: ours must not exceed it (no tolerance above a ceiling); a "
    "measured \"up to X\" is the paper's observed maximum, judged against our maximum within the tolerance";

// 2. A citation of other work is context, unless the citing paper measured it: column gpu of reported.csv starts
//    with "cited" and does not say "measured by" the citing paper. Applied by evaluate() (rules.cpp) to every claim.
inline constexpr const char* kCitationRule =
    "a citation of other work that the citing paper did not measure is context (ours shown, no vote)";
inline bool is_citation(const Claim& c) {
  return c.gpu.rfind("cited", 0) == 0 && c.gpu.find("measured by") == std::string::npos;
}

// 3. A paper that defines its own term fixes the reading: where the paper says what it means by a word (001 §II-A
//    on LTM's unnecessary blocks: "conditional statements will only occur when the block lies on the diagonal"),
//    that meaning is judged and any other reading is shown as a note. Applied through fixed_reading() (custom.cpp),
//    as for the grid both papers fix.
inline constexpr const char* kOwnTermRule =
    "a paper that defines its own term fixes the reading: that meaning is judged, other readings are shown without a vote";

// 4. "Faster than" is best against best: a sentence that says A is k× faster than B compares A's fastest
//    configuration with B's fastest (same run, same sizes); the improvement factor I at an equal block side is a
//    different quantity and is named as such. Applied in README's sentences (src/support/results/readme.cpp).
inline constexpr const char* kBestRule =
    "\"faster than\" compares best with best (each side's fastest configuration); I at an equal ρ is named as I";

// 5. A statement "for the whole range of N" (or "at low N") is judged per N: it holds only if it holds at every N of
//    the range, the N where it fails are named, and the trend over N is shown. Applied by below_one() (kinds.cpp)
//    and the low-N rules (St::Max over N ≤ the bound).
inline constexpr const char* kPerNRule =
    "a statement over the whole range of N (or at low N) is judged per N, naming the N where it fails and showing the trend";

// 6. A claim that compares GPUs, or that holds on one GPU and not the other, is judged on the same rows on every GPU:
//    a row selection that depends on the GPU (e.g. rows near the bandwidth) is intersected over the GPUs before
//    judging. Applied in layout_2f (custom_tet.cpp); the report lists the claims whose verdicts still differ between
//    GPUs.
inline constexpr const char* kSameRowsRule =
    "a claim compared across GPUs is judged on the same rows (the same N and ρ) on every GPU";

inline std::vector<std::pair<std::string, std::string>> judging_rules() {
  return {{"upper bound", kBoundRule},        {"citation", kCitationRule}, {"own term", kOwnTermRule},
          {"faster than", kBestRule},         {"whole range of N", kPerNRule}, {"across GPUs", kSameRowsRule}};
}

}  // namespace claims
