// src/support/results/csv.hpp — the reader of every results CSV (the results layer: figures/, paper/ and the README blocks read through it).
//
// A results file is
//     # {"gpu":"NVIDIA H100 80GB HBM3","gpu_slug":"h100",...}   (optional)
//     col_a,col_b,...                                                    (header)
//     rows...
// Columns are looked up BY NAME, never by position, so a producer may add, drop or
// reorder columns; a figure that needs a column the file lacks is skipped with a
// one-line notice. Fields may be double-quoted (paper/reported.csv has free text).
//
// A table read through its layout (read_table(path, layout), GpuData::get(layout): every reader does) checks
// each name it is asked for (issue #39): a name neither in the file's header nor among the layout's declared
// columns (layouts.hpp) is a misspelt reader, and throws std::logic_error naming the column, the file and the
// layout; a name the layout declares but an older file lacks reads as absent ("" / NaN / has() false). The
// *_opt accessors skip that check: only for a column of an older layout, or a helper shared by tables of
// several layouts that probes a column some of them have; keep them rare, each with its reason.
#pragma once
#include "layouts.hpp"

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <initializer_list>
#include <map>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace results {

inline std::string trim(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && (s[b] == ' ' || s[b] == '\t' || s[b] == '\r' || s[b] == '\n')) ++b;
  while (e > b && (s[e - 1] == ' ' || s[e - 1] == '\t' || s[e - 1] == '\r' || s[e - 1] == '\n')) --e;
  return std::string(s.substr(b, e - b));
}

// One CSV record; quotes: "a, b" is one field, "" inside quotes is a quote.
inline std::vector<std::string> split_csv(const std::string& line) {
  std::vector<std::string> out;
  std::string cur;
  bool q = false;
  for (size_t k = 0; k < line.size(); ++k) {
    const char c = line[k];
    if (q) {
      if (c == '"' && k + 1 < line.size() && line[k + 1] == '"') { cur += '"'; ++k; }
      else if (c == '"') q = false;
      else cur += c;
    } else if (c == '"') {
      q = true;
    } else if (c == ',') {
      out.push_back(trim(cur));
      cur.clear();
    } else {
      cur += c;
    }
  }
  out.push_back(trim(cur));
  return out;
}

// A number, or NaN for "", "none", "nan", "-", "n/a" and anything that is not one.
inline double to_num(const std::string& s) {
  if (s.empty()) return NAN;
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (end == s.c_str()) return NAN;
  while (*end == ' ') ++end;
  if (*end != '\0') return NAN;
  return v;
}

// The metadata line: a flat JSON object; values are kept as text (strings
// unescaped, numbers as written, nested values raw).
inline std::map<std::string, std::string> parse_flat_json(const std::string& s) {
  std::map<std::string, std::string> m;
  size_t k = s.find('{');
  if (k == std::string::npos) return m;
  ++k;
  const auto skip_ws = [&] { while (k < s.size() && (s[k] == ' ' || s[k] == '\t')) ++k; };
  const auto read_string = [&](std::string& out) {
    // s[k] == '"'
    ++k;
    while (k < s.size() && s[k] != '"') {
      if (s[k] == '\\' && k + 1 < s.size()) {
        const char e = s[k + 1];
        out += (e == 'n') ? '\n' : (e == 't') ? '\t' : e;
        k += 2;
      } else {
        out += s[k++];
      }
    }
    ++k;
  };
  while (k < s.size()) {
    skip_ws();
    if (k >= s.size() || s[k] == '}') break;
    if (s[k] == ',') { ++k; continue; }
    if (s[k] != '"') break;
    std::string key, val;
    read_string(key);
    skip_ws();
    if (k >= s.size() || s[k] != ':') break;
    ++k;
    skip_ws();
    if (k < s.size() && s[k] == '"') {
      read_string(val);
    } else if (k < s.size() && (s[k] == '{' || s[k] == '[')) {
      int depth = 0;
      bool inq = false;
      const size_t b = k;
      for (; k < s.size(); ++k) {
        const char c = s[k];
        if (inq) { if (c == '\\') ++k; else if (c == '"') inq = false; continue; }
        if (c == '"') inq = true;
        else if (c == '{' || c == '[') ++depth;
        else if (c == '}' || c == ']') { if (--depth == 0) { ++k; break; } }
      }
      val = s.substr(b, k - b);
    } else {
      const size_t b = k;
      while (k < s.size() && s[k] != ',' && s[k] != '}') ++k;
      val = trim(s.substr(b, k - b));
    }
    m[key] = val;
  }
  return m;
}

struct Table;

// A row of a Table, read by column name (the writer's row, set by column name, is RowOf<layout>: row.hpp).
struct TableRow {
  const Table* t = nullptr;
  size_t r = 0;
  // By a name the file or its layout has (std::logic_error otherwise, Table::need):
  std::string s(std::string_view col) const;  // "" when the column is absent
  double d(std::string_view col) const;       // NaN when absent or not a number
  bool has(std::string_view col) const;
  // Unchecked (see the file's head: an older layout's column, or a probe shared by several layouts):
  std::string s_opt(std::string_view col) const;
  double d_opt(std::string_view col) const;
  bool has_opt(std::string_view col) const;
};

