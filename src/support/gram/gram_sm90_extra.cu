// src/support/gram/gram_sm90_extra.cu — kernel sm90-ws (gram_sm90.cuh), its extra outputs (mirror, count, minmax
// and the exact mode's count_exact, hist_exact; LTM-E alone; issue #37) for every precision, compiled apart from
// the tile outputs (gram_sm90.cu) so that the two build in parallel. sm_90a alone (src/support/gram/meson.build).
#include "gram_sm90.cuh"

namespace gram::detail {
cudaError_t run_sm90_extra(const Prepared& o, const Request& r, cudaStream_t s) {
  switch (o.prec) {
    case Prec::tf32: return sm90::run_of<Prec::tf32, OutGroup::extra>(o, r, s);
    case Prec::tf32x3: return sm90::run_of<Prec::tf32x3, OutGroup::extra>(o, r, s);
    case Prec::bf16: return sm90::run_of<Prec::bf16, OutGroup::extra>(o, r, s);
    case Prec::fp16: return sm90::run_of<Prec::fp16, OutGroup::extra>(o, r, s);
  }
  return cudaErrorInvalidValue;
}
}  // namespace gram::detail
