// src/support/gram/gram_api.hpp — the host interface of the tensor-core Gram kernels (issue #27),
// without CUTLASS: the experiment program includes this; the kernels are compiled once per
// input precision in src/support/gram/gram_<prec>.cu (gram.cuh, with CUTLASS/CuTe).
#pragma once
#include <cuda_runtime.h>
#include <cstddef>
#include <cstdint>
#include <string>

namespace gram {

using i64 = std::int64_t;

enum class Prec { tf32, tf32x3, bf16, fp16 };
enum class Out { lower, condensed, hist };
enum class Sched { ltm_e, bb };  // the tile scheduler: LTM-E over the lower tiles, or the c x c bounding box
// The kernel around CUTLASS's mainloop (gram.cuh): classic = one block a tile, the epilogue after
// the mainloop in its shared memory (2 blocks an SM); persistent = as many blocks as fit, each
// walking the map's tiles, the epilogue's rows stored by bulk asynchronous copies (TMA, sm_90).
enum class Kernel { classic, persistent };
inline const char* name(Kernel k) { return k == Kernel::classic ? "classic" : "persistent"; }

inline const char* name(Prec p) {
  switch (p) {
    case Prec::tf32: return "tf32";
    case Prec::tf32x3: return "3xtf32";
    case Prec::bf16: return "bf16";
    case Prec::fp16: return "fp16";
  }
  return "?";
}
inline const char* name(Out o) { return o == Out::lower ? "lower" : o == Out::condensed ? "condensed" : "hist"; }
inline const char* name(Sched s) { return s == Sched::ltm_e ? "tdmaps-ltm-e" : "bb-grid"; }

constexpr int tile_side = 128;  // square output tiles, 128 x 128

// The operands as the tensor cores read them (prepare: O(N d) on the GPU).
struct Prepared {
  Prec prec = Prec::tf32;
  const void* A = nullptr;  // Np x Kp, K-major
  const void* B = nullptr;  // == A but for 3xtf32
  float* norms = nullptr;   // |x_i|^2, Np floats (0 past N)
  i64 N = 0, Np = 0, Kp = 0;
  int d = 0;
};
// What one launch computes and where it goes.
struct Request {
  Sched sched = Sched::ltm_e;
  Kernel kernel = Kernel::classic;
  Out out = Out::lower;
  bool take_sqrt = false;              // lower / condensed: write d instead of d^2
  float* dst = nullptr;                // lower: N x N row-major (j <= i written); condensed: N(N-1)/2
  unsigned long long* hist = nullptr;  // hist: `buckets` counters, added to (pairs i > j)
  int buckets = 0;
  float width = 0;                     // hist: bucket width of the distance
};

size_t operand_bytes(Prec p, i64 N, int d);
int max_buckets(Prec p);  // the fused histogram's block copies live in shared memory
// X: device, N x d float row-major. Errors: the CUDA error (checked by the caller).
cudaError_t prepare(Prec p, const float* X, i64 N, int d, Prepared& out, cudaStream_t s = 0);
void release(Prepared& p);
// Tiles launched: c(c+1)/2 (ltm-e) or c^2 (bb), c = ceil(N / 128).
unsigned long long launched_tiles(Sched s, i64 N);
// One launch (asynchronous). Throws tdmaps::unsupported past a map's range (host, before the launch).
cudaError_t run(const Prepared& p, const Request& r, cudaStream_t s = 0);

}  // namespace gram
