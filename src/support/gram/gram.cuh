// src/support/gram/gram.cuh — pairwise squared distances and Gram matrices on the tensor cores, over
// the lower triangle of tiles only (issue #27). Needs CUTLASS/CuTe (nvidia-cutlass 4.2 headers).
//
// The mainloop is CUTLASS's own SM80 collective (cp.async multistage, CollectiveMma with
// MainloopSm80CpAsyncUnpredicated: mma.sync tensor cores; runs on sm_80 and up, Hopper
// included), configured with CuTe atoms below. The kernel around it is ours: its tile
// scheduler is a tdmaps map over the c x c tile grid (tiles.hpp: LTM-E at rho = 1 launches the
// c(c+1)/2 lower tiles; BB launches c x c and the blocks above the diagonal return at once,
// the "bb-grid" of the experiment), and its epilogue is fused:
//     d2(i, j) = |x_i|^2 + |x_j|^2 - 2 x_i.x_j, clamped at 0, optionally sqrt,
// written as the lower triangle (j <= i) of a row-major N x N, in condensed order (pdist:
// i < j, k = N i - i(i+1)/2 + j - i - 1), or added to a uniform histogram of distances (the
// pairs i > j; nothing of N^2 is written).
//
// The operands are prepared once (prepare(): O(N d)): X (N x d float, row-major) becomes a
// zero-padded K-major array of Np = ceil(N/128)*128 rows and Kp columns in the MMA's input
// type, so the mainloop never predicates; norms[i] = |x_i|^2 in float of the values the tensor
// cores see (so d2(i, i) = 0 up to the accumulation).
//   tf32    X rounded to TF32 (round to nearest, 10-bit mantissa), K = d
//   tf32x3  FP32-accurate: x = big + small (big = tf32(x), small = tf32(x - big)); the operands
//           are A = [small | big | big], B = [big | small | big] along K (K = 3d), so one GEMM
//           sums small.big + big.small + big.big, the three products of 3xTF32; norms from
//           float X
//   bf16 / fp16  X rounded to the 16-bit type, FP32 accumulation, K = d
#pragma once
// One file per concern (issue #36 item 4): the configuration (gram_config.cuh), the preparation
// (gram_prepare.cuh), the epilogue, written once for every kernel of ours (gram_epilogue.cuh), the kernel
// around CUTLASS's SM80 mainloop (gram_kernels.cuh; the SM90 one: gram_sm90.cuh), the launch and the one dispatch
// from a request to a launch (gram_launch.cuh: dispatch<OutGroup>); the instantiation table is gram_<prec>.cu /
// gram_extra_<prec>.cu (one output group each), the host API gram_api.hpp (run() picks the kernel family and the
// group's unit), the CPU oracle gram_cpu.hpp. No state is kept between calls. sm90-evt (gram_sm90_evt.cu) is a stock
// CUTLASS 3 GemmUniversal: it has no kernel of ours and does not go through dispatch<>; what it accepts is
// sm90_evt_refusal's one rule, and its epilogues are CUTLASS visitor-tree nodes (the machinery the issue asked for),
// the arithmetic of gram_epilogue.cuh's lower / condensed / mirror written in that form.
#include "gram_config.cuh"
#include "gram_prepare.cuh"
#include "gram_epilogue.cuh"
#include "gram_kernels.cuh"
#include "gram_launch.cuh"
