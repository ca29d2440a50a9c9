// src/support/gpu/csv.cuh — the CSV files of the GPU programs (Csv). Part of the umbrella
// src/support/gpu/common.cuh.
#pragma once
#include "cuda_check.cuh"

#include <cstdio>
#include <string>

namespace tdmaps::gpu {

// ---- CSV ------------------------------------------------------------------------------
// Rows are flushed as they are written, so an interrupted sweep keeps what it finished.
// The first line is "# " + metadata JSON, the second the header.
class Csv {
 public:
  Csv(const std::string& path, const std::string& metadata, const std::string& header) {
    f_ = std::fopen(path.c_str(), "w");
    if (!f_) die("cannot write " + path);
    std::fprintf(f_, "# %s\n%s\n", metadata.c_str(), header.c_str());
    std::fflush(f_);
  }
  ~Csv() { if (f_) std::fclose(f_); }
  Csv(const Csv&) = delete;
  Csv& operator=(const Csv&) = delete;
  void row(const std::string& line) {
    std::fprintf(f_, "%s\n", line.c_str());
    std::fflush(f_);
  }
 private:
  std::FILE* f_ = nullptr;
};

}  // namespace tdmaps::gpu
