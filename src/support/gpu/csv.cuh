// src/support/gpu/csv.cuh — the CSV files of the GPU programs (Csv). Part of the umbrella
// src/support/gpu/common.cuh.
#pragma once
#include <results/csv_file.hpp>

namespace tdmaps::gpu {

// ---- CSV ------------------------------------------------------------------------------
// The one CSV writer (src/support/results/csv_file.hpp): "# " + metadata JSON, the header, rows
// flushed as they are written, so an interrupted sweep keeps what it finished.
using Csv = ::results::CsvFile;

}  // namespace tdmaps::gpu
