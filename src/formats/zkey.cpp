#include "formats/zkey.hpp"

#include <sys/stat.h>

#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <stdexcept>

#include "ec/curve_check.hpp"
#include "formats/circom.hpp"
#include "platform/mapped_file.hpp"

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

// Decodes without the subgroup check (and without the curve check for
// Check::None); returns an error string or "".
std::string decode_g1(std::span<const uint8_t> b, G1Affine& out, ec::Check check) {
  if (all_zero(b)) {
    out = G1Affine::identity();
    return "";
  }
  auto x = fp_mont(b.subspan(0, 48)), y = fp_mont(b.subspan(48, 48));
  if (!x || !y) return "G1 coordinate is not below the base field modulus";
  out = G1Affine::from_xy(*x, *y);
  if (check != ec::Check::None && !out.is_on_curve()) return "G1 point is not on the curve";
  return "";
}

std::string decode_g2(std::span<const uint8_t> b, G2Affine& out, ec::Check check) {
  if (all_zero(b)) {
    out = G2Affine::identity();
    return "";
  }
  std::optional<Fp> c[4];
  for (int i = 0; i < 4; i++)
    if (!(c[i] = fp_mont(b.subspan(48 * i, 48)))) return "G2 coordinate is not below the base field modulus";
  out = G2Affine::from_xy(Fp2{*c[0], *c[1]}, Fp2{*c[2], *c[3]});
  if (check != ec::Check::None && !out.is_on_curve()) return "G2 point is not on the curve";
  return "";
}

template <class P>
constexpr size_t point_bytes() {
  if constexpr (std::is_same_v<P, G1Affine>) return kG1Bytes;
  else return kG2Bytes;
}

template <class P>
std::string decode_point(std::span<const uint8_t> b, P& out, ec::Check check) {
  if constexpr (std::is_same_v<P, G1Affine>) return decode_g1(b, out, check);
  else return decode_g2(b, out, check);
}

bool below_p(const Fp& x) { return arith::compare(x.v, Fp::MODULUS) < 0; }
bool below_p(const Fp2& x) { return below_p(x.c0) && below_p(x.c1); }

// decode_point without the messages, for the common case: true when every
// coordinate is below p (the point, or the identity for zero bytes, in
// out); false sends the caller to decode_point for the error.
template <class P>
bool decode_fast(const uint8_t* b, P& out) {
  const ec::PackedAffineSpan<typename P::Curve> packed(b, 1);
  if (packed.is_identity(0)) {
    out = P::identity();
    return true;
  }
  packed.load_xy(0, out.x, out.y);
  out.infinity = false;
  return below_p(out.x) && below_p(out.y);
}

// Runs check(i) for every i < count in parallel (oneTBB); returns the lowest
// i whose check failed, with its message (so the error does not depend on
// scheduling), or {count, ""}. check returns "" for success.
template <class F>
std::pair<size_t, std::string> first_failure(size_t count, size_t grain, const F& check) {
  std::atomic<size_t> first_bad{count};
  std::string err;
  std::mutex mu;
  tbb::parallel_for(tbb::blocked_range<size_t>(0, count, grain), [&](const tbb::blocked_range<size_t>& r) {
    for (size_t i = r.begin(); i < r.end(); i++) {
      if (i >= first_bad.load(std::memory_order_relaxed)) return;
      std::string e = check(i);
      if (e.empty()) continue;
      std::lock_guard<std::mutex> g(mu);
      if (i < first_bad) {
        first_bad = i;
        err = std::move(e);
      }
      return;
    }
  });
  return {first_bad.load(), err};
}

