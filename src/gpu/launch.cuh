// src/gpu/launch.cuh — launching a map's plan on its index path (index_tag,
// TD_KERNEL_FOR, with_index, launch2, launch3). Part of the umbrella src/gpu/common.cuh.
// The launching itself is the installed tdmaps/launch.cuh (launch, device_plan); these
// wrappers check what it returns (TD_CUDA: one line and exit 1 on any CUDA error).
#pragma once
#include "cuda_check.cuh"

#include <tdmaps/launch.cuh>
#include <tdmaps/plan.hpp>

#include <cuda_runtime.h>

namespace tdmaps::gpu {

// ---- launching a plan ----------------------------------------------------------------
// The index path of a plan (Plan2/Plan3::narrow, decided by the map's plan()) picks the
// kernel instantiation once, on the host: a kernel templated on the index type I is
// passed as a selector, TD_KERNEL_FOR(kernel<M, I, ...>) (tdmaps/launch.cuh), which
// launch2/launch3 call with index_tag<i32> (narrow) or index_tag<i64> (wide).
using tdmaps::index_tag;
using tdmaps::with_index;

// ---- maps with an auxiliary table (LTM_LUT: tdmaps/map_ltm_lut.hpp) ----------------------
// tdmaps/launch.cuh copies a map's table to the device once per (host address, length)
// and keeps it for the process; these are its checked forms.
using tdmaps::has_aux_table;
inline const void* device_copy_of(const void* host, u64 bytes) {
  const void* dev = nullptr;
  TD_CUDA(tdmaps::device_copy_of(host, bytes, dev));
  return dev;
}
// The plan as the device must see it: the map's table, if any, replaced by its device copy.
template <class M>
Plan2 device_plan(const Plan2& p) {
  Plan2 d;
  TD_CUDA(tdmaps::device_plan<M>(p, d));
  return d;
}

// Launches kernel(plan, pass, args...) for every pass of a 2D plan. `k` is a kernel
// (one index path) or a TD_KERNEL_FOR selector (the plan's path).
template <class M, class K, class... A>
void launch2(K k, const Plan2& p, A... args) {
  TD_CUDA(tdmaps::launch<M>(p, k, args...));
}
// Launches kernel(plan, args...) over a 3D plan.
template <class M, class K, class... A>
void launch3(K k, const Plan3& p, A... args) {
  TD_CUDA(tdmaps::launch<M>(p, k, args...));
}

}  // namespace tdmaps::gpu
