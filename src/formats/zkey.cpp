#include "formats/zkey.hpp"

#include <tbb/parallel_for.h>

#include <atomic>
#include <stdexcept>

#include "ec/scalar_mul.hpp"
#include "ec/subgroup.hpp"
#include "formats/circom.hpp"
#include "msm/msm.hpp"
#include "ntt/ntt.hpp"

namespace cuzk::formats {

using ec::G1Affine;
using ec::G1Jacobian;
using ec::G2Affine;
using ec::G2Jacobian;
using ff::Fp;
using ff::Fp2;
using ff::Fr;

namespace {

constexpr size_t kG1Bytes = 96, kG2Bytes = 192;

// One Fp coordinate in Montgomery form; nullopt when >= p.
std::optional<Fp> fp_mont(std::span<const uint8_t> b) {
  auto raw = load_le<6>(b);
  if (arith::compare(raw, Fp::MODULUS) >= 0) return std::nullopt;
  return Fp::from_mont(raw);
}

bool all_zero(std::span<const uint8_t> b) {
  for (uint8_t x : b)
    if (x) return false;
  return true;
}

// Decodes without the subgroup check; returns an error string or "".
std::string decode_g1(std::span<const uint8_t> b, G1Affine& out) {
  if (all_zero(b)) {
    out = G1Affine::identity();
    return "";
  }
  auto x = fp_mont(b.subspan(0, 48)), y = fp_mont(b.subspan(48, 48));
  if (!x || !y) return "G1 coordinate is not below the base field modulus";
  out = G1Affine::from_xy(*x, *y);
  if (!out.is_on_curve()) return "G1 point is not on the curve";
  return "";
}

std::string decode_g2(std::span<const uint8_t> b, G2Affine& out) {
  if (all_zero(b)) {
    out = G2Affine::identity();
    return "";
  }
  std::optional<Fp> c[4];
  for (int i = 0; i < 4; i++)
    if (!(c[i] = fp_mont(b.subspan(48 * i, 48)))) return "G2 coordinate is not below the base field modulus";
  out = G2Affine::from_xy(Fp2{*c[0], *c[1]}, Fp2{*c[2], *c[3]});
  if (!out.is_on_curve()) return "G2 point is not on the curve";
  return "";
}

template <class P>
constexpr size_t point_bytes() {
  if constexpr (std::is_same_v<P, G1Affine>) return kG1Bytes;
  else return kG2Bytes;
}

template <class P>
std::string decode_point(std::span<const uint8_t> b, P& out) {
  if constexpr (std::is_same_v<P, G1Affine>) return decode_g1(b, out);
  else return decode_g2(b, out);
}

// `count` points from the cursor, decoded and checked in parallel; the first
// bad one (lowest index) is reported.
template <class P>
std::vector<P> read_points(Cursor& c, size_t count, std::string_view name, ec::Check check) {
  constexpr size_t sz = point_bytes<P>();
  size_t base = c.offset();
  if (count > c.remaining() / sz)
    c.fail("truncated: " + std::string(name) + " needs " + std::to_string(count) + " points of " +
           std::to_string(sz) + " bytes, " + std::to_string(c.remaining()) + " bytes left");
  auto bytes = c.take(count * sz, name);
  std::vector<P> out(count);
  std::atomic<size_t> first_bad{count};
  std::vector<std::string> errs(count > 0 ? 1 : 0);
  std::mutex mu;
  tbb::parallel_for(tbb::blocked_range<size_t>(0, count, 256), [&](const tbb::blocked_range<size_t>& r) {
    for (size_t i = r.begin(); i < r.end(); i++) {
      if (i >= first_bad.load(std::memory_order_relaxed)) return;
      std::string e = decode_point(bytes.subspan(i * sz, sz), out[i]);
      if (e.empty() && check == ec::Check::Full && !out[i].is_identity() && !ec::is_in_subgroup(out[i]))
        e = std::string(std::is_same_v<P, G1Affine> ? "G1" : "G2") + " point is not in the prime-order subgroup";
      if (!e.empty()) {
        std::lock_guard<std::mutex> g(mu);
        if (i < first_bad) {
          first_bad = i;
          errs[0] = e;
        }
        return;
      }
    }
  });
  if (size_t i = first_bad.load(); i < count)
    c.fail_at(base + i * sz, std::string(name) + "[" + std::to_string(i) + "]: " + errs[0]);
  return out;
}

template <class P>
P read_point(Cursor& c, std::string_view name, ec::Check check) {
  return read_points<P>(c, 1, name, check)[0];
}

void expect_size(Cursor& c, const Section& s, uint64_t expected, std::string_view what) {
  if (s.size != expected)
    c.fail_at(s.offset, std::string(what) + " section has " + std::to_string(s.size) + " bytes, expected " +
                            std::to_string(expected));
}

}  // namespace

Zkey parse_zkey(std::span<const uint8_t> bytes, std::string_view source, const ZkeyReadOptions& opts) {
  BinFile f = parse_binfile(bytes, source, "zkey", 1, 1);
  Zkey z;
  {
    Cursor c = section_cursor(bytes, source, f.unique(bytes, source, 1, "protocol"));
    size_t at = c.offset();
    uint32_t proto = c.u32("protocol");
    if (proto != 1)
      c.fail_at(at, "protocol " + std::to_string(proto) + " is not Groth16 (1); PLONK/FFLONK keys are not supported");
  }
  {
    Cursor c = section_cursor(bytes, source, f.unique(bytes, source, 2, "groth16 header"));
    size_t at = c.offset();
    uint32_t n8q = c.u32("n8q");
    if (n8q != 48) c.fail_at(at, "base field size " + std::to_string(n8q) + " bytes: not BLS12-381 (48)");
    size_t qat = c.offset();
    if (load_le<6>(c.take(48, "q")) != Fp::MODULUS)
      c.fail_at(qat, "base field prime q is not BLS12-381's (wrong curve? bn128 keys are not supported)");
    check_prime_is_bls12_381_r(c, "zkey header");
    z.n_vars = c.u32("nVars");
    z.n_public = c.u32("nPublic");
    size_t dat = c.offset();
    z.domain_size = c.u32("domainSize");
    if (z.n_vars == 0 || uint64_t(z.n_public) + 1 > z.n_vars)
      c.fail_at(dat - 8, "nPublic " + std::to_string(z.n_public) + " does not fit nVars " + std::to_string(z.n_vars));
    if (z.domain_size < 2 || (z.domain_size & (z.domain_size - 1)) || z.domain_size > (1u << 28))
      c.fail_at(dat, "domainSize " + std::to_string(z.domain_size) + " is not a power of two in [2, 2^28]");
    z.vk.alpha_g1 = read_point<G1Affine>(c, "alpha1", opts.check);
    z.vk.beta_g1 = read_point<G1Affine>(c, "beta1", opts.check);
    z.vk.beta_g2 = read_point<G2Affine>(c, "beta2", opts.check);
    z.vk.gamma_g2 = read_point<G2Affine>(c, "gamma2", opts.check);
    z.vk.delta_g1 = read_point<G1Affine>(c, "delta1", opts.check);
    z.vk.delta_g2 = read_point<G2Affine>(c, "delta2", opts.check);
    if (!c.at_end()) c.fail(std::to_string(c.remaining()) + " unexpected bytes at the end of the header");
  }
  auto points_section = [&](uint32_t type, std::string_view name, size_t count, auto tag) {
    using P = decltype(tag);
    const Section& s = f.unique(bytes, source, type, name);
    Cursor c = section_cursor(bytes, source, s);
    expect_size(c, s, uint64_t(count) * point_bytes<P>(), name);
    return read_points<P>(c, count, name, opts.check);
  };
  z.vk.ic = points_section(3, "IC", size_t(z.n_public) + 1, G1Affine{});
  {
    const Section& s = f.unique(bytes, source, 4, "coefficients");
    Cursor c = section_cursor(bytes, source, s);
    uint32_t n = c.u32("coefficient count");
    expect_size(c, s, 4 + uint64_t(n) * 44, "coefficients");
    z.coeffs.resize(n);
    // value = coef·R² (R = 2^256): coef = value·R^-2.
    const Fr r_inv = Fr::from_mont(arith::from_u64<4>(1));  // the element whose Montgomery form is 1: R^-1
    const Fr r_inv2 = r_inv * r_inv;
    for (uint32_t i = 0; i < n; i++) {
      size_t at = c.offset();
      ZkeyCoef& k = z.coeffs[i];
      k.matrix = c.u32("matrix");
      k.constraint = c.u32("constraint");
      k.signal = c.u32("signal");
      if (k.matrix > 1) c.fail_at(at, "coefficient " + std::to_string(i) + ": matrix " + std::to_string(k.matrix) + " is not A (0) or B (1)");
      if (k.constraint >= z.domain_size)
        c.fail_at(at + 4, "coefficient " + std::to_string(i) + ": constraint " + std::to_string(k.constraint) +
                              " outside the domain (" + std::to_string(z.domain_size) + ")");
      if (k.signal >= z.n_vars)
        c.fail_at(at + 8, "coefficient " + std::to_string(i) + ": signal " + std::to_string(k.signal) +
                              " out of range (nVars " + std::to_string(z.n_vars) + ")");
      k.value = read_fr_canonical(c, "coefficient value") * r_inv2;
    }
  }
  z.a = points_section(5, "A", z.n_vars, G1Affine{});
  z.b1 = points_section(6, "B1", z.n_vars, G1Affine{});
  z.b2 = points_section(7, "B2", z.n_vars, G2Affine{});
  z.c = points_section(8, "C", size_t(z.n_vars) - z.n_public - 1, G1Affine{});
  z.h = points_section(9, "H", z.domain_size, G1Affine{});
  return z;
}

Zkey read_zkey_file(const std::string& path, const ZkeyReadOptions& o) {
  auto b = read_binary_file(path);
  return parse_zkey(b, path, o);
}

namespace {

// k with g^k = h, both of order dividing 2^32 (Pohlig-Hellman, bit by bit).
uint64_t dlog_2_32(const Fr& g, const Fr& h) {
  uint64_t k = 0;
  Fr g_inv = g.inverse();
  for (unsigned j = 0; j < 32; j++) {
    // (h·g^-k)^(2^(31-j)) is 1 or -1; -1 means bit j of k is set.
    Fr t = h * g_inv.pow_vartime(k);
    for (unsigned i = 0; i < 31 - j; i++) t = t.square();
    if (!t.is_one()) k |= uint64_t(1) << j;
  }
  return k;
}

struct OddCoset {
  ntt::Domain dom;
  uint64_t k;  // snarkjs's ω = our ω^k
  Fr inc;      // snarkjs's primitive 2n-th root
  explicit OddCoset(unsigned log_n) : dom(log_n) {
    if (log_n >= Fr::S) throw std::invalid_argument("zkey domain too large");
    // ffjavascript: w[32] = nqr^t with nqr = 5 (smallest non-residue of r).
    Fr ws = Fr::from_u64(5).pow_vartime(Fr::T_ODD);
    k = dlog_2_32(ntt::root_of_unity_2_32(), ws);
    inc = ws;
    for (unsigned i = log_n + 1; i < Fr::S; i++) inc = inc.square();
  }
  // In: evaluations at ω_s^i; out: evaluations at inc·ω_s^i.
  void run(std::vector<Fr>& v, std::vector<Fr>& tmp) const {
    size_t n = v.size(), mask = n - 1;
    tmp.resize(n);
    for (size_t i = 0; i < n; i++) tmp[(k * i) & mask] = v[i];
    ntt::inverse(tmp, dom);
    ntt::scale_powers(tmp, Fr::one(), inc);
    ntt::forward(tmp, dom);
    for (size_t i = 0; i < n; i++) v[i] = tmp[(k * i) & mask];
  }
};

}  // namespace

std::vector<Fr> zkey_h_scalars(const Zkey& zk, std::span<const Fr> w) {
  size_t n = zk.domain_size;
  std::vector<Fr> a(n, Fr::zero()), b(n, Fr::zero()), c(n);
  for (auto& k : zk.coeffs) (k.matrix == 0 ? a : b)[k.constraint] += k.value * w[k.signal];
  tbb::parallel_for(size_t(0), n, [&](size_t i) { c[i] = a[i] * b[i]; });
  unsigned log_n = 0;
  while ((size_t(1) << log_n) < n) log_n++;
  OddCoset oc(log_n);
  std::vector<Fr> tmp;
  oc.run(a, tmp);
  oc.run(b, tmp);
  oc.run(c, tmp);
  tbb::parallel_for(size_t(0), n, [&](size_t i) { a[i] = a[i] * b[i] - c[i]; });
  return a;
}

std::vector<Fr> zkey_public_signals(const Zkey& zk, std::span<const Fr> w) {
  return {w.begin() + 1, w.begin() + 1 + zk.n_public};
}

groth16::Proof prove_zkey(const Zkey& zk, std::span<const Fr> w, const Fr& r, const Fr& s,
                          const ZkeyProveOptions& o) {
  if (w.size() != zk.n_vars)
    throw std::invalid_argument("witness has " + std::to_string(w.size()) + " values, the zkey expects nVars = " +
                                std::to_string(zk.n_vars));
  if (!w[0].is_one()) throw std::invalid_argument("witness[0] must be 1");
  auto progress = [&](std::string_view st, size_t d, size_t t) {
    if (o.progress) o.progress(st, d, t);
  };
  progress("abc + ntt", 0, 1);
  std::vector<Fr> h = zkey_h_scalars(zk, w);
  progress("abc + ntt", 1, 1);
  progress("msm A", 0, zk.n_vars);
  G1Jacobian pa = msm::msm<ec::G1Curve>(zk.a, w);
  progress("msm B1", 0, zk.n_vars);
  G1Jacobian pb1 = msm::msm<ec::G1Curve>(zk.b1, w);
  progress("msm B2", 0, zk.n_vars);
  G2Jacobian pb = msm::msm<ec::G2Curve>(zk.b2, w);
  progress("msm C", 0, zk.c.size());
  G1Jacobian pc = msm::msm<ec::G1Curve>(zk.c, w.subspan(zk.n_public + 1));
  progress("msm H", 0, zk.h.size());
  G1Jacobian ph = msm::msm<ec::G1Curve>(zk.h, h);
  progress("assemble", 0, 1);

  auto J1 = [](const G1Affine& p) { return G1Jacobian::from_affine(p); };
  G1Jacobian delta1 = J1(zk.vk.delta_g1);
  pa = pa.add(J1(zk.vk.alpha_g1)).add(ec::mul_vartime(delta1, r));
  pb = pb.add(G2Jacobian::from_affine(zk.vk.beta_g2)).add(ec::mul_vartime(G2Jacobian::from_affine(zk.vk.delta_g2), s));
  pb1 = pb1.add(J1(zk.vk.beta_g1)).add(ec::mul_vartime(delta1, s));
  pc = pc.add(ph)
           .add(ec::mul_vartime(pa, s))
           .add(ec::mul_vartime(pb1, r))
           .add(ec::mul_vartime(delta1, -(r * s)));
  progress("assemble", 1, 1);
  return {pa.to_affine(), pb.to_affine(), pc.to_affine()};
}

}  // namespace cuzk::formats
