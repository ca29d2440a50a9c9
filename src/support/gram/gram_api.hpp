// src/support/gram/gram_api.hpp — the host interface of the tensor-core Gram kernels (issue #27),
// without CUTLASS: the experiment program includes this; the kernels are compiled once per
// input precision in src/support/gram/gram_<prec>.cu (gram.cuh, with CUTLASS/CuTe).
#pragma once
#include <results/gram_names.hpp>  // the enums below and their names (the CSV's vocabulary), host-only
#include "gram_limits.hpp"         // what sm90-evt refuses

#include <cuda_runtime.h>
#include <cstddef>
#include <cstdint>
#include <string>

namespace gram {

using i64 = std::int64_t;

// Prec, Out, Sched, Kernel, their names (name(), prec_of, kernel_of) and the impl column (impl_name,
// impl_of): results/gram_names.hpp, where the results layer reads them too.
// Prec: tf32, 3xtf32 (FP32-accurate, three TF32 products), bf16, fp16: the operands' type on the tensor cores.
// lower: the lower triangle (j <= i) of a row-major N x N; condensed: pdist order (i < j);
// hist: a uniform histogram of the distances of the pairs i > j; mirror (issue #38): the whole
// N x N from the lower tiles (each tile and its transpose); count (issue #37/#38): per-point
// neighbour counts within eps and their pair total; minmax: the least and largest distance of
// the pairs i > j (histogram's range=None). mirror: kernels classic, sm80-8w, sm90-ws and sm90-evt (distances, and
// the BF16 / FP16 product);
// count: every kernel (sm90-evt: a visitor-tree node, below); minmax: classic, sm80-8w and sm90-ws.
// count_exact, hist_exact (issue #37 item 2, every kernel): the exact mode on the tensor cores. Each pair's d^2
// from the tensor cores comes with its error bound (gram_cpu.hpp's c_P S, S <= 2 (|x_i|^2 + |x_j|^2)); a pair whose
// bracket [d^2 - bound, d^2 + bound] is on one side of eps (one bucket) counts there, the others (the bracket
// straddles eps or an edge) go to a replay list and are recounted in float64 by gram_exact.hpp's formula. The counts
// and the histogram equal gram::exact's (all pairs in float64) bit for bit.
// Sched: the tile scheduler: LTM-E over the lower tiles (ltm_e), or the c x c bounding box (bb).
// The kernel around CUTLASS's mainloop (gram.cuh): classic = one block a tile, the epilogue after
// the mainloop in its shared memory (2 blocks an SM); sm80_8w = classic's kernel on 8 warps with 16-deep k-tiles (<= 128 registers: 2 blocks, 16
// warps an SM); sm90_ws = Hopper's own mainloop (CUTLASS 3's SM90 TMA + wgmma warp-specialized
// collective, gram_sm90.cuh in gram_sm90.cu and gram_sm90_extra.cu, compiled for sm_90a only), one block a tile, our epilogue from the
// accumulator registers. Every kernel's tile scheduler is the map (LTM-E or the bb-grid). The three share one
// epilogue (gram_epilogue.cuh). (Kernel persistent, TMA row stores, is retired: sm90_evt supersedes it.)
// sm90_evt (issue #36, gram_sm90_evt.cu, sm_90a only): no kernel of ours at all, a stock CUTLASS 3
// GemmUniversal (TMA warp-specialized ping-pong, persistent) with the tdmaps LowerTriangleScheduler
// (Sched::ltm_e) or CUTLASS's persistent scheduler over the whole c x c square (Sched::bb: every
// cell of N x N written, the rows "full-sm90-evt"), and the distance epilogue as an epilogue visitor
// tree (CUTLASS's fusion API): lower and mirror end in TMA stores, condensed in stores from the registers
// (cooperative kernel), and the BF16 / FP16 product X X^T is mirror-written; the fused reductions (hist, count and
// the exact mode's, issue #37) are the tree's root, nothing stored. What it refuses: sm90_evt_refusal.
// Whether this build carries sm90_ws and sm90_evt (gram_sm90*.cu, gram_sm90_evt.cu: CUTLASS and an nvcc
// that builds sm_90a) and whether the current device runs them (compute capability 9.0 exactly: sm_90a
// code runs nowhere else).
bool sm90_built();
bool sm90_runs();

// sm90_evt_reduction, sm90_evt_refusal (what kernel sm90_evt refuses): gram_limits.hpp (host-only, no CUDA: the
// CPU tests read it).

// The outputs fall in two groups, each instantiated in its own translation units so that the precisions' files
// build in parallel: the tile outputs (lower, condensed, hist: both schedulers, every kernel, tile ranges for
// hist) and the extra ones (mirror, count, minmax and the exact mode's: LTM-E; gram_extra_<prec>.cu for classic and
// sm80-8w, gram_sm90_extra.cu for sm90-ws).
// run() picks the group's unit by out_group(); the one dispatch (gram_launch.cuh) refuses the other group.
enum class OutGroup { tile, extra };
constexpr OutGroup out_group(Out o) {
  return o == Out::lower || o == Out::condensed || o == Out::hist ? OutGroup::tile : OutGroup::extra;
}

constexpr int tile_side = 128;  // square output tiles, 128 x 128

// The operands as the tensor cores read them (prepare: O(N d) on the GPU).
struct Prepared {
  Prec prec = kDefaultPrec;  // set by prepare()
  const void* A = nullptr;  // Np x Kp, K-major
  const void* B = nullptr;  // == A but for 3xtf32
  float* norms = nullptr;   // |x_i|^2, Np floats (0 past N)
  unsigned* flag = nullptr; // one device word, 0 after prepare (nan_nonfinite_pairs sets it)
  // centered (prepare's center): A, B and the norms are of y_i = fl(x_i - mu), mu (d floats, device) the mean of the
  // first <= center_rows points' finite values. Every distance is the same in exact arithmetic; the Gram form's error
  // bound, c_P (|y_i| + |y_j|)^2, falls with the norms (issue #37: the exact mode replays fewer pairs, and data far
  // from the origin no longer replay nearly all). run() refuses the product (X X^T) of centered operands.
  bool centered = false;
  const float* mean = nullptr;
  void* owned = nullptr;    // prepare's own allocation (no workspace given): release() frees it
  i64 N = 0, Np = 0, Kp = 0;
  int d = 0;
};
// What one launch computes and where it goes.
struct Request {
  Sched sched = Sched::ltm_e;
  Kernel kernel = Kernel::classic;
  Out out = Out::lower;
  bool take_sqrt = false;              // lower / condensed / mirror: write d instead of d^2
  bool product = false;                // lower / mirror: write the Gram product x_i.x_j itself (no distance)
  float* dst = nullptr;                // lower: N x N row-major (j <= i written); condensed: N(N-1)/2; mirror: N x N
  unsigned long long* hist = nullptr;  // hist: `buckets` counters, added to (pairs i > j)
  int buckets = 0;
  float width = 0;                     // hist: bucket width of the distance
  float lo = 0;                        // hist: the first edge; bucket b = floor((d - lo) / w) in float (one FFMA),
                                       // counted for 0 <= b < buckets: the last edge open (NumPy closes it: widen
                                       // the width by an ulp for that); distances outside: not counted
  unsigned* counts = nullptr;          // count: N counters, added to: point i gets one for every j != i within eps
  unsigned long long* total = nullptr; // count: one counter, added to: the pairs i > j within eps
  float eps2 = 0;                      // count: the pair is within eps when its d^2 <= eps2 (>= 0, else refused)
  float* minmax = nullptr;             // minmax: 2 floats {least, largest} distance, combined with what they hold
                                       // (start them at {+inf, 0}; atomics on the bits of non-negative floats)
  // count_exact / hist_exact (the exact mode): X (the N x d float points of prepare: the replay reads them), eps
  // (count_exact: d <= eps, float64) or edges (hist_exact: the buckets + 1 float64 edges lo + b w, b = 0 .. buckets,
  // device; lo, width and buckets as hist's; NumPy's rule, the last edge closed), and the replay list: replay_cap
  // pairs (device, 8 bytes each) and its length *replay_n (device, zeroed by the caller). The pairs past replay_cap
  // are counted in *replay_n but not kept: then the result is incomplete, and the caller must run again with a
  // longer list (replay_n says how long) or fewer tiles.
  const float* X = nullptr;
  double eps = 0;
  const double* edges = nullptr;
  unsigned long long* replay = nullptr;
  unsigned long long replay_cap = 0;
  unsigned long long* replay_n = nullptr;
  // hist, hist_exact, count and count_exact with Sched::ltm_e: only the tiles of LTM-E's blocks [lam_begin, lam_end)
  // of its c(c+1)/2 (tdmaps::TileRange; tdmaps/partition.hpp splits them across GPUs and chunks: multi_hist --app
  // gram), launched as a grid of their own, by classic, sm80-8w and sm90-ws (sm90-evt refuses a range). Default: all of them, the kernels of the
  // whole grid. Another output or scheduler with a range, or a range past the grid's blocks
  // (launched_tiles: c(c+1)/2, past c = 65535 rounded up to whole rows of tdmaps::linear_grid): cudaErrorInvalidValue.
  static constexpr unsigned long long all_tiles = ~0ull;
  unsigned long long lam_begin = 0, lam_end = all_tiles;
};

// The bytes of the operands of N points of d features (A, B, the norms, the flag): prepare's workspace.
size_t operand_bytes(Prec p, i64 N, int d);
int max_buckets(Prec p);  // the fused histogram's block copies live in shared memory
// X: device, N x d float row-major. The operands go to `workspace` (operand_bytes(p, N, d) bytes, 256-byte
// aligned, e.g. from the caller's caching allocator: no allocation, stream-ordered), or to one cudaMalloc of
// prepare's own when it is null. center: the operands of x - mu (Prepared::centered; what the exact mode's callers
// ask for). Errors: the CUDA error (checked by the caller).
constexpr i64 center_rows = 65536;  // mu: the mean of the first min(N, center_rows) points (any mu is exact-safe)
cudaError_t prepare(Prec p, const float* X, i64 N, int d, Prepared& out, cudaStream_t s = 0, void* workspace = nullptr,
                    bool center = false);
void release(Prepared& p);  // frees prepare's own allocation (none with a workspace)
// Tiles launched: c(c+1)/2 (ltm-e) or c^2 (bb), c = ceil(N / 128).
unsigned long long launched_tiles(Sched s, i64 N);
// One launch (asynchronous). Throws tdmaps::unsupported past a map's range (host, before the launch).
cudaError_t run(const Prepared& p, const Request& r, cudaStream_t s = 0);
// Sets *flag (device-visible, e.g. mapped pinned memory) to 1 where a norm |x_i|^2 of the prepared points
// is not finite: x holds NaN or Inf, its squared norms overflow float32, or (bf16 / fp16) a value past the
// type's range. The Gram form would turn such points into wrong finite distances (fmaxf(NaN, 0) = 0); the
// caller checks the flag after the call and discards its results. One pass over the N norms.
cudaError_t flag_nonfinite_norms(const Prepared& p, unsigned* flag, cudaStream_t s = 0);
// The distances' answer to non-finite input, asynchronously: flags the prepared norms (p.flag) and, where one is
// not finite, writes NaN to every pair (i, j), i != j, of such a point in r.dst (outputs lower, condensed,
// mirror; the diagonal keeps its 0): what torch.cdist and SciPy give for NaN rows. Two small launches after
// run(); no host synchronisation. With finite input: a pass over the N norms and one read of the flag.
cudaError_t nan_nonfinite_pairs(const Prepared& p, const Request& r, cudaStream_t s = 0);
// Zeroes the cells j >= i of a row-major N x N (the diagonal and above): the "lower" output with the
// rest defined, at half the bytes of a memset of the whole.
cudaError_t zero_upper(float* dst, i64 N, cudaStream_t s = 0);

}  // namespace gram
