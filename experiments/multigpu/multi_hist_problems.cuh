// experiments/multigpu/multi_hist_problems.cuh — the two problems (SDH, three-body): block space, points, host work, the CPU oracle, the GPU state (a section of multi_hist.cu, included by it
// once, in this order: multi_hist_problems.cuh, multi_hist_backends.cuh, multi_hist_plan.cuh).
#pragma once

namespace {

// ---- the problems -----------------------------------------------------------------------------------
std::string first_difference(const std::vector<u64>& a, const std::vector<u64>& b);

// One app at one N: its block space (lambda < total), its points, the work of one
// lambda range on the host, the CPU oracle, and the GPU state per device.
struct Problem {
  virtual ~Problem() = default;
  virtual u64 total() const = 0;                  // blocks of the block space
  virtual u64 work() const = 0;                   // pairs / triplets
  virtual size_t hist_words() const = 0;          // words of the per-GPU histogram (reduced)
  virtual std::vector<u64> result(const std::vector<u64>& words) const = 0;  // the histogram from them
  virtual void cpu_range(LambdaRange r, u64* words) const = 0;               // adds the range's counts
  virtual std::vector<u64> oracle() const = 0;                               // independent CPU result
  // "" where a GPU histogram h agrees with oracle() (sdh, threebody: every bucket equal), else the difference
  virtual std::string oracle_difference(const std::vector<u64>& h, const std::vector<u64>& oracle) const {
    return first_difference(h, oracle);
  }
  // "" where the words add up at any size, oracle or not (a histogram: every pair or triplet of the domain counted
  // once, in some bucket), else what does not
  virtual std::string sum_difference(const std::vector<u64>& h) const {
    u64 sum = 0;
    for (u64 v : h) sum += v;
    return sum == work() ? "" : "the histogram counts " + std::to_string(sum) + ", not the " + std::to_string(work());
  }
  virtual size_t gpu_bytes() const = 0;                                      // device memory per GPU
  // GPU side: upload to the current device; launch one range into `hist` on `s`.
  virtual void upload(int slot) = 0;
  virtual u64* hist(int slot) = 0;
  virtual void launch(int slot, LambdaRange r, cudaStream_t s) = 0;
};

// SDH: the fast kernel's plan (LTM-E over tiles of P points), lambda = tile pair.
class SdhProblem : public Problem {
 public:
  SdhProblem(i64 N, float w, u32 B, gs::Impl impl)
      : N_(N), w_(w), B_(B), impl_(impl), pts_(hs::uniform_points(N)), rule_(gs::rule_of(impl), pts_.data(), N) {
    if (gs::is_band(impl))
      gs::with_band(impl, [&](auto cfg) {
        using C = decltype(cfg);
        P_ = gs::BandLayout<C::T, C::R>::P;
      });
    else
      gs::with_fast(impl, [&](auto cfg) {
        using C = decltype(cfg);
        P_ = gs::FastLayout<C::T, C::R, C::HM>::P;
      });
    plan_ = LTM_E::plan(N, P_);
  }
  u64 total() const override { return plan_.total; }
  u64 work() const override { return hs::pair_count(N_); }
  size_t hist_words() const override { return B_; }
  std::vector<u64> result(const std::vector<u64>& h) const override { return h; }
  void cpu_range(LambdaRange r, u64* h) const override {
    for (u64 lam = r.begin; lam < r.end; ++lam) {
      const Cell2 t = LTM_E::g(lam);  // tile row >= tile column (eq. (5) of the 2D paper)
      const i64 i0 = t.i * P_, j0 = t.j * P_;
      for (i64 i = i0; i < std::min(N_, i0 + P_); ++i)
        for (i64 j = j0; j < std::min(i, j0 + P_); ++j) ++h[hs::bucket(rule_.s(i, j), w_, B_)];
    }
  }
  std::vector<u64> oracle() const override {
    std::vector<u64> h(B_);
    hs::cpu_mt(pts_.data(), N_, w_, B_, h.data(), 0, gs::rule_of(impl_));  // the rule of the kernel (fast-fma*: fused; fast-gram: gram)
    return h;
  }
  size_t gpu_bytes() const override { return size_t(N_) * (sizeof(hs::Point) + 12 + 16) + size_t(B_) * 12 + (1 << 20); }
  void upload(int slot) override {
    if (size_t(slot) >= sets_.size()) sets_.resize(size_t(slot) + 1);
    sets_[size_t(slot)] = std::make_unique<gs::DeviceSet>();
    gs::prepare_kernels();
    sets_[size_t(slot)]->set(pts_.data(), N_, w_, B_);
    if (gs::fast_params(impl_, *sets_[size_t(slot)]).plan.total != plan_.total) die("sdh: device plan differs from the host's");
  }
  u64* hist(int slot) override { return reinterpret_cast<u64*>(sets_[size_t(slot)]->hist); }
  void launch(int slot, LambdaRange r, cudaStream_t s) override { gs::launch_fast_range(impl_, *sets_[size_t(slot)], r, s); }

