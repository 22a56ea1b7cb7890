#include "filecoin/hash/poseidon_constants.hpp"

#include <array>
#include <cmath>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>

#include "ff/batch_inverse.hpp"
#include "gadgets/poseidon_mix_ifma.hpp"

namespace cuzk::filecoin {

namespace {

// calc_round_numbers.py as ported by neptune (round_numbers.rs), including
// its f32 arithmetic and the deliberate n = 256, M = 128.
bool round_numbers_are_secure(size_t t, size_t rf, size_t rp) {
  const float frp = float(rp), ft = float(t), n = 256.0f, m = 128.0f;
  const float rf_stat = m <= (n - 3.0f) * (ft + 1.0f) ? 6.0f : 10.0f;
  const float rf_interp = 0.43f * m + std::log2(ft) - frp;
  const float rf_grob_1 = 0.21f * n - frp;
  const float rf_grob_2 = (0.14f * n - 1.0f - frp) / (ft - 1.0f);
  size_t rf_max = 0;
  for (float x : {rf_stat, rf_interp, rf_grob_1, rf_grob_2}) {
    float c = std::ceil(x);
    if (c > 0) rf_max = std::max(rf_max, size_t(c));  // Rust's `as usize` saturates at 0
  }
  return rf >= rf_max;
}

std::pair<size_t, size_t> calc_round_numbers(size_t t) {
  size_t rf = 0, rp = 0, best = SIZE_MAX;
  for (size_t rf_test = 2; rf_test <= 1000; rf_test += 2) {
    for (size_t rp_test = 4; rp_test < 200; rp_test++) {
      if (!round_numbers_are_secure(t, rf_test, rp_test)) continue;
      size_t f = rf_test + 2;  // security margin
      size_t p = size_t(std::ceil(1.075f * float(rp_test)));
      size_t cost = t * f + p;
      if (cost < best || (cost == best && f < rf)) {
        rf = f;
        rp = p;
        best = cost;
      }
    }
  }
  return {rf, rp};
}

// Grain LFSR in self-shrinking mode (round_constants.rs). Bit i of the
// 80-bit register is the i-th oldest bit.
class Grain {
 public:
  explicit Grain(const std::array<uint8_t, 80>& init) {
    for (size_t i = 0; i < 80; i++) s_ |= (unsigned __int128)(init[i] & 1) << i;
    for (int i = 0; i < 160; i++) step();
  }
  bool next_bit() {
    bool x = step();
    while (!x) {
      step();
      x = step();
    }
    return step();
  }
  uint8_t next_byte(int bits) {
    uint8_t acc = 0;
    for (int i = 0; i < bits; i++) acc = uint8_t((acc << 1) | next_bit());
    return acc;
  }

