// experiments/apps2d/apps_kernels.hpp — the instantiated application kernels, by
// map name, behind plain function pointers. The templates live in src/support/gpu/edm.cuh
// and src/support/gpu/collision.cuh; edm_kernels.cu and collision_kernels.cu instantiate
// them once (a static library), so the verifier and the benchmark share one
// compilation of every kernel. A name finds its map's kernels through the registry's
// with_map (tdmaps/registry.hpp), the one name -> type dispatch of every program.
#pragma once
#include <gpu/collision.cuh>
#include <gpu/edm.cuh>
#include <tdmaps/registry.hpp>  // any_plan2: the table holds each map's own Params
#include "registry/experiments.hpp"  // the maps' traits and the experiments' lists (not installed)
#include "registry/map_names.hpp"   // fast_suffix: "<map>-fast", the tiled fast kernel's name

#include <optional>
#include <string>
#include <vector>

namespace tdmaps::apps {

using edm::EdmOutput;

// The map names of a kernel table, in table order (the entries of one map are consecutive).
template <class K>
std::vector<std::string> map_names_of(const std::vector<K>& table) {
  std::vector<std::string> names;
  for (const auto& k : table)
    if (names.empty() || names.back() != k.map) names.push_back(k.map);
  return names;
}

// ---- EDM -------------------------------------------------------------------------------
// Plain kernels for the maps of maps2d_apps (bb, ltm-r, ltm-e, ltm-r-sq, ltm-e-sq, rb, rb-b, rec,
// utm-x, utm-n; utm-*: coalesced stores,
// edm::plain_cell); fast kernels
// (64x64 / 128x128 tiles, float4 stores) for bb-fast, ltm-r-fast, ltm-e-fast.
struct EdmKernel {
  std::string map;  // e.g. "ltm-e", "ltm-e-fast"
  bool fast = false;
  int features = 0;
  EdmOutput layout = EdmOutput::full;
  // The map's plan for (N, rho); a fast variant plans tiles of 4*rho cells. Its own Params
  // type, held as any_plan2 (tdmaps/registry.hpp): the table's maps are chosen at run time.
  // Throws tdmaps::unsupported for sizes the map cannot serve.
  any_plan2 (*plan)(i64 N, int rho, bool allow_inexact) = nullptr;
  // Launches every pass on the default stream; pts SoA [k*N + i] (device), out device
  // buffer of edm::out_elems(N, layout) floats (16-byte aligned).
  void (*launch)(const any_plan2& p, const float* pts, float* out) = nullptr;
};
const std::vector<EdmKernel>& edm_kernels();
const EdmKernel* find_edm(const std::string& map, int features, EdmOutput L);  // nullptr if none
std::vector<std::string> edm_map_names();                                    // in table order

// The I reference of a map: "bb" for plain maps, "bb-fast" for fast ones (registry/map_names.hpp spells both).
inline std::string reference_map(const std::string& map) {
  const std::optional<tdmaps::named_map> n = tdmaps::map_named(map);
  return std::string(tdmaps::BB::name) + (n && n->fast ? tdmaps::fast_suffix : "");
}

// ---- collision ---------------------------------------------------------------------------
// Kernels for the maps of maps2d_apps; dim 3 or 1; two styles
// (src/support/gpu/collision.cuh): smem (the papers' shared-memory kernel; blockwise maps: bb,
// ltm-r, ltm-e, ltm-r-sq, ltm-e-sq, rb-b, rec) and direct (no shared memory, __ldg, a global atomic per
// colliding pair; every map). The entries of one map are consecutive in the table.
using CollisionStyle = coll::Style;
struct CollisionKernel {
  std::string map;
  int dim = 3;
  any_plan2 (*plan)(i64 N, int rho, bool allow_inexact) = nullptr;  // as EdmKernel::plan
  // spheres: device coll::Sphere<dim>[N]; counts: device u32[N]; total: device u64.
  // Adds to counts and total (zero them first).
  void (*launch)(const any_plan2& p, const void* spheres, u32* counts, unsigned long long* total) = nullptr;
  CollisionStyle style = CollisionStyle::smem;
  bool is_default = true;  // the style find_collision(map, dim) gives: smem if the map has it, else direct
  // "bb:smem", "rb:direct", ...
  std::string label() const { return map + ":" + coll::style_name(style); }
};
const std::vector<CollisionKernel>& collision_kernels();  // every (map, dim, style)
// The map's default style (smem for blockwise maps, direct for rb and utm-*); nullptr if none.
const CollisionKernel* find_collision(const std::string& map, int dim);
// The given style; nullptr when the map has no such kernel (smem for a threadwise map).
const CollisionKernel* find_collision(const std::string& map, int dim, CollisionStyle style);
std::vector<std::string> collision_map_names();
// The styles a map has, default first (empty for an unknown map).
std::vector<CollisionStyle> collision_styles(const std::string& map);

// ---- device-side checks of an EDM output -------------------------------------------------
// The output is poisoned with this bit pattern (a NaN) before a verified run.
constexpr u32 poison_bits = 0xffffffffu;
constexpr unsigned char poison_byte = 0xff;
struct PoisonReport {
  u64 lower_unwritten = 0;  // lower-triangle elements still poisoned
  u64 upper_written = 0;    // full layout: elements above the diagonal no longer poisoned (with
                            // sector_tail: outside fast_full_row_end, or not equal to D(j, i))
  u64 guard_written = 0;    // elements of the guard zone after the output, no longer poisoned
  bool ok() const { return lower_unwritten == 0 && upper_written == 0 && guard_written == 0; }
};
// Scans every element of out[0, out_elems(N, L) + guard). Synchronous. With sector_tail
// (fast kernels, full layout) row i may also hold columns i+1 .. edm::fast_full_row_end(N, i),
// each equal bit for bit to its mirror (j, i).
PoisonReport edm_poison_report(const float* out, i64 N, EdmOutput L, u64 guard, bool sector_tail = false);
// vals[k] = src[idx[k]] for k < n (device arrays). Synchronous.
void gather(const float* src, const u64* idx, float* vals, u64 n);

}  // namespace tdmaps::apps
