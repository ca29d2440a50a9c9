// src/support/gpu/sdh_device.cuh — SDH on the GPU, what the kernels share: the point type,
// the 64-bit counter type, and the block histogram helpers (zero_shared,
// flush_block_hist) of the ladder and the tiled kernel. Part of the umbrella
// src/support/gpu/sdh.cuh (overview of the versions there).
#pragma once
#include "common.cuh"

#include <apps/sdh_cpu.hpp>
#include <tdmaps/map_bb.hpp>   // the tile maps of the tiled and fast kernels
#include <tdmaps/map_ltm.hpp>

namespace tdmaps::gpu::sdh {

using tdmaps::sdh::Point;
using ull = unsigned long long;

// ---- device helpers -------------------------------------------------------------------
// Adds the block's shared 32-bit histogram h[0..B) into the global one and leaves
// h untouched (callers flush once, at the end).
__device__ __forceinline__ void flush_block_hist(const u32* h, u32 B, ull* hist) {
  for (u32 k = threadIdx.x; k < B; k += blockDim.x)
    if (h[k]) atomicAdd(hist + k, ull(h[k]));
}
__device__ __forceinline__ void zero_shared(u32* h, u32 words) {
  for (u32 k = threadIdx.x; k < words; k += blockDim.x) h[k] = 0;
}

}  // namespace tdmaps::gpu::sdh
