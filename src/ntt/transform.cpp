// Cache-blocked, multi-threaded radix-2 NTT (ntt_nr / ntt_rn).
//
// Natural -> bit-reversed (Cooley-Tukey). View a block of 2^L elements as an
// n1 x n2 row-major matrix (n1 = 2^L1 rows). The first L1 stages pair
// elements in the same column with a twiddle that depends only on the row
// block, so they are n2 independent column transforms of size n1 sharing all
// twiddles: groups of 16 adjacent columns are copied into a contiguous
// 2^L1 x 16 buffer (512 KiB at most; the copy also avoids the cache-set
// conflicts of power-of-two strides), transformed there as one block of
// 16-lane elements, and copied back. The last L - L1 stages stay inside each
// contiguous row: row p is sub-block p at depth L1, so it is the same
// transform with the twiddle table offset (see kernels.hpp), recursively
// blocked if the row is still large. Every stage reads its twiddles
// sequentially from the bit-reversed power table; no transposition, no
// diagonal twiddle pass.
//
// Threads: the column groups, then the rows, are spread over the arena with
// tbb::parallel_for; the two phases are the only synchronisation points.
// Every element is computed by the same operations whatever the thread count,
// so results are bit-identical for any Options::threads.
//
// When the domain keeps only a short table, the top level uses the four-step
// identity instead: row p (the factor x^n2 - eta_p^n2 with
// eta_p = w^brev_L1(p)) is evaluated by twisting it by eta_p^c and running the
// plain size-n2 transform. This costs two extra multiplications per element
// (forming the factor and applying it).
//
// Bit-reversed -> natural (Gentleman-Sande) is the same data flow backwards:
// rows first, then column groups.
#include <algorithm>
#include <vector>

#include "ntt/exec.hpp"
#include "ntt/kernels.hpp"
#include "ntt/kernels_ifma.hpp"
#include "ntt/ntt.hpp"
#include "ntt/plan.hpp"
#include "platform/cpu_features.hpp"

namespace cuzk::ntt {
namespace detail {

Plan& plan() {
  static Plan p;
  return p;
}

namespace {

// The twiddle table in both forms; w52 is null where the IFMA kernels are not
// used.
struct Tw {
  const Fr* w;
  const uint64_t* w52;
};

Tw tables_of(const Domain& d, Direction dir) {
  const auto w52 = d.twiddles52(dir);
  return {d.twiddles(dir).data(), platform::use_ifma() && !w52.empty() ? w52.data() : nullptr};
}

void block_ct(Fr* a, unsigned L, size_t B, const Tw& tw, size_t off) {
  if (tw.w52 && (size_t(1) << L) * B >= 8) ifma::ct_block(a, L, B, tw.w, tw.w52, off);
  else ct_block(a, L, B, tw.w, off);
}
void block_gs(Fr* a, unsigned L, size_t B, const Tw& tw, size_t off) {
  if (tw.w52 && (size_t(1) << L) * B >= 8) ifma::gs_block(a, L, B, tw.w, tw.w52, off);
  else gs_block(a, L, B, tw.w, off);
}

struct Split {
  unsigned L1, L2;
  size_t n1, n2, C;
};

Split split(unsigned L) {
  Split s;
  s.L1 = column_bits(L);
  s.L2 = L - s.L1;
  s.n1 = size_t(1) << s.L1;
  s.n2 = size_t(1) << s.L2;
  s.C = std::min(plan().column_group, s.n2);
  return s;
}

// Per-thread column buffer, kept between calls (at most 2^max_column_log x 16
// elements, 512 KiB) so the hot loop neither allocates nor zero-fills it.
Fr* column_buffer(size_t n) {
  thread_local std::vector<Fr> buf;
  if (buf.size() < n) buf.resize(n);
  return buf.data();
}

void gather(Fr* buf, const Fr* a, const Split& s, size_t c0) {
  for (size_t r = 0; r < s.n1; r++) std::copy_n(a + r * s.n2 + c0, s.C, buf + r * s.C);
}
void scatter(Fr* a, const Fr* buf, const Split& s, size_t c0) {
  for (size_t r = 0; r < s.n1; r++) std::copy_n(buf + r * s.C, s.C, a + r * s.n2 + c0);
}

// Four-step twist factors w^(brev_L1(p) * c) for row p < n1 and column c of a
// split of 2^L (w of order 2^L): per column group, the factor of (p, c0 + i)
// is start_p * eta_p^i with eta_p = w^brev_L1(p) and start_p = (w^c0)^brev_L1(p).
class Twist {
 public:
  Twist(const Fr& w, const Split& s) : w_(w), s_(s), pw_(s.n1 * s.C) {
    std::vector<Fr> eta(s.n1);
    bitrev_powers(eta.data(), w);
    for (size_t p = 0; p < s.n1; p++) {
      Fr* row = &pw_[p * s.C];
      row[0] = Fr::one();
      for (size_t i = 1; i < s.C; i++) row[i] = row[i - 1] * eta[p];
    }
  }
  // Multiplies the gathered column group starting at column c0.
  void apply(Fr* buf, size_t c0, std::vector<Fr>& scratch) const {
    const size_t C = s_.C;
    scratch.resize(s_.n1);
    bitrev_powers(scratch.data(), w_.pow_vartime(uint64_t(c0)));
    for (size_t p = 0; p < s_.n1; p++) {
      const Fr* pw = &pw_[p * C];
      const Fr f = scratch[p];
      Fr* x = buf + p * C;
      for (size_t i = 0; i < C; i++) x[i] *= f * pw[i];
    }
  }

