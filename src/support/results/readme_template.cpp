// src/support/results/readme_template.cpp — readme.template.md read, checked and filled (readme_template.hpp).
#include "readme_template.hpp"

#include <algorithm>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

namespace results {
namespace {

bool blank_line(const std::string& s) { return s.find_first_not_of(" \t\r") == std::string::npos; }

}  // namespace

const std::vector<std::string>& readme_section_names() {
  static const std::vector<std::string> v = {"results", "results_none", "targets", "claims", "maps",
                                             "rounding", "gram", "gram_none", "python"};
  return v;
}

bool parse_readme_template(const std::string& text, const std::string& path, ReadmeTemplate* out, std::string* err) {
  out->path = path;
  out->sections.clear();
  out->partials.clear();
  const tmpl::Sections sec = tmpl::split_sections(text);  // its lines and "## " headings
  const std::vector<std::string>& lines = sec.lines;
  const std::vector<size_t>& heads = sec.heads;
  const auto fail = [&](size_t k, const std::string& what) {
    *err = path + ":" + std::to_string(k + 1) + ": " + what;
    return false;
  };
  static const std::regex head("## (partial )?`([A-Za-z0-9_-]+)`");
  for (size_t h = 0; h < heads.size(); ++h) {
    std::smatch m;
    if (!std::regex_match(lines[heads[h]], m, head))
      return fail(heads[h], "a heading is ## `name` (a section) or ## partial `name`");
    const bool partial = m[1].matched;
    const std::string name = m[2];
    size_t a = heads[h] + 1, b = h + 1 < heads.size() ? heads[h + 1] : lines.size();
    while (a < b && blank_line(lines[a])) ++a;
    while (b > a && blank_line(lines[b - 1])) --b;
    std::string body;
    for (size_t k = a; k < b; ++k) body += lines[k] + "\n";
    const std::string bad = tmpl::syntax_error(body);
    if (!bad.empty()) return fail(heads[h], (partial ? "partial " : "section ") + name + ": " + bad);
    auto& into = partial ? out->partials : out->sections;
    if (into.count(name)) return fail(heads[h], (partial ? "partial " : "section ") + name + " is defined twice");
    into[name] = body;
  }
  return true;
}

bool load_readme_template(const std::string& path, ReadmeTemplate* out, std::string* err) {
  std::string text;
  if (!tmpl::read_text(path, &text)) {
    *err = path + ": cannot be read";
    return false;
  }
  return parse_readme_template(text, path, out, err);
}

std::vector<std::string> template_problems(const ReadmeTemplate& t, const std::vector<std::string>& names,
                                           const std::string& missing, const std::string& filler) {
  std::vector<std::string> v;
  for (const std::string& n : names)
    if (!t.sections.count(n)) v.push_back("no section `" + n + "` (" + missing + ")");
  std::set<std::string> included;
  for (const auto& [n, body] : t.sections) {
    if (std::find(names.begin(), names.end(), n) == names.end())
      v.push_back("section `" + n + "` is filled by no " + filler);
    for (const std::string& p : tmpl::partials_included(body)) included.insert(p);
  }
  for (const auto& [n, body] : t.partials)
    for (const std::string& p : tmpl::partials_included(body)) included.insert(p);
  for (const std::string& p : included)
    if (!t.partials.count(p)) v.push_back("partial `" + p + "` is included and not defined");
  for (const auto& [n, body] : t.partials)
    if (!included.count(n)) v.push_back("partial `" + n + "` is included by no section");
  return v;
}

std::vector<std::string> readme_template_problems(const ReadmeTemplate& t) {
  return template_problems(t, readme_section_names(), "README's blocks fill it", "block (readme_section_names)");
}

std::string fill_readme(const ReadmeTemplate& t, const std::string& name, const tmpl::Scope& slots) {
  const auto s = t.sections.find(name);
  if (s == t.sections.end())
    throw ReadmeTemplateError((t.path.empty() ? std::string("the README template (not loaded)") : t.path) +
                              ": no section `" + name + "`");
  std::string err;
  std::string out = tmpl::render(s->second, slots, &err, &t.partials);
  if (!err.empty()) throw ReadmeTemplateError(t.path + ": section `" + name + "`: " + err);
  return out;
}

}  // namespace results
