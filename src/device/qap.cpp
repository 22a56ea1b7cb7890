#include "device/qap.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <initializer_list>
#include <stdexcept>
#include <string>

#include "platform/lap.hpp"

namespace cuzk::device::qap {

namespace {

// f(i) for i < n with the threads the transforms get (ntt::Options): the
// caller's arena for 0, an arena of that many otherwise.
template <class F>
void pointwise(size_t n, const ntt::Options& o, F&& f) {
  constexpr size_t kGrain = 1 << 12;
  if (o.threads == 1 || n <= kGrain) {
    for (size_t i = 0; i < n; i++) f(i);
    return;
  }
  auto loop = [&] {
    tbb::parallel_for(tbb::blocked_range<size_t>(0, n, kGrain), [&](const tbb::blocked_range<size_t>& r) {
      for (size_t i = r.begin(); i < r.end(); i++) f(i);
    });
  };
  if (o.threads == 0) {
    loop();
    return;
  }
  tbb::task_arena arena(int(o.threads));
  arena.execute(loop);
}

}  // namespace

Coset bellperson_coset() { return {Fr::from_u64(ntt::kCosetGenerator), Coset::Output::h_coefficients}; }

Coset odd_coset(unsigned log_n, const Fr& root_2_32) {
  if (log_n >= Fr::S)
    throw std::invalid_argument("qap::odd_coset: domain 2^" + std::to_string(log_n) + " too large");
  Fr inc = root_2_32;
  for (unsigned i = log_n + 1; i < Fr::S; i++) inc = inc.square();
  return {inc, Coset::Output::coset_values};
}

void compute_h(std::span<Fr> a, std::span<Fr> b, std::span<Fr> c, const ntt::Domain& d, const Coset& coset,
               const Options& o) {
  const size_t n = d.size();
  if (a.size() != n || b.size() != n || c.size() != n)
    throw std::invalid_argument("qap::compute_h: a, b, c must have the domain's " + std::to_string(n) +
                                " elements");
  const Fr z = coset.shift.pow_vartime(uint64_t(n)) - Fr::one();  // Z(x) = x^n - 1 on the coset
  if (z.is_zero()) throw std::invalid_argument("qap::compute_h: the coset shift lies in the domain");
  platform::Lap lap(o.times);
  // One transform after the other, each on every thread: three concurrent
  // ones (each NTT runs in its own arena, which a thread waiting in
  // parallel_invoke cannot join) left the third alone on one core of two.
  for (std::span<Fr> v : {a, b, c}) {
    ntt::ntt_nr(v, d, ntt::Direction::inverse, o.ntt);              // n·coefficients, bit-reversed
    ntt::scale_bitrev_powers(v, d.size_inv(), coset.shift, o.ntt);  // coefficient j times shift^j/n
    ntt::ntt_rn(v, d, ntt::Direction::forward, o.ntt);              // values at shift·ω^i, natural order
  }
  lap(&Times::to_coset);
  pointwise(n, o.ntt, [&](size_t i) { a[i] = a[i] * b[i] - c[i]; });
  lap(&Times::combine);
  if (coset.output == Coset::Output::coset_values) return;
  // Back to coefficients: 1/Z and 1/n folded into the shift^-j scaling.
  ntt::ntt_nr(a, d, ntt::Direction::inverse, o.ntt);
  ntt::scale_bitrev_powers(a, d.size_inv() * z.inverse(), coset.shift.inverse(), o.ntt);
  ntt::bit_reverse(a, o.ntt);
  lap(&Times::from_coset);
}

}  // namespace cuzk::device::qap
