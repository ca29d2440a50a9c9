// tdmaps/plan.hpp — the vocabulary every map policy speaks.
//
// A map policy M is a small type (compare CUTLASS's threadblock swizzles and their
// `typename Swizzle::Params`):
//   using Params = ...                       the plan: what its kernels read, passed by value
//                                            (2D: a struct deriving from PlanBase, below; 3D: Plan3)
//   static Params plan(i64 N, int rho, bool allow_inexact = false)
//                                            host: validate N, rho; size the grid; throws
//                                            unsupported past the exact range unless asked
//   static Dim3 grid(const Params&, int pass) host: blocks to launch in pass `pass`
//   static Dim3 block(const Params&)          host: threads per block
//   TD_HD static Cell2T<Index> cell<Index>(params, pass, bx, by, tx, ty)
//                                            block+thread index -> (i, j) or outside
// Blockwise maps (all threads of a block share one block coordinate) also give
//   TD_HD static Cell2T<Index> block_cell<Index>(params, pass, bx, by)   -> block row/column
// Index is the index type of the path (config.hpp): i64 (the default; serves every size)
// or i32 (only when plan() set PlanBase::narrow). Each map's arithmetic is written once,
// for both.
// Kernels are written once, templated on M, and take `typename M::Params` (params_t<M>);
// the CPU oracle calls the same functions, so correctness is proven on the code that runs.
#pragma once
#include "config.hpp"
#include "numbers.hpp"
#include <stdexcept>
#include <string>
#include <type_traits>

