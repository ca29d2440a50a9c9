// src/support/gram/gram_sm90_extra.cu — kernel sm90-ws (gram_sm90.cuh), its extra outputs (mirror, count, minmax
// and the exact mode's count_exact, hist_exact; LTM-E alone; issue #37) for every precision, compiled apart from
// the tile outputs (gram_sm90.cu) so that the two build in parallel. sm_90a alone (src/support/gram/meson.build).
#include "gram_sm90.cuh"

namespace gram::detail {
cudaError_t run_sm90_extra(const Prepared& o, const Request& r, cudaStream_t s) {
  return sm90::run_group<OutGroup::extra>(o, r, s);
}
}  // namespace gram::detail