// `count` points from the cursor, decoded and checked in parallel blocks;
// the first bad one (lowest index) is reported. Within a block: decoding
// (coordinates below p), then ec::first_invalid (the curve equation eight
// points at a time; the subgroup for Check::Full). Blocks are decoded into
// out (all of it, when given) or into a per-thread scratch block, the
// points then staying where they are (packed). Returns their bytes.
template <class P>
std::span<const uint8_t> check_points(Cursor& c, size_t count, std::string_view name, ec::Check check,
                                      P* out) {
  constexpr size_t sz = point_bytes<P>();
  constexpr const char* kGroup = std::is_same_v<P, G1Affine> ? "G1" : "G2";
  constexpr size_t kBlock = 512;
  size_t base = c.offset();
  if (count > c.remaining() / sz)
    c.fail("truncated: " + std::string(name) + " needs " + std::to_string(count) + " points of " +
           std::to_string(sz) + " bytes, " + std::to_string(c.remaining()) + " bytes left");
  auto bytes = c.take(count * sz, name);
  tbb::enumerable_thread_specific<std::vector<P>> scratch([] { return std::vector<P>(kBlock); });
  const size_t nblk = (count + kBlock - 1) / kBlock;
  std::vector<size_t> first_bad(nblk);  // per block: the failing point, or the block's end
  auto [bad_blk, err] = first_failure(nblk, 1, [&](size_t k) -> std::string {
    const size_t lo = k * kBlock, hi = std::min(count, lo + kBlock);
    P* dst = out ? out + lo : scratch.local().data();
    size_t bad = hi;
    std::string e;
    for (size_t i = lo; i < hi; i++) {
      if (decode_fast(bytes.data() + i * sz, dst[i - lo])) continue;
      e = decode_point(bytes.subspan(i * sz, sz), dst[i - lo], ec::Check::None);  // says why
      bad = i;
      break;
    }
    const size_t inv = lo + ec::first_invalid(std::span<const P>(dst, bad - lo), check);
    if (inv < bad) {
      bad = inv;
      e = std::string(kGroup) + (dst[inv - lo].is_on_curve() ? " point is not in the prime-order subgroup"
                                                             : " point is not on the curve");
    }
    first_bad[k] = bad;
    return bad < hi ? e : "";
  });
  if (bad_blk < nblk) {
    const size_t bad = first_bad[bad_blk];
    c.fail_at(base + bad * sz, std::string(name) + "[" + std::to_string(bad) + "]: " + err);
  }
  return bytes;
}

template <class P>
platform::RawArray<P> read_points(Cursor& c, size_t count, std::string_view name, ec::Check check) {
  platform::RawArray<P> out(count);  // every point is written (or the read fails)
  check_points<P>(c, count, name, check, out.data());
  return out;
}

