// src/support/gpu/common.cuh — what every GPU program of tdmaps shares: checked CUDA
// calls, launches of a map's plan, event timing with median and spread, and the
// metadata record written beside every CSV. An umbrella over its parts:
//
//   cuda_check.cuh  die, check, TD_CUDA, TD_LAUNCHED, require_gpu, device_alloc, to_dim3
//   launch.cuh      index_tag, TD_KERNEL_FOR, with_index, launch_checked (a plan's index path)
//   metadata.cuh    json_escape, utc_now, gpu_slug, kernel_driver_version, metadata_json
//   csv.cuh         results::CsvFile, the one CSV writer (flushed rows, "# " + metadata JSON, then the header)
//
// No map: a kernel header includes the map headers it names, a program the registry
// (tdmaps/registry.hpp) if it walks the list of maps. Event timing is the harness's
// (src/support/bench/timing.cuh, through bench/gpu.cuh).
#pragma once

#include "cuda_check.cuh"
#include "launch.cuh"
#include "metadata.cuh"
#include "csv.cuh"
