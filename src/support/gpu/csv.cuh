// src/support/gpu/csv.cuh — the CSV files of the GPU programs: the one writer, results::CsvFile
// (src/support/results/csv_file.hpp: "# " + metadata JSON, the header, rows flushed as they are written, so an
// interrupted sweep keeps what it finished). Part of the umbrella src/support/gpu/common.cuh.
#pragma once
#include <results/csv_file.hpp>
