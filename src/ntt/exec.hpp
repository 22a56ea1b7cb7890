#pragma once
// Threading helpers of the NTT (internal): Options.threads -> a oneTBB
// task_arena, and a parallel loop that degrades to a plain loop on one thread.
#include <cstddef>
#include <stdexcept>
#include <string>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "ntt/ntt.hpp"

namespace cuzk::ntt::detail {

inline void check_size(std::span<const Fr> a, const Domain& d, const char* what) {
  if (a.size() != d.size())
    throw std::invalid_argument(std::string("ntt::") + what + ": input has " + std::to_string(a.size()) +
                                " elements, domain has " + std::to_string(d.size()));
}

// Bit reversal that also multiplies every element by *c (when c != nullptr).
void bit_reverse_scaled(std::span<Fr> a, const Fr* c, const Options& o);

// Runs f(parallel) inside an arena of o.threads threads (all when 0), or
// directly on the caller when one thread is asked for or the work is small.
template <class F>
void with_threads(const Options& o, bool small, F&& f) {
  if (o.threads == 1 || small) {
    f(false);
    return;
  }
  tbb::task_arena arena(o.threads == 0 ? int(tbb::task_arena::automatic) : int(o.threads));
  arena.execute([&] { f(true); });
}

// body(begin, end) over [0, n), split into ranges of at least `grain`.
template <class F>
void for_range(bool parallel, size_t n, size_t grain, F&& body) {
  if (!parallel || n <= grain) {
    body(size_t(0), n);
    return;
  }
  tbb::parallel_for(tbb::blocked_range<size_t>(0, n, grain),
                    [&](const tbb::blocked_range<size_t>& r) { body(r.begin(), r.end()); });
}

}  // namespace cuzk::ntt::detail
