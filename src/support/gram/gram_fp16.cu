// src/support/gram/gram_fp16.cu — the Gram kernels of one input precision (fp16), compiled on their own (gram.cuh).
#include "gram.cuh"

namespace gram::detail {
cudaError_t prepare_fp16(const float* X, i64 N, int d, Prepared& o, cudaStream_t s, void* ws, bool center) {
  return prepare_of<Prec::fp16>(X, N, d, o, s, ws, center);
}
cudaError_t run_fp16(const Prepared& o, const Request& r, cudaStream_t s) { return run_of<Prec::fp16>(o, r, s); }
size_t operand_bytes_fp16(i64 N, int d) { return operand_bytes_of<Prec::fp16>(N, d); }
int max_buckets_fp16() { return max_buckets<Prec::fp16>(); }
}  // namespace gram::detail
