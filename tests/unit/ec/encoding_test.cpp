// ZCash point encoding: the zkcrypto known-answer files (i*G, i = 0..999),
// round trips, and every rejection with its message.
#include <gtest/gtest.h>

#include <algorithm>

#include "ec/encoding.hpp"
#include "ec/scalar_mul.hpp"
#include "unit/ec/ec_test_util.hpp"

using namespace cuzk;
using namespace cuzk::ec;
using namespace cuzk::ec::test;
using ff::Fp;
using ff::Fp2;

using Bytes = std::vector<uint8_t>;

template <class C>
const char* prefix() {
  return std::is_same_v<C, G1Curve> ? "g1" : "g2";
}

template <class C>
Bytes encode(const Affine<C>& p, Form f) {
  if (f == Form::Compressed) {
    auto a = to_compressed(p);
    return Bytes(a.begin(), a.end());
  }
  auto a = to_uncompressed(p);
  return Bytes(a.begin(), a.end());
}

// ---------------------------------------------------------------- vectors

template <class C>
void check_vector_file(Form form) {
  const std::string name = std::string(prefix<C>()) +
                           (form == Form::Compressed ? "_compressed" : "_uncompressed") +
                           "_valid_test_vectors.dat";
  Bytes data = read_vector_file(name);
  const size_t sz = encoded_size<C>(form);
  ASSERT_EQ(data.size(), 1000 * sz) << name;

  // i*G for i = 0..999 by repeated addition, normalised in one batch.
  std::vector<Jacobian<C>> jac(1000);
  auto g = Jacobian<C>::from_affine(C::generator());
  for (size_t i = 1; i < 1000; i++) jac[i] = jac[i - 1].add(g);
  std::vector<Affine<C>> pts(1000);
  batch_to_affine<C>(jac, pts);

  for (size_t i = 0; i < 1000; i++) {
    Bytes want(data.begin() + i * sz, data.begin() + (i + 1) * sz);
    ASSERT_EQ(encode(pts[i], form), want) << name << " i=" << i;
    auto d = decode<C>(want, form);
    ASSERT_TRUE(d.ok()) << name << " i=" << i << ": " << d.message();
    ASSERT_EQ(d.point, pts[i]) << name << " i=" << i;
    // The length-dispatching decoder agrees.
    auto d2 = decode<C>(std::span<const uint8_t>(want));
    ASSERT_TRUE(d2.ok() && d2.point == pts[i]) << name << " i=" << i;
  }
  // Scalar multiplication reaches the same points: [i]G.
  for (size_t i = 0; i < 1000; i += 37) {
    ff::Fr k = ff::Fr::from_u64(i);
    ASSERT_EQ(mul_vartime(g, k).to_affine(), pts[i]) << i;
    ASSERT_EQ(mul_wnaf_vartime(g, k).to_affine(), pts[i]) << i;
    ASSERT_EQ(mul_fast_vartime(g, k).to_affine(), pts[i]) << i;
  }
  // Whole file as a batch, and re-encoded as a batch.
  std::vector<Affine<C>> out(1000);
  auto st = decode_batch<C>(data, form, std::span<Affine<C>>(out));
  ASSERT_TRUE(st.ok()) << st.message();
  for (size_t i = 0; i < 1000; i++) ASSERT_EQ(out[i], pts[i]) << i;
  Bytes again(data.size());
  ASSERT_TRUE(encode_batch<C>(pts, form, again));
  ASSERT_EQ(again, data);
}

TEST(EncodingVectors, G1Compressed) { check_vector_file<G1Curve>(Form::Compressed); }
TEST(EncodingVectors, G1Uncompressed) { check_vector_file<G1Curve>(Form::Uncompressed); }
TEST(EncodingVectors, G2Compressed) { check_vector_file<G2Curve>(Form::Compressed); }
TEST(EncodingVectors, G2Uncompressed) { check_vector_file<G2Curve>(Form::Uncompressed); }

