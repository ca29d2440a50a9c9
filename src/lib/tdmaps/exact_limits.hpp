// tdmaps/exact_limits.hpp — what every exact range is measured against.
// Each float map's own limit lives beside its policy, in one place (the map headers
// define it in namespace tdmaps::limits: ltm_*_blocks in map_ltm.hpp, utm_*_max_N in
// map_utm.hpp, tet_*_blocks in map_3d.hpp and tet_fast.hpp). Every such constant is
// checked in both directions by the CPU oracle (verify/test_exact.cpp: exact below it,
// wrong at it) or, for the device-only roundings (rsqrtf, cbrtf), by the GPU sweeps
// (experiments/maps2d/gpu_exact_range.cu, experiments/maps3d/gpu_verify_3d.cu). Do not
// edit a value without rerunning them.
#pragma once
#include "config.hpp"

namespace tdmaps::limits {
constexpr u64 no_limit = 1ull << 62;  // exact for every index the library accepts
}  // namespace tdmaps::limits
