// experiments/apps2d/collision_kernels.cu — instantiates the collision kernels of
// src/support/gpu/collision.cuh for the 2D maps, 3D and 1D. See apps_kernels.hpp.
#include "apps_kernels.hpp"

namespace tdmaps::apps {
namespace {

template <class M>
any_plan2 plan_map(i64 N, int rho, bool allow_inexact) {
  if (rho > coll::max_rho)
    throw unsupported(std::string(M::name) + ": collision needs rho <= 32 (got " + std::to_string(rho) + ")");
  return M::plan(N, rho, allow_inexact);
}
template <class M, int D, coll::Style S>
void launch_map(const any_plan2& p, const void* spheres, u32* counts, unsigned long long* total) {
  coll::launch<M, D, S>(plan_of<M>(p), static_cast<const coll::Sphere<D>*>(spheres), counts, total);
}
template <class M, coll::Style S>
void add_style(std::vector<CollisionKernel>& v) {
  if constexpr (coll::has_style<M>(S)) {
    constexpr bool dflt = S == coll::default_style<M>();
    v.push_back(CollisionKernel{M::name, 3, &plan_map<M>, &launch_map<M, 3, S>, S, dflt});
    v.push_back(CollisionKernel{M::name, 1, &plan_map<M>, &launch_map<M, 1, S>, S, dflt});
  }
}
// Default style first, then the other one.
template <class M>
void add_map(std::vector<CollisionKernel>& v) {
  constexpr coll::Style d = coll::default_style<M>();
  constexpr coll::Style o = d == coll::Style::smem ? coll::Style::direct : coll::Style::smem;
  add_style<M, d>(v);
  add_style<M, o>(v);
}
// The kernels of one map, made once.
template <class M>
const std::vector<CollisionKernel>& kernels_of() {
  static const std::vector<CollisionKernel> v = [] {
    std::vector<CollisionKernel> k;
    add_map<M>(k);
    return k;
  }();
  return v;
}
// The maps come from the registry (tdmaps/registry.hpp: maps2d_apps).
std::vector<CollisionKernel> build() {
  std::vector<CollisionKernel> v;
  for_each_map(maps2d_apps{}, [&](auto m) {
    const std::vector<CollisionKernel>& k = kernels_of<decltype(m)>();
    v.insert(v.end(), k.begin(), k.end());
  });
  return v;
}
// A map's kernels by its name, through the registry's one name -> type dispatch (with_map);
// nullptr for a name not in maps2d_apps.
const std::vector<CollisionKernel>* kernels_named(const std::string& map) {
  const std::vector<CollisionKernel>* k = nullptr;
  with_map(maps2d_apps{}, map, [&](auto m) { k = &kernels_of<decltype(m)>(); });
  return k;
}

}  // namespace

const std::vector<CollisionKernel>& collision_kernels() {
  static const std::vector<CollisionKernel> v = build();
  return v;
}
const CollisionKernel* find_collision(const std::string& map, int dim) {
  if (const std::vector<CollisionKernel>* ks = kernels_named(map))
    for (const auto& k : *ks)
      if (k.dim == dim && k.is_default) return &k;
  return nullptr;
}
const CollisionKernel* find_collision(const std::string& map, int dim, CollisionStyle style) {
  if (const std::vector<CollisionKernel>* ks = kernels_named(map))
    for (const auto& k : *ks)
      if (k.dim == dim && k.style == style) return &k;
  return nullptr;
}
std::vector<CollisionStyle> collision_styles(const std::string& map) {
  std::vector<CollisionStyle> v;
  if (const std::vector<CollisionKernel>* ks = kernels_named(map))
    for (const auto& k : *ks)
      if (k.dim == 3) v.push_back(k.style);
  return v;
}
std::vector<std::string> collision_map_names() { return map_names_of(collision_kernels()); }

}  // namespace tdmaps::apps
