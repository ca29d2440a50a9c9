// paper/claims/report.hpp — paper/report.md, written from the CSVs, paper/reported.csv and
// the figures just drawn, so that no number in it is typed by hand.
#pragma once
#include "model.hpp"

#include <string>

namespace figs {

// Writes ctx.report; false (with *err) when the file cannot be written.
bool write_report(const Ctx& ctx, std::string* err);
// README's claims block (<!-- claims:begin/end -->): the verdict tally of every GPU column and the
// claims that depend on the reading, computed by the same evaluate() as the report's §5.
std::string readme_claims_block(const Ctx& ctx);

}  // namespace figs
