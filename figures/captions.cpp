// figures/captions.cpp — figures/captions.template.md read, checked against the figure registry and filled
// (captions.hpp says the file's form).
#include "captions.hpp"

#include <fstream>
#include <regex>
#include <set>
#include <sstream>

namespace figs {
namespace {

bool is_blank(const std::string& s) { return s.find_first_not_of(" \t\r") == std::string::npos; }

// The lines [a, b) of `lines` without the blank lines at either end, joined with line breaks.
std::string body_of(const std::vector<std::string>& lines, size_t a, size_t b) {
  while (a < b && is_blank(lines[a])) ++a;
  while (b > a && is_blank(lines[b - 1])) --b;
  std::string s;
  for (size_t k = a; k < b; ++k) s += (k > a ? "\n" : "") + lines[k];
  return s;
}

// The names of a heading "`a`, `b<x>`" (nothing else but the separators ", "); false if it is not of that form.
bool heading_names(const std::string& h, std::vector<std::string>* names) {
  static const std::regex one("`([A-Za-z0-9_<>]+)`");
  static const std::regex all("`[A-Za-z0-9_<>]+`(, `[A-Za-z0-9_<>]+`)*");
  if (!std::regex_match(h, all)) return false;
  for (std::sregex_iterator it(h.begin(), h.end(), one), end; it != end; ++it) names->push_back((*it)[1]);
  return true;
}

bool valid_pattern(const std::string& p) {
  static const std::regex re("([A-Za-z0-9_]|<[A-Za-z0-9_]+>)+");
  return std::regex_match(p, re);
}

std::regex pattern_regex(const std::string& p) {
  static const std::regex slot("<[A-Za-z0-9_]+>");
  return std::regex(std::regex_replace(p, slot, "[A-Za-z0-9]+"));  // a valid pattern has nothing else to escape
}

std::vector<const CaptionSection*> serving(const Captions& c, const std::string& name) {
  std::vector<const CaptionSection*> v;
  for (const CaptionSection& s : c.sections)
    for (const std::string& p : s.names)
      if (name_matches(p, name)) {
        v.push_back(&s);
        break;
      }
  return v;
}

}  // namespace

bool name_matches(const std::string& pattern, const std::string& name) {
  if (pattern.find('<') == std::string::npos) return pattern == name;
  return std::regex_match(name, pattern_regex(pattern));
}

std::string one_paragraph(const std::string& s) {
  static const std::regex lead("^[ \t\r\n]+"), breaks("[ \t\r]*(\n[ \t\r]*)+");
  // the trailing line breaks go with the blanks after them; the blanks before the last one stay
  std::string t = std::regex_replace(s, lead, "");
  size_t e = t.size();
  for (;;) {
    size_t k = e;
    while (k > 0 && (t[k - 1] == ' ' || t[k - 1] == '\t' || t[k - 1] == '\r')) --k;
    if (k == 0 || t[k - 1] != '\n') break;
    e = k - 1;
  }
  t.erase(e);
  return std::regex_replace(t, breaks, " ");
}

bool parse_captions(const std::string& text, const std::string& path, Captions* out, std::string* err) {
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
  std::set<std::string> seen;
  for (size_t h = 0; h < heads.size(); ++h) {
    const size_t a = heads[h] + 1, b = h + 1 < heads.size() ? heads[h + 1] : lines.size();
    const std::string head = lines[heads[h]].substr(3);
    if (head.rfind("partial ", 0) == 0) {
      std::vector<std::string> n;
      if (!heading_names(head.substr(8), &n) || n.size() != 1 || n[0].find('<') != std::string::npos)
        return fail(heads[h], "a partial's heading is ## partial `name`");
      if (out->partials.count(n[0])) return fail(heads[h], "partial " + n[0] + " is defined twice");
      out->partials[n[0]] = body_of(lines, a, b);
      const std::string bad = tmpl::syntax_error(out->partials[n[0]]);
      if (!bad.empty()) return fail(heads[h], "partial " + n[0] + ": " + bad);
      continue;
    }
    CaptionSection s;
    s.line = int(heads[h] + 1);
    if (!heading_names(head, &s.names))
      return fail(heads[h], "a section's heading is ## `name`, `name<slot>`, ... (each name in backquotes)");
    for (const std::string& n : s.names) {
      if (!valid_pattern(n)) return fail(heads[h], "`" + n + "`: a name is letters, digits, _ and <slot>s");
      if (!seen.insert(n).second) return fail(heads[h], "`" + n + "` heads two sections");
    }
    // the parts: a line "caption:" or "reading:" (its text may follow on the line) up to the next part
    size_t cap = b, rd = b;
    for (size_t k = a; k < b; ++k) {
      const std::string& l = lines[k];
      for (const auto& [key, at] : {std::pair<const char*, size_t*>{"caption:", &cap}, {"reading:", &rd}})
        if (l.rfind(key, 0) == 0) {
          if (*at != b) return fail(k, std::string("a second ") + key + " in this section");
          *at = k;
        }
    }
    if (cap == b) return fail(heads[h], "section " + s.names[0] + " has no caption:");
    const size_t first = std::min(cap, rd);
    for (size_t k = a; k < first; ++k)
      if (!is_blank(lines[k])) return fail(k, "text before the section's caption: or reading: (a {{! comment}} goes in a template)");
    const auto part = [&](size_t at, const char* key) {
      const size_t end = at < cap && cap < b ? cap : at < rd && rd < b ? rd : b;
      std::vector<std::string> ls(lines.begin() + long(at), lines.begin() + long(end));
      ls[0] = ls[0].substr(std::string(key).size());
      return body_of(ls, 0, ls.size());
    };
    s.caption = part(cap, "caption:");
    s.has_reading = rd != b;
    if (s.has_reading) s.reading = part(rd, "reading:");
    for (const std::string* t : {&s.caption, &s.reading}) {
      const std::string bad = tmpl::syntax_error(*t);
      if (!bad.empty()) return fail(heads[h], "section " + s.names[0] + ": " + bad);
    }
    out->sections.push_back(std::move(s));
  }
  return true;
}

bool load_captions(const std::string& path, Captions* out, std::string* err) {
  std::string text;
  if (!tmpl::read_text(path, &text)) {
    *err = path + ": cannot be read (the figures' captions; tdmaps_figures --captions)";
    return false;
  }
  return parse_captions(text, path, out, err);
}

std::vector<std::string> captions_problems(const Captions& c, const std::vector<std::string>& names) {
  std::vector<std::string> bad;
  for (const std::string& n : names) {
    const std::vector<const CaptionSection*> v = serving(c, n);
    if (v.empty()) bad.push_back("figure " + n + " has no section (## `" + n + "` with its caption:)");
    if (v.size() > 1)
      bad.push_back("figure " + n + " is served by the sections of lines " + std::to_string(v[0]->line) + " and " +
                    std::to_string(v[1]->line));
  }
  for (const CaptionSection& s : c.sections)
    for (const std::string& p : s.names) {
      bool any = false;
      for (const std::string& n : names) any = any || name_matches(p, n);
      if (!any) bad.push_back("section `" + p + "` (line " + std::to_string(s.line) + ") serves no figure of the registry");
    }
  // the partials: each one included somewhere, each one included defined
  std::set<std::string> used;
  const auto scan = [&](const std::string& t, const std::string& where) {
    for (const std::string& p : tmpl::partials_included(t)) {
      used.insert(p);
      if (!c.partials.count(p)) bad.push_back(where + " includes {{> " + p + "}}, which is not defined");
    }
  };
  for (const CaptionSection& s : c.sections) {
    scan(s.caption, "section `" + s.names[0] + "`");
    scan(s.reading, "section `" + s.names[0] + "`");
  }
  for (const auto& [name, t] : c.partials) scan(t, "partial " + name);
  for (const auto& [name, t] : c.partials)
    if (!used.count(name)) bad.push_back("partial " + name + " is included by no template");
  return bad;
}

bool fill_captions(const Captions& c, const std::string& name, const tmpl::Scope& slots, std::string* caption,
                   std::string* reading, std::string* err) {
  const std::vector<const CaptionSection*> v = serving(c, name);
  if (v.size() != 1) {
    *err = c.path + ": " + (v.empty() ? "no section serves figure " + name : "several sections serve figure " + name);
    return false;
  }
  std::string why;
  *caption = one_paragraph(tmpl::render(v[0]->caption, slots, &why, &c.partials));
  if (!why.empty()) {
    *err = c.path + ":" + std::to_string(v[0]->line) + ": " + name + "'s caption: " + why;
    return false;
  }
  *reading = v[0]->has_reading ? one_paragraph(tmpl::render(v[0]->reading, slots, &why, &c.partials)) : "";
  if (!why.empty()) {
    *err = c.path + ":" + std::to_string(v[0]->line) + ": " + name + "'s reading: " + why;
    return false;
  }
  return true;
}

}  // namespace figs