// Checked like read_points, but left in place: a view of the cursor's bytes.
template <class P>
ec::PackedAffineSpan<typename P::Curve> packed_points(Cursor& c, size_t count, std::string_view name,
                                                      ec::Check check) {
  static_assert(ec::PackedAffineSpan<typename P::Curve>::kPointBytes == point_bytes<P>());
  return {check_points<P>(c, count, name, check, nullptr).data(), count};
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

ZkeyCoef ZkeyCoefs::operator[](size_t i) const {
  // value = coef·R² mod r (R = 2^256) and Fr keeps coef·R: value·R^-1, the
  // element whose Montgomery form is value, times R^-1.
  return {matrix(i), constraint(i), signal(i), value_times_r(i) * r_inv()};
}

Zkey parse_zkey_in_place(std::shared_ptr<const void> owner, std::span<const uint8_t> bytes,
                         std::string_view source, const ZkeyReadOptions& opts) {
  BinFile f = parse_binfile(bytes, source, "zkey", 1, 1);
  Zkey z;
  {
    Cursor c = section_cursor(bytes, source, f.unique(bytes, source, 1, "protocol"));
    size_t at = c.offset();
    uint32_t proto = c.u32("protocol");
    if (proto != 1)
      c.fail_at(at, "protocol " + std::to_string(proto) +
                        " is not Groth16 (1); PLONK/FFLONK keys are not supported");
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
      c.fail_at(dat - 8,
                "nPublic " + std::to_string(z.n_public) + " does not fit nVars " + std::to_string(z.n_vars));
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
  auto section = [&](uint32_t type, std::string_view name, size_t count, size_t point_size) {
    const Section& s = f.unique(bytes, source, type, name);
    Cursor c = section_cursor(bytes, source, s);
    expect_size(c, s, uint64_t(count) * point_size, name);
    return c;
  };
  auto packed_section = [&](uint32_t type, std::string_view name, size_t count, auto tag) {
    using P = decltype(tag);
    Cursor c = section(type, name, count, point_bytes<P>());
    return packed_points<P>(c, count, name, opts.check);
  };
  {
    const size_t n_ic = size_t(z.n_public) + 1;
    Cursor c = section(3, "IC", n_ic, kG1Bytes);
    const auto ic = read_points<G1Affine>(c, n_ic, "IC", opts.check);
    z.vk.ic.assign(ic.begin(), ic.end());
  }
  if (opts.vk_only) return z;
  {
    const Section& s = f.unique(bytes, source, 4, "coefficients");
    Cursor c = section_cursor(bytes, source, s);
    uint32_t n = c.u32("coefficient count");
    expect_size(c, s, 4 + uint64_t(n) * 44, "coefficients");
    auto raw = c.take(size_t(n) * 44, "coefficients");
    z.coeffs = ZkeyCoefs(raw.data(), n);
    auto [bad, err] = first_failure(n, 4096, [&](size_t i) -> std::string {
      const uint32_t matrix = z.coeffs.matrix(i), constraint = z.coeffs.constraint(i),
                     signal = z.coeffs.signal(i);
      if (matrix > 1) return "matrix " + std::to_string(matrix) + " is not A (0) or B (1)";
      if (constraint >= z.domain_size)
        return "constraint " + std::to_string(constraint) + " outside the domain (" +
               std::to_string(z.domain_size) + ")";
      if (signal >= z.n_vars)
        return "signal " + std::to_string(signal) + " out of range (nVars " + std::to_string(z.n_vars) + ")";
      if (arith::compare(z.coeffs.value_times_r(i).v, Fr::MODULUS) >= 0)
        return "value is not below the field modulus r";
      return "";
    });
    if (bad < n) {
      // The offset of the field at fault: matrix, constraint, signal or value.
      size_t at = c.offset() - size_t(n) * 44 + bad * 44;
      size_t field = err.starts_with("matrix")       ? 0
                     : err.starts_with("constraint") ? 4
                     : err.starts_with("signal")     ? 8
                                                     : 12;
      c.fail_at(at + field, "coefficient " + std::to_string(bad) + ": " + err);
    }
  }
  z.a = packed_section(5, "A", z.n_vars, G1Affine{});
  z.b1 = packed_section(6, "B1", z.n_vars, G1Affine{});
  z.b2 = packed_section(7, "B2", z.n_vars, G2Affine{});
  z.c = packed_section(8, "C", size_t(z.n_vars) - z.n_public - 1, G1Affine{});
  z.h = packed_section(9, "H", z.domain_size, G1Affine{});
  z.storage = std::move(owner);
  return z;
}

Zkey parse_zkey(std::span<const uint8_t> bytes, std::string_view source, const ZkeyReadOptions& opts) {
  if (opts.vk_only) return parse_zkey_in_place(nullptr, bytes, source, opts);  // keeps no view
  auto copy = std::make_shared<const std::vector<uint8_t>>(bytes.begin(), bytes.end());
  return parse_zkey_in_place(copy, *copy, source, opts);
}

Zkey read_zkey_file(const std::string& path, const ZkeyReadOptions& o) {
  // Regular files are mapped, not copied: the points are decoded straight
  // from the page cache (no 58 MB copy, no page faults of a fresh buffer).
  // Pipes and the like are read.
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
    auto f = std::make_shared<const platform::MappedFile>(path, platform::MapOptions{.populate = !o.vk_only});
    return parse_zkey_in_place(f, f->bytes(), path, o);
  }
  auto b = std::make_shared<const std::vector<uint8_t>>(read_binary_file(path));
  return parse_zkey_in_place(b, *b, path, o);
}

}  // namespace cuzk::formats
