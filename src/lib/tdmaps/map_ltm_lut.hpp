// tdmaps/map_ltm_lut.hpp — LTM-LUT, "ltm-lut": g(lambda) read from a lookup table, the
// alternative of 001_76513e4fc7b63a5f.txt §V-A ("an alternative version of LTM using a
// lookup table for the mapping ... as slow as using the default square root sqrtf(x),
// even when the Kepler architecture has an efficient mechanism for accessing a common
// value for all threads (uniform-load feature) within a block ... memory limitations did
// not allow us to experiment in the full range"). The papers' other maps are barred
// from memory that grows with N (000 §IV-B); this one is the exception, by design.
//
// The table holds, for every block index lambda, its block coordinate packed in one
// 32-bit word, (i << 16) | j, i = the row of lambda (eq. (1)), j = lambda - i(i+1)/2.
// It is built on the host by plain enumeration (row by row: no square root, exact for
// every lambda it holds) and is the same for every plan (entry lambda does not depend on
// n), so one table serves all plans up to its length. All threads of a block read the
// same word (a uniform load); the map does no arithmetic beyond the shift and the mask.
// Range: n(n+1)/2 <= 2^28 entries (1 GiB), i.e. n <= 23169 block rows (N <= 370,704 at
// rho = 16); plan() refuses larger n.
//
// Where the table lives. The map's Params, LutPlan (plan.hpp: the linear plan and the field
// lut_table), holds its address, and the map headers are plain C++ (no CUDA runtime). So:
//   * host: plan() makes sure the process-wide host table covers n(n+1)/2 entries and
//     stores its address in the plan's own word `lut_table` (plan.hpp); the host
//     (oracle, counts2) reads the table through that address;
//   * device: tdmaps::launch (tdmaps/launch.cuh, under our launch_checked) sees that the map has an auxiliary table
//     (aux_table / with_aux_table below), copies the host table to each device on first
//     use there, or again when the table grew (one copy per (device, host address):
//     device_copy_of in launch.cuh), and launches with a copy of the plan whose lut_table
//     holds the device address. Host tables are never freed (each new one at
//     least doubles the length), so a plan's address stays valid for the process.
#pragma once
#include "plan.hpp"

#include <memory>
#include <mutex>
#include <vector>

namespace tdmaps {

namespace limits {
constexpr u64 ltm_lut_max_entries = u64(1) << 28;  // 1 GiB of u32
constexpr i64 ltm_lut_max_n = 23169;                 // tri(23169) = 268,412,865 <= 2^28 < tri(23170)
}  // namespace limits

// The process-wide host table: its address and length (entries) for at least `need`
// entries. Thread safe.
struct LutRef {
  const u32* data = nullptr;
  u64 entries = 0;
};
inline LutRef ltm_lut_host_table(u64 need) {
  static std::mutex m;
  static std::vector<std::unique_ptr<u32[]>> tables;  // every table ever built, kept alive
  static u64 len = 0;
  std::lock_guard<std::mutex> g(m);
  if (need > len) {
    u64 c = len * 2 > need ? len * 2 : need;
    if (c < (u64(1) << 16)) c = u64(1) << 16;
    if (c > limits::ltm_lut_max_entries) c = limits::ltm_lut_max_entries;
    std::unique_ptr<u32[]> t(new u32[c]);
    u64 l = 0;
    for (u32 i = 0; l < c; ++i)
      for (u32 j = 0; j <= i && l < c; ++j) t[l++] = (i << 16) | j;
    tables.push_back(std::move(t));
    len = c;
  }
  return LutRef{tables.back().get(), len};
}
struct LTM_LUT {
  static constexpr const char* name = "ltm-lut";
  static constexpr bool blockwise = true;
  static constexpr u64 exact_blocks = limits::ltm_lut_max_entries;
  using Params = LutPlan;
  static Params plan(i64 N, int rho, bool allow_inexact = false) {
    check_common(name, N, rho);
    (void)allow_inexact;
    Params p;
    p.N = N; p.rho = rho; p.n = ceil_div(N, rho);
    if (p.n > limits::ltm_lut_max_n)
      throw unsupported(std::string(name) + ": the table holds n(n+1)/2 <= 2^28 blocks, n <= " +
                        std::to_string(limits::ltm_lut_max_n) + " block rows, i.e. N <= " +
                        std::to_string(limits::ltm_lut_max_n * rho) + " at rho=" + std::to_string(rho) +
                        " (got N=" + std::to_string(N) + ")");
    p.total = tri(u64(p.n));
    Dim3 g;
    linear_grid(p.total, p.gx, g, name);  // one row (total < 2^31)
    const LutRef t = ltm_lut_host_table(p.total);
    p.lut_table = u64(reinterpret_cast<std::uintptr_t>(t.data));
    // lambda < 2^28 and coordinates as BB's
    p.narrow = narrow_coords(N, rho);
    return p;
  }
  static Dim3 grid(const Params& p, int) { return linear_grid_dims(p.total, name); }
  static Dim3 block(const Params& p) { return Dim3{u32(p.rho), u32(p.rho), 1}; }

  // ---- the auxiliary table (tdmaps/launch.cuh copies it to the device) ----
  struct AuxTable {
    const void* host = nullptr;
    u64 bytes = 0;
  };
  // The plan's host table and the bytes the plan reads of it (its first n(n+1)/2 entries).
  static AuxTable aux_table(const Params& p) { return AuxTable{table(p), p.total * sizeof(u32)}; }
  static Params with_aux_table(Params p, const void* device_table) {
    p.lut_table = u64(reinterpret_cast<std::uintptr_t>(device_table));
    return p;
  }
  TD_HD static const u32* table(const Params& p) { return reinterpret_cast<const u32*>(std::uintptr_t(p.lut_table)); }

  template <class Index = i64>
  TD_HD static Cell2T<Index> block_cell(const Params& p, int, u32 bx, u32 by) {
    using U = uidx<Index>;
    const U l = linear_block<U>(p.gx, bx, by);  // one-row grid: every block is used
#if defined(__CUDA_ARCH__)
    const u32 v = __ldg(table(p) + l);
#else
    const u32 v = table(p)[l];
#endif
    return Cell2T<Index>{Index(v >> 16), Index(v & 0xffffu), true};
  }
  template <class Index = i64>
  TD_HD static Cell2T<Index> cell(const Params& p, int pass, u32 bx, u32 by, u32 tx, u32 ty) {
    return thread_in_block(p.N, p.rho, block_cell<Index>(p, pass, bx, by), tx, ty);
  }
};

}  // namespace tdmaps
