// In-place bit-reversal permutation, blocked for the cache.
//
// Write an index of L bits as (hi, mid, lo) with t-bit hi and lo. Its reverse
// is (brev lo, brev mid, brev hi), so the 2^t x 2^t tile {(hi, m, lo)} is
// exchanged with the tile of m' = brev(m) as a transposition. Each tile row is
// 2^t contiguous elements (whole cache lines), and the two tiles of a pair
// (2 x 2^t rows) stay in L1 while they are swapped. Pairs are independent, so
// they are split across threads.
#include <bit>
#include <stdexcept>
#include <utility>

#include "ntt/exec.hpp"

namespace cuzk::ntt {
namespace {

inline size_t brev(size_t x, unsigned bits) {
  size_t r = 0;
  for (unsigned i = 0; i < bits; i++, x >>= 1) r = (r << 1) | (x & 1);
  return r;
}

constexpr unsigned kTileBits = 3;

}  // namespace

namespace detail {

// The permutation, optionally multiplying every element by *c on the way.
void bit_reverse_scaled(std::span<Fr> a, const Fr* c, const Options& o) {
  const size_t n = a.size();
  if (n == 0 || !std::has_single_bit(n))
    throw std::invalid_argument("ntt::bit_reverse: size " + std::to_string(n) + " is not a power of two");
  // Exchanges x and y (x != y), scaling both; scales x alone when x == y.
  auto move = [c](Fr& x, Fr& y) {
    if (&x == &y) {
      if (c) x *= *c;
      return;
    }
    if (c) {
      const Fr t = x * *c;
      x = y * *c;
      y = t;
    } else {
      std::swap(x, y);
    }
  };
  const unsigned L = unsigned(std::countr_zero(n));
  Fr* p = a.data();
  if (L < 2 * kTileBits + 2) {
    for (size_t i = 0; i < n; i++) {
      size_t j = brev(i, L);
      if (i <= j) move(p[i], p[j]);
    }
    return;
  }
  const unsigned t = kTileBits, M = L - 2 * t;
  const size_t T = size_t(1) << t;
  size_t rev_t[1 << kTileBits];
  for (size_t i = 0; i < T; i++) rev_t[i] = brev(i, t);
  detail::with_threads(o, L < 16, [&](bool par) {
    detail::for_range(par, size_t(1) << M, 64, [&](size_t m0, size_t m1) {
      for (size_t m = m0; m < m1; m++) {
        const size_t mr = brev(m, M);
        if (mr < m) continue;
        Fr* tile = p + (m << t);
        Fr* tile_r = p + (mr << t);
        for (size_t hi = 0; hi < T; hi++) {
          Fr* row = tile + (hi << (L - t));
          for (size_t lo = 0; lo < T; lo++) {
            Fr* other = tile_r + (rev_t[lo] << (L - t)) + rev_t[hi];
            if (mr == m && other < row + lo) continue;
            move(row[lo], *other);
          }
        }
      }
    });
  });
}

}  // namespace detail

void bit_reverse(std::span<Fr> a, const Options& o) { detail::bit_reverse_scaled(a, nullptr, o); }

}  // namespace cuzk::ntt