// ---------------------------------------------------------------- typed

template <class C>
class Encoding : public ::testing::Test {};
using Curves = ::testing::Types<G1Curve, G2Curve>;
TYPED_TEST_SUITE(Encoding, Curves);

TYPED_TEST(Encoding, SizesAndInfinity) {
  using C = TypeParam;
  constexpr bool g1 = std::is_same_v<C, G1Curve>;
  static_assert(compressed_size<C> == (g1 ? 48 : 96));
  static_assert(uncompressed_size<C> == (g1 ? 96 : 192));
  Bytes c = encode(Affine<C>::identity(), Form::Compressed);
  Bytes u = encode(Affine<C>::identity(), Form::Uncompressed);
  EXPECT_EQ(c[0], 0xc0);
  EXPECT_EQ(u[0], 0x40);
  EXPECT_TRUE(std::all_of(c.begin() + 1, c.end(), [](uint8_t b) { return b == 0; }));
  EXPECT_TRUE(std::all_of(u.begin() + 1, u.end(), [](uint8_t b) { return b == 0; }));
  auto dc = decode_compressed<C>(c), du = decode_uncompressed<C>(u);
  EXPECT_TRUE(dc.ok() && dc.point.is_identity());
  EXPECT_TRUE(du.ok() && du.point.is_identity());
}

TYPED_TEST(Encoding, RoundTripRandomSubgroupPoints) {
  using C = TypeParam;
  std::mt19937_64 rng(51);
  int largest = 0;
  for (int i = 0; i < 30; i++) {
    auto p = random_subgroup_point<C>(rng).to_affine();
    for (auto q : {p, p.neg()}) {
      Bytes c = encode(q, Form::Compressed), u = encode(q, Form::Uncompressed);
      ASSERT_EQ(c[0] & 0xc0, 0x80);
      ASSERT_EQ(u[0] & 0xe0, 0x00);
      ASSERT_EQ(bool(c[0] & 0x20), q.y.is_lexicographically_largest());
      largest += bool(c[0] & 0x20);
      // x is the same bytes in both forms (flags aside).
      Bytes cx = c, ux(u.begin(), u.begin() + c.size());
      cx[0] &= 0x1f;
      ASSERT_EQ(cx, ux);
      for (Check ch : {Check::Full, Check::SkipSubgroup, Check::None}) {
        auto dc = decode_compressed<C>(c, ch);
        auto du = decode_uncompressed<C>(u, ch);
        ASSERT_TRUE(dc.ok()) << dc.message();
        ASSERT_TRUE(du.ok()) << du.message();
        ASSERT_EQ(dc.point, q);
        ASSERT_EQ(du.point, q);
      }
    }
  }
  EXPECT_EQ(largest, 30);  // exactly one of p, -p has the sort flag
}

// Encodings of points on the curve but outside the subgroup.
TYPED_TEST(Encoding, NotInSubgroupRejectedUnlessSkipped) {
  using C = TypeParam;
  std::mt19937_64 rng(52);
  const std::string g = C::name;
  for (int i = 0; i < 10; i++) {
    auto p = random_curve_point<C>(rng);
    ASSERT_FALSE(is_in_subgroup_reference(p));
    for (Form f : {Form::Compressed, Form::Uncompressed}) {
      Bytes b = encode(p, f);
      auto d = decode<C>(b, f);
      ASSERT_EQ(d.error(), DecodeError::NotInSubgroup);
      EXPECT_FALSE(d.ok());
      EXPECT_TRUE(d.point.is_identity());
      EXPECT_EQ(d.message(), g + (f == Form::Compressed ? " compressed" : " uncompressed") +
                                 ": point is not in the prime-order subgroup");
      auto s = decode<C>(b, f, Check::SkipSubgroup);
      ASSERT_TRUE(s.ok()) << s.message();
      ASSERT_EQ(s.point, p);
    }
  }
}