 private:
  i64 N_;
  float w_;
  u32 B_;
  gs::Impl impl_;
  i64 P_ = 0;
  LTM_E::Params plan_;
  std::vector<hs::Point> pts_;
  hs::PairRule rule_;  // s of a pair by the kernel's rule (fast-gram: the Gram rule of this set)
  std::vector<std::unique_ptr<gs::DeviceSet>> sets_;
};

// Three-body: a TET map's plan at rho, lambda = block (eq. (13)-(16) of the 3D paper).
template <class M>
class ThreeBodyProblem : public Problem {
 public:
  ThreeBodyProblem(i64 N, int rho, float r) : N_(N), r2_(fmul_rn(r, r)) {
    plan_ = M::plan(N, rho);  // throws unsupported past the map's exact range
    const auto p = hs::uniform_points(N, 1.0f);
    for (const auto& q : p) pts_.push_back(make_float4(q.x, q.y, q.z, 0.0f));
  }
  ~ThreeBodyProblem() override {
    for (auto& d : dev_) {
      if (d.pts) cudaFree(d.pts);
      if (d.bins) cudaFree(d.bins);
    }
  }
  u64 total() const override { return plan_.total; }
  u64 work() const override { return tet(u64(N_)); }
  size_t hist_words() const override { return size_t(gpu::kBinCopies) * 4; }
  std::vector<u64> result(const std::vector<u64>& w) const override {
    std::vector<u64> h(4, 0);
    for (size_t k = 0; k < w.size(); ++k) h[k % 4] += w[k];
    return h;
  }
  void cpu_range(LambdaRange r, u64* h) const override {
    const int rho = plan_.rho;
    for (u64 lam = r.begin; lam < r.end; ++lam) {
      const Cell3 b = M::template g<i64>(lam);
      for (int tz = 0; tz < rho; ++tz)
        for (int ty = 0; ty < rho; ++ty)
          for (int tx = 0; tx < rho; ++tx) {
            const Cell3 c = thread_in_block3(plan_.N, rho, b, u32(tx), u32(ty), u32(tz));
            if (c.inside) ++h[gpu::sides_below(pts_[size_t(c.x)], pts_[size_t(c.y)], pts_[size_t(c.z)], r2_)];
          }
    }
  }
  // Every triplet x <= y <= z by plain loops (not through any map).
  std::vector<u64> oracle() const override {
    std::vector<std::array<u64, 4>> part(bench::host_workers(1024), std::array<u64, 4>{0, 0, 0, 0});
    bench::parallel_chunks(u64(N_), 1, [&](unsigned t, u64 b, u64 e) {
      for (i64 z = i64(b); z < i64(e); ++z)
        for (i64 y = 0; y <= z; ++y)
          for (i64 x = 0; x <= y; ++x) ++part[t][size_t(gpu::sides_below(pts_[size_t(x)], pts_[size_t(y)], pts_[size_t(z)], r2_))];
    }, unsigned(part.size()));
    std::vector<u64> h(4, 0);
    for (const auto& p : part)
      for (int k = 0; k < 4; ++k) h[size_t(k)] += p[size_t(k)];
    return h;
  }
  size_t gpu_bytes() const override { return size_t(N_) * 16 + hist_words() * 8 + (1 << 20); }
  void upload(int slot) override {
    if (size_t(slot) >= dev_.size()) dev_.resize(size_t(slot) + 1);
    Dev& d = dev_[size_t(slot)];
    d.pts = gpu::device_alloc<float4>(pts_.size(), "points (float4)");
    d.bins = gpu::device_alloc<unsigned long long>(hist_words(), "histogram copies");
    TD_CUDA(cudaMemcpy(d.pts, pts_.data(), pts_.size() * sizeof(float4), cudaMemcpyHostToDevice));
  }
  u64* hist(int slot) override { return reinterpret_cast<u64*>(dev_[size_t(slot)].bins); }
  void launch(int slot, LambdaRange r, cudaStream_t s) override {
    if (r.empty()) return;
    Dim3 g;
    u32 gx = 0;
    linear_grid(r.size(), gx, g, M::name);
    const Dev& d = dev_[size_t(slot)];
    const dim3 block = gpu::to_dim3(M::block(plan_));
    if (plan_.narrow)
      gpu::threebody3_range<M, i32><<<gpu::to_dim3(g), block, 0, s>>>(plan_, r.begin, r.size(), gx, d.pts, r2_, d.bins);
    else
      gpu::threebody3_range<M, i64><<<gpu::to_dim3(g), block, 0, s>>>(plan_, r.begin, r.size(), gx, d.pts, r2_, d.bins);
    TD_LAUNCHED();
  }

