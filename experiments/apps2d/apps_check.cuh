// experiments/apps2d/apps_check.cuh — verification of the application kernels
// against the CPU references, shared by gpu_verify_apps (the test) and bench_apps
// (which verifies every kernel before it times it).
//
// EDM: the output (plus a guard zone after it) is poisoned with a NaN bit pattern,
// the kernel runs, and then
//   * a device scan counts lower-triangle elements still poisoned, elements above
//     the diagonal that are no longer poisoned (full layout; the fast kernels may
//     complete the diagonal's 32-byte sector, edm::fast_full_row_end, with values
//     equal bit for bit to their mirror) and written guard elements: all three
//     must be 0 (every element, every N);
//   * the values of a set of cells are gathered on the device and compared on the
//     host with the float64 reference: relative error <= 1e-6. The set is every
//     cell of the triangle for N <= 4096, else rows 0, 1, N/2, N-2, N-1 in full
//     plus 2^20 cells drawn uniformly (fixed seed) from the triangle.
// Collision: per-sphere counts and the pair total must equal the CPU reference
// exactly.
#pragma once
#include "apps_host.hpp"
#include "apps_kernels.hpp"

#include <gpu/common.cuh>

#include <atomic>
#include <cstdio>
#include <string>
#include <vector>

namespace tdmaps::apps {

// ---- a device buffer that frees itself: the one of src/support/gpu/cuda_check.cuh --------------------
using gpu::DevBuf;

template <class T>
void upload(T* dst, const std::vector<T>& src) {
  TD_CUDA(cudaMemcpy(dst, src.data(), src.size() * sizeof(T), cudaMemcpyHostToDevice));
}

// ---- EDM -----------------------------------------------------------------------------------
constexpr u64 edm_guard = 256;          // poisoned elements after the output
constexpr i64 edm_all_cells_max_N = 4096;
constexpr u64 edm_samples = u64(1) << 20;

// Floats a verified EDM run needs in its output buffer.
inline u64 edm_capacity(i64 N, EdmOutput L) { return edm::out_elems(N, L) + edm_guard; }

struct EdmCells {
  i64 N = 0;
  bool all = false;
  std::vector<i64> i, j;
};
inline EdmCells edm_cells(i64 N) {
  EdmCells c;
  c.N = N;
  c.all = N <= edm_all_cells_max_N;
  if (c.all) {
    c.i.reserve(size_t(tri(u64(N))));
    c.j.reserve(size_t(tri(u64(N))));
    for (i64 i = 0; i < N; ++i)
      for (i64 j = 0; j <= i; ++j) { c.i.push_back(i); c.j.push_back(j); }
    return c;
  }
  for (i64 r : {i64(0), i64(1), N / 2, N - 2, N - 1})
    for (i64 j = 0; j <= r; ++j) { c.i.push_back(r); c.j.push_back(j); }
  const u64 cells = tri(u64(N));
  for (u64 k = 0; k < edm_samples; ++k) {
    const u64 l = splitmix64(0x5a3b1e ^ (u64(N) << 24) ^ k) % cells;
    const u64 i = tri_root(l);
    c.i.push_back(i64(i));
    c.j.push_back(i64(l - tri(i)));
  }
  return c;
}

struct EdmResult {
  bool ok = false;
  u64 checked = 0, bad = 0, bits_differ = 0;
  double max_rel = 0;
  PoisonReport poison;
  std::string msg;  // first problem found, for the log
};

class EdmVerifier {
 public:
  // Reference values of `cells` for the points `pts` (host SoA [k*N + i], d features).
  void prepare(const EdmCells& cells, int d, const std::vector<float>& pts) {
    cells_ = &cells;
    d_ = d;
    const size_t n = cells.i.size();
    ref_.assign(n, 0.0);
    flt_.assign(n, 0.0f);
    parallel_for(n, [&](unsigned, u64 b, u64 e) {
      for (u64 k = b; k < e; ++k) {
        ref_[k] = edm_ref(pts.data(), cells.N, d, cells.i[k], cells.j[k]);
        flt_[k] = edm_float(pts.data(), cells.N, d, cells.i[k], cells.j[k]);
      }
    });
    idx_valid_ = false;
  }

