// src/support/bench/table.hpp — the CSV files of the experiment programs: typed rows checked
// against the header, flushed as they are written (an interrupted sweep keeps every
// finished row). First line "# " + metadata JSON, second the header. Host only.
#pragma once
#include "stats.hpp"

#include <results/csv_file.hpp>
#include <tdmaps/config.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace tdmaps::bench {

// A number with a stated format: fixed(v, d) = "%.{d}f", sig(v, d) = "%.{d}g"; NaN/inf
// are written "nan".
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

// One CSV row, built cell by cell with the cell's type.
class Row {
 public:
  Row& operator<<(const std::string& s) { return put(s); }
  Row& operator<<(const char* s) { return put(s); }
  Row& operator<<(int v) { return put(std::to_string(v)); }
  Row& operator<<(long v) { return put(std::to_string(v)); }
  Row& operator<<(long long v) { return put(std::to_string(v)); }
  Row& operator<<(unsigned v) { return put(std::to_string(v)); }
  Row& operator<<(unsigned long v) { return put(std::to_string(v)); }
  Row& operator<<(unsigned long long v) { return put(std::to_string(v)); }
  Row& operator<<(bool v) { return put(v ? "1" : "0"); }
  Row& operator<<(const Num& n) { return put(text(n)); }
  Row& operator<<(double) = delete;  // say how: fixed(v, d) or sig(v, d)
  // reps, median_ms, p25_ms, p75_ms, min_ms, max_ms in the given number format.
  Row& stats(const Stats& s, Num (*f)(double, int) = fixed, int digits = 6) {
    return *this << s.reps << f(s.median_ms, digits) << f(s.p25_ms, digits) << f(s.p75_ms, digits)
                 << f(s.min_ms, digits) << f(s.max_ms, digits);
  }
  size_t size() const { return n_; }
  const std::string& line() const { return s_; }

 private:
  Row& put(const std::string& cell) {
    s_ += (n_++ ? "," : "") + cell;
    return *this;
  }
  std::string s_;
  size_t n_ = 0;
};
inline const char* kStatsColumns = "reps,median_ms,p25_ms,p75_ms,min_ms,max_ms";

class Table {
 public:
  // The file is the one CSV writer's (results/csv_file.hpp: folders created, "# " + metadata, the header,
  // rows flushed as written); Table adds the typed row and its check against the header's width.
  Table(const std::string& path, const std::string& metadata, const std::string& header)
      : path_(path), file_(path, metadata, header) {
    for (char c : header) columns_ += c == ',';
    ++columns_;
  }
  void row(const Row& r) {
    if (r.size() != columns_) {
      std::fprintf(stderr, "error: %s: a row of %zu cells under a header of %zu columns: %s\n", path_.c_str(),
                   r.size(), columns_, r.line().c_str());
      std::exit(1);
    }
    file_.row(r.line());
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  size_t columns_ = 0;
  results::CsvFile file_;
};

}  // namespace tdmaps::bench
