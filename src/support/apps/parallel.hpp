// src/support/apps/parallel.hpp — the one host thread pool: the threads of the CPU references and
// baselines (src/support/apps/), the harness (bench/ includes it from here) and the CPU oracle
// (verify/oracle.hpp). It sits below all three; it includes only <tdmaps/config.hpp>.
#pragma once
#include <tdmaps/config.hpp>

#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

namespace tdmaps::bench {

// Hardware threads, at least 1, at most `cap`.
inline unsigned host_workers(unsigned cap = 64) {
  const unsigned h = std::thread::hardware_concurrency();
  return std::max(1u, std::min(h ? h : 2u, cap));
}

// f(worker, begin, end) over [0, count) in contiguous parts, one per worker.
template <class F>
void parallel_for(u64 count, F&& f, unsigned workers = 0) {
  const unsigned w = unsigned(std::min<u64>(workers ? workers : host_workers(), count ? count : 1));
  std::vector<std::thread> ts;
  for (unsigned t = 0; t < w; ++t) {
    const u64 b = count * t / w, e = count * (t + 1) / w;
    ts.emplace_back([&f, t, b, e] { f(t, b, e); });
  }
  for (auto& t : ts) t.join();
}

// f(worker, begin, end) over [0, count) in chunks of `chunk` handed out from a shared
// counter (load balance for triangular work, where early rows cost more).
template <class F>
void parallel_chunks(u64 count, u64 chunk, F&& f, unsigned workers = 0) {
  const unsigned w = workers ? workers : host_workers();
  std::atomic<u64> next{0};
  std::vector<std::thread> ts;
  for (unsigned t = 0; t < w; ++t)
    ts.emplace_back([&, t] {
      for (;;) {
        const u64 b = next.fetch_add(chunk, std::memory_order_relaxed);
        if (b >= count) return;
        f(t, b, std::min(count, b + chunk));
      }
    });
  for (auto& t : ts) t.join();
}

}  // namespace tdmaps::bench
