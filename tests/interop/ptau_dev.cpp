// cuzk-ptau-dev: writes a snarkjs powers-of-tau file (.ptau, BLS12-381) from
// a KNOWN τ, α, β drawn from a seed. This is NOT a ceremony: whoever knows the
// seed can forge proofs. It exists because snarkjs's own `powersoftau new /
// beacon / prepare phase2` at 2^17 takes far longer than the interop test
// budget on 2 cores, while knowing τ turns every point into one fixed-base
// multiplication.
//
//   cuzk-ptau-dev --power P --out FILE [--seed N] [--unprepared]
//
// Layout (snarkjs powersoftau_new.js / preparephase2.js), iden3 binfile
// "ptau" v1, points affine with Montgomery-form LE coordinates:
//   1 header: u32 n8q=48, q, u32 power, u32 ceremonyPower
//   2 τ^i·G1, i < 2^(P+1)-1     3 τ^i·G2, i < 2^P
//   4 α·τ^i·G1, i < 2^P          5 β·τ^i·G1, i < 2^P      6 β·G2
//   7 contributions: u32 0
//   12..15 (unless --unprepared): for p = 0..P (12: ..P+1) the Lagrange basis
//   of sections 2..5 on the domain of size 2^p, i.e. snarkjs's
//   lagrangeEvaluations = iFFT of the first 2^p powers, whose i-th entry is
//   L_i(τ) = (τ^n - 1)/n · ω^i/(τ - ω^i) with ffjavascript's ω (5^t-based).
//   For p = P+1 snarkjs pads the missing last power with zero, so entry i
//   loses τ^(n-1)·ω^i/n.
// tests/interop/run-large-interop.sh checks the prepared sections byte for
// byte against `snarkjs powersoftau prepare phase2` on a small power.
#include <array>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "ec/bls12_381.hpp"
#include "ff/batch_inverse.hpp"
#include "groth16/fixed_base.hpp"

namespace {

using cuzk::ec::G1Affine;
using cuzk::ec::G1Curve;
using cuzk::ec::G2Affine;
using cuzk::ec::G2Curve;
using cuzk::ff::Fp;
using cuzk::ff::Fr;

class Writer {
 public:
  explicit Writer(const std::string& path) : f_(path, std::ios::binary | std::ios::trunc) {
    if (!f_) throw std::runtime_error("cannot create " + path);
  }
  void u32(uint32_t x) {
    for (int i = 0; i < 4; i++) byte(uint8_t(x >> (8 * i)));
  }
  void u64(uint64_t x) {
    u32(uint32_t(x));
    u32(uint32_t(x >> 32));
  }
  void limbs(const auto& l) {
    for (uint64_t w : l)
      for (int i = 0; i < 8; i++) byte(uint8_t(w >> (8 * i)));
  }
  void magic(const char (&m)[5]) { f_.write(m, 4); }
  void section(uint32_t type, uint64_t size) {
    u32(type);
    u64(size);
  }
  void point(const G1Affine& p) {
    if (p.infinity) return zeros(96);
    limbs(p.x.v);
    limbs(p.y.v);
  }
  void point(const G2Affine& p) {
    if (p.infinity) return zeros(192);
    limbs(p.x.c0.v);
    limbs(p.x.c1.v);
    limbs(p.y.c0.v);
    limbs(p.y.c1.v);
  }
  void close() {
    f_.close();
    if (!f_) throw std::runtime_error("write failed");
  }

