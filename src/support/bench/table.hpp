// src/support/bench/table.hpp — the CSV cells of the experiment programs: the results layer's typed cells
// (results/row.hpp) in namespace bench. Their files are the one writer's, results::CsvFile (results/csv_file.hpp:
// rows by column name, checked against the header, flushed as they are written, so an interrupted sweep keeps every
// finished row); Session::table (gpu.cuh) opens one.
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

}  // namespace tdmaps::bench
