// src/support/results/readme_template.hpp — the prose of README.md's generated blocks (readme.hpp): the Markdown
// template src/support/results/readme.template.md, one section per block (or part of one); readme.cpp,
// readme_gram.cpp, readme_python.cpp (and, for the claims block, paper/claims/readme_claims.cpp) compute the numbers,
// names, lists and flags and fill the section's named slots (template.hpp), as figures/captions.template.md serves the
// figures.
//
// The file (its head says the same, for whoever edits it):
//   ## `name`           a section: the template of block part `name`, up to the next heading; its blank lines at
//                       either end dropped, each of its lines ending in a line break
//   ## partial `name`   a template the sections include with {{> name}}
// Text before the first heading is the file's documentation.
// A section the code fills and the file lacks, a section or partial of the file that nothing fills or includes, a
// syntax error: tdmaps_figures --readme stops before writing anything (exit 2). A slot the code does not fill, or a
// section missing when it is filled: fill_readme throws ReadmeTemplateError, and tdmaps_figures stops (exit 2).
#pragma once
#include "template.hpp"

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace results {

struct ReadmeTemplate {
  std::string path;                             // "" until loaded
  std::map<std::string, std::string> sections;  // by name: the template
  tmpl::Partials partials;
};

struct ReadmeTemplateError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The names of the sections the blocks fill (readme.cpp, readme_gram.cpp, readme_python.cpp; `claims`:
// paper/claims/readme_claims.cpp).
const std::vector<std::string>& readme_section_names();

// Reads and parses `path`; false with *err (the path and line) when it cannot.
bool load_readme_template(const std::string& path, ReadmeTemplate* out, std::string* err);
// Parses the text of a template file (`path` for messages only).
bool parse_readme_template(const std::string& text, const std::string& path, ReadmeTemplate* out, std::string* err);
// What is wrong with a template file against the sections its code fills (`names`): a section missing ("no section
// `n` (<missing>)"), one that nothing fills ("section `n` is filled by no <filler>"), a partial that nothing includes
// or one included and missing. Empty when nothing is. README's (below) and the claims' notes
// (paper/claims/notes.cpp notes_template_problems) are this check with their names and words.
std::vector<std::string> template_problems(const ReadmeTemplate& t, const std::vector<std::string>& names,
                                           const std::string& missing, const std::string& filler);
// template_problems against readme_section_names().
std::vector<std::string> readme_template_problems(const ReadmeTemplate& t);
// Section `name` filled from `slots`; throws ReadmeTemplateError when the section is missing or a slot, list or
// partial is not defined.
std::string fill_readme(const ReadmeTemplate& t, const std::string& name, const tmpl::Scope& slots);

}  // namespace results
