// Element-wise scalings: constants, geometric progressions (coset shifts) in
// natural and bit-reversed order, and the division by Z on the coset.
#include <bit>
#include <stdexcept>
#include <vector>

#include "ntt/exec.hpp"
#include "ntt/kernels_ifma.hpp"
#include "platform/cpu_features.hpp"

namespace cuzk::ntt {
namespace {

constexpr unsigned kLowBits = 6;  // factor tables of 64 entries
constexpr size_t kChunk = size_t(1) << 12;

inline size_t brev(size_t x, unsigned bits) {
  size_t r = 0;
  for (unsigned i = 0; i < bits; i++, x >>= 1) r = (r << 1) | (x & 1);
  return r;
}

bool small(size_t n) { return n <= kChunk; }

}  // namespace

void scale(std::span<Fr> a, const Fr& c, const Options& o) {
  detail::with_threads(o, small(a.size()), [&](bool par) {
    detail::for_range(par, a.size(), kChunk, [&](size_t b, size_t e) {
      for (size_t i = b; i < e; i++) a[i] *= c;
    });
  });
}

// a[i] *= c * g^i: per 64-element block one factor c*g^(64q), times a table
// g^r (r < 64): two multiplications per element, none of them chained.
void scale_powers(std::span<Fr> a, const Fr& c, const Fr& g, const Options& o) {
  const size_t B = size_t(1) << kLowBits;
  Fr low[B];
  low[0] = Fr::one();
  for (size_t r = 1; r < B; r++) low[r] = low[r - 1] * g;
  const Fr gB = low[B - 1] * g;
  detail::with_threads(o, small(a.size()), [&](bool par) {
    detail::for_range(par, (a.size() + B - 1) / B, kChunk / B, [&](size_t q0, size_t q1) {
      Fr f = c * gB.pow_vartime(uint64_t(q0));
      for (size_t q = q0; q < q1; q++, f *= gB) {
        const size_t i0 = q * B, m = std::min(B, a.size() - i0);
        for (size_t r = 0; r < m; r++) a[i0 + r] *= f * low[r];
      }
    });
  });
}

// a[j] *= c * g^brev_L(j). With j = (hi, lo), lo of s bits:
// brev_L(j) = brev_s(lo) * 2^(L-s) + brev_(L-s)(hi); the first term comes from
// a table, the second from one power per block of 2^s elements.
void scale_bitrev_powers(std::span<Fr> a, const Fr& c, const Fr& g, const Options& o) {
  const size_t n = a.size();
  if (n == 0 || !std::has_single_bit(n))
    throw std::invalid_argument("ntt::scale_bitrev_powers: size " + std::to_string(n) +
                                " is not a power of two");
  const unsigned L = unsigned(std::countr_zero(n));
  const unsigned s = std::min(L, kLowBits);
  const size_t B = size_t(1) << s;
  // low[lo] = g^(brev_s(lo) * 2^(L-s))
  Fr gs = g;
  for (unsigned i = s; i < L; i++) gs = gs.square();
  std::vector<Fr> low(B);
  for (size_t lo = 0; lo < B; lo++) low[lo] = gs.pow_vartime(uint64_t(brev(lo, s)));
  const unsigned H = L - s;  // bits of hi
  // hi = (hh, hl) with hl of u bits: brev_H(hi) = brev_u(hl) * 2^(H-u) + brev_(H-u)(hh).
  const unsigned u = std::min(H, 6u);
  Fr gu = g;
  for (unsigned i = u; i < H; i++) gu = gu.square();
  std::vector<Fr> mid(size_t(1) << u);
  for (size_t hl = 0; hl < mid.size(); hl++) mid[hl] = gu.pow_vartime(uint64_t(brev(hl, u)));
  const size_t per_hh = size_t(1) << (u + s);  // elements per hh
  // Eight lanes at a time where the CPU has IFMA: the factor of a block of
  // B elements times the table entry, then times the element.
  const bool lanes = platform::use_ifma() && B % 8 == 0;
  const std::vector<uint64_t> low52 = lanes ? detail::ifma::factor_table(low) : std::vector<uint64_t>();
  detail::with_threads(o, small(n), [&](bool par) {
    detail::for_range(par, n / per_hh, 1, [&](size_t h0, size_t h1) {
      std::vector<Fr> f(mid.size());
      for (size_t hh = h0; hh < h1; hh++) {
        const Fr fh = c * g.pow_vartime(uint64_t(brev(hh, H - u)));
        for (size_t hl = 0; hl < mid.size(); hl++) f[hl] = fh * mid[hl];
        Fr* x = a.data() + (hh << (u + s));
        if (lanes) {
          detail::ifma::scale_blocks(x, mid.size(), B, f.data(), low52.data());
          continue;
        }
        for (size_t hl = 0; hl < mid.size(); hl++, x += B)
          for (size_t lo = 0; lo < B; lo++) x[lo] *= f[hl] * low[lo];
      }
    });
  });
}

}  // namespace cuzk::ntt