  // Poisons d_out, runs the kernel, checks. d_out holds >= edm_capacity(N, layout) floats.
  EdmResult run(const EdmKernel& k, const any_plan2& p, const float* d_pts, float* d_out, u64 capacity) {
    const EdmCells& c = *cells_;
    const i64 N = c.N;
    const EdmOutput L = k.layout;
    EdmResult r;
    if (k.features != d_ || plan_base(p).N != N) gpu::die("EdmVerifier: kernel/plan do not match the prepared N and d");
    const u64 need = edm_capacity(N, L);
    if (capacity < need) gpu::die("EdmVerifier: output buffer too small");
    TD_CUDA(cudaMemset(d_out, poison_byte, need * sizeof(float)));
    k.launch(p, d_pts, d_out);
    TD_CUDA(cudaDeviceSynchronize());
    r.poison = edm_poison_report(d_out, N, L, edm_guard, k.fast);

    const size_t n = c.i.size();
    if (!idx_valid_ || idx_layout_ != L) {
      std::vector<u64> idx(n);
      for (size_t q = 0; q < n; ++q) idx[q] = edm::out_index(L, N, c.i[q], c.j[q]);
      d_idx_.reserve(n, "EDM check indices");
      d_vals_.reserve(n, "EDM check values");
      upload(d_idx_.get(), idx);
      idx_layout_ = L;
      idx_valid_ = true;
    }
    gather(d_out, d_idx_.get(), d_vals_.get(), n);
    vals_.resize(n);
    TD_CUDA(cudaMemcpy(vals_.data(), d_vals_.get(), n * sizeof(float), cudaMemcpyDeviceToHost));

    std::atomic<u64> bad{0}, bits{0};
    std::vector<double> worst(host_workers(), 0.0);
    std::atomic<size_t> first_bad{n};
    parallel_for(n, [&](unsigned w, u64 b, u64 e) {
      u64 nb = 0, nd = 0;
      double mx = 0;
      for (u64 q = b; q < e; ++q) {
        const double err = rel_error(vals_[q], ref_[q]);
        if (!(err <= edm_tolerance)) {
          ++nb;
          size_t f = first_bad.load();
          while (q < f && !first_bad.compare_exchange_weak(f, q)) {}
        }
        if (err > mx) mx = err;
        nd += float_to_bits(vals_[q]) != float_to_bits(flt_[q]);
      }
      bad += nb;
      bits += nd;
      worst[w] = mx;
    });
    r.checked = n;
    r.bad = bad;
    r.bits_differ = bits;
    for (double m : worst) r.max_rel = std::max(r.max_rel, m);
    r.ok = r.poison.ok() && r.bad == 0;
    char buf[512];
    if (!r.poison.ok()) {
      std::snprintf(buf, sizeof buf, "lower_unwritten=%llu upper_written=%llu guard_written=%llu",
                    (unsigned long long)r.poison.lower_unwritten, (unsigned long long)r.poison.upper_written,
                    (unsigned long long)r.poison.guard_written);
      r.msg = buf;
    }
    if (r.bad) {
      const size_t q = first_bad.load();
      std::snprintf(buf, sizeof buf, "%s%llu of %llu values off (first: (%lld,%lld) got %.9g want %.9g)",
                    r.msg.empty() ? "" : "; ", (unsigned long long)r.bad, (unsigned long long)n,
                    (long long)c.i[q], (long long)c.j[q], double(vals_[q]), ref_[q]);
      r.msg += buf;
    }
    return r;
  }

 private:
  const EdmCells* cells_ = nullptr;
  int d_ = 0;
  std::vector<double> ref_;
  std::vector<float> flt_, vals_;
  bool idx_valid_ = false;
  EdmOutput idx_layout_ = EdmOutput::full;
  DevBuf<u64> d_idx_;
  DevBuf<float> d_vals_;
};

// ---- collision ---------------------------------------------------------------------------------
struct CollisionResult {
  bool ok = false;
  u64 pairs = 0, ref_pairs = 0, bad_counts = 0;
  std::string msg;
};

class CollisionVerifier {
 public:
  // Spheres for (N, dim) on the host and device, and the CPU reference.
  void prepare(i64 N, int dim) {
    N_ = N;
    dim_ = dim;
    if (dim == 3) prepare_t(make_spheres<3>(N));
    else prepare_t(make_spheres<1>(N));
    d_counts_.reserve(size_t(N), "collision counts");
    d_total_.reserve(1, "collision total");
  }
  const void* spheres() const { return d_spheres_.get(); }
  u64 ref_pairs() const { return ref_.pairs; }

  CollisionResult run(const CollisionKernel& k, const any_plan2& p) {
    if (k.dim != dim_ || plan_base(p).N != N_) gpu::die("CollisionVerifier: kernel/plan do not match the prepared N and dim");
    TD_CUDA(cudaMemset(d_counts_.get(), 0, size_t(N_) * sizeof(u32)));
    TD_CUDA(cudaMemset(d_total_.get(), 0, sizeof(unsigned long long)));
    k.launch(p, d_spheres_.get(), d_counts_.get(), d_total_.get());
    TD_CUDA(cudaDeviceSynchronize());
    std::vector<u32> counts(static_cast<size_t>(N_));
    unsigned long long total = 0;
    TD_CUDA(cudaMemcpy(counts.data(), d_counts_.get(), counts.size() * sizeof(u32), cudaMemcpyDeviceToHost));
    TD_CUDA(cudaMemcpy(&total, d_total_.get(), sizeof total, cudaMemcpyDeviceToHost));
    CollisionResult r;
    r.pairs = total;
    r.ref_pairs = ref_.pairs;
    i64 first = -1;
    for (i64 i = 0; i < N_; ++i)
      if (counts[size_t(i)] != ref_.counts[size_t(i)]) {
        ++r.bad_counts;
        if (first < 0) first = i;
      }
    r.ok = r.bad_counts == 0 && r.pairs == r.ref_pairs;
    if (!r.ok) {
      char buf[256];
      std::snprintf(buf, sizeof buf, "pairs %llu (want %llu), %llu per-sphere counts differ (first: sphere %lld got %u want %u)",
                    (unsigned long long)r.pairs, (unsigned long long)r.ref_pairs, (unsigned long long)r.bad_counts,
                    (long long)first, first >= 0 ? counts[size_t(first)] : 0u,
                    first >= 0 ? ref_.counts[size_t(first)] : 0u);
      r.msg = buf;
    }
    return r;
  }

 private:
  template <int D>
  void prepare_t(const std::vector<coll::Sphere<D>>& s) {
    d_spheres_.reserve(s.size() * sizeof(coll::Sphere<D>) / sizeof(float4) + 1, "spheres");
    TD_CUDA(cudaMemcpy(d_spheres_.get(), s.data(), s.size() * sizeof(coll::Sphere<D>), cudaMemcpyHostToDevice));
    ref_ = collision_ref<D>(s);
  }
  i64 N_ = 0;
  int dim_ = 3;
  DevBuf<float4> d_spheres_;  // 16-byte aligned storage for Sphere<3> or Sphere<1>
  DevBuf<u32> d_counts_;
  DevBuf<unsigned long long> d_total_;
  CollisionRef ref_;
};

}  // namespace tdmaps::apps
