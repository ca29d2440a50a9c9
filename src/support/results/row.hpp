// src/support/results/row.hpp — the one writer's rows (results::CsvFile::row), each cell written with
// its type: integers as themselves, a bool as 0/1, text as given, a double only with its format said
// (fixed(v, d) = "%.{d}f", sig(v, d) = "%.{d}g", sci(v, d) = "%.{d}e"; NaN/inf "nan").
//   RowOf<L>:  cells set by column name of layout L (layouts.hpp), the only row there is (a row by position,
//              whose misplaced cell nothing caught, was removed with its writer entry points: issue #39). Named with TD_COL("median_ms"),
//              a name L does not declare fails to compile (static_assert); named with a run-time
//              string, it throws at once. A column left unset throws when the row is written, naming it.
//              stats(s) sets the 6 timing columns by name (reps, median_ms, p25_ms, p75_ms, min_ms, max_ms).
#pragma once
#include "layouts.hpp"

#include <cmath>
#include <cstddef>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <utility>
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

// A cell's text by its type.
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

// The position of column `name` among the comma-separated `columns`, no_column if it is not one;
// usable in a constant expression (the layouts are constexpr), which is how TD_COL names are checked.
inline constexpr std::size_t no_column = static_cast<std::size_t>(-1);
constexpr std::size_t column_index(const char* columns, const char* name) {
  std::size_t i = 0;
  for (const char* p = columns;; ++i) {
    const char* q = name;
    while (*q != '\0' && *p == *q) ++p, ++q;
    if (*q == '\0' && (*p == ',' || *p == '\0')) return i;
    while (*p != ',' && *p != '\0') ++p;
    if (*p == '\0') return no_column;
    ++p;
  }
}

// TD_COL("median_ms"): a column name known at compile time, for RowOf<L>::set; a name that L does not
// declare is a compile error (RowOf::set's static_assert, "required from" the line of the TD_COL).
// It is an empty object of a type of its own whose static text() is the name.
#define TD_COL(name)                                                   \
  ([] {                                                                \
    struct td_column_name {                                            \
      static constexpr const char* text() { return name; }             \
    };                                                                 \
    return td_column_name{};                                           \
  }())

// A row of layout L, e.g. RowOf<layout::wasted3d>().set(TD_COL("N"), n).set(TD_COL("map"), "tet")...:
// a TD_COL name L does not declare fails to compile; set by a run-time string it throws
// std::invalid_argument (as does a column set twice); line() throws std::logic_error for the
// columns left unset.
template <const Layout& L>
class RowOf {
 public:
  static const Layout& layout() { return L; }
  // The position of a TD_COL name in L, checked at compile time.
  template <class Col, class = decltype(Col::text())>
  static constexpr std::size_t index_of(Col) {
    constexpr std::size_t i = column_index(L.columns, Col::text());
    static_assert(i != no_column, "TD_COL(name): the row's layout (results/layouts.hpp) has no such column");
    return i;
  }
  template <class Col, class T, class = decltype(Col::text())>
  RowOf& set(Col c, const T& v) {
    put(index_of(c), Col::text(), cell_text(v));
    return *this;
  }
  template <class Col, class = decltype(Col::text())>
  RowOf& set(Col, double) = delete;  // say how: fixed(v, d), sig(v, d) or sci(v, d)
  template <class T>
  RowOf& set(const std::string& column, const T& v) {
    put(index(column), column, cell_text(v));
    return *this;
  }
  RowOf& set(const std::string& column, double) = delete;  // say how: fixed(v, d), sig(v, d) or sci(v, d)
  // The 6 timing columns of a Stats (src/support/bench/stats.hpp: reps, median_ms, p25_ms, p75_ms,
  // min_ms, max_ms), by name, in the number format f with `digits`; L must declare all six.
  template <class S>
  RowOf& stats(const S& s, Num (*f)(double, int) = fixed, int digits = 6) {
    return set(TD_COL("reps"), s.reps)
        .set(TD_COL("median_ms"), f(s.median_ms, digits))
        .set(TD_COL("p25_ms"), f(s.p25_ms, digits))
        .set(TD_COL("p75_ms"), f(s.p75_ms, digits))
        .set(TD_COL("min_ms"), f(s.min_ms, digits))
        .set(TD_COL("max_ms"), f(s.max_ms, digits));
  }
  // The CSV line; every column must be set.
  std::string line() const {
    std::string missing, s;
    for (std::size_t i = 0; i < cells_.size(); ++i) {
      if (!set_[i]) missing += (missing.empty() ? "" : ", ") + columns()[i];
      if (i) s += ',';
      s += cells_[i];
    }
    if (!missing.empty()) throw std::logic_error(std::string(L.file) + ": a row without column(s) " + missing);
    return s;
  }

 private:
  void put(std::size_t i, const std::string& column, std::string cell) {
    if (set_[i]) throw std::invalid_argument(std::string(L.file) + ": column \"" + column + "\" set twice");
    cells_[i] = std::move(cell);
    set_[i] = true;
  }
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
