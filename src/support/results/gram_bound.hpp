// src/support/results/gram_bound.hpp — the coefficient c_P of the Gram form's error bound (issue #27), declared once:
//     |d2_gpu - d2_exact| <= c_P (|x_i| + |x_j|)^2,   c_P = 3 u_P + (K + 4) 2^-23,   K = m_P d,
// u_P the unit roundoff of the values precision P's tensor cores multiply, K the length of the dot product they sum
// in FP32 (m_P products a feature, d features). Its derivation, and what vouches for it: src/support/gram/gram_cpu.hpp.
//   Users: gram_cpu.hpp's bound_coef (the exact mode's bracket, gram_launch.cuh; bench_gram's and multi_hist's checks;
//   verify/test_gram.cpp); the Python package (python/tdmaps/_core.cpp bound_coef: tdmaps.bound_coefficient); and
//   experiments/peers/python_peers.py's check, through experiments/layouts.py (GRAM_BOUND, `check_layouts --python`).
// Beside it, the range it holds in: the largest value of the type each precision's tensor cores multiply (fp16's
// 65504), past which the package refuses x (python/tdmaps/_core.cpp largest_value: _arrays.py's check).
// Host-only, in results/ and not gram/ because of the include order (src/README.md): check_layouts, a program of the
// results layer, exports it.
#pragma once
#include "gram_names.hpp"  // the precisions' names

#include <cmath>
#include <cstdint>
#include <string>

namespace gram::bound {

// A precision's terms: its name (gram.csv's precision column), u_P and m_P, and the range the bound holds in.
struct Terms {
  const char* prec;
  double u;        // the unit roundoff of the values the tensor cores multiply
  int m;           // the products summed a feature: K = m d
  double largest;  // the largest finite value of their type: a value past it is Inf there, and the bound fails
};
inline constexpr Terms kTerms[] = {
    {name(Prec::tf32), 0x1p-11, 1, 0x1.ffcp127},
    // the dropped small*small product and the rounding of small; 3 products a feature
    {name(Prec::tf32x3), 0x1p-21, 3, 0x1.ffcp127},
    {name(Prec::bf16), 0x1p-8, 1, 0x1.fep127},
    {name(Prec::fp16), 0x1p-11, 1, 0x1.ffcp15},  // 65504
    {peer::fp32, 0.0, 1, 0x1.fffffep127},  // cuBLAS's FP32 path (the peers' rows): not a precision of our kernels
};

// The terms of precision `prec`; nullptr for a name without them (fp64, a typo).
inline const Terms* terms_of(const std::string& prec) {
  for (const Terms& t : kTerms)
    if (prec == t.prec) return &t;
  return nullptr;
}
// c_P for d features; NaN for a precision without terms. Exact up to its one rounding for d < 2^50.
inline double coef(const std::string& prec, std::int64_t d) {
  const Terms* t = terms_of(prec);
  return t ? 3 * t->u + (double(t->m) * double(d) + 4) * 0x1p-23 : NAN;
}
// The largest |value| of x that precision `prec` takes (fp16: 65504); NaN for a precision without terms.
inline double largest(const std::string& prec) {
  const Terms* t = terms_of(prec);
  return t ? t->largest : NAN;
}

}  // namespace gram::bound