TYPED_TEST(Encoding, WrongLength) {
  using C = TypeParam;
  const std::string g = C::name;
  const size_t cs = compressed_size<C>, us = uncompressed_size<C>;
  Bytes c = encode(C::generator(), Form::Compressed), u = encode(C::generator(), Form::Uncompressed);
  for (size_t n : {size_t(0), size_t(1), cs - 1, cs + 1, us}) {
    Bytes b(n, 0);
    std::copy_n(c.begin(), std::min(n, cs), b.begin());
    auto d = decode_compressed<C>(b);
    ASSERT_EQ(d.error(), DecodeError::WrongLength) << n;
    EXPECT_EQ(d.message(), g + " compressed: wrong length (expected " + std::to_string(cs) + " bytes, got " +
                               std::to_string(n) + ")");
  }
  for (size_t n : {size_t(0), cs, us - 1, us + 1}) {
    Bytes b(n, 0);
    std::copy_n(u.begin(), std::min(n, us), b.begin());
    auto d = decode_uncompressed<C>(b);
    ASSERT_EQ(d.error(), DecodeError::WrongLength) << n;
    EXPECT_EQ(d.message(), g + " uncompressed: wrong length (expected " + std::to_string(us) +
                               " bytes, got " + std::to_string(n) + ")");
  }
  // Length-dispatching decode: neither size.
  Bytes odd(cs + 3, 0);
  odd[0] = 0x80;
  auto d = decode<C>(std::span<const uint8_t>(odd));
  EXPECT_EQ(d.error(), DecodeError::WrongLength);
  EXPECT_EQ(d.message(), g + " compressed: wrong length (expected " + std::to_string(cs) + " bytes, got " +
                             std::to_string(cs + 3) + ")");
  EXPECT_EQ(decode<C>(std::span<const uint8_t>()).error(), DecodeError::WrongLength);
}

TYPED_TEST(Encoding, CompressionFlagMismatch) {
  using C = TypeParam;
  const std::string g = C::name;
  Bytes c = encode(C::generator(), Form::Compressed), u = encode(C::generator(), Form::Uncompressed);
  c[0] &= 0x7f;
  auto d = decode_compressed<C>(c);
  EXPECT_EQ(d.error(), DecodeError::CompressionFlagMismatch);
  EXPECT_EQ(d.message(), g + " compressed: compression flag (0x80) is not set");
  EXPECT_EQ(decode<C>(std::span<const uint8_t>(c)).error(), DecodeError::CompressionFlagMismatch);
  u[0] |= 0x80;
  d = decode_uncompressed<C>(u);
  EXPECT_EQ(d.error(), DecodeError::CompressionFlagMismatch);
  EXPECT_EQ(d.message(), g + " uncompressed: compression flag (0x80) is set");
  EXPECT_EQ(decode<C>(std::span<const uint8_t>(u)).error(), DecodeError::CompressionFlagMismatch);
  // Uncompressed infinity with the compressed flag too.
  Bytes inf(uncompressed_size<C>, 0);
  inf[0] = 0xc0;
  EXPECT_EQ(decode_uncompressed<C>(inf).error(), DecodeError::CompressionFlagMismatch);
  Bytes cinf(compressed_size<C>, 0);
  cinf[0] = 0x40;  // compressed-size infinity without the compression flag
  EXPECT_EQ(decode_compressed<C>(cinf).error(), DecodeError::CompressionFlagMismatch);
}