struct Table {
  std::string path;
  std::map<std::string, std::string> meta;
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> cells;
  const Layout* layout = nullptr;  // the declared layout it was read through (nullptr: none, nothing checked)

  // The position of `name` in the header, or -1: unchecked.
  int index_of(std::string_view name) const {
    for (size_t k = 0; k < header.size(); ++k)
      if (header[k] == name) return int(k);
    return -1;
  }
  // Whether the layout declares `name` (true without a layout).
  bool declares(std::string_view name) const {
    if (!layout) return true;
    for (const std::string& n : layout->names())
      if (n == name) return true;
    return false;
  }
  // `name` must be in the header or declared by the layout: std::logic_error (one line: the column, the file,
  // the layout) otherwise, a misspelt or undeclared column of a reader.
  void need(std::string_view name) const {
    if (index_of(name) >= 0 || declares(name)) return;
    throw std::logic_error("results: column \"" + std::string(name) + "\" read from " + path +
                           " is neither in its header nor declared by its layout (" + layout->file +
                           ", src/support/results/layouts.hpp)");
  }
  // The position of `name` (checked by need), or -1 when the file lacks it.
  int col(std::string_view name) const {
    need(name);
    return index_of(name);
  }
  bool has(std::string_view name) const { return col(name) >= 0; }
  bool has_opt(std::string_view name) const { return index_of(name) >= 0; }  // unchecked: see the file's head
  // The first of `names` that the table has, or "" (each name checked).
  std::string first_of(std::initializer_list<const char*> names) const {
    for (const char* n : names)
      if (has(n)) return n;
    return "";
  }
  // Comma list of the columns of `need` the table lacks ("" when it has all; each name checked).
  std::string missing(std::initializer_list<const char*> need) const {
    std::string m;
    for (const char* n : need)
      if (!has(n)) m += (m.empty() ? "" : ", ") + std::string(n);
    return m;
  }
  size_t size() const { return cells.size(); }
  TableRow row(size_t r) const { return TableRow{this, r}; }
  std::vector<TableRow> rows() const {
    std::vector<TableRow> v;
    for (size_t r = 0; r < cells.size(); ++r) v.push_back(TableRow{this, r});
    return v;
  }
  std::vector<TableRow> where(const std::function<bool(const TableRow&)>& keep) const {
    std::vector<TableRow> v;
    for (size_t r = 0; r < cells.size(); ++r)
      if (keep(TableRow{this, r})) v.push_back(TableRow{this, r});
    return v;
  }
  std::string meta_or(const std::string& key, const std::string& dflt = "") const {
    const auto it = meta.find(key);
    return it == meta.end() || it->second.empty() ? dflt : it->second;
  }
};

inline std::string TableRow::s_opt(std::string_view col) const {
  const int c = t->index_of(col);
  if (c < 0 || size_t(c) >= t->cells[r].size()) return "";
  return t->cells[r][size_t(c)];
}
inline std::string TableRow::s(std::string_view col) const {
  t->need(col);
  return s_opt(col);
}
inline double TableRow::d(std::string_view col) const { return to_num(s(col)); }
inline bool TableRow::has(std::string_view col) const { return t->has(col); }
inline double TableRow::d_opt(std::string_view col) const { return to_num(s_opt(col)); }
inline bool TableRow::has_opt(std::string_view col) const { return t->has_opt(col); }

// Reads `path`; nullopt (with *why set) when the file is absent, unreadable or has
// no header. Lines starting with '#' are comments; the first one, when it holds a
// JSON object, is the metadata. Without a layout no column name is checked (no reader does that: each
// reads through the overload below).
inline std::optional<Table> read_table(const std::string& path, std::string* why = nullptr) {
  std::ifstream in(path);
  if (!in) {
    if (why) *why = "missing";
    return std::nullopt;
  }
  Table t;
  t.path = path;
  std::string line;
  bool have_header = false, first = true;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (trim(line).empty()) continue;
    if (line[0] == '#') {
      if (first && line.find('{') != std::string::npos) t.meta = parse_flat_json(line);
      first = false;
      continue;
    }
    first = false;
    if (!have_header) {
      t.header = split_csv(line);
      have_header = true;
      continue;
    }
    std::vector<std::string> f = split_csv(line);
    f.resize(t.header.size());
    t.cells.push_back(std::move(f));
  }
  if (!have_header) {
    if (why) *why = "no header line";
    return std::nullopt;
  }
  return t;
}
// Reads `path` as a table of `layout`: its readers' column names are checked against the header and the layout
// (Table::need).
inline std::optional<Table> read_table(const std::string& path, const Layout& layout, std::string* why = nullptr) {
  std::optional<Table> t = read_table(path, why);
  if (t) t->layout = &layout;
  return t;
}

}  // namespace results
