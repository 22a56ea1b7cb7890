// In-cache radix-2 kernels; see kernels.hpp for the layout.
#include "ntt/kernels.hpp"

namespace cuzk::ntt::detail {
namespace {

// One radix-2 stage s over 2^L elements of B lanes.
void ct_stage(Fr* a, unsigned L, size_t B, const Fr* tw, size_t off, unsigned s) {
  const size_t len = (size_t(1) << (L - 1 - s)) * B;
  const size_t nblk = size_t(1) << s;
  const Fr* z = tw + (off << s);
  for (size_t k = 0; k < nblk; k++) {
    Fr* x = a + 2 * len * k;
    Fr* y = x + len;
    if (off == 0 && k == 0) {
      for (size_t i = 0; i < len; i++) ct1(x[i], y[i]);
    } else {
      const Fr w = z[k];
      for (size_t i = 0; i < len; i++) ct(x[i], y[i], w);
    }
  }
}

void gs_stage(Fr* a, unsigned L, size_t B, const Fr* tw, size_t off, unsigned s) {
  const size_t len = (size_t(1) << (L - 1 - s)) * B;
  const size_t nblk = size_t(1) << s;
  const Fr* z = tw + (off << s);
  for (size_t k = 0; k < nblk; k++) {
    Fr* x = a + 2 * len * k;
    Fr* y = x + len;
    if (off == 0 && k == 0) {
      for (size_t i = 0; i < len; i++) gs1(x[i], y[i]);
    } else if (len == 1) {
      gs(x[0], y[0], z[k]);
    } else {
      // Software-pipelined: the product of butterfly i-1 is issued after the
      // sum/difference of butterfly i, so the multiplication never waits on
      // the addition just before it (the plain loop measured 17% slower).
      const Fr w = z[k];
      Fr prev;
      add_sub(x[0], prev, x[0], y[0]);
      for (size_t i = 1; i < len; i++) {
        Fr d;
        add_sub(x[i], d, x[i], y[i]);
        y[i - 1] = prev * w;
        prev = d;
      }
      y[len - 1] = prev * w;
    }
  }
}

}  // namespace

void ct_block(Fr* a, unsigned L, size_t B, const Fr* tw, size_t off) {
  for (unsigned s = 0; s < L; s++) ct_stage(a, L, B, tw, off, s);
}

void gs_block(Fr* a, unsigned L, size_t B, const Fr* tw, size_t off) {
  for (unsigned s = L; s-- > 0;) gs_stage(a, L, B, tw, off, s);
}

}  // namespace cuzk::ntt::detail
