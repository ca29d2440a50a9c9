// experiments/apps2d/edm_kernels.cu — instantiates the EDM kernels of
// src/support/gpu/edm.cuh for the 2D maps (d = 1..4, both layouts) and the device-side
// output checks. See apps_kernels.hpp.
#include "apps_kernels.hpp"

namespace tdmaps::apps {
namespace {

using namespace tdmaps::edm;

// The table's entries: the map's plan as any_plan2, and back to M's own Params to launch.
template <class M>
any_plan2 plan_plain(i64 N, int rho, bool allow_inexact) { return M::plan(N, rho, allow_inexact); }
template <class M>
any_plan2 plan_fast_tiles(i64 N, int rho, bool allow_inexact) { return plan_fast<M>(N, rho, allow_inexact); }
template <class M, int D, EdmOutput L>
void launch_plain_of(const any_plan2& p, const float* pts, float* out) { launch_plain<M, D, L>(plan_of<M>(p), pts, out); }
template <class M, int D, EdmOutput L>
void launch_fast_of(const any_plan2& p, const float* pts, float* out) { launch_fast<M, D, L>(plan_of<M>(p), pts, out); }

template <class M, bool Fast, int D, EdmOutput L>
void add_one(std::vector<EdmKernel>& v) {
  EdmKernel k;
  k.map = std::string(M::name) + (Fast ? tdmaps::fast_suffix : "");
  k.fast = Fast;
  k.features = D;
  k.layout = L;
  if constexpr (Fast) {
    k.plan = &plan_fast_tiles<M>;
    k.launch = &launch_fast_of<M, D, L>;
  } else {
    k.plan = &plan_plain<M>;
    k.launch = &launch_plain_of<M, D, L>;
  }
  v.push_back(k);
}
template <class M, bool Fast>
void add_map(std::vector<EdmKernel>& v) {
  add_one<M, Fast, 1, EdmOutput::full>(v);
  add_one<M, Fast, 2, EdmOutput::full>(v);
  add_one<M, Fast, 3, EdmOutput::full>(v);
  add_one<M, Fast, 4, EdmOutput::full>(v);
  add_one<M, Fast, 1, EdmOutput::packed>(v);
  add_one<M, Fast, 2, EdmOutput::packed>(v);
  add_one<M, Fast, 3, EdmOutput::packed>(v);
  add_one<M, Fast, 4, EdmOutput::packed>(v);
}

// The kernels of one map (plain or its "-fast" variant), made once.
template <class M, bool Fast>
const std::vector<EdmKernel>& kernels_of() {
  static const std::vector<EdmKernel> v = [] {
    std::vector<EdmKernel> k;
    add_map<M, Fast>(k);
    return k;
  }();
  return v;
}
// The maps come from the registry (tdmaps/registry.hpp: maps2d_apps, maps2d_fast).
std::vector<EdmKernel> build() {
  std::vector<EdmKernel> v;
  const auto add = [&](const std::vector<EdmKernel>& k) { v.insert(v.end(), k.begin(), k.end()); };
  for_each_map(maps2d_apps{}, [&](auto m) { add(kernels_of<decltype(m), false>()); });
  for_each_map(maps2d_fast{}, [&](auto m) { add(kernels_of<decltype(m), true>()); });
  return v;
}
// A map's kernels by its name, through the registry's one name -> type dispatch (with_map):
// "<name>" in maps2d_apps, "<name>-fast" in maps2d_fast; nullptr for any other name.
const std::vector<EdmKernel>* kernels_named(const std::string& map) {
  const std::vector<EdmKernel>* k = nullptr;
  if (!with_map(maps2d_apps{}, map, [&](auto m) { k = &kernels_of<decltype(m), false>(); }))
    with_map(maps2d_fast{}, map, [&](auto m) { k = &kernels_of<decltype(m), true>(); }, tdmaps::fast_suffix);
  return k;
}

// ---- checks ------------------------------------------------------------------------------
__global__ void poison_full_kernel(const float* __restrict__ out, i64 N, bool sector_tail,
                                   unsigned long long* __restrict__ r) {
  unsigned long long lower = 0, upper = 0;
  const u32* w = reinterpret_cast<const u32*>(out);
  for (i64 i = blockIdx.x; i < N; i += gridDim.x) {
    const u32* row = w + u64(i) * u64(N);
    const i64 tail = sector_tail ? fast_full_row_end(N, i) : i;
    for (i64 j = threadIdx.x; j < N; j += blockDim.x) {
      const bool poisoned = row[j] == poison_bits;
      if (j <= i) lower += poisoned;
      else if (j <= tail) upper += !poisoned && row[j] != w[u64(j) * u64(N) + u64(i)];
      else upper += !poisoned;
    }
  }
  if (lower) atomicAdd(&r[0], lower);
  if (upper) atomicAdd(&r[1], upper);
}
// [begin, end): slot 0 counts poisoned elements when `want_written`, else slot 2
// counts written ones.
__global__ void poison_range_kernel(const float* __restrict__ out, u64 begin, u64 end, bool want_written,
                                    unsigned long long* __restrict__ r) {
  unsigned long long bad = 0;
  const u32* w = reinterpret_cast<const u32*>(out);
  for (u64 k = begin + u64(blockIdx.x) * blockDim.x + threadIdx.x; k < end; k += u64(gridDim.x) * blockDim.x)
    bad += want_written ? (w[k] == poison_bits) : (w[k] != poison_bits);
  if (bad) atomicAdd(&r[want_written ? 0 : 2], bad);
}
__global__ void gather_kernel(const float* __restrict__ src, const u64* __restrict__ idx, float* __restrict__ vals,
                              u64 n) {
  for (u64 k = u64(blockIdx.x) * blockDim.x + threadIdx.x; k < n; k += u64(gridDim.x) * blockDim.x)
    vals[k] = src[idx[k]];
}

}  // namespace

const std::vector<EdmKernel>& edm_kernels() {
  static const std::vector<EdmKernel> v = build();
  return v;
}
const EdmKernel* find_edm(const std::string& map, int features, EdmOutput L) {
  if (const std::vector<EdmKernel>* ks = kernels_named(map))
    for (const auto& k : *ks)
      if (k.features == features && k.layout == L) return &k;
  return nullptr;
}
std::vector<std::string> edm_map_names() { return map_names_of(edm_kernels()); }

PoisonReport edm_poison_report(const float* out, i64 N, EdmOutput L, u64 guard, bool sector_tail) {
  static unsigned long long* d = gpu::device_alloc<unsigned long long>(3, "poison counters");  // kept for the run
  TD_CUDA(cudaMemset(d, 0, 3 * sizeof(unsigned long long)));
  const u64 n = out_elems(N, L);
  if (L == EdmOutput::full) {
    poison_full_kernel<<<unsigned(std::min<i64>(N, 65535)), 256>>>(out, N, sector_tail, d);
    TD_LAUNCHED();
  } else {
    poison_range_kernel<<<4096, 256>>>(out, 0, n, true, d);
    TD_LAUNCHED();
  }
  if (guard) {
    poison_range_kernel<<<64, 256>>>(out, n, n + guard, false, d);
    TD_LAUNCHED();
  }
  unsigned long long h[3] = {0, 0, 0};
  TD_CUDA(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
  PoisonReport r;
  r.lower_unwritten = h[0];
  r.upper_written = h[1];
  r.guard_written = h[2];
  return r;
}

void gather(const float* src, const u64* idx, float* vals, u64 n) {
  if (n == 0) return;
  const u64 blocks = std::min<u64>((n + 255) / 256, 65535);
  gather_kernel<<<unsigned(blocks), 256>>>(src, idx, vals, n);
  TD_LAUNCHED();
  TD_CUDA(cudaDeviceSynchronize());
}

}  // namespace tdmaps::apps
