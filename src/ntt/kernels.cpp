// In-cache radix-2/radix-4 kernels; see kernels.hpp for the layout.
#include "ntt/kernels.hpp"

namespace cuzk::ntt::detail {
namespace {

// One radix-2 stage s over 2^L elements of B lanes.
void ct_stage2(Fr* a, unsigned L, size_t B, const Fr* tw, size_t off, unsigned s) {
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

void gs_stage2(Fr* a, unsigned L, size_t B, const Fr* tw, size_t off, unsigned s) {
  const size_t len = (size_t(1) << (L - 1 - s)) * B;
  const size_t nblk = size_t(1) << s;
  const Fr* z = tw + (off << s);
  for (size_t k = 0; k < nblk; k++) {
    Fr* x = a + 2 * len * k;
    Fr* y = x + len;
    if (off == 0 && k == 0) {
      for (size_t i = 0; i < len; i++) gs1(x[i], y[i]);
    } else {
      const Fr w = z[k];
      for (size_t i = 0; i < len; i++) gs(x[i], y[i], w);
    }
  }
}

// Stages s and s+1 fused: sub-block k of stage s has quarters x0..x3;
// stage s pairs (x0,x2), (x1,x3) with z; stage s+1 pairs (x0,x1) with za and
// (x2,x3) with zb.
void ct_stage4(Fr* a, unsigned L, size_t B, const Fr* tw, size_t off, unsigned s) {
  const size_t q = (size_t(1) << (L - 2 - s)) * B;
  const size_t nblk = size_t(1) << s;
  const Fr* z = tw + (off << s);
  const Fr* z2 = tw + (off << (s + 1));
  for (size_t k = 0; k < nblk; k++) {
    Fr* x0 = a + 4 * q * k;
    Fr* x1 = x0 + q;
    Fr* x2 = x1 + q;
    Fr* x3 = x2 + q;
    const Fr zb = z2[2 * k + 1];
    if (off == 0 && k == 0) {
      for (size_t i = 0; i < q; i++) {
        Fr u0 = x0[i], u1 = x1[i], u2 = x2[i], u3 = x3[i];
        ct1(u0, u2);
        ct1(u1, u3);
        ct1(u0, u1);
        ct(u2, u3, zb);
        x0[i] = u0, x1[i] = u1, x2[i] = u2, x3[i] = u3;
      }
    } else {
      const Fr w = z[k], za = z2[2 * k];
      for (size_t i = 0; i < q; i++) {
        Fr u0 = x0[i], u1 = x1[i], u2 = x2[i], u3 = x3[i];
        ct(u0, u2, w);
        ct(u1, u3, w);
        ct(u0, u1, za);
        ct(u2, u3, zb);
        x0[i] = u0, x1[i] = u1, x2[i] = u2, x3[i] = u3;
      }
    }
  }
}

void gs_stage4(Fr* a, unsigned L, size_t B, const Fr* tw, size_t off, unsigned s) {
  const size_t q = (size_t(1) << (L - 2 - s)) * B;
  const size_t nblk = size_t(1) << s;
  const Fr* z = tw + (off << s);
  const Fr* z2 = tw + (off << (s + 1));
  for (size_t k = 0; k < nblk; k++) {
    Fr* x0 = a + 4 * q * k;
    Fr* x1 = x0 + q;
    Fr* x2 = x1 + q;
    Fr* x3 = x2 + q;
    const Fr zb = z2[2 * k + 1];
    if (off == 0 && k == 0) {
      for (size_t i = 0; i < q; i++) {
        Fr u0 = x0[i], u1 = x1[i], u2 = x2[i], u3 = x3[i];
        gs1(u0, u1);
        gs(u2, u3, zb);
        gs1(u0, u2);
        gs1(u1, u3);
        x0[i] = u0, x1[i] = u1, x2[i] = u2, x3[i] = u3;
      }
    } else {
      const Fr w = z[k], za = z2[2 * k];
      for (size_t i = 0; i < q; i++) {
        Fr u0 = x0[i], u1 = x1[i], u2 = x2[i], u3 = x3[i];
        gs(u0, u1, za);
        gs(u2, u3, zb);
        gs(u0, u2, w);
        gs(u1, u3, w);
        x0[i] = u0, x1[i] = u1, x2[i] = u2, x3[i] = u3;
      }
    }
  }
}

}  // namespace

void ct_block(Fr* a, unsigned L, size_t B, const Fr* tw, size_t off) {
  unsigned s = 0;
  if (L & 1) ct_stage2(a, L, B, tw, off, s++);
  for (; s < L; s += 2) ct_stage4(a, L, B, tw, off, s);
}

void gs_block(Fr* a, unsigned L, size_t B, const Fr* tw, size_t off) {
  unsigned s = L;
  while (s >= 2) {
    s -= 2;
    gs_stage4(a, L, B, tw, off, s);
  }
  if (s == 1) gs_stage2(a, L, B, tw, off, 0);
}

}  // namespace cuzk::ntt::detail
