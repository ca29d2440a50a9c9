// src/support/results/csv_file.hpp — the one CSV writer of every program, host only, under one name (it sits
// here, in the results layer beside the layouts, below both bench/ and gpu/, which include it): the file's folders created, "# " + a
// metadata JSON object as the first line (none for the oracle's tables under verify/results/, whose
// bytes depend on nothing but the code), the header (a results::layout's columns) as the next, and
// each row flushed as it is written, so that an interrupted sweep keeps the rows it finished. A row is
// set by column name (RowOf<L>, row.hpp) and checked against the header: L's columns. There is no row of raw text or
// by position: every line is a RowOf. utc_now: the date every metadata record carries.
#pragma once
#include "layouts.hpp"
#include "row.hpp"

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <stdexcept>
#include <string>

namespace results {

inline std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

class CsvFile {
 public:
  // A table of a declared layout, its header the layout's columns (the only way to open one: no raw header).
  // path "-": standard output. metadata "": no metadata line. A file that cannot be written ends the
  // program: one line, exit 1.
  CsvFile(const std::string& path, const std::string& metadata, const Layout& l) : CsvFile(path, metadata, l.columns) {}
  ~CsvFile() { if (f_ && f_ != stdout) std::fclose(f_); }
  CsvFile(const CsvFile&) = delete;
  CsvFile& operator=(const CsvFile&) = delete;
  // A row by column name: its layout's columns must be the header (std::logic_error otherwise), and
  // every column set (RowOf::line throws, naming those missing, before anything is written).
  template <const Layout& L>
  void row(const RowOf<L>& r) {
    if (header_ != L.columns)
      throw std::logic_error(path_ + ": a row of " + L.file + " under another header: " + header_);
    write(r.line());
  }
  const std::string& path() const { return path_; }

 private:
  CsvFile(const std::string& path, const std::string& metadata, const std::string& header)
      : path_(path), header_(header) {
    if (path == "-") {
      f_ = stdout;
    } else {
      std::error_code ec;
      const std::filesystem::path parent = std::filesystem::path(path).parent_path();
      if (!parent.empty()) std::filesystem::create_directories(parent, ec);
      f_ = std::fopen(path.c_str(), "w");
    }
    if (!f_) {
      std::fprintf(stderr, "error: cannot write %s\n", path.c_str());
      std::exit(1);
    }
    if (!metadata.empty()) std::fprintf(f_, "# %s\n", metadata.c_str());
    std::fprintf(f_, "%s\n", header.c_str());
    std::fflush(f_);
  }
  // The one place a line reaches the file: only through a checked row (no unchecked text row).
  void write(const std::string& line) {
    std::fprintf(f_, "%s\n", line.c_str());
    std::fflush(f_);
  }
  std::string path_;
  std::string header_;
  std::FILE* f_ = nullptr;
};

}  // namespace results
