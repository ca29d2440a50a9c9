// src/support/results/csv_file.hpp — the one CSV writer of every program, host only (the GPU
// programs' gpu::Csv is this class; it sits here, in the results layer beside the layouts, below
// both bench/ and gpu/, which include it): the file's folders created, "# " + a metadata JSON object as
// the first line, the header (a results::layout's columns) as the second, and each row flushed as
// it is written, so that an interrupted sweep keeps the rows it finished. utc_now: the date every
// metadata record carries.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
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
  // A file that cannot be written ends the program: one line, exit 1.
  CsvFile(const std::string& path, const std::string& metadata, const std::string& header) {
    std::error_code ec;
    const std::filesystem::path parent = std::filesystem::path(path).parent_path();
    if (!parent.empty()) std::filesystem::create_directories(parent, ec);
    f_ = std::fopen(path.c_str(), "w");
    if (!f_) {
      std::fprintf(stderr, "error: cannot write %s\n", path.c_str());
      std::exit(1);
    }
    std::fprintf(f_, "# %s\n%s\n", metadata.c_str(), header.c_str());
    std::fflush(f_);
  }
  ~CsvFile() { if (f_) std::fclose(f_); }
  CsvFile(const CsvFile&) = delete;
  CsvFile& operator=(const CsvFile&) = delete;
  void row(const std::string& line) {
    std::fprintf(f_, "%s\n", line.c_str());
    std::fflush(f_);
  }

 private:
  std::FILE* f_ = nullptr;
};

}  // namespace results
