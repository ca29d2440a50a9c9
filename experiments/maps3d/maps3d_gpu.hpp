// experiments/maps3d/maps3d_gpu.hpp — what bench_maps3d and gpu_verify_3d call: host
// functions that pick the instantiation of a kernel of src/support/gpu/tet.cuh for a map name
// and a mode, launch it (every call checked) and, for the references, compute on the
// CPU. The kernels are instantiated once, in maps3d_gpu.cu (a static library both
// programs link), to keep compile time down.
#pragma once
#include "maps3d_host.hpp"

#include <gpu/common.cuh>
#include <layouts.hpp>  // results::kThreadMode, kBlockMode: the modes' words (src/support/results/layouts.hpp)

#include <array>
#include <string>
#include <vector>

namespace tdmaps::exp3d {

enum class Mode : int { thread = 0, block = 1 };
// The mode's word in the CSVs (results/layouts.hpp kThreadMode / kBlockMode, which the readers use too).
inline const char* mode_str(Mode m) { return m == Mode::thread ? results::kThreadMode : results::kBlockMode; }

// A map (bb3, tet-f, tet-e, tet-fast) and where it is evaluated.
struct Variant {
  std::string map;
  Mode mode = Mode::thread;
  std::string label() const { return map + ":" + mode_str(mode); }
};

// plan() / grid() / block() / exact range of a map by name (throws unsupported like plan()).
Plan3 plan3(const std::string& map, i64 N, int rho, bool allow_inexact);
Dim3 grid3(const std::string& map, const Plan3& p);
u64 exact_blocks3(const std::string& map);  // bb3: no limit
u64 launched_blocks3(const std::string& map, const Plan3& p);
// Blocks with at least one in-domain thread (closed form; = counts.hpp counts3).
u64 useful_blocks3(const Plan3& p);

// ---- kernels -------------------------------------------------------------------------
void launch_dummy(const Variant& v, const Plan3& p, bool store_form, int* out);

struct Cov3 {
  u64 inside = 0, dup = 0, ood = 0, useful_blocks = 0;
  // "" when every cell of the pyramid was produced exactly once and nothing else.
  std::string check(i64 N, u64 expect_useful_blocks) const;
};
// bits: coverage_words3(N) words, counters: 4; both cleared here. Synchronizes.
u64 coverage_words3(i64 N);
Cov3 run_coverage(const Variant& v, const Plan3& p, u32* bits, unsigned long long* counters);

constexpr int kBinCopies3 = 1024;  // tet.cuh kBinCopies
// bins: kBinCopies3 * 4 counters (cleared by the caller); sum_bins adds the copies.
void launch_threebody(const Variant& v, const Plan3& p, const float4* pts, float r2, unsigned long long* bins);
std::array<u64, 4> sum_bins(const unsigned long long* bins_dev);
// N points in the unit cube (deterministic), and the CPU histogram (exact, threaded).
std::vector<float4> make_points(i64 N);
std::array<u64, 4> threebody_reference(const std::vector<float4>& pts, float r2);

// Which data layout of the map library (tdmaps/layout3d.hpp) a run uses: LinearLayout3 or BlockedLayout3.
// Not a CSV layout (results::Layout).
enum class DataLayout3 : int { linear = 0, blocked = 1 };
// tet_layout.csv's layout column: the layout's name in the map library (tdmaps/layout3d.hpp), which its readers take
inline const char* layout_str(DataLayout3 l) { return l == DataLayout3::linear ? LinearLayout3::name : BlockedLayout3::name; }
u64 layout_slots(DataLayout3 l, i64 N, int rho);
// One diffusion step in -> out (cells only; padding untouched).
void launch_layout(const Variant& v, const Plan3& p, DataLayout3 l, const float* in, float* out);
// a[slot(cell)] = cell_value(linear index) for every cell (padding untouched).
void layout_init(DataLayout3 l, i64 N, int rho, float* a);
// The checksum of the cells of a (apps/diffusion3d.hpp checksum_term); scratch: kBinCopies3 words.
u64 layout_checksum(DataLayout3 l, i64 N, int rho, const float* a, unsigned long long* scratch);
// The CPU checksum of one step's output (threaded, no arrays).
u64 layout_reference_checksum(i64 N);

// ---- complete checks (allocate, run once, compare with the CPU; "" when right) ----------
// Coverage of the variant's thread cells: every cell once, nothing else, useful blocks.
// force_wide: run the 64-bit path even where the plan chose the 32-bit one.
std::string verify_coverage(const Variant& v, i64 N, int rho, bool allow_inexact, bool force_wide = false);
// The 3-body histogram equals the CPU reference.
std::string verify_threebody(const Variant& v, i64 N, int rho, float r);
// One diffusion step, read back cell by cell: bit-equal to the CPU reference in the
// linear layout, and every padding slot of the output left untouched.
std::string verify_layout(const Variant& v, DataLayout3 l, i64 N, int rho);

// ---- the bandwidth-bound layout kernel (tet.cuh layout3_bw) and its reference ------------
// Each in-domain thread streams its cell's `planes` floats in -> out (out = in + 1), no other
// work: the memory-bound case of 003 §III-A's layout prediction (launch_layout above is the
// compute-bound stencil). Plane k of the cell in slot s is element k * stride + s, stride =
// layout_bw_stride(l, N, rho) (the layout's slots rounded up to 32 floats, so every plane
// starts 128-byte aligned). in and out hold planes * stride floats each.
constexpr int kBwPlaneCounts[] = {1, 4, 8};  // the instantiated plane counts
bool bw_planes_ok(int planes);               // planes is one of kBwPlaneCounts
u64 layout_bw_stride(DataLayout3 l, i64 N, int rho);
// Bytes the kernel moves: planes * 4 bytes read + written per cell, tet(N) cells (padding
// slots are neither read nor written): 8 * planes * tet(N).
u64 layout_bw_bytes(i64 N, int planes);
void launch_layout_bw(const Variant& v, const Plan3& p, DataLayout3 l, int planes, const float* in, float* out);
// The bandwidth reference over the same byte count: out[i] = in[i] + 1 for i < n floats
// (n = planes * tet(N) for the same bytes as launch_layout_bw), float4 accesses, grid-stride
// over (SMs x 8) blocks of 256 threads. in/out 16-byte aligned (cudaMalloc).
void launch_bw_reference(const float* in, float* out, u64 n);
// Complete checks (allocate, run once, compare with the CPU; "" when right): every cell's
// planes equal in + 1 bit for bit, every padding slot and the stride tail untouched.
std::string verify_layout_bw(const Variant& v, DataLayout3 l, i64 N, int rho, int planes);
std::string verify_bw_reference(u64 n);

// ---- exact ranges on the device -----------------------------------------------------------
// First lambda in [begin, end) whose layer (row) by root `root` (tet-f, tet-e, tet-fast)
// is wrong, else end. scratch: one word.
// narrow: evaluate the root's 32-bit path (end <= 2^32), else its 64-bit path.
u64 gpu_first_wrong_layer(const std::string& root, u64 begin, u64 end, unsigned long long* scratch, bool narrow = false);
u64 gpu_first_wrong_row(const std::string& root, u64 begin, u64 end, unsigned long long* scratch, bool narrow = false);

}  // namespace tdmaps::exp3d
