// paper/claims/report.hpp — paper/report.md, written from the CSVs, paper/reported.csv and
// the figures just drawn, so that no number in it is typed by hand: the prose is the template
// paper/report.template.md (ctx.report_template), report.cpp fills its slots.
#pragma once
#include "claims.hpp"
#include "model.hpp"
#include "template.hpp"

#include <string>
#include <vector>

namespace claims {
using namespace results;  // the results layer (src/support/results/), which the claims build on

// Writes ctx.report from ctx.report_template; false (with *err) when the template cannot be read or
// filled (a slot it names that the report does not define) or the report cannot be written.
bool write_report(const Ctx& ctx, std::string* err);
// README's claims block (<!-- claims:begin/end -->): the verdict tally of every GPU column and the
// claims that depend on the reading, computed by the same evaluate() as the report's §5; its words: section `claims`
// of src/support/results/readme.template.md (ctx.readme). Throws ReadmeTemplateError as fill_readme does.
std::string readme_claims_block(const Ctx& ctx);

// The slots of the verdict tally, split by what a verdict rests on (out[i][k] is claim i's outcome on column k of
// cols): list tally_col (each GPU column: name, slug; both "" for a column without GPU data), list tally_row (each
// verdict: verdict, list cell of n and noise, the GPU columns then the library / CPU one; noise "" when none) and list
// tally_total (n, by column); out empty (no claims): the three lists empty. The table's form and header are the
// templates' (README's section `claims`, the report's §5). readme_claims.cpp.
void tally_slots(tmpl::Scope& s, const Ctx& ctx, const std::vector<std::vector<Outcome>>& out,
                 const std::vector<const GpuData*>& cols);

}  // namespace claims
