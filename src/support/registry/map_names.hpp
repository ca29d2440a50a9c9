// registry/map_names.hpp — a map's facts by the name a results CSV spells it (issue #39): the map column of
// dummy.csv, sqrt.csv, edm.csv, collision.csv and the tet_*.csv tables, the variant column of the exact-range
// tables. A name is a map's own (M::name, tdmaps/registry.hpp) or one of two compositions, declared here:
//   "<name>-fast"  the tiled fast EDM kernel of a map of maps2d_fast (bench_apps; edm.csv)
//   "<name>-host"  the CPU table's host emulation of a root the host does not reproduce (root_facts host_repro
//                  false; verify/exact_table.cpp, exact_ranges_cpu.csv)
// The readers (the results layer, the figures, the claims) ask a name's family, dimension or papers'-grid
// variant here instead of testing its prefix. Host-only.
#pragma once
#include <tdmaps/registry.hpp>
#include "registry/experiments.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

namespace tdmaps {

inline constexpr const char* fast_suffix = "-fast";
inline constexpr const char* host_suffix = "-host";

// The linear-grid map of an LTM on the papers' balanced square grid (map_variants.hpp LtmSquare); void for another map.
template <class M> struct papers_grid_base { using type = void; };
template <class B, class Nm> struct papers_grid_base<LtmSquare<B, Nm>> { using type = B; };

// What a name spells.
struct named_map {
  const char* map = "";                   // the registered map's name (M::name)
  int dims = 0;                           // 2 (maps2d) or 3 (maps3d)
  map_family family = map_family::other;  // its traits' family (registry/traits.hpp)
  bool fast = false;                      // the name is "<map>-fast"
  bool host = false;                      // the name is "<map>-host"
  const char* linear = nullptr;           // a map on the papers' grid: the linear-grid map it runs there
  const char* papers = nullptr;           // a map with a papers'-grid variant: that variant's name
};

namespace detail {
// The registered papers'-grid variant of the map named `base`, or nullptr.
inline const char* papers_variant_of(std::string_view base) {
  const char* found = nullptr;
  for_each_map(maps2d{}, [&](auto m) {
    using B = typename papers_grid_base<decltype(m)>::type;
    if constexpr (!std::is_void_v<B>)
      if (!found && base == B::name) found = decltype(m)::name;
  });
  return found;
}
}  // namespace detail

// The map a results name spells, or nullopt for a name no map has (the bandwidth rows, the peers, a typo).
inline std::optional<named_map> map_named(std::string_view name) {
  std::optional<named_map> out;
  const auto one = [&](auto m, int dims) {
    using M = decltype(m);
    if (out) return;
    const std::string own = M::name;
    named_map n;
    if (name == own) {
    } else if (name == own + fast_suffix && (map_traits<M>::joins & experiment::fast)) {
      n.fast = true;
    } else if constexpr (has_root<M>) {
      if (map_traits<M>::root.host_repro || name != own + host_suffix) return;
      n.host = true;
    } else {
      return;
    }
    n.map = M::name;
    n.dims = dims;
    n.family = family_of<M>();
    using B = typename papers_grid_base<M>::type;
    if constexpr (!std::is_void_v<B>) n.linear = B::name;
    n.papers = detail::papers_variant_of(own);
    out = n;
  };
  for_each_map(maps2d{}, [&](auto m) { one(m, 2); });
  for_each_map(maps3d{}, [&](auto m) { one(m, 3); });
  return out;
}

// Whether `name` spells a map of family f (any of its names).
inline bool in_family(std::string_view name, map_family f) {
  const std::optional<named_map> n = map_named(name);
  return n && n->family == f;
}

}  // namespace tdmaps
