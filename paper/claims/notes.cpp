// paper/claims/notes.cpp — paper/notes.template.md read and filled (notes.hpp).
#include "notes.hpp"

#include <filesystem>
#include <map>

namespace claims {
namespace {

struct NotesFile {
  results::ReadmeTemplate t;
  std::string err;  // why it could not be read ("" when it was)
};
const NotesFile* g_notes = nullptr;  // the template in scope (NotesScope)

const NotesFile* notes_file(const std::string& path) {
  static std::map<std::string, NotesFile> cache;
  auto it = cache.find(path);
  if (it == cache.end()) {
    NotesFile f;
    if (!results::load_readme_template(path, &f.t, &f.err) && f.err.empty()) f.err = path + ": cannot be read";
    it = cache.emplace(path, std::move(f)).first;
  }
  return &it->second;
}

}  // namespace

std::string notes_template_path(const std::string& reported) {
  return (std::filesystem::path(reported).parent_path() / "notes.template.md").string();
}

NotesScope::NotesScope(const std::string& reported) : prev_(g_notes) { g_notes = notes_file(notes_template_path(reported)); }
NotesScope::~NotesScope() { g_notes = static_cast<const NotesFile*>(prev_); }

std::string note(const std::string& name, const tmpl::Scope& slots) {
  if (!g_notes) throw results::ReadmeTemplateError("note " + name + ": no notes template in scope (NotesScope)");
  if (!g_notes->err.empty()) throw results::ReadmeTemplateError(g_notes->err);
  const std::string text = results::fill_readme(g_notes->t, name, slots);
  // one paragraph: each line break a space (the section's lines end in one, the last dropped)
  std::string o;
  for (char c : text) o += c == '\n' ? ' ' : c;
  while (!o.empty() && o.back() == ' ') o.pop_back();
  return o;
}

const std::vector<std::string>& note_section_names() {
  static const std::vector<std::string> v = {"bound_blocks",      "bound_app",        "sdh_fill", "utm_radicand",
                                             "unmeasured_timing", "unmeasured_range", "binds", "binds_none"};
  return v;
}

std::vector<std::string> notes_template_problems(const results::ReadmeTemplate& t) {
  return results::template_problems(t, note_section_names(), "a rule fills it", "rule");
}

void add_why(Outcome& o, const std::string& cause) {
  o.reason += ". Why: " + cause;
  o.why = true;
}

}  // namespace claims