 private:
  // out[p] = b^brev_L1(p): out[p + 2^j] = out[p] * b^(2^(L1-1-j)).
  void bitrev_powers(Fr* out, const Fr& b) const {
    Fr sq[64];
    sq[0] = b;
    for (unsigned k = 1; k < s_.L1; k++) sq[k] = sq[k - 1].square();
    out[0] = Fr::one();
    for (unsigned j = 0; j < s_.L1; j++) {
      const size_t h = size_t(1) << j;
      const Fr m = sq[s_.L1 - 1 - j];
      for (size_t p = 0; p < h; p++) out[p + h] = out[p] * m;
    }
  }

  Fr w_;
  Split s_;
  std::vector<Fr> pw_;  // n1 x C: eta_p^i
};

// Natural -> bit-reversed on 2^L contiguous elements, block `off` of its size.
void ct_rec(Fr* a, unsigned L, const Tw& tw, size_t off, bool par) {
  if (L <= plan().block_log) {
    block_ct(a, L, 1, tw, off);
    return;
  }
  const Split s = split(L);
  for_range(par, s.n2 / s.C, 1, [&](size_t g0, size_t g1) {
    Fr* buf = column_buffer(s.n1 * s.C);
    for (size_t g = g0; g < g1; g++) {
      gather(buf, a, s, g * s.C);
      block_ct(buf, s.L1, s.C, tw, off);
      scatter(a, buf, s, g * s.C);
    }
  });
  for_range(par, s.n1, 4, [&](size_t r0, size_t r1) {
    for (size_t r = r0; r < r1; r++) ct_rec(a + r * s.n2, s.L2, tw, (off << s.L1) + r, false);
  });
}

void gs_rec(Fr* a, unsigned L, const Tw& tw, size_t off, bool par) {
  if (L <= plan().block_log) {
    block_gs(a, L, 1, tw, off);
    return;
  }
  const Split s = split(L);
  for_range(par, s.n1, 4, [&](size_t r0, size_t r1) {
    for (size_t r = r0; r < r1; r++) gs_rec(a + r * s.n2, s.L2, tw, (off << s.L1) + r, false);
  });
  for_range(par, s.n2 / s.C, 1, [&](size_t g0, size_t g1) {
    Fr* buf = column_buffer(s.n1 * s.C);
    for (size_t g = g0; g < g1; g++) {
      gather(buf, a, s, g * s.C);
      block_gs(buf, s.L1, s.C, tw, off);
      scatter(a, buf, s, g * s.C);
    }
  });
}

// Top level with a short table: four-step twist between the column and row
// phases.
void ct_twist(Fr* a, unsigned L, const Tw& tw, const Fr& w, bool par) {
  const Split s = split(L);
  const Twist twist(w, s);
  for_range(par, s.n2 / s.C, 1, [&](size_t g0, size_t g1) {
    Fr* buf = column_buffer(s.n1 * s.C);
    std::vector<Fr> scratch;
    for (size_t g = g0; g < g1; g++) {
      gather(buf, a, s, g * s.C);
      block_ct(buf, s.L1, s.C, tw, 0);
      twist.apply(buf, g * s.C, scratch);
      scatter(a, buf, s, g * s.C);
    }
  });
  for_range(par, s.n1, 4, [&](size_t r0, size_t r1) {
    for (size_t r = r0; r < r1; r++) ct_rec(a + r * s.n2, s.L2, tw, 0, false);
  });
}

void gs_twist(Fr* a, unsigned L, const Tw& tw, const Fr& w, bool par) {
  const Split s = split(L);
  const Twist twist(w, s);
  for_range(par, s.n1, 4, [&](size_t r0, size_t r1) {
    for (size_t r = r0; r < r1; r++) gs_rec(a + r * s.n2, s.L2, tw, 0, false);
  });
  for_range(par, s.n2 / s.C, 1, [&](size_t g0, size_t g1) {
    Fr* buf = column_buffer(s.n1 * s.C);
    std::vector<Fr> scratch;
    for (size_t g = g0; g < g1; g++) {
      gather(buf, a, s, g * s.C);
      twist.apply(buf, g * s.C, scratch);
      block_gs(buf, s.L1, s.C, tw, 0);
      scatter(a, buf, s, g * s.C);
    }
  });
}

}  // namespace
}  // namespace detail

void ntt_nr(std::span<Fr> a, const Domain& d, Direction dir, const Options& o) {
  detail::check_size(a, d, "ntt_nr");
  const unsigned L = d.log_size();
  const detail::Tw tw = detail::tables_of(d, dir);
  detail::with_threads(o, L <= detail::plan().block_log, [&](bool par) {
    if (L <= detail::plan().block_log || d.full_twiddles()) detail::ct_rec(a.data(), L, tw, 0, par);
    else detail::ct_twist(a.data(), L, tw, dir == Direction::forward ? d.omega() : d.omega_inv(), par);
  });
}

void ntt_rn(std::span<Fr> a, const Domain& d, Direction dir, const Options& o) {
  detail::check_size(a, d, "ntt_rn");
  const unsigned L = d.log_size();
  const detail::Tw tw = detail::tables_of(d, dir);
  detail::with_threads(o, L <= detail::plan().block_log, [&](bool par) {
    if (L <= detail::plan().block_log || d.full_twiddles()) detail::gs_rec(a.data(), L, tw, 0, par);
    else detail::gs_twist(a.data(), L, tw, dir == Direction::forward ? d.omega() : d.omega_inv(), par);
  });
}

}  // namespace cuzk::ntt
