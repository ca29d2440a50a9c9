// figures/captions.hpp — the figures' prose: each figure's caption and reading (report §4) live in the Markdown
// template figures/captions.template.md, one section per figure or family of figures; a draw function computes the
// numbers, names and lists, and fills the section's named slots (src/support/results/template.hpp) through emit().
//
// The file (its head says the same, for whoever edits it):
//   ## `name`, `name<slot>`, ...   a figure section: the figure names it serves; `<x>` in a name stands for one run
//                                  of letters and digits (fig5_edm_d<features>: fig5_edm_d1, fig5_edm_d4)
//   caption: ...                   the caption's template (required), up to the next part or heading
//   reading: ...                   the reading's template (optional: no reading)
//   ## partial `name`              a template the others include with {{> name}}
// Text before the first heading is the file's documentation. A rendered template is one paragraph: each line
// break (a run of them too), with the blanks around it, is one space (block tags alone on their line take their
// line).
// A figure whose name no section or more than one section serves, a section or partial that serves nothing, a
// syntax error: tdmaps_figures stops before drawing (exit 2; `--check-captions` checks only this). A slot the
// draw function does not fill: it stops when it draws that figure (exit 2).
#pragma once
#include "template.hpp"

#include <string>
#include <vector>

namespace figs {

namespace tmpl = results::tmpl;  // the template engine of the results layer (template.hpp)

struct CaptionSection {
  std::vector<std::string> names;  // the heading's names (patterns)
  std::string caption, reading;    // the templates ("" reading: none)
  bool has_reading = false;
  int line = 0;                    // the heading's line in the file
};

struct Captions {
  std::string path;
  std::vector<CaptionSection> sections;
  tmpl::Partials partials;
};

// Reads and parses `path`; false with *err (the path and line) when it cannot.
bool load_captions(const std::string& path, Captions* out, std::string* err);
// Parses the text of a captions file (`path` for messages only).
bool parse_captions(const std::string& text, const std::string& path, Captions* out, std::string* err);
// Whether the figure name `name` is of the pattern `pattern` (`<x>`: one run of letters and digits).
bool name_matches(const std::string& pattern, const std::string& name);
// What is wrong with the captions against the figure names `names` (the registry's): a name served by no section or
// by several, a section name serving none of them, a partial no template includes or one included and missing, a
// syntax error. Empty when nothing is.
std::vector<std::string> captions_problems(const Captions& c, const std::vector<std::string>& names);
// The caption and reading of figure `name` filled from `slots`; false with *err when no section or several serve it,
// or a slot, list or partial is not defined.
bool fill_captions(const Captions& c, const std::string& name, const tmpl::Scope& slots, std::string* caption,
                   std::string* reading, std::string* err);
// A rendered template as one paragraph: its leading and trailing line breaks dropped, each other line break (with
// the blanks around it; a run of them) one space.
std::string one_paragraph(const std::string& s);

}  // namespace figs
