// src/support/gpu/sdh.cuh — Spatial Distance Histogram on the GPU: the ladder of the seed
// report (004_aba88004bd1c502c.txt), the tiled kernel driven over the pair
// triangle by a block map (BB, LTM-E), and a fast persistent kernel.
//
//   v1-plain     one thread per point i, pairs (i, j > i) read from global memory
//                (array of structs), one 64-bit global atomicAdd per pair
//   v2-shared    v1 + a private 32-bit histogram per block in shared memory,
//                flushed once per block with 64-bit atomics
//   v3-balanced  v2 + divergence control: thread i takes the pairs (i, i+d mod N),
//                d = 1 .. (N-1)/2 (and d = N/2 for i < N/2 when N is even), so every
//                thread does the same work; the wrap is a compare, not a %
//   v4-soa       v3 + structure-of-arrays input (x[], y[], z[]; coalesced)
//   v5-tiled     the report's best: tiles of blockDim points in shared memory, block
//                b pairs its tile with itself and with every later tile (b' > b),
//                shared private histogram, SoA input, no divergence control
//   tiled-bb     one tile pair (bi, bj), bj <= bi, per block; grid n x n of the BB map,
//                blocks with bj > bi discarded (BB::block_cell)
//   tiled-ltm-e  the same kernel over n(n+1)/2 blocks, tile pair = LTM_E::g(lambda)
//   fast-*       persistent: gridDim = SMs x resident blocks, block walks lambda =
//                blockIdx.x, + gridDim.x, ... through LTM_E::g; tiles of P = T*R
//                points; each thread keeps R points of the i-tile in registers and
//                streams the j-tile from shared memory (one broadcast LDS.128 per R
//                pairs); bucket by the threshold form (sdh_cpu.hpp: one sqrt.approx,
//                one FFMA.RM, one table load and compare per pair; no sqrt_rn, no
//                division); histogram mode:
//                  lane    H[k][lane] shared by the warps of the block: every ATOMS of
//                          a warp hits 32 different banks (no intra-warp conflicts)
//                  thread  H[k][tid] private per thread: plain load/add/store, no atomics
//                  block   H[k] per block, atomicAdd (the classic contended form)
//                the table row k (thresholds T_{k+1} replicated per lane) sits next to
//                the counters of row k, so one address serves the load and the atomic.
//   band-*       fast-lane's walk and layout with 12 instructions per pair in the inner
//                loop: s' from centred points by the norm trick (1 FADD + 3 FFMA), one
//                packed counter update that encodes the threshold decision (LEA.HI), and a
//                proven band |s' - T| < Eb inside which the pair is recounted exactly with
//                the rule (sdh_band.cuh; issue #26)
//   fast-gram    fast-lane's walk, layout and threshold buckets with the Gram rule
//                (apps/sdh_cpu.hpp): s = |n_i + n_j - 2 c_i.c_j| on centred points, one FADD +
//                three FFMA per pair, checked against the CPU oracle of that rule
//                (sdh_gram.cuh; issue #26)
//   fast-gram2   fast-gram with a two-sided estimate: two FFMA.RM bracket the rule's bucket
//                (apps/sdh_cpu.hpp, "the bracket", proven from the PTX ISA's bound on
//                sqrt.approx); one optimistic count per pair, no threshold load or compare;
//                the rare ambiguous pairs are replayed exactly (sdh_gram2.cuh; issue #26)
//
// All versions count with 32-bit counters in shared memory (bounded per block;
// see fits_32bit) and add them into a 64-bit global histogram (unsigned long long).
//
// An umbrella over its parts:
//   sdh_device.cuh  Point, ull, the block histogram helpers shared by the kernels
//   sdh_ladder.cuh  v1-plain .. v5-tiled (the seed report's ladder)
//   sdh_tiled.cuh   tiled-bb, tiled-ltm-e (k_tiled<M>)
//   sdh_fast.cuh    fast-* (k_fast, its shared-memory layout and device helpers)
//   sdh_band.cuh    band-* (k_band, BandParams/BandLayout)
//   sdh_gram.cuh    fast-gram (k_gram)
//   sdh_gram2.cuh   fast-gram2 (k_gram2)
//   sdh_host.cuh    the implementation list, DeviceSet, prepare_kernels, launch, run_once
// The CPU rule and oracle they share is src/support/apps/sdh_cpu.hpp.
#pragma once
#include "sdh_device.cuh"
#include "sdh_ladder.cuh"
#include "sdh_tiled.cuh"
#include "sdh_fast.cuh"
#include "sdh_host.cuh"
