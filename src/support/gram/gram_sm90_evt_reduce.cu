// src/support/gram/gram_sm90_evt_reduce.cu — kernel sm90-evt's fused reductions (issue #37 item 1: hist, count,
// hist-exact, count-exact; gram_sm90_evt.cuh's Reduction node) in one precision, TDMAPS_GRAM_EVT_PREC: meson
// compiles this file once a precision (tf32, tf32x3, bf16, fp16), the four units in parallel.
#include "gram_sm90_evt.cuh"

#ifndef TDMAPS_GRAM_EVT_PREC
#error "gram_sm90_evt_reduce.cu: compile with -DTDMAPS_GRAM_EVT_PREC=tf32 (or tf32x3, bf16, fp16)"
#endif
#define TD_EVT_CAT2(a, b) a##b
#define TD_EVT_CAT(a, b) TD_EVT_CAT2(a, b)

namespace gram {
namespace detail {
// The request through the one dispatch (gram_launch.cuh: its checks, params_of, and the exact mode's float64 replay
// after the launch); the scheduler is the tdmaps one over the lower tiles, whatever tile source dispatch offers.
cudaError_t TD_EVT_CAT(run_sm90_evt_reduce_, TDMAPS_GRAM_EVT_PREC)(const Prepared& o, const Request& r, cudaStream_t s) {
  constexpr Prec P = Prec::TDMAPS_GRAM_EVT_PREC;
  using Lower = tdmaps::cutlass_tiles::LowerTriangleScheduler<tdmaps::LTM_E, TDMAPS_GRAM_EVT_BAND>;
  auto go = [&](const auto&, auto out, const Params& p) -> cudaError_t {
    constexpr Out O = decltype(out)::value;
    if constexpr (sm90_evt_reduction(O)) return evt::run_reduction<O, P, Lower>(o, p, s);
    else return cudaErrorInvalidValue;
  };
  if (o.prec != P) return cudaErrorInvalidValue;
  return out_group(r.out) == OutGroup::tile ? dispatch<OutGroup::tile>(o, r, s, go) : dispatch<OutGroup::extra>(o, r, s, go);
}
}  // namespace detail
}  // namespace gram
