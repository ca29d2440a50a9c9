// src/support/results/template.hpp — a Markdown template filled from named slots: the report's
// (paper/report.template.md, paper/claims/report.cpp), the figures' captions (figures/captions.template.md) and README's
// generated blocks (src/support/results/readme.template.md, readme_template.hpp). Here, in the results layer, so that
// the README blocks below paper/ and figures/ take it too; namespace results::tmpl (figs reaches it as tmpl::).
//
// The prose lives in the templates; the C++ only fills the slots with numbers, names and tables.
// Syntax (a small subset of Mustache / Handlebars):
//   {{name}}  {{name:arg}}              a value of the current scope or of an enclosing one
//   {{#if name}} … {{else}} … {{/if}}   the first part when `name` is a non-empty value or a non-empty list
//   {{#if !name}} … {{/if}}             the negation
//   {{#if name=word}} … {{/if}}         the first part when the value `name` is `word` ({{#if !name=word}}: is not)
//   {{#each name}} … {{/each}}          the body once per item of the list `name`, each item a scope of its own
//   {{#each name sep=", "}} … {{/each}} the same, the separator between the items
//   {{! a comment }}                    removed
//   {{> name}}                          the partial `name` (render's `partials`) filled from the current scope, its
//                                       output without its leading and trailing line breaks (figures/captions.cpp)
// A block tag ({{#…}}, {{/…}}, {{else}}, {{!…}}) alone on its line removes that line; a value alone on its line
// removes the line when the value is empty. A slot that the data does not define is an error (report not written).
#pragma once

#include <map>
#include <string>
#include <vector>

namespace results {
namespace tmpl {

// The data of one scope: values by name ("name" or "name:arg") and lists of sub-scopes by name.
struct Scope {
  std::map<std::string, std::string> vals;
  std::map<std::string, std::vector<Scope>> lists;

  Scope& set(const std::string& name, std::string v) {
    vals[name] = std::move(v);
    return *this;
  }
  Scope& flag(const std::string& name, bool on) { return set(name, on ? "1" : ""); }
  std::vector<Scope>& list(const std::string& name) { return lists[name]; }
  Scope& add(const std::string& name) { return lists[name].emplace_back(); }
};

// Templates by name, that {{> name}} includes.
using Partials = std::map<std::string, std::string>;

// The template filled from `data`; "" with *err on a syntax error, an undefined slot or an unknown partial.
std::string render(const std::string& text, const Scope& data, std::string* err, const Partials* partials = nullptr);

// "" when `text` parses (its tags and blocks), else the syntax error; no slot is looked up.
std::string syntax_error(const std::string& text);

// A Markdown file of templates in sections (figures/captions.template.md, readme.template.md): its lines (a
// trailing CR dropped) and the indices of the lines that start a section ("## ...").
struct Sections {
  std::vector<std::string> lines;
  std::vector<size_t> heads;
};
Sections split_sections(const std::string& text);
// The whole of a template file, byte for byte; false where it cannot be read.
bool read_text(const std::string& path, std::string* text);
// The names of the partials `text` includes ({{> name}}), in order, each once: the files' checks (every partial
// included is defined, every one defined is included) scan with it.
std::vector<std::string> partials_included(const std::string& text);

}  // namespace tmpl
}  // namespace results