TYPED_TEST(Encoding, SortFlagRules) {
  using C = TypeParam;
  const std::string g = C::name;
  Bytes u = encode(C::generator(), Form::Uncompressed);
  u[0] |= 0x20;
  auto d = decode_uncompressed<C>(u);
  EXPECT_EQ(d.error(), DecodeError::SortFlagOnUncompressed);
  EXPECT_EQ(d.message(), g + " uncompressed: sort flag (0x20) is set on an uncompressed encoding");
  Bytes uinf(uncompressed_size<C>, 0);
  uinf[0] = 0x60;
  EXPECT_EQ(decode_uncompressed<C>(uinf).error(), DecodeError::SortFlagOnUncompressed);

  Bytes cinf(compressed_size<C>, 0);
  cinf[0] = 0xe0;
  d = decode_compressed<C>(cinf);
  EXPECT_EQ(d.error(), DecodeError::SortFlagOnInfinity);
  EXPECT_EQ(d.message(), g + " compressed: sort flag (0x20) is set on the point at infinity");

  // Flipping the sort flag of a valid compressed point gives -P.
  Bytes c = encode(C::generator(), Form::Compressed);
  c[0] ^= 0x20;
  auto n = decode_compressed<C>(c);
  ASSERT_TRUE(n.ok()) << n.message();
  EXPECT_EQ(n.point, C::generator().neg());
}

TYPED_TEST(Encoding, InfinityNotCanonical) {
  using C = TypeParam;
  const std::string g = C::name;
  for (Form f : {Form::Compressed, Form::Uncompressed}) {
    const size_t n = encoded_size<C>(f);
    const uint8_t flag = f == Form::Compressed ? 0xc0 : 0x40;
    for (size_t pos : {size_t(0), size_t(1), n / 2, n - 1}) {
      Bytes b(n, 0);
      b[0] = flag;
      b[pos] |= pos == 0 ? 0x01 : 0x80;
      auto d = decode<C>(b, f);
      ASSERT_EQ(d.error(), DecodeError::InfinityNotCanonical) << pos;
      EXPECT_EQ(d.message(), g + (f == Form::Compressed ? " compressed" : " uncompressed") +
                                 ": infinity flag (0x40) is set but other bits are non-zero");
    }
    // The generator's coordinates with the infinity flag added.
    Bytes b = encode(C::generator(), f);
    b[0] |= 0x40;
    b[0] &= f == Form::Compressed ? 0xdf : 0xff;  // keep the sort flag out of it
    EXPECT_EQ(decode<C>(b, f).error(), DecodeError::InfinityNotCanonical);
  }
}

// Big-endian bytes of an integer (48 per Fp coefficient).
void put_be(mpz_class v, uint8_t* out, size_t n = 48) {
  for (size_t i = n; i-- > 0;) {
    mpz_class t = v & 0xff;
    out[i] = uint8_t(t.get_ui());
    v >>= 8;
  }
}

TYPED_TEST(Encoding, CoordinatesNotCanonical) {
  using C = TypeParam;
  constexpr bool ext = !std::is_same_v<C, G1Curve>;
  const std::string g = C::name;
  const mpz_class p = p_mpz();
  const auto gen = C::generator();
  // Each Fp coefficient of x (and y), set to p, to p + (its value) and to 2^381 - 1.
  const size_t coeffs = ext ? 2 : 1;
  for (size_t k = 0; k < coeffs; k++) {  // byte block k: c1 first for Fp2
    const std::string cname = ext ? (k == 0 ? ".c1" : ".c0") : "";
    for (int variant = 0; variant < 3; variant++) {
      Bytes c = encode(gen, Form::Compressed), u = encode(gen, Form::Uncompressed);
      mpz_class orig = 0;
      for (size_t i = 0; i < 48; i++) orig = orig * 256 + (u[k * 48 + i]);
      mpz_class v = variant == 0   ? p
                    : variant == 1 ? mpz_class(p + orig)
                                   : mpz_class((mpz_class(1) << 381) - 1);
      if (v >= (mpz_class(1) << 381)) continue;  // would collide with the flag bits
      put_be(v, &u[k * 48]);
      uint8_t fl = c[0] & 0xe0;
      put_be(v, &c[k * 48]);
      c[0] |= fl;
      auto dc = decode_compressed<C>(c);
      ASSERT_EQ(dc.error(), DecodeError::XNotCanonical) << variant;
      EXPECT_EQ(dc.message(), g + " compressed: x is not canonical (x" + cname + " >= p)");
      auto du = decode_uncompressed<C>(u, Check::None);
      ASSERT_EQ(du.error(), DecodeError::XNotCanonical) << variant;
      EXPECT_EQ(du.message(), g + " uncompressed: x is not canonical (x" + cname + " >= p)");
    }
    // y coefficients: y + p fits in 384 bits and must not be reduced silently.
    for (int variant = 0; variant < 2; variant++) {
      Bytes u = encode(gen, Form::Uncompressed);
      const size_t off = uncompressed_size<C> / 2 + k * 48;
      mpz_class orig = 0;
      for (size_t i = 0; i < 48; i++) orig = orig * 256 + (u[off + i]);
      put_be(variant == 0 ? p : mpz_class(p + orig), &u[off]);
      auto du = decode_uncompressed<C>(u, Check::None);
      ASSERT_EQ(du.error(), DecodeError::YNotCanonical) << variant;
      EXPECT_EQ(du.message(), g + " uncompressed: y is not canonical (y" + cname + " >= p)");
    }
  }
}

