// src/support/bench/table.hpp — the CSV files of the experiment programs: the one writer's file
// (results/csv_file.hpp) and typed rows (results/row.hpp: in column order, or by column name) checked
// against the header, flushed as they are written (an interrupted sweep keeps every finished row).
// Host only.
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

// The typed cells and row are the results layer's (results/row.hpp), the one writer's.
using results::fixed;
using results::Num;
using results::sig;
using results::text;
// One CSV row, built cell by cell with the cell's type, plus the timing columns of a Stats.
class Row : public results::Row {
 public:
  template <class T>
  Row& operator<<(const T& v) {
    results::Row::operator<<(v);
    return *this;
  }
  Row& operator<<(double) = delete;  // say how: fixed(v, d) or sig(v, d)
  // reps, median_ms, p25_ms, p75_ms, min_ms, max_ms in the given number format.
  Row& stats(const Stats& s, Num (*f)(double, int) = fixed, int digits = 6) {
    return *this << s.reps << f(s.median_ms, digits) << f(s.p25_ms, digits) << f(s.p75_ms, digits)
                 << f(s.min_ms, digits) << f(s.max_ms, digits);
  }
};
inline const char* kStatsColumns = "reps,median_ms,p25_ms,p75_ms,min_ms,max_ms";

class Table {
 public:
  // The file is the one CSV writer's (results/csv_file.hpp: folders created, "# " + metadata, the header,
  // rows flushed as written, a typed row checked against the header's width).
  Table(const std::string& path, const std::string& metadata, const std::string& header)
      : file_(path, metadata, header) {}
  void row(const Row& r) { file_.row(r); }
  // A row by column name of the table's layout (results/row.hpp RowOf).
  template <const results::Layout& L>
  void row(const results::RowOf<L>& r) { file_.row(r); }
  const std::string& path() const { return file_.path(); }

 private:
  results::CsvFile file_;
};

}  // namespace tdmaps::bench
