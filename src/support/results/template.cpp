// src/support/results/template.cpp — the template filler of template.hpp.
#include "template.hpp"

#include <algorithm>
#include <fstream>
#include <regex>
#include <sstream>

namespace results {
namespace tmpl {
namespace {

struct Node {
  enum Kind { Text, Value, If, Each, Partial };
  explicit Node(Kind k, std::string t = "") : kind(k), text(std::move(t)) {}
  Kind kind;
  std::string text;      // Text: the text; Value / If / Each / Partial: the name
  std::string sep;       // Each: the separator
  bool neg = false;      // If: {{#if !name}}
  bool eq = false;       // If: {{#if name=word}} (the word in `sep`)
  bool alone = false;    // Value: alone on its line (the line goes when the value is empty)
  bool nl = false;       // Value alone on its line: the line ended with a newline
  std::vector<Node> body, other;  // If: then / else; Each: the body
};

bool blank(const std::string& s, size_t a, size_t b) {
  for (size_t i = a; i < b; ++i)
    if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r') return false;
  return true;
}

std::string trim(std::string s) {
  while (!s.empty() && s.front() == ' ') s.erase(s.begin());
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

// Parses `s` into a tree; false with *err on a syntax error.
bool parse(const std::string& s, std::vector<Node>* root, std::string* err) {
  struct Open {
    std::vector<Node>* into;  // where the node's children go now
    Node* node;
    std::string tag;
  };
  std::vector<Open> stack;
  std::vector<Node>* cur = root;
  std::string text;
  size_t i = 0;
  const auto line_of = [&](size_t at) { return std::to_string(1 + std::count(s.begin(), s.begin() + at, '\n')); };
  const auto flush = [&] {
    if (!text.empty()) cur->push_back(Node(Node::Text, text));
    text.clear();
  };
  while (i < s.size()) {
    const size_t p = s.find("{{", i);
    if (p == std::string::npos) {
      text += s.substr(i);
      break;
    }
    const size_t e = s.find("}}", p + 2);
    if (e == std::string::npos) {
      if (err) *err = "line " + line_of(p) + ": {{ without }}";
      return false;
    }
    const std::string tag = trim(s.substr(p + 2, e - p - 2));
    const size_t q = e + 2;
    const size_t ls = s.rfind('\n', p) == std::string::npos ? 0 : s.rfind('\n', p) + 1;
    const size_t le = s.find('\n', q) == std::string::npos ? s.size() : s.find('\n', q);
    const bool alone = blank(s, ls, p) && blank(s, q, le);
    text += s.substr(i, p - i);
    size_t next = q;
    if (alone) {  // the line's indentation, and for a block tag the rest of the line with its newline
      text.erase(text.size() - (p - ls));
      next = le < s.size() ? le + 1 : le;
    }
    flush();
    if (tag.empty()) {
      if (err) *err = "line " + line_of(p) + ": empty {{}}";
      return false;
    }
    if (tag[0] == '!') {
      // a comment
    } else if (tag.rfind("#if ", 0) == 0) {
      Node n(Node::If);
      std::string name = trim(tag.substr(4));
      if (!name.empty() && name[0] == '!') {
        n.neg = true;
        name = trim(name.substr(1));
      }
      const size_t is = name.find('=');
      if (is != std::string::npos) {
        n.eq = true;
        n.sep = trim(name.substr(is + 1));
        name = trim(name.substr(0, is));
      }
      n.text = name;
      cur->push_back(std::move(n));
      stack.push_back({cur, &cur->back(), "if"});
      cur = &cur->back().body;
    } else if (tag.rfind("#each ", 0) == 0) {
      Node n(Node::Each);
      std::string rest = trim(tag.substr(6));
      const size_t sp = rest.find(" sep=\"");
      if (sp != std::string::npos) {
        const size_t close = rest.rfind('"');
        if (close <= sp + 5) {
          if (err) *err = "line " + line_of(p) + ": sep=\" without its closing quote";
          return false;
        }
        n.sep = rest.substr(sp + 6, close - sp - 6);
        rest = trim(rest.substr(0, sp));
      }
      n.text = rest;
      cur->push_back(std::move(n));
      stack.push_back({cur, &cur->back(), "each"});
      cur = &cur->back().body;
    } else if (tag == "else") {
      if (stack.empty() || stack.back().tag != "if" || cur != &stack.back().node->body) {
        if (err) *err = "line " + line_of(p) + ": {{else}} outside {{#if}}";
        return false;
      }
      cur = &stack.back().node->other;
    } else if (tag[0] == '/') {
      const std::string what = trim(tag.substr(1));
      if (stack.empty() || stack.back().tag != what) {
        if (err) *err = "line " + line_of(p) + ": {{/" + what + "}} closes nothing";
        return false;
      }
      cur = stack.back().into;
      stack.pop_back();
    } else if (tag[0] == '#') {
      if (err) *err = "line " + line_of(p) + ": unknown block {{" + tag + "}}";
      return false;
    } else if (tag[0] == '>') {
      Node n(Node::Partial, trim(tag.substr(1)));
      if (n.text.empty()) {
        if (err) *err = "line " + line_of(p) + ": {{>}} names no partial";
        return false;
      }
      n.alone = alone;
      n.nl = alone && le < s.size();
      cur->push_back(std::move(n));
    } else {
      Node n(Node::Value, tag);
      n.alone = alone;
      n.nl = alone && le < s.size();
      cur->push_back(std::move(n));
    }
    i = next;
  }
  flush();
  if (!stack.empty()) {
    if (err) *err = "{{#" + stack.back().tag + " " + stack.back().node->text + "}} is not closed";
    return false;
  }
  return true;
}

// `s` without its leading line breaks and blanks, and without its trailing line breaks (each with the blanks after it).
std::string strip_breaks(std::string s) {
  size_t a = 0;
  while (a < s.size() && (s[a] == '\n' || s[a] == ' ' || s[a] == '\t' || s[a] == '\r')) ++a;
  s.erase(0, a);
  for (;;) {
    size_t e = s.size();
    while (e > 0 && (s[e - 1] == ' ' || s[e - 1] == '\t' || s[e - 1] == '\r')) --e;
    if (e == 0 || s[e - 1] != '\n') break;
    s.erase(e - 1);
  }
  return s;
}

struct Renderer {
  std::vector<const Scope*> scopes;  // innermost last
  std::string err;
  const Partials* partials = nullptr;
  int depth = 0;  // partials within partials

  const std::string* val(const std::string& name) const {
    for (auto it = scopes.rbegin(); it != scopes.rend(); ++it) {
      const auto v = (*it)->vals.find(name);
      if (v != (*it)->vals.end()) return &v->second;
    }
    return nullptr;
  }
  const std::vector<Scope>* list(const std::string& name) const {
    for (auto it = scopes.rbegin(); it != scopes.rend(); ++it) {
      const auto v = (*it)->lists.find(name);
      if (v != (*it)->lists.end()) return &v->second;
    }
    return nullptr;
  }

  bool run(const std::vector<Node>& nodes, std::string& o) {
    for (const Node& n : nodes) {
      switch (n.kind) {
        case Node::Text:
          o += n.text;
          break;
        case Node::Value: {
          const std::string* v = val(n.text);
          if (!v) {
            err = "slot {{" + n.text + "}} is not defined";
            return false;
          }
          if (n.alone) {
            if (!v->empty()) o += *v + (n.nl ? "\n" : "");
          } else {
            o += *v;
          }
          break;
        }
        case Node::If: {
          const std::string* v = val(n.text);
          const std::vector<Scope>* l = v || n.eq ? nullptr : list(n.text);
          if (!v && !l) {
            err = "{{#if " + n.text + "}}: " + n.text + " is not defined" + (n.eq ? " as a value" : "");
            return false;
          }
          const bool on = (n.eq ? *v == n.sep : v ? !v->empty() : !l->empty()) != n.neg;
          if (!run(on ? n.body : n.other, o)) return false;
          break;
        }
        case Node::Partial: {
          const auto p = partials ? partials->find(n.text) : Partials::const_iterator{};
          if (!partials || p == partials->end()) {
            err = "{{> " + n.text + "}}: no partial " + n.text;
            return false;
          }
          if (depth >= 16) {
            err = "{{> " + n.text + "}}: partials nested 16 deep (a partial that includes itself?)";
            return false;
          }
          std::vector<Node> nodes;
          std::string perr;
          if (!parse(p->second, &nodes, &perr)) {
            err = "partial " + n.text + ": " + perr;
            return false;
          }
          std::string sub;
          ++depth;
          const bool ok = run(nodes, sub);
          --depth;
          if (!ok) {
            err = "partial " + n.text + ": " + err;
            return false;
          }
          sub = strip_breaks(sub);
          if (n.alone) {
            if (!sub.empty()) o += sub + (n.nl ? "\n" : "");
          } else {
            o += sub;
          }
          break;
        }
        case Node::Each: {
          const std::vector<Scope>* l = list(n.text);
          if (!l) {
            err = "{{#each " + n.text + "}}: no list " + n.text;
            return false;
          }
          for (size_t k = 0; k < l->size(); ++k) {
            if (k) o += n.sep;
            scopes.push_back(&(*l)[k]);
            const bool ok = run(n.body, o);
            scopes.pop_back();
            if (!ok) return false;
          }
          break;
        }
      }
    }
    return true;
  }
};

}  // namespace

std::string render(const std::string& text, const Scope& data, std::string* err, const Partials* partials) {
  std::vector<Node> root;
  if (!parse(text, &root, err)) return "";
  Renderer r;
  r.partials = partials;
  r.scopes.push_back(&data);
  std::string o;
  if (!r.run(root, o)) {
    if (err) *err = r.err;
    return "";
  }
  return o;
}

std::string syntax_error(const std::string& text) {
  std::vector<Node> root;
  std::string err;
  return parse(text, &root, &err) ? "" : err;
}

std::vector<std::string> partials_included(const std::string& text) {
  static const std::regex inc("\\{\\{>\\s*([^}\\s]+)\\s*\\}\\}");
  std::vector<std::string> v;
  for (std::sregex_iterator it(text.begin(), text.end(), inc), end; it != end; ++it)
    if (std::find(v.begin(), v.end(), (*it)[1].str()) == v.end()) v.push_back((*it)[1]);
  return v;
}
bool read_text(const std::string& path, std::string* text) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream buf;
  buf << in.rdbuf();
  *text = buf.str();
  return true;
}

Sections split_sections(const std::string& text) {
  Sections s;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) {
    if (!l.empty() && l.back() == '\r') l.pop_back();
    if (l.rfind("## ", 0) == 0) s.heads.push_back(s.lines.size());
    s.lines.push_back(l);
  }
  return s;
}

}  // namespace tmpl
}  // namespace results