TYPED_TEST(Encoding, NoSquareRoot) {
  using C = TypeParam;
  using Base = typename C::Base;
  const std::string g = C::name;
  std::mt19937_64 rng(53);
  int found = 0;
  for (int i = 0; i < 40 && found < 5; i++) {
    Base x = Base::random(rng);
    if ((x.square() * x + C::b()).sqrt()) continue;
    found++;
    // Build the encoding of x by hand: any y, then take the x bytes.
    Bytes u = encode(Affine<C>::from_xy(x, Base::one()), Form::Uncompressed);
    Bytes c(u.begin(), u.begin() + compressed_size<C>);
    c[0] |= 0x80 | (rng() & 0x20);
    auto d = decode_compressed<C>(c, Check::None);
    ASSERT_EQ(d.error(), DecodeError::NoSquareRoot);
    EXPECT_EQ(d.message(), g + " compressed: x is not on the curve (x^3 + b has no square root)");
  }
  EXPECT_GT(found, 0);
}

TYPED_TEST(Encoding, NotOnCurve) {
  using C = TypeParam;
  using Base = typename C::Base;
  const std::string g = C::name;
  std::mt19937_64 rng(54);
  auto p = random_subgroup_point<C>(rng).to_affine();
  for (auto bad : {Affine<C>::from_xy(p.x, p.y + Base::one()), Affine<C>::from_xy(p.x + Base::one(), p.y),
                   Affine<C>::from_xy(Base::zero(), Base::zero())}) {
    ASSERT_FALSE(bad.is_on_curve());
    Bytes u = encode(bad, Form::Uncompressed);
    for (Check ch : {Check::Full, Check::SkipSubgroup}) {
      auto d = decode_uncompressed<C>(u, ch);
      ASSERT_EQ(d.error(), DecodeError::NotOnCurve);
      EXPECT_EQ(d.message(), g + " uncompressed: point is not on the curve");
    }
    // Check::None takes trusted data as it is.
    auto d = decode_uncompressed<C>(u, Check::None);
    ASSERT_TRUE(d.ok());
    EXPECT_EQ(d.point, bad);
  }
}

