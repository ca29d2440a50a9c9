// src/support/results/row.hpp — the one writer's rows (results::CsvFile::row), each cell written with
// its type: integers as themselves, a bool as 0/1, text as given, a double only with its format said
// (fixed(v, d) = "%.{d}f", sig(v, d) = "%.{d}g", sci(v, d) = "%.{d}e"; NaN/inf "nan").
//   Row:       cells in column order, checked against the header's width when written.
//   RowOf<L>:  cells set by column name of layout L (layouts.hpp): a name L does not declare throws
//              at once, a column left unset throws when the row is written, naming it.
#pragma once
#include "layouts.hpp"

#include <cmath>
#include <cstddef>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

namespace results {

struct Num {
  double v;
  int digits;
  char conv;  // 'f', 'g' or 'e': the printf conversion
};
inline Num fixed(double v, int digits = 6) { return {v, digits, 'f'}; }
inline Num sig(double v, int digits = 6) { return {v, digits, 'g'}; }
inline Num sci(double v, int digits = 6) { return {v, digits, 'e'}; }
inline std::string text(const Num& n) {
  if (!std::isfinite(n.v)) return "nan";
  char b[64];
  std::snprintf(b, sizeof b, n.conv == 'f' ? "%.*f" : n.conv == 'e' ? "%.*e" : "%.*g", n.digits, n.v);
  return b;
}
// A text cell in double quotes (a field that may hold a comma).
struct Quoted {
  std::string s;
};
inline Quoted quoted(std::string s) { return {std::move(s)}; }

// A cell's text by its type, for Row and RowOf alike.
inline std::string cell_text(const std::string& s) { return s; }
inline std::string cell_text(const char* s) { return s; }
inline std::string cell_text(const Quoted& q) { return "\"" + q.s + "\""; }
inline std::string cell_text(int v) { return std::to_string(v); }
inline std::string cell_text(long v) { return std::to_string(v); }
inline std::string cell_text(long long v) { return std::to_string(v); }
inline std::string cell_text(unsigned v) { return std::to_string(v); }
inline std::string cell_text(unsigned long v) { return std::to_string(v); }
inline std::string cell_text(unsigned long long v) { return std::to_string(v); }
inline std::string cell_text(bool v) { return v ? "1" : "0"; }
inline std::string cell_text(const Num& n) { return text(n); }
std::string cell_text(double) = delete;  // say how: fixed(v, d), sig(v, d) or sci(v, d)

class Row {
 public:
  template <class T>
  Row& operator<<(const T& v) {
    s_ += (n_++ ? "," : "") + cell_text(v);
    return *this;
  }
  Row& operator<<(double) = delete;  // say how: fixed(v, d), sig(v, d) or sci(v, d)
  std::size_t size() const { return n_; }
  const std::string& line() const { return s_; }

 private:
  std::string s_;
  std::size_t n_ = 0;
};

// A row of layout L, e.g. RowOf<layout::wasted3d>().set("N", n).set("map", "tet")...; set throws
// std::invalid_argument for a column L does not declare (or one set twice), line() std::logic_error
// for the columns left unset.
template <const Layout& L>
class RowOf {
 public:
  static const Layout& layout() { return L; }
  template <class T>
  RowOf& set(const std::string& column, const T& v) {
    const std::size_t i = index(column);
    if (set_[i]) throw std::invalid_argument(std::string(L.file) + ": column \"" + column + "\" set twice");
    cells_[i] = cell_text(v);
    set_[i] = true;
    return *this;
  }
  RowOf& set(const std::string& column, double) = delete;  // say how: fixed(v, d), sig(v, d) or sci(v, d)
  // The CSV line; every column must be set.
  std::string line() const {
    std::string missing, s;
    for (std::size_t i = 0; i < cells_.size(); ++i) {
      if (!set_[i]) missing += (missing.empty() ? "" : ", ") + columns()[i];
      s += (i ? "," : "") + cells_[i];
    }
    if (!missing.empty()) throw std::logic_error(std::string(L.file) + ": a row without column(s) " + missing);
    return s;
  }

 private:
  static const std::vector<std::string>& columns() {
    static const std::vector<std::string> c = L.names();
    return c;
  }
  static std::size_t index(const std::string& column) {
    const std::vector<std::string>& c = columns();
    for (std::size_t i = 0; i < c.size(); ++i)
      if (c[i] == column) return i;
    throw std::invalid_argument(std::string(L.file) + " has no column \"" + column + "\" (its columns: " + L.columns + ")");
  }
  std::vector<std::string> cells_ = std::vector<std::string>(columns().size());
  std::vector<bool> set_ = std::vector<bool>(columns().size());
};

}  // namespace results
