// tdmaps/launch.cuh — launching a map's plan from CUDA code (nvcc only; the map headers
// themselves are plain C++). Installed with the maps. What it gives, in namespace tdmaps:
//
//   launch<M>(plan, kernel, args...)            kernel(plan, pass, args...) on M::grid(plan, pass)
//                                               x M::block(plan), for every pass of a 2D plan
//   launch<M>(plan3, kernel, args...)           kernel(plan3, args...) on M::grid x M::block (3D)
//   launch_on<M>(stream, plan, kernel, args...) the same on a stream
//   for_each_cell<M>(plan, f)                   f(i, j) on the device for every cell
//                                               0 <= j <= i < N of a 2D plan (3D: f(x, y, z))
//   TD_KERNEL_FOR(kernel<M, Index, ...>)        a kernel templated on the index type Index:
//                                               the launch picks Index = i32 or i64 by the
//                                               plan's path
//   device_plan<M>(plan, out)                   the plan as the device sees it (a map's table,
//                                               LTM_LUT's, copied to the device once)
//
// Every function takes the map's own plan, typename M::Params (params_t<M>, plan.hpp), and
// returns the first CUDA error (cudaGetLastError after each launch) and
// launches nothing after it; kernel execution errors surface at the next synchronizing
// call, as for any launch. Example (a kernel on the wide path, Cell2 = 64-bit cells):
//
//   template <class M> __global__ void k(typename M::Params p, int pass, float* out) {
//     const tdmaps::Cell2 c = M::cell(p, pass, blockIdx.x, blockIdx.y, threadIdx.x, threadIdx.y);
//     if (c.inside) out[c.i * p.N + c.j] = 1.0f;
//   }
//   const auto p = tdmaps::LTM_E::plan(N, 16);   // tdmaps::LTM_E::Params
//   cudaError_t e = tdmaps::launch<tdmaps::LTM_E>(p, k<tdmaps::LTM_E>, out);
#pragma once
#include "plan.hpp"

#include <cuda_runtime.h>

#include <map>
#include <mutex>
#include <type_traits>
#include <utility>

