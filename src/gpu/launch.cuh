// src/gpu/launch.cuh — launching a map's plan on its index path (index_tag,
// TD_KERNEL_FOR, with_index, launch2, launch3). Part of the umbrella src/gpu/common.cuh.
#pragma once
#include "cuda_check.cuh"

#include <tdmaps/plan.hpp>

#include <cuda_runtime.h>

#include <type_traits>

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

// Launches kernel(plan, pass, args...) for every pass of a 2D plan. `k` is a kernel
// (one index path) or a TD_KERNEL_FOR selector (the plan's path).
template <class M, class K, class... A>
void launch2(K k, const Plan2& p, A... args) {
  if constexpr (std::is_invocable_v<K, index_tag<i32>>) {
    with_index(p, [&](auto w) { launch2<M>(k(w), p, args...); });
  } else {
    for (int pass = 0; pass < p.passes; ++pass) {
      k<<<to_dim3(M::grid(p, pass)), to_dim3(M::block(p))>>>(p, pass, args...);
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
