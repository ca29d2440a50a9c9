// src/support/gram/gram_sm90_evt.cu — kernel sm90-evt (gram_sm90_evt.cuh says what it is): the entry run() calls,
// and the stored outputs (lower, condensed, mirror; the product); the fused reductions: gram_sm90_evt_reduce.cu.
#include "gram_sm90_evt.cuh"

namespace gram {

namespace detail {
// The fused reductions, one unit a precision (gram_sm90_evt_reduce.cu).
cudaError_t run_sm90_evt_reduce_tf32(const Prepared& o, const Request& r, cudaStream_t s);
cudaError_t run_sm90_evt_reduce_tf32x3(const Prepared& o, const Request& r, cudaStream_t s);
cudaError_t run_sm90_evt_reduce_bf16(const Prepared& o, const Request& r, cudaStream_t s);
cudaError_t run_sm90_evt_reduce_fp16(const Prepared& o, const Request& r, cudaStream_t s);

// sm90-evt (gram_api.cu dispatches Kernel::sm90_evt here); what it refuses, gram::sm90_evt_refusal says.
cudaError_t run_sm90_evt(const Prepared& o, const Request& r, cudaStream_t s) {
  if (!sm90_evt_refusal(o.prec, r.out, o.N, r.product).empty() || r.lam_begin != 0 || r.lam_end != Request::all_tiles)
    return cudaErrorInvalidValue;
  if (sm90_evt_reduction(r.out)) {  // over the lower tiles (LTM-E), every precision
    if (r.sched != Sched::ltm_e || r.product) return cudaErrorInvalidValue;
    switch (o.prec) {
      case Prec::tf32: return run_sm90_evt_reduce_tf32(o, r, s);
      case Prec::tf32x3: return run_sm90_evt_reduce_tf32x3(o, r, s);
      case Prec::bf16: return run_sm90_evt_reduce_bf16(o, r, s);
      case Prec::fp16: return run_sm90_evt_reduce_fp16(o, r, s);
    }
    return cudaErrorInvalidValue;
  }
  if (r.dst == nullptr || o.A != o.B) return cudaErrorInvalidValue;
  using Lower = tdmaps::cutlass_tiles::LowerTriangleScheduler<tdmaps::LTM_E, TDMAPS_GRAM_EVT_BAND>;
  using evt::Output;
  if (r.product) {  // mirror, BF16 / FP16 (sm90_evt_refusal)
    if (r.sched != Sched::ltm_e) return cudaErrorInvalidValue;
    return o.prec == Prec::bf16 ? evt::run_gemm<Lower, false, Output::mirror_product, Prec::bf16>(o, r, s)
                                : evt::run_gemm<Lower, false, Output::mirror_product, Prec::fp16>(o, r, s);
  }
  if (r.out == Out::mirror) {
    if (r.sched != Sched::ltm_e) return cudaErrorInvalidValue;
    return r.take_sqrt ? evt::run_gemm<Lower, true, Output::mirror>(o, r, s) : evt::run_gemm<Lower, false, Output::mirror>(o, r, s);
  }
  if (r.out == Out::condensed) {
    if (r.sched != Sched::ltm_e) return cudaErrorInvalidValue;
    return r.take_sqrt ? evt::run_gemm<Lower, true, Output::condensed>(o, r, s) : evt::run_gemm<Lower, false, Output::condensed>(o, r, s);
  }
  if (r.sched == Sched::ltm_e)
    return r.take_sqrt ? evt::run_gemm<Lower, true, Output::lower>(o, r, s) : evt::run_gemm<Lower, false, Output::lower>(o, r, s);
  return r.take_sqrt ? evt::run_gemm<void, true, Output::lower_all>(o, r, s) : evt::run_gemm<void, false, Output::lower_all>(o, r, s);
}
}  // namespace detail
}  // namespace gram
