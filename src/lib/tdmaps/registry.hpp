// tdmaps/registry.hpp — the list of maps, by name. Adding a map: write its header (its policy),
// include it here and add one line to maps2d or maps3d; the experiments' knowledge of it (the
// experiments it joins, its figure style, ...) is its entry in the non-installed experiments table
// (src/support/registry/experiments.hpp; CONTRIBUTING.md).
#pragma once
#include "map_bb.hpp"
#include "map_ltm.hpp"
#include "map_rb.hpp"
#include "map_rec.hpp"
#include "map_utm.hpp"
#include "map_variants.hpp"
#include "map_ltm_lut.hpp"
#include "map_3d.hpp"
#include "tet_fast.hpp"
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>

namespace tdmaps {

template <class... Ms> struct map_list {};

template <class M> struct is_ltm : std::false_type {};
template <class S> struct is_ltm<LTM<S>> : std::true_type {};
// The square-grid LTM (map_variants.hpp) has its base map's row, exact range and g().
template <class B, class Nm> struct is_ltm<LtmSquare<B, Nm>> : std::true_type {};
template <class M> struct is_utm : std::false_type {};
template <class S> struct is_utm<UTM<S>> : std::true_type {};
template <class M> struct is_tet : std::false_type {};
template <class R> struct is_tet<TET<R>> : std::true_type {};

// THE LIST OF MAPS: one line per map, in the order every table, legend and sweep shows them.
// What the experiments and figures know of each map (the experiments it joins, its figure style,
// what it is) is its entry in src/support/registry/experiments.hpp (not installed), which derives
// the experiments' lists of maps (maps2d_dummy, ...) from this one.
using maps2d = map_list<
    BB,
    BB_T,      // BB filtering by thread (map_variants.hpp, issue #12)
    LTM_X,
    LTM_N,
    LTM_R,
    LTM_D,
    LTM_E,
    LTM_R_SQ,  // LTM on the papers' square grid (map_variants.hpp)
    LTM_E_SQ,
    LTM_X_SQ,  // the other roots of the square-root study on the papers' grid
    LTM_N_SQ,
    LTM_D_SQ,
    LTM_LUT,   // LTM from a table (map_ltm_lut.hpp)
    RB,
    RB_B,      // RB folded in block space (map_variants.hpp)
    REC,
    UTM_X,
    UTM_N>;
using maps3d = map_list<
    BB3,
    TET_F,
    TET_E,
    TET_FAST>;

// ---- a 2D plan of a map chosen at run time ------------------------------------------------
// Code templated on M holds typename M::Params. A table of maps chosen at run time (the
// benchmarks' map lists, the apps' kernel tables) holds any_plan2: a std::variant of the
// registry's 2D Params types (each once), derived from maps2d. Its entries are made by
// code templated on M, which reads its own map's plan back with plan_of<M>; everything else
// reads the common part (N, rho, n, passes, narrow) through plan_base.
template <class V, class... Ts> struct variant_of_unique { using type = V; };
template <class... Vs, class T, class... Ts>
struct variant_of_unique<std::variant<Vs...>, T, Ts...>
    : variant_of_unique<std::conditional_t<(std::is_same_v<T, Vs> || ...), std::variant<Vs...>, std::variant<Vs..., T>>,
                        Ts...> {};
template <class L> struct plans_of;
template <class M, class... Ms> struct plans_of<map_list<M, Ms...>> {
  using type = typename variant_of_unique<std::variant<typename M::Params>, typename Ms::Params...>::type;
};
using any_plan2 = typename plans_of<maps2d>::type;
inline const PlanBase& plan_base(const any_plan2& p) {
  return std::visit([](const auto& q) -> const PlanBase& { return q; }, p);
}
template <class M> const typename M::Params& plan_of(const any_plan2& p) { return std::get<typename M::Params>(p); }

// THE name -> type dispatch of every program (bench_maps' map entries, the apps' kernel tables,
// the 3D programs' launches, the CLI): calls f(M{}) for the map of the list whose name is `name`,
// or, with a suffix, whose name + suffix is `name` (the apps' "<name>-fast" EDM kernels, over
// maps2d_fast); returns false if none matches.
template <class F, class... Ms>
bool with_map(map_list<Ms...>, std::string_view name, F&& f, std::string_view suffix = {}) {
  if (name.size() < suffix.size() || name.substr(name.size() - suffix.size()) != suffix) return false;
  name.remove_suffix(suffix.size());
  bool found = false;
  auto one = [&](auto m) {
    using M = decltype(m);
    if (!found && std::string_view(M::name) == name) { found = true; f(m); }
  };
  (one(Ms{}), ...);
  return found;
}
template <class F, class... Ms>
void for_each_map(map_list<Ms...>, F&& f) { (f(Ms{}), ...); }
// The names of a list, comma-separated ("bb,ltm-x,..."), each with `suffix` ("-fast").
template <class... Ms>
std::string map_names_csv(map_list<Ms...>, const char* suffix = "") {
  std::string s;
  ((s += (s.empty() ? "" : ",") + std::string(Ms::name) + suffix), ...);
  return s;
}

}  // namespace tdmaps
