// paper/claims/report.hpp — paper/report.md, written from the CSVs, paper/reported.csv and
// the figures just drawn, so that no number in it is typed by hand.
#pragma once
#include "model.hpp"

#include <string>

namespace figs {

// Writes ctx.report; false (with *err) when the file cannot be written.
bool write_report(const Ctx& ctx, std::string* err);

}  // namespace figs
