// src/support/gram/gram_exact.hpp — the exact mode of the pair reductions (issues #37, #38): every
// pair's distance in float64 on the CUDA cores, by the float64 formula of the CPU oracle
// (gram_cpu::d2_exact): d2 = sum over k = 0 .. d-1, in that order, of (double(x_ik) - double(x_jk))^2,
// each product and sum rounded once (no FMA), d = sqrt(d2) correctly rounded. The results equal a
// float64 CPU computation of that formula bit for bit, for every input (NaN included: a pair with a
// NaN distance counts nowhere). Its cost is the N(N-1)/2 d FP64 operations themselves: the
// bracketed exact mode of issue #37 (tensor cores first, float64 only near an edge) replaces it.
// The pairs are walked as the lower tiles of an LTM-E tile map (tdmaps/tiles.hpp).
#pragma once
#include <cuda_runtime.h>
#include <cstdint>

namespace gram::exact {

using i64 = std::int64_t;

// X: device, N x d float row-major (N >= 2, d >= 1). All outputs are device pointers, added to
// (the caller zeroes them). Errors: cudaErrorInvalidValue for bad sizes, else the launch's.

// Histogram of the distances of the pairs i > j over `bins` buckets with the bins + 1 increasing
// float64 edges (device): pair -> bucket b with edges[b] <= d < edges[b+1], the last bucket closed
// (d == edges[bins] counts in it): NumPy's histogram rule. Distances outside: not counted.
constexpr int max_bins = 4096;  // histogram(): bins past it are refused (its block copy is in shared memory)
cudaError_t histogram(const float* X, i64 N, int d, const double* edges, int bins, unsigned long long* hist,
                      cudaStream_t s = 0);
// Neighbour counts within eps (d <= eps): counts[i] += 1 for every j != i, *total += 1 per pair i > j.
cudaError_t radius_count(const float* X, i64 N, int d, double eps, unsigned* counts, unsigned long long* total,
                         cudaStream_t s = 0);
// The least and largest pair distance: out[0] = min, out[1] = max (device, 2 doubles; start them at
// {+inf, 0}: combined by atomics on the bits of non-negative doubles).
cudaError_t minmax(const float* X, i64 N, int d, double* out, cudaStream_t s = 0);

// The replay of the bracketed exact mode (gram_api.hpp: count_exact, hist_exact): the pairs (i << 32 | j) of
// `pairs` (device, the first min(*n, cap) of them; *n on the device: no host synchronisation) recounted by the
// formula above, into the same outputs as radius_count / histogram. A block a 256 pairs at a time, a thread a pair.
cudaError_t replay_count(const float* X, i64 N, int d, double eps, const unsigned long long* pairs,
                         const unsigned long long* n, unsigned long long cap, unsigned* counts,
                         unsigned long long* total, cudaStream_t s = 0);
cudaError_t replay_histogram(const float* X, i64 N, int d, const double* edges, int bins,
                             const unsigned long long* pairs, const unsigned long long* n, unsigned long long cap,
                             unsigned long long* hist, cudaStream_t s = 0);

}  // namespace gram::exact
