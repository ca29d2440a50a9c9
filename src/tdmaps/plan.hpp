// tdmaps/plan.hpp — the vocabulary every map policy speaks.
//
// A map policy M is a small type (compare CUTLASS's threadblock swizzles):
//   static Plan2 plan(i64 N, int rho, bool allow_inexact = false)
//                                            host: validate N, rho; size the grid; throws
//                                            unsupported past the exact range unless asked
//   static Dim3 grid(const Plan2&, int pass) host: blocks to launch in pass `pass`
//   static Dim3 block(const Plan2&)          host: threads per block
//   TD_HD static Cell2 cell(plan, pass, bx, by, tx, ty)
//                                            block+thread index -> (i, j) or outside
// Blockwise maps (all threads of a block share one block coordinate) also give
//   TD_HD static Cell2 block_cell(plan, pass, bx, by)   -> block row/column
// Kernels are written once, templated on M; the CPU oracle calls the same
// functions, so correctness is proven on the code that runs.
#pragma once
#include "config.hpp"
#include "numbers.hpp"
#include <stdexcept>
#include <string>

namespace tdmaps {

struct Dim3 {
  u32 x = 1, y = 1, z = 1;
};

// A cell of the 2D domain {(i, j) : 0 <= j <= i < N}, or "outside".
struct Cell2 {
  i64 i, j;
  bool inside;
};
// A cell of the 3D domain {(x, y, z) : 0 <= x <= y <= z < N}, or "outside".
struct Cell3 {
  i64 x, y, z;
  bool inside;
};

TD_HD Cell2 outside2() { return Cell2{-1, -1, false}; }
TD_HD Cell3 outside3() { return Cell3{-1, -1, -1, false}; }

// Everything a kernel needs to evaluate a map; passed by value to kernels.
struct Plan2 {
  i64 N = 0;      // problem size (domain side)
  int rho = 1;    // threads per block side
  i64 n = 0;      // block rows, ceil(N / rho)
  int passes = 1; // kernel launches (REC: k levels + diagonal pass)
  u64 total = 0;  // linear maps: blocks (LTM) or threads (UTM) that are used
  u32 gx = 1;     // linear maps: grid row length (lambda = bx + by * gx)
  i64 rec_mb = 0; // REC: diagonal square side in blocks (m / rho)
  int rec_k = 0;  // REC: recursion levels
};
struct Plan3 {
  i64 N = 0;
  int rho = 1;
  i64 n = 0;
  u64 total = 0;
  u32 gx = 1;
};

// Thrown by plan() for sizes a map cannot serve; what() is one line naming the limit.
struct unsupported : std::runtime_error {
  using std::runtime_error::runtime_error;
};

inline void check_common(const char* map, i64 N, int rho) {
  if (N <= 0)
    throw unsupported(std::string(map) + ": N must be >= 1 (got " + std::to_string(N) + ")");
  if (rho <= 0 || rho > 1024)
    throw unsupported(std::string(map) + ": rho must be in 1..1024 (got " + std::to_string(rho) + ")");
}

// A linear grid of `count` blocks: one row when it fits in gridDim.x, else rows of 2^30.
inline void linear_grid(u64 count, u32& gx, Dim3& g) {
  const u64 row = (count < (1ull << 31)) ? (count ? count : 1) : (1ull << 30);
  const u64 rows = (count + row - 1) / row;
  if (rows > 65535) throw unsupported("grid too large: more than 2^46 blocks");
  gx = static_cast<u32>(row);
  g.x = gx;
  g.y = static_cast<u32>(rows ? rows : 1);
  g.z = 1;
}

// Linear block index of a linear grid.
TD_HD u64 linear_block(const u32 gx, u32 bx, u32 by) { return u64(bx) + u64(by) * gx; }

// Blockwise maps: thread (tx, ty) of block (bi, bj) is cell (bi*rho+ty, bj*rho+tx).
TD_HD Cell2 thread_in_block(i64 N, int rho, Cell2 b, u32 tx, u32 ty) {
  if (!b.inside) return b;
  const i64 i = b.i * rho + ty, j = b.j * rho + tx;
  if (i < N && j <= i) return Cell2{i, j, true};
  return outside2();
}
TD_HD Cell3 thread_in_block3(i64 N, int rho, Cell3 b, u32 tx, u32 ty, u32 tz) {
  if (!b.inside) return b;
  const i64 x = b.x * rho + tx, y = b.y * rho + ty, z = b.z * rho + tz;
  if (z < N && y <= z && x <= y) return Cell3{x, y, z, true};
  return outside3();
}

}  // namespace tdmaps
