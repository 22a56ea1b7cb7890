#pragma once
// Montgomery's trick: n inversions for one inversion and 3(n-1) multiplications.
#include <span>
#include <vector>

namespace cuzk::ff {

// Replaces every non-zero element by its inverse; zeros stay zero.
// `scratch` must hold at least xs.size() elements.
template <class F>
void batch_inverse(std::span<F> xs, std::span<F> scratch) {
  F acc = F::one();
  for (size_t i = 0; i < xs.size(); i++) {
    scratch[i] = acc;
    if (!xs[i].is_zero()) acc *= xs[i];
  }
  F inv = acc.inverse();
  for (size_t i = xs.size(); i-- > 0;) {
    if (xs[i].is_zero()) continue;
    F next = inv * xs[i];
    xs[i] = inv * scratch[i];
    inv = next;
  }
}

template <class F>
void batch_inverse(std::span<F> xs) {
  std::vector<F> scratch(xs.size());
  batch_inverse<F>(xs, std::span<F>(scratch));
}

}  // namespace cuzk::ff
