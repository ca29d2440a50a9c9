// examples/gram_tiles — a user's own CUTLASS GEMM that launches only the lower-triangle tiles of
// a symmetric product, through the installed tdmaps/cutlass.hpp (issue #27).
//
// C = X X^T (X: N x d, row-major) with a stock CUTLASS 2.x TF32 tensor-core GEMM
// (cutlass::gemm::device::Gemm: A = X row-major, B = X^T read as column-major, the same memory)
// whose threadblock swizzle is tdmaps::cutlass_tiles::LowerTriangleSwizzle<>: the grid holds the
// c(c+1)/2 tiles (I, J), J <= I, of the c x c tile grid, each block's tile given by LTM-E.
// Checked against the CPU in double: every cell of a lower tile within the TF32 bound, every
// cell of a tile above the diagonal never written (it stays NaN).
//
//   gram_tiles [N [d]]      default N = 1000 (partial edge tiles), d = 64
// Exit 0: right; 1: wrong; 2: bad arguments; 77: no GPU (one line).
#include <tdmaps/cutlass.hpp>

#include <cutlass/gemm/device/gemm.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

using Tile = cutlass::gemm::GemmShape<128, 128, 16>;
using Gemm = cutlass::gemm::device::Gemm<float, cutlass::layout::RowMajor,     // A = X
                                         float, cutlass::layout::ColumnMajor,  // B = X^T
                                         float, cutlass::layout::RowMajor,     // C, N x N
                                         float, cutlass::arch::OpClassTensorOp, cutlass::arch::Sm80, Tile,
                                         cutlass::gemm::GemmShape<64, 64, 16>, cutlass::gemm::GemmShape<16, 8, 8>,
                                         cutlass::epilogue::thread::LinearCombination<float, 4, float, float>,
                                         tdmaps::cutlass_tiles::LowerTriangleSwizzle<tdmaps::LTM_E>, 3>;

#define CHECK(call)                                                                                      \
  do {                                                                                                   \
    const cudaError_t e_ = (call);                                                                       \
    if (e_ != cudaSuccess) {                                                                             \
      std::fprintf(stderr, "gram_tiles: %s: %s\n", #call, cudaGetErrorString(e_));                       \
      return 1;                                                                                          \
    }                                                                                                    \
  } while (0)

int main(int argc, char** argv) {
  long N = 1000, d = 64;
  if (argc > 3 || (argc > 1 && (N = std::strtol(argv[1], nullptr, 10)) < 1) ||
      (argc > 2 && ((d = std::strtol(argv[2], nullptr, 10)) < 4 || d % 4)) || N > 20000 || d > 4096) {
    std::fprintf(stderr, "gram_tiles: usage: gram_tiles [N in 1..20000 [d, a multiple of 4 in 4..4096]]\n");
    return 2;
  }
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("gram_tiles: SKIPPED, no GPU\n");
    return 77;
  }
  std::vector<float> X(size_t(N * d));
  unsigned s = 27;
  for (auto& v : X) v = float((s = s * 1664525u + 1013904223u) >> 8) / float(1u << 24);
  float *dX, *dC;
  CHECK(cudaMalloc(&dX, X.size() * 4));
  CHECK(cudaMalloc(&dC, size_t(N * N) * 4));
  CHECK(cudaMemcpy(dX, X.data(), X.size() * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dC, 0xff, size_t(N * N) * 4));  // NaN

  const cutlass::gemm::GemmCoord size{int(N), int(N), int(d)};
  Gemm gemm;
  Gemm::Arguments args(size, {dX, int(d)}, {dX, int(d)}, {dC, int(N)}, {dC, int(N)}, {1.0f, 0.0f});
  if (gemm.can_implement(args) != cutlass::Status::kSuccess) {
    std::fprintf(stderr, "gram_tiles: CUTLASS cannot run this size\n");
    return 1;
  }
  if (gemm(args) != cutlass::Status::kSuccess) {
    std::fprintf(stderr, "gram_tiles: the CUTLASS launch failed\n");
    return 1;
  }
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<float> C(size_t(N * N));
  CHECK(cudaMemcpy(C.data(), dC, C.size() * 4, cudaMemcpyDeviceToHost));

  const long c = (N + Tile::kM - 1) / Tile::kM;
  const dim3 grid = Gemm::ThreadblockSwizzle::get_grid_shape(Gemm::ThreadblockSwizzle::get_tiled_shape(size, cutlass::gemm::GemmCoord{Tile::kM, Tile::kN, Tile::kK}, 1));
  long bad = 0, written_above = 0;
  double worst = 0;
  for (long i = 0; i < N; ++i)
    for (long j = 0; j < N; ++j) {
      const float v = C[size_t(i * N + j)];
      if (i / Tile::kM < j / Tile::kN) {  // a tile above the diagonal: never launched
        written_above += !std::isnan(v);
        continue;
      }
      double ref = 0, scale = 0;
      for (long k = 0; k < d; ++k) {
        ref += double(X[size_t(i * d + k)]) * X[size_t(j * d + k)];
        scale += std::fabs(double(X[size_t(i * d + k)]) * X[size_t(j * d + k)]);
      }
      const double err = std::fabs(double(v) - ref) / scale;  // TF32 inputs: about 2^-10 relative
      worst = std::fmax(worst, std::isnan(v) ? 1.0 : err);
      bad += !(err <= 2e-3);
    }
  std::printf("ltm-e tiles: N=%ld d=%ld, %ld x %ld tiles of 128x128, grid %u x %u = %ld blocks (c(c+1)/2 = %ld)\n", N, d, c, c,
              grid.x, grid.y, long(grid.x) * grid.y, c * (c + 1) / 2);
  std::printf("lower tiles: %ld cells off (worst relative error %.2e); tiles above the diagonal: %ld cells written\n", bad,
              worst, written_above);
  cudaFree(dX);
  cudaFree(dC);
  const bool ok = bad == 0 && written_above == 0 && long(grid.x) * grid.y == c * (c + 1) / 2;
  std::printf("%s\n", ok ? "ok" : "WRONG");
  return ok ? 0 : 1;
}