 private:
  struct Dev {
    float4* pts = nullptr;
    unsigned long long* bins = nullptr;
  };
  i64 N_;
  float r2_;
  Plan3 plan_;
  std::vector<float4> pts_;
  std::vector<Dev> dev_;
};

#if defined(TDMAPS_MULTI_GRAM)
// Gram: the fused distance histogram of src/support/gram (tensor cores; --prec, --kernel), d features,
// points uniform in [0, 1)^d (bench_gram --hist-N's: gram_cpu::points, seed 27 + 7), B uniform buckets
// of width sqrt(d) / B (every distance below sqrt(d)); lambda = a tile of LTM-E over the c x c tiles of
// 128 points (gram::Request::lam_begin, lam_end: tdmaps::TileRange). The GPU histogram is not the
// float64 one bucket for bucket (TF32 rounding moves the pairs near an edge): the oracle check is
// bench_gram's (gram_cpu::compare: the same pair count, at most twice the pairs near an edge moved).
// exact (--exact, issue #37 item 3): the bracketed exact mode instead (hist_exact on centered operands, the float64
// edges b w, the pairs whose bracket straddles an edge replayed in float64): the histogram equals float64's
// (gram_cpu::edge_histogram) bucket for bucket. A range runs in sub-ranges of replay_tiles tiles, each with its
// replay list of replay_tiles x 128^2 pairs: every pair of the sub-range fits, so no list overflows, and nothing
// waits on the host.
// count (--count, issue #37 item 3): the eps-count instead (count, or count_exact with --exact), eps^2 = d / 6 as
// bench_gram's: the words are the N per-point neighbour counts, then the pair total. A range counts into 32-bit
// counters of its own (the kernels' atomics), added into the words after it (add_counts); the total goes straight
// into the last word. The oracle: the float64 counts (gram_cpu::radius_counts), equal point for point with --exact,
// else within the pairs the bound allows to move (gram_cpu::count_reference, bench_gram --hist-N's check).
__global__ void add_counts(const unsigned* counts, unsigned long long* words, i64 N) {
  for (i64 i = i64(blockIdx.x) * blockDim.x + threadIdx.x; i < N; i += i64(gridDim.x) * blockDim.x) words[i] += counts[i];
}
class GramProblem : public Problem {
 public:
  static constexpr std::uint64_t seed = 27 + 7;  // bench_gram's default --seed, + 7 for its --hist-N points
  static constexpr u64 replay_tiles = 32768;     // exact: a sub-range's tiles at most (its replay list: 4 GiB)
  // kernel: a name of gram::kernel_of, or auto (sm90-ws where it runs, else classic: on the GPU of upload())
  GramProblem(i64 N, int d, int B, const std::string& kernel, gram::Prec prec, bool exact, bool count = false)
      : N_(N), d_(d), B_(B), kernel_name_(kernel), prec_(prec), exact_(exact), count_(count), w_(std::sqrt(double(d)) / B),
        eps2_(double(d) / 6),
        X_(gram_cpu::points(N, d, seed)),
        sub_tiles_(std::min<u64>(replay_tiles, total())),  // a small N: the list of its tiles alone
        replay_cap_(sub_tiles_ * gram::tile_side * gram::tile_side) {
    for (int b = 0; b <= B_; ++b) edges_.push_back(b * w_);
  }
  ~GramProblem() override {
    for (auto& g : dev_) {
      gram::release(g.op);
      for (void* q : {static_cast<void*>(g.hist), static_cast<void*>(g.X), static_cast<void*>(g.edges),
                      static_cast<void*>(g.replay), static_cast<void*>(g.replay_n), static_cast<void*>(g.counts)})
        if (q) cudaFree(q);
    }
  }
  // the used tiles c(c+1)/2 (past c = 65535 the grid's last row has a tail of outside blocks: not split)
  u64 total() const override { return TileMap<LTM_E>::useful((N_ + gram::tile_side - 1) / gram::tile_side); }
  u64 work() const override { return hs::pair_count(N_); }
  size_t hist_words() const override { return count_ ? size_t(N_) + 1 : size_t(B_); }
  std::vector<u64> result(const std::vector<u64>& h) const override { return h; }
  void cpu_range(LambdaRange, u64*) const override { die("--app gram has no CPU back end"); }  // refused by parse()
  // count: every pair within eps counted at both its points, so the counts add up to twice the total
  std::string sum_difference(const std::vector<u64>& h) const override {
    if (!count_) return Problem::sum_difference(h);
    u64 sum = 0;
    for (i64 i = 0; i < N_; ++i) sum += h[size_t(i)];
    if (sum == 2 * h[size_t(N_)] && h[size_t(N_)] <= work()) return "";
    return "the per-point counts add up to " + std::to_string(sum) + ", not twice the total " + std::to_string(h[size_t(N_)]) +
           " (at most the " + std::to_string(work()) + " pairs)";
  }
  // the float64 histogram of every pair (gram_cpu::histogram), and the pairs near an edge; exact: by the edges
  std::vector<u64> oracle() const override {
    if (count_) {  // the float64 counts, then the total; the pairs near eps for the approximate check
      const gram_cpu::CountReference c =
          gram_cpu::count_reference(X_.data(), N_, d_, eps2_, gram_cpu::bound_coef(gram::name(prec_), d_));
      count_ref_ = c;
      std::vector<u64> w(c.want.begin(), c.want.end());
      w.push_back(c.want_total);
      return w;
    }
    if (exact_) {
      const std::vector<std::uint64_t> h = gram_cpu::edge_histogram(X_.data(), N_, d_, edges_);
      return std::vector<u64>(h.begin(), h.end());
    }
    const gram_cpu::Hist h = gram_cpu::histogram(X_.data(), N_, d_, w_, B_, tolerance());
    edge_ = h.edge;
    return std::vector<u64>(h.counts.begin(), h.counts.end());
  }
  std::string oracle_difference(const std::vector<u64>& h, const std::vector<u64>& oracle) const override {
    if (exact_) return first_difference(h, oracle);  // bucket for bucket (count: point for point, then the total)
    if (count_) {  // each point's count and the total within the pairs the bound allows to move
      i64 bad = -1;
      if (count_ref_.admits(std::vector<u64>(h.begin(), h.end() - 1), h.back(), &bad)) return "";
      return bad >= 0 ? "point " + std::to_string(bad) + ": " + std::to_string(h[size_t(bad)]) + " neighbours, float64 " +
                            std::to_string(oracle[size_t(bad)]) + ", more than the pairs near eps allow"
                      : "the total " + std::to_string(h.back()) + ", float64 " + std::to_string(oracle.back()) +
                            ", more than the pairs near eps allow";
    }
    const gram_cpu::HistCompare c = gram_cpu::compare(h, oracle, edge_);
    if (c.ok()) return "";
    return std::to_string(c.got) + " pairs counted (float64 " + std::to_string(c.want) + "), " + std::to_string(c.moved) +
           " moved, more than twice the " + std::to_string(c.edge) + " pairs near a bucket edge";
  }
  size_t gpu_bytes() const override {
    const size_t exact = exact_ ? X_.size() * sizeof(float) + size_t(B_ + 1) * 8 + size_t(replay_cap_) * 8 + 8 : 0;
    const size_t counts = count_ ? size_t(N_) * 4 : 0;
    return X_.size() * sizeof(float) + gram::operand_bytes(prec_, N_, d_) + hist_words() * 8 + counts + exact + (1 << 20);
  }
  void upload(int slot) override {
    if (size_t(slot) >= dev_.size()) dev_.resize(size_t(slot) + 1);
    Dev& g = dev_[size_t(slot)];
    g.kernel = gram::Kernel::classic;
    if (kernel_name_ == "auto") g.kernel = gram::sm90_runs() ? gram::Kernel::sm90_ws : gram::Kernel::classic;
    else if (!gram::kernel_of(kernel_name_, g.kernel)) throw std::invalid_argument("not a Gram kernel: " + kernel_name_);
    float* X = gpu::device_alloc<float>(X_.size(), "points");
    TD_CUDA(cudaMemcpy(X, X_.data(), X_.size() * sizeof(float), cudaMemcpyHostToDevice));
    TD_CUDA(gram::prepare(prec_, X, N_, d_, g.op, 0, nullptr, exact_));  // exact: centered (Prepared::centered)
    TD_CUDA(cudaDeviceSynchronize());
    if (exact_) {  // the replay reads the points themselves
      g.X = X;
      g.edges = gpu::device_alloc<double>(edges_.size(), "histogram edges");
      TD_CUDA(cudaMemcpy(g.edges, edges_.data(), edges_.size() * 8, cudaMemcpyHostToDevice));
      g.replay = gpu::device_alloc<unsigned long long>(size_t(replay_cap_), "replay list");
      g.replay_n = gpu::device_alloc<unsigned long long>(1, "replay count");
    } else {
      TD_CUDA(cudaFree(X));  // the prepared operands are all the kernels read
    }
    g.hist = gpu::device_alloc<unsigned long long>(hist_words(), count_ ? "counts" : "histogram");
    if (count_) g.counts = gpu::device_alloc<unsigned>(size_t(N_), "a range's counters");
  }
  u64* hist(int slot) override { return reinterpret_cast<u64*>(dev_[size_t(slot)].hist); }
  void launch(int slot, LambdaRange r, cudaStream_t s) override {
    const Dev& g = dev_[size_t(slot)];
    gram::Request q;
    q.kernel = g.kernel;
    q.sched = gram::Sched::ltm_e;
    q.out = count_ ? (exact_ ? gram::Out::count_exact : gram::Out::count) : exact_ ? gram::Out::hist_exact : gram::Out::hist;
    q.hist = g.hist;
    q.buckets = B_;
    q.width = float(w_);
    if (count_) {
      q.counts = g.counts;
      q.total = g.hist + N_;  // the last word
      q.eps2 = float(eps2_);
      q.eps = std::sqrt(eps2_);
      TD_CUDA(cudaMemsetAsync(g.counts, 0, size_t(N_) * 4, s));
    }
    if (!exact_) {
      q.lam_begin = r.begin;
      q.lam_end = r.end;
      TD_CUDA(gram::run(g.op, q, s));
      if (count_) add(g, s);
      return;
    }
    q.X = g.X;
    q.edges = g.edges;
    q.replay = g.replay;
    q.replay_cap = replay_cap_;
    q.replay_n = g.replay_n;
    for (u64 b = r.begin; b < r.end; b += sub_tiles_) {  // a sub-range, its list emptied first, then its replay
      q.lam_begin = b;
      q.lam_end = std::min(r.end, b + sub_tiles_);
      TD_CUDA(cudaMemsetAsync(g.replay_n, 0, 8, s));
      TD_CUDA(gram::run(g.op, q, s));
    }
    if (count_) add(g, s);
  }

