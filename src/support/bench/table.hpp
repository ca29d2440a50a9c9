// src/support/bench/table.hpp — the CSV files of the experiment programs: the one writer's file
// (results/csv_file.hpp) and its rows by column name (results/row.hpp RowOf) checked against the header, flushed
// as they are written (an interrupted sweep keeps every finished row).
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

class Table {
 public:
  // The file is the one CSV writer's (results/csv_file.hpp: folders created, "# " + metadata, the header,
  // rows flushed as written, each checked against the header).
  Table(const std::string& path, const std::string& metadata, const std::string& header)
      : file_(path, metadata, header) {}
  // A row by column name of the table's layout (results/row.hpp RowOf).
  template <const results::Layout& L>
  void row(const results::RowOf<L>& r) { file_.row(r); }
  const std::string& path() const { return file_.path(); }

 private:
  results::CsvFile file_;
};

}  // namespace tdmaps::bench