namespace tdmaps {

// ---- the index path ----------------------------------------------------------------------
// A plan's path (PlanBase/Plan3::narrow, set by the map's plan()) picks the kernel
// instantiation once, on the host: a kernel templated on the index type Index is passed as a
// selector, TD_KERNEL_FOR(kernel<M, Index, ...>), which launch calls with index_tag<i32>
// (narrow) or index_tag<i64> (wide). A plain kernel is launched as it is (a kernel that
// runs M::cell<i64> serves every plan).
template <class Index> struct index_tag { using type = Index; };
#define TD_KERNEL_FOR(...) [](auto td_index_tag) { using Index = typename decltype(td_index_tag)::type; return &__VA_ARGS__; }
template <class P, class F>
decltype(auto) with_index(const P& p, F&& f) {
  if (p.narrow) return f(index_tag<i32>{});
  return f(index_tag<i64>{});
}
template <class K> constexpr bool is_kernel_selector = std::is_invocable_v<K, index_tag<i32>>;

// ---- maps with an auxiliary table (LTM_LUT: tdmaps/map_ltm_lut.hpp) ----------------------
// A map that reads a table gives M::aux_table(plan) -> {host address, bytes} and
// M::with_aux_table(plan, device address) -> the plan its kernels take. The host table is
// copied to each device once per (host address, length) and kept for the process.
template <class M, class = void> struct has_aux_table : std::false_type {};
template <class M>
struct has_aux_table<M, std::void_t<decltype(M::aux_table(std::declval<const params_t<M>&>()))>> : std::true_type {};

// `dev` = the copy on the current device of `bytes` bytes at `host` (made on first use on
// that device, or when longer); one copy per (device, host address), so several GPUs of one
// process each read their own.
inline cudaError_t device_copy_of(const void* host, u64 bytes, const void*& dev) {
  int device = 0;
  if (const cudaError_t e = cudaGetDevice(&device)) return e;
  static std::mutex m;
  static std::map<std::pair<int, const void*>, std::pair<void*, u64>> copies;  // (device, host) -> copy, bytes
  std::lock_guard<std::mutex> g(m);
  auto& c = copies[{device, host}];
  if (c.second < bytes) {
    void* old = c.first;
    c = {nullptr, 0};
    if (old) {
      if (const cudaError_t e = cudaFree(old)) return e;  // synchronizes: no kernel reads it any more
    }
    void* d = nullptr;
    if (const cudaError_t e = cudaMalloc(&d, size_t(bytes))) return e;
    if (const cudaError_t e = cudaMemcpy(d, host, size_t(bytes), cudaMemcpyHostToDevice)) {
      cudaFree(d);
      return e;
    }
    c = {d, bytes};
  }
  dev = c.first;
  return cudaSuccess;
}
// `out` = the plan as the device must see it: the map's table, if any, replaced by its
// device copy; p itself for every other map.
template <class M>
cudaError_t device_plan(const params_t<M>& p, params_t<M>& out) {
  if constexpr (has_aux_table<M>::value) {
    const auto t = M::aux_table(p);
    const void* dev = nullptr;
    if (const cudaError_t e = device_copy_of(t.host, t.bytes, dev)) return e;
    out = M::with_aux_table(p, dev);
  } else {
    out = p;
  }
  return cudaSuccess;
}

// ---- launching ---------------------------------------------------------------------------
inline dim3 dim3_of(Dim3 d) { return dim3(d.x, d.y, d.z); }

// A 2D map's Params derive from PlanBase; a 3D map's are Plan3.
template <class M> constexpr bool is_2d_plan = std::is_base_of_v<PlanBase, params_t<M>>;

// 2D: kernel(plan, pass, args...) for every pass of the plan; 3D: kernel(plan, args...) (one
// pass); on `stream`. `k` is a kernel or a TD_KERNEL_FOR selector.
template <class M, class K, class... A>
cudaError_t launch_on(cudaStream_t stream, const params_t<M>& p, K k, A... args) {
  if constexpr (is_kernel_selector<K>) {
    return with_index(p, [&](auto w) { return launch_on<M>(stream, p, k(w), args...); });
  } else if constexpr (is_2d_plan<M>) {
    params_t<M> d;
    if (const cudaError_t e = device_plan<M>(p, d)) return e;
    for (int pass = 0; pass < p.passes; ++pass) {
      k<<<dim3_of(M::grid(p, pass)), dim3_of(M::block(p)), 0, stream>>>(d, pass, args...);
      if (const cudaError_t e = cudaGetLastError()) return e;
    }
    return cudaSuccess;
  } else {
    k<<<dim3_of(M::grid(p)), dim3_of(M::block(p)), 0, stream>>>(p, args...);
    return cudaGetLastError();
  }
}
// The same on the default stream.
template <class M, class K, class... A>
cudaError_t launch(const params_t<M>& p, K k, A... args) { return launch_on<M>(cudaStream_t(0), p, k, args...); }

// ---- for_each_cell: the simple case --------------------------------------------------------
// f(i, j) for every cell of the domain, each once, on the device; i and j are int32_t on a
// narrow plan and int64_t otherwise (take `auto` or 64-bit parameters). f is copied to the
// device by value: a functor with a __device__ operator() (any nvcc), or a lambda marked
// __device__ (nvcc --extended-lambda). __launch_bounds__(1024): rho = 32 (32 x 32 threads).
template <class M, class Index, class F>
__global__ void __launch_bounds__(1024) for_each_cell_kernel(params_t<M> p, int pass, F f) {
  const Cell2T<Index> c = M::template cell<Index>(p, pass, blockIdx.x, blockIdx.y, threadIdx.x, threadIdx.y);
  if (c.inside) f(c.i, c.j);
}
template <class M, class Index, class F>
__global__ void __launch_bounds__(1024) for_each_cell3_kernel(Plan3 p, F f) {
  const Cell3T<Index> c = M::template cell<Index>(p, blockIdx.x, blockIdx.y, blockIdx.z, threadIdx.x, threadIdx.y, threadIdx.z);
  if (c.inside) f(c.x, c.y, c.z);
}
// 3D: f(x, y, z) for every cell 0 <= x <= y <= z < N.
template <class M, class F>
cudaError_t for_each_cell(const params_t<M>& p, F f, cudaStream_t stream = 0) {
  if constexpr (is_2d_plan<M>)
    return launch_on<M>(stream, p, TD_KERNEL_FOR(for_each_cell_kernel<M, Index, F>), f);
  else
    return launch_on<M>(stream, p, TD_KERNEL_FOR(for_each_cell3_kernel<M, Index, F>), f);
}

}  // namespace tdmaps