 private:
  // bench_gram's: the bound's distance (sqrt(c_P S), S at its largest) and 1 %
  double tolerance() const {
    double smax = 0;
    for (i64 i = 0; i < N_; ++i) smax = std::max(smax, gram_cpu::scale(X_.data(), d_, i, i));
    return std::sqrt(gram_cpu::bound_coef(gram::name(prec_), d_) * smax) * 1.01;
  }
  struct Dev {
    gram::Kernel kernel = gram::Kernel::classic;
    gram::Prepared op;
    unsigned long long* hist = nullptr;  // the words: the histogram, or (count) the N counts and the total
    unsigned* counts = nullptr;          // count: a range's 32-bit counters
    float* X = nullptr;  // exact: the points, the edges and the replay list
    double* edges = nullptr;
    unsigned long long *replay = nullptr, *replay_n = nullptr;
  };
  // count: a range's counters into the words (the same stream: after the range's kernels)
  void add(const Dev& g, cudaStream_t s) const {
    add_counts<<<unsigned(std::min<i64>((N_ + 255) / 256, 4096)), 256, 0, s>>>(g.counts, g.hist, N_);
    TD_CUDA(cudaGetLastError());
  }
  i64 N_;
  int d_, B_;
  std::string kernel_name_;
  gram::Prec prec_;
  bool exact_, count_;
  double w_, eps2_;  // count: eps^2 = d / 6 (bench_gram's)
  std::vector<float> X_;
  std::vector<double> edges_;  // exact: b w, b = 0 .. B (float64; the last closed)
  mutable u64 edge_ = 0;  // oracle(): the pairs near a bucket edge
  mutable gram_cpu::CountReference count_ref_;  // oracle(), count: the float64 counts and the pairs near eps
  u64 sub_tiles_, replay_cap_;  // exact: a sub-range's tiles and its replay list's pairs (every pair of them)
  std::vector<Dev> dev_;
};
#endif

// The ranges of one configuration: worker w = gpu * chunks + chunk of W workers.
LambdaRange worker_range(u64 total, int workers, int w) { return lambda_range<u64>(total, u64(workers), u64(w)); }

std::string first_difference(const std::vector<u64>& a, const std::vector<u64>& b) {
  if (a.size() != b.size()) return "lengths " + std::to_string(a.size()) + " and " + std::to_string(b.size());
  for (size_t k = 0; k < a.size(); ++k)
    if (a[k] != b[k]) return "bucket " + std::to_string(k) + ": " + std::to_string(a[k]) + " vs " + std::to_string(b[k]);
  return "";
}
// FNV-1a of the histogram (the result line that the MPI test compares).
u64 fnv(const std::vector<u64>& h) {
  u64 x = 0xcbf29ce484222325ull;
  for (u64 v : h)
    for (int b = 0; b < 8; ++b) { x ^= (v >> (8 * b)) & 0xffu; x *= 0x100000001b3ull; }
  return x;
}

}  // namespace
