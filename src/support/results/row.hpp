// src/support/results/row.hpp — one CSV row built cell by cell with each cell's type (the one
// writer's row, results::CsvFile::row): integers as themselves, a bool as 0/1, text as given, a
// double only with its format said (fixed(v, d) = "%.{d}f", sig(v, d) = "%.{d}g"; NaN/inf "nan").
#pragma once
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <string>

namespace results {

struct Num {
  double v;
  int digits;
  bool fixed;
};
inline Num fixed(double v, int digits = 6) { return {v, digits, true}; }
inline Num sig(double v, int digits = 6) { return {v, digits, false}; }
inline std::string text(const Num& n) {
  if (!std::isfinite(n.v)) return "nan";
  char b[64];
  std::snprintf(b, sizeof b, n.fixed ? "%.*f" : "%.*g", n.digits, n.v);
  return b;
}
// A text cell in double quotes (a field that may hold a comma).
struct Quoted {
  std::string s;
};
inline Quoted quoted(std::string s) { return {std::move(s)}; }

class Row {
 public:
  Row& operator<<(const std::string& s) { return put(s); }
  Row& operator<<(const char* s) { return put(s); }
  Row& operator<<(const Quoted& q) { return put("\"" + q.s + "\""); }
  Row& operator<<(int v) { return put(std::to_string(v)); }
  Row& operator<<(long v) { return put(std::to_string(v)); }
  Row& operator<<(long long v) { return put(std::to_string(v)); }
  Row& operator<<(unsigned v) { return put(std::to_string(v)); }
  Row& operator<<(unsigned long v) { return put(std::to_string(v)); }
  Row& operator<<(unsigned long long v) { return put(std::to_string(v)); }
  Row& operator<<(bool v) { return put(v ? "1" : "0"); }
  Row& operator<<(const Num& n) { return put(text(n)); }
  Row& operator<<(double) = delete;  // say how: fixed(v, d) or sig(v, d)
  std::size_t size() const { return n_; }
  const std::string& line() const { return s_; }

 private:
  Row& put(const std::string& cell) {
    s_ += (n_++ ? "," : "") + cell;
    return *this;
  }
  std::string s_;
  std::size_t n_ = 0;
};

}  // namespace results