TYPED_TEST(Encoding, BatchReportsFirstFailure) {
  using C = TypeParam;
  std::mt19937_64 rng(55);
  std::vector<Affine<C>> pts;
  for (int i = 0; i < 6; i++) pts.push_back(random_subgroup_point<C>(rng).to_affine());
  pts[4] = Affine<C>::identity();
  for (Form f : {Form::Compressed, Form::Uncompressed}) {
    const size_t sz = encoded_size<C>(f);
    Bytes all(pts.size() * sz);
    ASSERT_TRUE(encode_batch<C>(pts, f, all));
    ASSERT_FALSE(encode_batch<C>(pts, f, std::span<uint8_t>(all).first(all.size() - 1)));
    std::vector<Affine<C>> out(pts.size());
    ASSERT_TRUE(decode_batch<C>(all, f, std::span<Affine<C>>(out)).ok());
    for (size_t i = 0; i < pts.size(); i++) ASSERT_EQ(out[i], pts[i]);
    // Corrupt entries 3 and 5: the status names 3.
    all[3 * sz] ^= 0x80;
    all[5 * sz] ^= 0x80;
    auto st = decode_batch<C>(all, f, std::span<Affine<C>>(out));
    EXPECT_EQ(st.error, DecodeError::CompressionFlagMismatch);
    EXPECT_EQ(st.index, 3u);
    // Size mismatch.
    auto st2 =
        decode_batch<C>(std::span<const uint8_t>(all).first(all.size() - 1), f, std::span<Affine<C>>(out));
    EXPECT_EQ(st2.error, DecodeError::WrongLength);
    EXPECT_EQ(st2.message(), std::string(C::name) +
                                 (f == Form::Compressed ? " compressed" : " uncompressed") +
                                 ": wrong length (expected " + std::to_string(all.size()) + " bytes, got " +
                                 std::to_string(all.size() - 1) + ")");
  }
}

// Random corruption never crashes, and whatever is accepted is canonical:
// it re-encodes to the very same bytes and is a valid subgroup point.
TYPED_TEST(Encoding, MutationsAreRejectedOrCanonical) {
  using C = TypeParam;
  std::mt19937_64 rng(56);
  int accepted = 0, rejected = 0;
  for (int i = 0; i < 300; i++) {
    Form f = (i & 1) ? Form::Compressed : Form::Uncompressed;
    Affine<C> base = (i % 7 == 0) ? Affine<C>::identity() : random_subgroup_point<C>(rng).to_affine();
    Bytes b = encode(base, f);
    int flips = 1 + int(rng() % 3);
    for (int k = 0; k < flips; k++) {
      size_t pos = (rng() & 1) ? 0 : rng() % b.size();  // favour the flag byte
      b[pos] ^= uint8_t(1u << (rng() % 8));
    }
    auto d = decode<C>(b, f);
    if (d.ok()) {
      accepted++;
      ASSERT_EQ(encode(d.point, f), b);
      ASSERT_TRUE(d.point.is_on_curve());
      ASSERT_TRUE(is_in_subgroup_reference(d.point));
    } else {
      rejected++;
      ASSERT_FALSE(d.message().empty());
    }
  }
  EXPECT_GT(rejected, 0);
  // Random bytes of random lengths.
  for (int i = 0; i < 200; i++) {
    Bytes b(rng() % (uncompressed_size<C> + 8));
    for (auto& x : b) x = uint8_t(rng());
    auto d = decode<C>(std::span<const uint8_t>(b));
    if (d.ok()) {
      ASSERT_EQ(Bytes(encode(d.point, d.status.form)), b);
    }
  }
}

TEST(Encoding, ErrorNames) {
  for (int e = 0; e <= int(DecodeError::NotInSubgroup); e++)
    EXPECT_STRNE(to_string(DecodeError(e)), "unknown");
  DecodeStatus st;
  EXPECT_TRUE(st.ok());
}

// Decompression of a G2 point whose x has c1 = 0 (x in Fp) exercises the
// tie-break of the lexicographic order on c0.
TEST(Encoding, G2SortFlagWithRealY) {
  std::mt19937_64 rng(57);
  int seen = 0;
  for (int i = 0; i < 200 && seen < 3; i++) {
    Fp2 x = {Fp::random(rng), Fp::zero()};
    auto p = point_from_x<G2Curve>(x, true);
    if (!p) continue;
    auto q = p->neg();
    for (auto pt : {*p, q}) {
      Bytes c = encode(pt, Form::Compressed);
      auto d = decode_compressed<G2Curve>(c, Check::SkipSubgroup);
      ASSERT_TRUE(d.ok()) << d.message();
      ASSERT_EQ(d.point, pt);
    }
    if (p->y.c1.is_zero()) seen++;
  }
  SUCCEED() << seen;
}
