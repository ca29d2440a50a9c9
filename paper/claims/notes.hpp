// paper/claims/notes.hpp — the prose of the rules' reasons (issue #39 item 4): the sections of
// paper/notes.template.md, filled by the one template engine (src/support/results/template.hpp) through the sectioned
// form of README's template (readme_template.hpp). A rule computes the numbers, names and flags of its reason and
// fills a section's named slots; the words are the template's. The sections and their slots:
//   bound_blocks, bound_app   kinds.cpp bound_note: the block-cost model of a map's I (dummy / sqrt; EDM / collision)
//   sdh_fill                  custom_sdh.cpp: how the paper's N fills this GPU and the paper's (v2/v3 predicted)
//   utm_radicand              custom_ranges.cpp: UTM's radicand at its first wrong N against Avril's domain
//   unmeasured_timing, unmeasured_range   rules.cpp: the cause of a "differs" that no measured number gives
//   binds                     targets.cpp binds_rule: what binds a kernel, from a row of ncu_gram.csv
#pragma once
#include "claims.hpp"
#include "readme_template.hpp"
#include "template.hpp"

#include <string>
#include <vector>

namespace claims {

// paper/notes.template.md, found beside paper/reported.csv (ctx.reported) as the report's template is.
std::string notes_template_path(const std::string& reported);

// While it lives, note() fills the notes template beside `reported` (read once a path); evaluate() and
// evaluate_targets() open one from ctx.reported.
class NotesScope {
 public:
  explicit NotesScope(const std::string& reported);
  ~NotesScope();
  NotesScope(const NotesScope&) = delete;
  NotesScope& operator=(const NotesScope&) = delete;

 private:
  const void* prev_;
};

// Section `name` of the notes template in scope filled from `slots`: one paragraph, its lines joined with one space.
// Throws results::ReadmeTemplateError when no template is in scope or it cannot be read, the section is missing or a
// slot is not defined (a claim's rule that throws says so in its verdict: rules.cpp evaluate_at).
std::string note(const std::string& name, const tmpl::Scope& slots);

// The sections the rules fill; what is wrong with a notes template against them (a section missing or filled by no
// rule, a partial included and missing or included by nothing). The test claims_rules checks the file.
const std::vector<std::string>& note_section_names();
std::vector<std::string> notes_template_problems(const results::ReadmeTemplate& t);

// The cause of a verdict, given in its reason: reason += ". Why: " + cause, and Outcome::why set (the "reason not
// measured" defaults of rules.cpp look at the field, not at the words).
void add_why(Outcome& o, const std::string& cause);

}  // namespace claims