 private:
  void byte(uint8_t b) { f_.put(char(b)); }
  void zeros(size_t n) {
    for (size_t i = 0; i < n; i++) byte(0);
  }
  std::ofstream f_;
};

// ffjavascript's primitive 2^p-th root of unity: (5^t)^(2^(S-p)).
Fr snarkjs_root(unsigned p) {
  Fr w = Fr::from_u64(5).pow_vartime(Fr::T_ODD);
  for (unsigned i = p; i < Fr::S; i++) w = w.square();
  return w;
}

std::vector<Fr> powers(const Fr& x, const Fr& first, size_t n) {
  std::vector<Fr> v(n);
  Fr acc = first;
  for (size_t i = 0; i < n; i++, acc = acc * x) v[i] = acc;
  return v;
}

// factor·L_i(τ) on the domain of size 2^p; `drop_last` as snarkjs's P+1 case.
std::vector<Fr> lagrange(const Fr& tau, unsigned p, const Fr& factor, bool drop_last) {
  const size_t n = size_t(1) << p;
  const Fr w = snarkjs_root(p);
  const Fr n_inv = Fr::from_u64(n).inverse();
  std::vector<Fr> wi = powers(w, Fr::one(), n), den(n);
  for (size_t i = 0; i < n; i++) den[i] = tau - wi[i];
  cuzk::ff::batch_inverse<Fr>(den);
  const Fr zn = (tau.pow_vartime(cuzk::arith::from_u64<4>(n)) - Fr::one()) * n_inv * factor;
  const Fr last = tau.pow_vartime(cuzk::arith::from_u64<4>(n - 1)) * n_inv * factor;
  std::vector<Fr> out(n);
  for (size_t i = 0; i < n; i++) {
    out[i] = zn * wi[i] * den[i];
    if (drop_last) out[i] = out[i] - last * wi[i];
  }
  return out;
}

template <class C>
void write_points(Writer& w, const cuzk::groth16::FixedBaseTable<C>& table, const std::vector<Fr>& k) {
  std::vector<cuzk::ec::Affine<C>> pts(k.size());
  cuzk::groth16::fixed_base_mul_batch<C>(table, k, pts, {});
  for (const auto& p : pts) w.point(p);
}

int run(unsigned power, const std::string& out, uint64_t seed, bool prepared) {
  if (power < 1 || power > 24) throw std::invalid_argument("--power must be in [1, 24]");
  std::mt19937_64 rng(seed);
  auto nz = [&] {
    for (;;)
      if (Fr x = Fr::random(rng); !x.is_zero()) return x;
  };
  const Fr tau = nz(), alpha = nz(), beta = nz();
  const size_t n = size_t(1) << power;
  // Tables sized for the largest section (2n - 1 points in G1, n in G2).
  const cuzk::groth16::FixedBaseTable<G1Curve> g1(G1Affine(cuzk::ec::G1Curve::generator()),
                                                  cuzk::groth16::fixed_base_window(2 * n - 1));
  const cuzk::groth16::FixedBaseTable<G2Curve> g2(G2Affine(cuzk::ec::G2Curve::generator()),
                                                  cuzk::groth16::fixed_base_window(n));
  constexpr uint64_t s1 = 96, s2 = 192;

  Writer w(out);
  w.magic("ptau");
  w.u32(1);                  // version
  w.u32(prepared ? 11 : 7);  // sections
  w.section(1, 4 + 48 + 4 + 4);
  w.u32(48);
  w.limbs(Fp::MODULUS);
  w.u32(power);
  w.u32(power);
  std::fprintf(stderr, "tauG1 ...\n");
  w.section(2, (2 * n - 1) * s1);
  write_points(w, g1, powers(tau, Fr::one(), 2 * n - 1));
  std::fprintf(stderr, "tauG2 ...\n");
  w.section(3, n * s2);
  write_points(w, g2, powers(tau, Fr::one(), n));
  w.section(4, n * s1);
  write_points(w, g1, powers(tau, alpha, n));
  w.section(5, n * s1);
  write_points(w, g1, powers(tau, beta, n));
  w.section(6, s2);
  write_points(w, g2, {beta});
  w.section(7, 4);
  w.u32(0);  // no contributions
  if (prepared) {
    struct Sec {
      uint32_t id;
      bool g2;
      Fr factor;
      unsigned top;
    };
    for (const Sec& s : {Sec{12, false, Fr::one(), power + 1}, Sec{13, true, Fr::one(), power},
                         Sec{14, false, alpha, power}, Sec{15, false, beta, power}}) {
      std::fprintf(stderr, "lagrange section %u ...\n", s.id);
      const uint64_t count = (uint64_t(2) << s.top) - 1;  // sum of 2^p, p = 0..top
      w.section(s.id, count * (s.g2 ? s2 : s1));
      for (unsigned p = 0; p <= s.top; p++) {
        auto k = lagrange(tau, p, s.factor, s.id == 12 && p == power + 1);
        if (s.g2) write_points(w, g2, k);
        else write_points(w, g1, k);
      }
    }
  }
  w.close();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  unsigned power = 0;
  std::string out;
  uint64_t seed = 0x63757a6b;
  bool prepared = true;
  for (int i = 1; i < argc; i++) {
    std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) throw std::invalid_argument(a + " needs a value");
      return argv[++i];
    };
    try {
      if (a == "--power") power = unsigned(std::stoul(next()));
      else if (a == "--out") out = next();
      else if (a == "--seed") seed = std::stoull(next(), nullptr, 0);
      else if (a == "--unprepared") prepared = false;
      else throw std::invalid_argument("unknown argument " + a);
    } catch (const std::logic_error& e) {
      std::fprintf(stderr,
                   "cuzk-ptau-dev: %s\nusage: cuzk-ptau-dev --power P --out FILE [--seed N] [--unprepared]\n",
                   e.what());
      return 2;
    }
  }
  if (out.empty() || power == 0) {
    std::fprintf(stderr, "usage: cuzk-ptau-dev --power P --out FILE [--seed N] [--unprepared]\n");
    return 2;
  }
  try {
    return run(power, out, seed, prepared);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cuzk-ptau-dev: %s\n", e.what());
    return 1;
  }
}