namespace tdmaps {

struct Dim3 {
  u32 x = 1, y = 1, z = 1;
};

// A cell of the 2D domain {(i, j) : 0 <= j <= i < N}, or "outside", in the index
// type Index of the path that produced it (i32 narrow, i64 wide; config.hpp).
template <class Index> struct Cell2T {
  Index i, j;
  bool inside;
};
// A cell of the 3D domain {(x, y, z) : 0 <= x <= y <= z < N}, or "outside".
template <class Index> struct Cell3T {
  Index x, y, z;
  bool inside;
};
using Cell2 = Cell2T<i64>;
using Cell3 = Cell3T<i64>;

template <class Index = i64> TD_HD Cell2T<Index> outside2() { return Cell2T<Index>{Index(-1), Index(-1), false}; }
template <class Index = i64> TD_HD Cell3T<Index> outside3() { return Cell3T<Index>{Index(-1), Index(-1), Index(-1), false}; }

// What every 2D plan has, whatever its map: the problem, the block side, the block rows,
// the launches and the index path. Each 2D map's Params derives from it and adds only the
// fields that map reads (no field serves two maps); code that works on any 2D plan (counts,
// the oracle, the launch) reads only these.
struct PlanBase {
  i64 N = 0;      // offset 0: problem size (domain side)
  int rho = 1;    // offset 8: threads per block side
  i64 n = 0;      // offset 16: block rows, ceil(N / rho)
  int passes = 1; // offset 24: kernel launches (REC: k levels + diagonal pass)
  // The index path: true when plan() proved that every index and intermediate of
  // this plan's map fits 32 bits (then kernels run M::cell<i32>); false runs the
  // 64-bit path, which serves every size. A harness may clear it to run the wide
  // path on a small plan (verification); it must never set it.
  bool narrow = false;  // offset 28
};
// The maps' own Params (a new map takes one of these or declares its own beside its policy):
// BB, BB-T, RB, RB-B: the grid follows from N, rho and n alone.
struct GridPlan : PlanBase {};
// The linear maps (LTM and its variants, UTM): lambda = bx + by * gx over `total` used blocks
// (UTM: threads). The square-grid LTM keeps its grid side n' in gx.
struct LinearPlan : PlanBase {
  u64 total = 0;  // offset 32: blocks (LTM) or threads (UTM) that are used
  u32 gx = 1;     // offset 40: grid row length (lambda = bx + by * gx)
};
// LTM-LUT (map_ltm_lut.hpp): a linear map that reads its table.
struct LutPlan : LinearPlan {
  u64 lut_table = 0;  // offset 48: the table's address (the host's; a launched plan: the device copy)
};
// REC (map_rec.hpp); its recursion levels k are passes - 1.
struct RecPlan : PlanBase {
  i64 rec_mb = 0;  // offset 32: diagonal square side in blocks (m / rho)
};
// The kernels' parameter layouts (a kernel's parameters after the plan move with its size).
static_assert(sizeof(PlanBase) == 32 && sizeof(GridPlan) == 32, "PlanBase/GridPlan: the kernels' parameter layout changed");
static_assert(sizeof(LinearPlan) == 48, "LinearPlan: the kernels' parameter layout changed");
static_assert(sizeof(LutPlan) == 56, "LutPlan: the kernels' parameter layout changed");
static_assert(sizeof(RecPlan) == 40, "RecPlan: the kernels' parameter layout changed");

// Every 3D map (BB3, the TET family) reads the fields of this one plan (BB3: N, rho, n,
// narrow; it sets total for the host; TET: also total and gx): the 3D maps' Params.
struct Plan3 {
  i64 N = 0;
  int rho = 1;
  i64 n = 0;
  u64 total = 0;
  u32 gx = 1;
  bool narrow = false;  // as PlanBase::narrow
};
static_assert(sizeof(Plan3) == 40, "Plan3: the kernels' parameter layout changed");

// A map's plan type: typename M::Params.
template <class M> using params_t = typename M::Params;

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

// A linear grid of `count` blocks: one row when it fits in gridDim.x (count < 2^31), else
// rows = ceil(count / (2^31 - 1)) rows of gx = ceil(count / rows) blocks. Row-major block
// lambda = bx + by * gx covers [0, count) exactly once; the last row's tail, the
// rows * gx - count < rows blocks at lambda >= count, is outside (every multi-row kernel tests
// lambda against its count). Earlier builds used rows of 2^30, whose tail could be most of a
// row (count = 2^31 + 1: 3 * 2^30 blocks launched, a third of them empty). The limit stays
// max_linear_blocks = 65535 rows of 2^30 (the maps' exact ranges are stated against it); under
// it rows <= 32768. Host only: the kernels read gx from the plan (no device code changes).
constexpr u64 max_linear_blocks = 65535ull << 30;
constexpr u64 max_grid_row = (1ull << 31) - 1;  // gridDim.x's limit
inline void linear_grid(u64 count, u32& gx, Dim3& g, const char* map = "linear grid") {
  if (count > max_linear_blocks)
    throw unsupported(std::string(map) + ": " + std::to_string(count) +
                      " blocks are more than a CUDA grid holds (65535 rows of 2^30 = 2^46 - 2^30)");
  const u64 rows = count ? (count + max_grid_row - 1) / max_grid_row : 1;
  const u64 row = count ? (count + rows - 1) / rows : 1;
  gx = static_cast<u32>(row);
  g.x = gx;
  g.y = static_cast<u32>(rows);
  g.z = 1;
}

// The grid linear_grid plans for `count` blocks (a map's grid(), from its plan).
inline Dim3 linear_grid_dims(u64 count, const char* map) {
  Dim3 g;
  u32 gx;
  linear_grid(count, gx, g, map);
  return g;
}

// Largest value every narrow-path index may take: cells, block rows and the sums
// that form them stay below 2^31 (signed i32), block indices below 2^31 too.
constexpr i64 narrow_limit = (i64(1) << 31) - 1;
// The common narrow condition of a 2D/3D plan: thread coordinates b*rho + t < n*rho
// and the comparisons with N fit i32.
inline bool narrow_coords(i64 N, int rho) { return N + 2 * i64(rho) <= narrow_limit; }

// Linear block index of a linear grid. The narrow path of a linear map only runs on
// one-row grids (plan() requires count < 2^31, so linear_grid made gx = count): the
// block index is bx, and every block of the grid is used.
template <class U> TD_HD U linear_block(const u32 gx, u32 bx, u32 by);
template <> TD_HD u32 linear_block<u32>(const u32, u32 bx, u32) { return bx; }
template <> TD_HD u64 linear_block<u64>(const u32 gx, u32 bx, u32 by) { return u64(bx) + u64(by) * gx; }
TD_HD u64 linear_block(const u32 gx, u32 bx, u32 by) { return linear_block<u64>(gx, bx, by); }

// Blockwise maps: thread (tx, ty) of block (bi, bj) is cell (bi*rho+ty, bj*rho+tx).
// The coordinates of a cell that is not inside carry no meaning (no select to -1:
// callers test `inside` first, and the kernel stays free of the moves).
template <class Index>
TD_HD Cell2T<Index> thread_in_block(i64 N, int rho, Cell2T<Index> b, u32 tx, u32 ty) {
  const Index i = b.i * Index(rho) + Index(ty), j = b.j * Index(rho) + Index(tx);
  return Cell2T<Index>{i, j, b.inside && i < Index(N) && j <= i};
}
template <class Index>
TD_HD Cell3T<Index> thread_in_block3(i64 N, int rho, Cell3T<Index> b, u32 tx, u32 ty, u32 tz) {
  const Index x = b.x * Index(rho) + Index(tx), y = b.y * Index(rho) + Index(ty), z = b.z * Index(rho) + Index(tz);
  return Cell3T<Index>{x, y, z, b.inside && z < Index(N) && y <= z && x <= y};
}

}  // namespace tdmaps
