// tdmaps/registry.hpp — the list of maps, by name. Adding a map: write its header,
// add one line to the matching list below.
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

// The variants of issue #12 come last (map_variants.hpp, map_ltm_lut.hpp): BB filtering
// by thread, RB folded in block space, LTM on the papers' square grid, LTM from a table.
using maps2d = map_list<BB, LTM_X, LTM_N, LTM_R, LTM_D, LTM_E, RB, REC, UTM_X, UTM_N, BB_T, RB_B, LTM_R_SQ, LTM_E_SQ,
                        LTM_LUT>;
using maps3d = map_list<BB3, TET_F, TET_E, TET_FAST>;
// The maps the application experiments (EDM, collision: experiments/apps2d) compile
// kernels for: the 2D maps of the papers' comparisons (the square-root variants
// ltm-x, ltm-n, ltm-d belong to the sqrt study of the dummy kernel only).
// rb-b: RB folded in block space, so that it runs the shared-memory collision kernel too.
using maps2d_apps = map_list<BB, LTM_R, LTM_E, RB, RB_B, REC, UTM_N, UTM_X>;
// The blockwise maps with a tiled fast EDM kernel (src/gpu/edm.cuh).
using maps2d_fast = map_list<BB, LTM_R, LTM_E>;
// The maps bench_maps times by default (its --maps default; BB, the reference, is always timed):
//   maps2d_dummy  the dummy kernel: every map family on its own path, the variants included
//                 (the square-root variants ltm-x/n/d belong to the square-root study, utm-x is
//                 utm-n without its repairs)
//   maps2d_sqrt   the square-root study of g(lambda) (000 §IV-A, Fig. 3)
using maps2d_dummy = map_list<BB, BB_T, LTM_R, LTM_E, LTM_R_SQ, LTM_E_SQ, LTM_LUT, RB, RB_B, REC, UTM_N>;
using maps2d_sqrt = map_list<BB, LTM_X, LTM_N, LTM_R, LTM_D, LTM_E>;

// Calls f(M{}) for the map whose name is `name`; returns false if none matches.
template <class F, class... Ms>
bool with_map(map_list<Ms...>, const char* name, F&& f) {
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
// The names of a list, comma-separated ("bb,ltm-x,...").
template <class... Ms>
std::string map_names_csv(map_list<Ms...>) {
  std::string s;
  ((s += (s.empty() ? "" : ",") + std::string(Ms::name)), ...);
  return s;
}

}  // namespace tdmaps