 private:
  bool step() {
    auto b = [&](int i) { return unsigned(s_ >> i) & 1; };
    unsigned nb = b(62) ^ b(51) ^ b(38) ^ b(23) ^ b(13) ^ b(0);
    s_ = (s_ >> 1) | ((unsigned __int128)nb << 79);
    return nb;
  }
  unsigned __int128 s_ = 0;
};

FrMatrix minor00(const FrMatrix& m) {
  FrMatrix r(m.n - 1);
  for (size_t i = 1; i < m.n; i++)
    for (size_t j = 1; j < m.n; j++) r(i - 1, j - 1) = m(i, j);
  return r;
}

std::vector<Fr> round_keys(const PoseidonConstants& c, size_t r) {
  return {c.round_constants.begin() + r * c.width, c.round_constants.begin() + (r + 1) * c.width};
}

// preprocessing.rs compress_round_constants with partial_preprocessed = RP.
std::vector<Fr> compress_round_constants(const PoseidonConstants& c) {
  const size_t t = c.width, half = c.half_full_rounds, rp = c.partial_rounds;
  std::vector<Fr> res = round_keys(c, 0);
  auto append = [&](const std::vector<Fr>& v) { res.insert(res.end(), v.begin(), v.end()); };
  for (size_t i = 1; i < half; i++) append(apply_matrix(c.mds_inv, round_keys(c, i)));
  // Fold the partial rounds' keys backwards through M^-1, keeping one key
  // (for the single S-box) per round.
  const size_t final_round = half + rp;
  std::vector<Fr> acc = round_keys(c, final_round), partial_keys;
  for (size_t i = 0; i < rp; i++) {
    std::vector<Fr> inv = apply_matrix(c.mds_inv, acc);
    partial_keys.push_back(inv[0]);
    inv[0] = Fr::zero();
    acc = round_keys(c, final_round - i - 1);
    for (size_t j = 0; j < t; j++) acc[j] += inv[j];
  }
  append(apply_matrix(c.mds_inv, acc));
  res.insert(res.end(), partial_keys.rbegin(), partial_keys.rend());
  for (size_t i = 1; i < half; i++) append(apply_matrix(c.mds_inv, round_keys(c, i + final_round)));
  return res;
}

// mds.rs factor_to_sparse_matrices factors curr = M'·M'' for each partial
// round from the last backwards, with curr_0 = M and curr_{k+1} = M·M'(curr_k).
// Its structure gives closed forms, so each step costs O(t²) instead of a
// matrix product and inversion: column 0 of every curr_k is M's column 0,
// row 0 past entry 0 is m0·M̂^k (m0 = M[0][1..], M̂ = minor00(M)), and the
// minor at (0,0) is M̂^(k+1). Sparse matrix k is then
//   w_hat = [M00, w·M̂^-(k+1)] (w = M[1..][0]),  v_rest = m0·M̂^k.
void factor_to_sparse(PoseidonConstants& c) {
  const size_t t = c.width;
  const FrMatrix m_hat = minor00(c.mds), m_hat_inv = invert(m_hat);
  std::vector<Fr> v(t - 1), u(t - 1);
  for (size_t j = 1; j < t; j++) v[j - 1] = c.mds(0, j);
  for (size_t i = 1; i < t; i++) u[i - 1] = c.mds(i, 0);
  std::vector<PoseidonSparseMatrix> all;
  for (size_t k = 0; k < c.partial_rounds; k++) {
    u = apply_matrix(m_hat_inv, u);
    PoseidonSparseMatrix s;
    s.w_hat.push_back(c.mds(0, 0));
    s.w_hat.insert(s.w_hat.end(), u.begin(), u.end());
    s.v_rest = v;
    all.push_back(std::move(s));
    v = apply_matrix(m_hat, v);
  }
  // pre_sparse = curr_RP.
  FrMatrix pw = m_hat, minor = m_hat;  // minor = M̂^(RP+1) by square-and-multiply
  for (size_t e = c.partial_rounds; e; e >>= 1) {
    if (e & 1) minor = mat_mul(minor, pw);
    if (e > 1) pw = mat_mul(pw, pw);
  }
  FrMatrix pre(t);
  pre(0, 0) = c.mds(0, 0);
  for (size_t i = 1; i < t; i++) {
    pre(i, 0) = c.mds(i, 0);
    pre(0, i) = v[i - 1];
    for (size_t j = 1; j < t; j++) pre(i, j) = minor(i - 1, j - 1);
  }
  c.pre_sparse = std::move(pre);
  c.sparse.assign(all.rbegin(), all.rend());
}

}  // namespace

std::pair<size_t, size_t> poseidon_round_numbers(size_t arity, PoseidonStrength strength) {
  auto [rf, rp] = calc_round_numbers(arity + 1);
  if (strength == PoseidonStrength::Strengthened) rp = size_t(std::ceil(double(rp) * 1.25));
  return {rf, rp};
}

std::vector<Fr> poseidon_grain_constants(size_t t, size_t rf, size_t rp) {
  std::array<uint8_t, 80> init{};
  size_t pos = 0;
  auto put = [&](uint64_t v, int bits) {
    for (int i = bits - 1; i >= 0; i--) init[pos++] = uint8_t((v >> i) & 1);
  };
  put(1, 2);     // field: GF(p)
  put(1, 4);     // S-box: x^5
  put(255, 12);  // field size in bits
  put(t, 12);
  put(rf, 10);
  put(rp, 10);
  put((1u << 30) - 1, 30);
  Grain g(init);
  std::vector<Fr> out;
  out.reserve((rf + rp) * t);
  while (out.size() < (rf + rp) * t) {
    // 255 bits as a big-endian integer: 7 bits, then 31 bytes; reject >= r.
    std::array<uint8_t, 32> be;
    be[0] = g.next_byte(7);
    for (size_t i = 1; i < 32; i++) be[i] = g.next_byte(8);
    if (auto f = Fr::from_bytes_be(be)) out.push_back(*f);
  }
  return out;
}

FrMatrix poseidon_mds(size_t t) {
  FrMatrix m(t);
  for (size_t i = 0; i < t; i++)
    for (size_t j = 0; j < t; j++) m(i, j) = Fr::from_u64(i + t + j);
  ff::batch_inverse<Fr>(std::span<Fr>(m.a));
  return m;
}

std::vector<Fr> apply_matrix(const FrMatrix& m, std::span<const Fr> v) {
  std::vector<Fr> r(m.n, Fr::zero());
  for (size_t i = 0; i < m.n; i++)
    for (size_t j = 0; j < m.n; j++) r[j] += v[i] * m(i, j);
  return r;
}

FrMatrix mat_mul(const FrMatrix& a, const FrMatrix& b) {
  FrMatrix r(a.n);
  for (size_t i = 0; i < a.n; i++)
    for (size_t k = 0; k < a.n; k++)
      for (size_t j = 0; j < a.n; j++) r(i, j) += a(i, k) * b(k, j);
  return r;
}

FrMatrix invert(const FrMatrix& m) {
  const size_t n = m.n;
  FrMatrix a = m, inv(n);
  for (size_t i = 0; i < n; i++) inv(i, i) = Fr::one();
  for (size_t col = 0; col < n; col++) {
    size_t p = col;
    while (p < n && a(p, col).is_zero()) p++;
    if (p == n) throw std::invalid_argument("poseidon: singular matrix");
    if (p != col)
      for (size_t j = 0; j < n; j++) {
        std::swap(a(p, j), a(col, j));
        std::swap(inv(p, j), inv(col, j));
      }
    Fr s = a(col, col).inverse();
    for (size_t j = 0; j < n; j++) {
      a(col, j) *= s;
      inv(col, j) *= s;
    }
    for (size_t i = 0; i < n; i++) {
      if (i == col || a(i, col).is_zero()) continue;
      Fr f = a(i, col);
      for (size_t j = 0; j < n; j++) {
        a(i, j) -= f * a(col, j);
        inv(i, j) -= f * inv(col, j);
      }
    }
  }
  return inv;
}

PoseidonConstants make_poseidon_constants(size_t arity, PoseidonStrength strength) {
  if (arity < 1 || arity > 36) throw std::invalid_argument("poseidon: arity must be in 1..36");
  PoseidonConstants c;
  c.arity = arity;
  c.width = arity + 1;
  c.strength = strength;
  std::tie(c.full_rounds, c.partial_rounds) = poseidon_round_numbers(arity, strength);
  c.half_full_rounds = c.full_rounds / 2;
  c.round_constants = poseidon_grain_constants(c.width, c.full_rounds, c.partial_rounds);
  c.mds = poseidon_mds(c.width);
  c.mds_inv = invert(c.mds);
  c.compressed_round_constants = compress_round_constants(c);
  factor_to_sparse(c);
  c.mds_ifma = gadgets::make_poseidon_mix_table(c.mds);
  c.pre_sparse_ifma = gadgets::make_poseidon_mix_table(c.pre_sparse);
  c.sparse_ifma = gadgets::make_poseidon_sparse_table(c.sparse, c.width);
  return c;
}

const PoseidonConstants& poseidon_constants(size_t arity, PoseidonStrength strength) {
  static std::mutex mu;
  static std::map<std::pair<size_t, int>, std::unique_ptr<PoseidonConstants>> cache;
  std::lock_guard lock(mu);
  auto& slot = cache[{arity, int(strength)}];
  if (!slot) slot = std::make_unique<PoseidonConstants>(make_poseidon_constants(arity, strength));
  return *slot;
}

std::vector<uint8_t> serialize_optimized_constants(const PoseidonConstants& c) {
  std::vector<uint8_t> out;
  auto put = [&](const Fr& x) {
    for (uint64_t limb : x.v)
      for (int b = 0; b < 8; b++) out.push_back(uint8_t(limb >> (8 * b)));
  };
  for (const Fr& x : c.compressed_round_constants) put(x);
  for (const Fr& x : c.mds.a) put(x);
  for (const Fr& x : c.pre_sparse.a) put(x);
  for (const auto& s : c.sparse) {
    for (const Fr& x : s.w_hat) put(x);
    for (const Fr& x : s.v_rest) put(x);
  }
  return out;
}

}  // namespace cuzk::filecoin
