// src/gpu/launch.cuh — launching a map's plan on its index path (index_tag,
// TD_KERNEL_FOR, with_index, launch2, launch3). Part of the umbrella src/gpu/common.cuh.
#pragma once
#include "cuda_check.cuh"

#include <tdmaps/plan.hpp>

#include <cuda_runtime.h>

#include <map>
#include <mutex>
#include <type_traits>
#include <utility>

namespace tdmaps::gpu {

// ---- launching a plan ----------------------------------------------------------------
// The index path of a plan (Plan2/Plan3::narrow, decided by the map's plan()) picks the
// kernel instantiation once, on the host: a kernel templated on the index type I is
// passed as a selector, TD_KERNEL_FOR(kernel<M, I, ...>), which launch2/launch3 call
// with index_tag<i32> (narrow) or index_tag<i64> (wide).
template <class I> struct index_tag { using type = I; };
#define TD_KERNEL_FOR(...) [](auto td_index_tag) { using I = typename decltype(td_index_tag)::type; return &__VA_ARGS__; }
template <class P, class F>
void with_index(const P& p, F&& f) {
  if (p.narrow) f(index_tag<i32>{});
  else f(index_tag<i64>{});
}

// ---- maps with an auxiliary table (LTM_LUT: tdmaps/map_ltm_lut.hpp) ----------------------
// A map that reads a table gives M::aux_table(plan) -> {host address, bytes} and
// M::with_aux_table(plan, device address) -> the plan its kernels take. The host table is
// copied to the device once per (host address, length) and kept for the process.
template <class M, class = void> struct has_aux_table : std::false_type {};
template <class M>
struct has_aux_table<M, std::void_t<decltype(M::aux_table(std::declval<const Plan2&>()))>> : std::true_type {};

inline const void* device_copy_of(const void* host, u64 bytes) {
  static std::mutex m;
  static std::map<const void*, std::pair<void*, u64>> copies;  // host address -> device copy, bytes
  std::lock_guard<std::mutex> g(m);
  auto& c = copies[host];
  if (c.second < bytes) {
    if (c.first) TD_CUDA(cudaFree(c.first));  // synchronizes: no kernel reads it any more
    c.first = nullptr;
    TD_CUDA(cudaMalloc(&c.first, size_t(bytes)));
    TD_CUDA(cudaMemcpy(c.first, host, size_t(bytes), cudaMemcpyHostToDevice));
    c.second = bytes;
  }
  return c.first;
}
// The plan as the device must see it: the map's table, if any, replaced by its device copy.
template <class M>
Plan2 device_plan(const Plan2& p) {
  if constexpr (has_aux_table<M>::value) {
    const auto t = M::aux_table(p);
    return M::with_aux_table(p, device_copy_of(t.host, t.bytes));
  } else {
    return p;
  }
}

// Launches kernel(plan, pass, args...) for every pass of a 2D plan. `k` is a kernel
// (one index path) or a TD_KERNEL_FOR selector (the plan's path).
template <class M, class K, class... A>
void launch2(K k, const Plan2& p, A... args) {
  if constexpr (std::is_invocable_v<K, index_tag<i32>>) {
    with_index(p, [&](auto w) { launch2<M>(k(w), p, args...); });
  } else {
    const Plan2 d = device_plan<M>(p);  // p itself when the map has no table
    for (int pass = 0; pass < p.passes; ++pass) {
      k<<<to_dim3(M::grid(p, pass)), to_dim3(M::block(p))>>>(d, pass, args...);
      TD_LAUNCHED();
    }
  }
}
template <class M, class K, class... A>
void launch3(K k, const Plan3& p, A... args) {
  if constexpr (std::is_invocable_v<K, index_tag<i32>>) {
    with_index(p, [&](auto w) { launch3<M>(k(w), p, args...); });
  } else {
    k<<<to_dim3(M::grid(p)), to_dim3(M::block(p))>>>(p, args...);
    TD_LAUNCHED();
  }
}

}  // namespace tdmaps::gpu
