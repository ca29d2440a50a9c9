// tdmaps/exact_limits.hpp — where each float map stops being exact.
// Every constant here is checked in both directions by the CPU oracle
// (verify/test_exact.cpp: exact below it, wrong at it) or, for the
// device-only roundings (rsqrtf, cbrtf/powf), by the GPU sweep
// (experiments/maps2d/gpu_exact_range.cu). Do not edit a value without rerunning them.
#pragma once
#include "config.hpp"

namespace tdmaps::limits {
constexpr u64 no_limit = 1ull << 62;  // exact for every index the library accepts

// LTM (2D block map): number of leading block indices lambda mapped exactly.
constexpr u64 ltm_x_blocks = 10619135;
constexpr u64 ltm_n_blocks = 1316253;
constexpr u64 ltm_r_blocks = 2112540;  // measured on an H200 (sm_90 rsqrtf), experiments/results/h200/exact_range_gpu.csv;
                                        // rsqrtf is not correctly rounded: other architectures may differ
constexpr u64 ltm_d_blocks = 1ull << 32  /* proven up to here; larger indices not examined */;
constexpr u64 ltm_e_blocks = no_limit;

// UTM (2D thread map): largest N for which every N' <= N is mapped exactly.
constexpr i64 utm_x_max_N = 4096;
constexpr i64 utm_n_max_N = 5792;

// Tetrahedral map, float cube root of eq. (14): leading block indices exact.
constexpr u64 tet_f_blocks = 10;  // eq. (14) in float fails at lambda = tet(3) = 10 on the host and on an H200
constexpr u64 tet_e_blocks = 1ull << 60;
}  // namespace tdmaps::limits
