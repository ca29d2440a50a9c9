// src/support/gpu/launch.cuh — the experiments' checked launch: launch_checked<M>(plan, kernel, args...)
// is the installed tdmaps/launch.cuh's launch<M>(plan, kernel, args...), same arguments in the same
// order (one launch API: its index paths, passes and LTM-LUT's device table, device_plan /
// device_copy_of), with TD_CUDA on what it returns (one line and exit 1 on any CUDA error); no
// other name of it is wrapped. Part of the umbrella src/support/gpu/common.cuh.
#pragma once
#include "cuda_check.cuh"

#include <tdmaps/launch.cuh>
#include <tdmaps/plan.hpp>

#include <cuda_runtime.h>

namespace tdmaps::gpu {

// ---- launching a plan ----------------------------------------------------------------
// The index path of a plan (PlanBase/Plan3::narrow, decided by the map's plan()) picks the
// kernel instantiation once, on the host: a kernel templated on the index type Index is
// passed as a selector, TD_KERNEL_FOR(kernel<M, Index, ...>) (tdmaps/launch.cuh), which
// launch_checked calls with index_tag<i32> (narrow) or index_tag<i64> (wide).
using tdmaps::index_tag;
using tdmaps::with_index;

// Launches kernel(plan, pass, args...) for every pass of a 2D plan, or kernel(plan, args...)
// over a 3D plan. `k` is a kernel (one index path) or a TD_KERNEL_FOR selector (the plan's path).
template <class M, class K, class... A>
void launch_checked(const typename M::Params& p, K k, A... args) {
  TD_CUDA(tdmaps::launch<M>(p, k, args...));
}

}  // namespace tdmaps::gpu
