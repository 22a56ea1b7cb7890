// bellperson proof / .vk / .params encodings: bit-exact round trips and a
// clear error, with the right offset, for every kind of corruption.
#include <gtest/gtest.h>

#include <filesystem>
#include <random>

#include "groth16/io.hpp"
#include "groth16/setup.hpp"
#include "unit/r1cs/test_circuits.hpp"

using namespace cuzk;
using namespace cuzk::groth16;

namespace {

G1Affine g1_times(uint64_t k) {
  return ec::mul_vartime(ec::G1Jacobian::from_affine(ec::G1Curve::generator()), Fr::from_u64(k)).to_affine();
}
G2Affine g2_times(uint64_t k) {
  return ec::mul_vartime(ec::G2Jacobian::from_affine(ec::G2Curve::generator()), Fr::from_u64(k)).to_affine();
}

const Parameters& params() {
  static const Parameters p = [] {
    std::mt19937_64 rng(7);
    test::ManyInputsCircuit c;
    c.n = 5;
    return generate_parameters(c, ToxicWaste::random(rng));
  }();
  return p;
}

// Runs f, expects a FormatError whose message contains `needle`, returns its offset.
template <class F>
size_t format_error(F&& f, const std::string& needle) {
  try {
    f();
  } catch (const FormatError& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    return e.offset;
  }
  ADD_FAILURE() << "no FormatError (wanted \"" << needle << "\")";
  return size_t(-1);
}

}  // namespace

TEST(ProofEncoding, RoundTripAndCorruption) {
  Proof p{g1_times(3), g2_times(5), g1_times(7)};
  auto b = encode_proof(p);
  ASSERT_EQ(b.size(), 192u);
  EXPECT_EQ(b[0] & 0x80, 0x80);  // compressed
  EXPECT_EQ(decode_proof(b), p);

  std::vector<uint8_t> v(b.begin(), b.end());
  EXPECT_EQ(format_error([&] { decode_proof(std::span(v).first(191), "p.bin"); }, "p.bin: offset 0"), 0u);
  auto bad = v;
  bad[48] &= 0x7f;  // B loses its compression flag
  EXPECT_EQ(format_error([&] { decode_proof(bad); }, "proof.b: G2 compressed"), 48u);
  bad = v;
  std::fill(bad.begin() + 144, bad.end(), 0);
  bad[144] = 0xc0;  // C = infinity
  EXPECT_EQ(format_error([&] { decode_proof(bad); }, "proof.c: point at infinity"), 144u);
  bad = v;
  bad[47] ^= 1;  // A's x changes: off the curve or off the subgroup
  EXPECT_EQ(format_error([&] { decode_proof(bad); }, "proof.a: G1 compressed"), 0u);

  Proof q{g1_times(11), g2_times(13), g1_times(17)};
  std::vector<Proof> two{p, q};
  auto cat = encode_proofs(two);
  ASSERT_EQ(cat.size(), 384u);
  EXPECT_EQ(decode_proofs(cat), two);
  cat[192 + 144] = 0x12;
  EXPECT_EQ(format_error([&] { decode_proofs(cat); }, "proof 1.c"), 336u);
  format_error([&] { decode_proofs(std::span(cat).first(200)); }, "not a positive multiple of 192");
}

TEST(VerifyingKeyEncoding, RoundTripAndCorruption) {
  const VerifyingKey& vk = params().vk;
  auto b = encode_verifying_key(vk);
  ASSERT_EQ(b.size(), 868u + 96u * vk.ic.size());
  EXPECT_EQ(decode_verifying_key(b), vk);
  EXPECT_EQ(encode_verifying_key(decode_verifying_key(b)), b);
  // u32 BE ic length right after the fixed points.
  EXPECT_EQ(b[864 + 3], vk.ic.size());

  format_error([&] { decode_verifying_key(std::span(b).first(b.size() - 1), "k.vk"); }, "ic: truncated");
  auto extra = b;
  extra.push_back(0);
  EXPECT_EQ(format_error([&] { decode_verifying_key(extra); }, "1 unexpected trailing bytes"), b.size());
  auto bad = b;
  bad[384 + 191] ^= 1;  // last byte of gamma_g2 (y.c0)
  EXPECT_EQ(format_error([&] { decode_verifying_key(bad); },
                         "gamma_g2: G2 uncompressed: point is not on the curve"),
            384u);
  bad = b;
  std::fill(bad.begin() + 868 + 96, bad.begin() + 868 + 192, 0);
  bad[868 + 96] = 0x40;  // ic[1] = infinity
  EXPECT_EQ(format_error([&] { decode_verifying_key(bad); }, "ic[1]: point at infinity"), 964u);
  bad = b;
  bad[866] = 0x10;  // absurd ic length
  format_error([&] { decode_verifying_key(bad); }, "ic: truncated");
  bad = b;
  bad[0] |= 0x80;  // alpha_g1 claims to be compressed
  EXPECT_EQ(format_error([&] { decode_verifying_key(bad); }, "alpha_g1: G1 uncompressed: compression flag"),
            0u);
}

TEST(ParametersEncoding, RoundTripBitExactAndViaFile) {
  const Parameters& p = params();
  auto b = encode_parameters(p);
  ASSERT_EQ(b.size(), encoded_parameters_size(p));
  ASSERT_EQ(b.size(), 868 + 96 * p.vk.ic.size() + 5 * 4 +
                          96 * (p.h.size() + p.l.size() + p.a.size() + p.b_g1.size()) + 192 * p.b_g2.size());
  Parameters q = decode_parameters(b);
  EXPECT_EQ(q, p);
  EXPECT_EQ(encode_parameters(q), b);
  EXPECT_EQ(decode_parameters(b, "x", ec::Check::SkipSubgroup), p);

  auto dir = std::filesystem::path(::testing::TempDir());
  auto pf = (dir / "cuzk_io_test.params").string(), vf = (dir / "cuzk_io_test.vk").string();
  write_file(pf, b);
  write_file(vf, encode_verifying_key(p.vk));
  EXPECT_EQ(read_parameters_file(pf), p);
  EXPECT_EQ(read_verifying_key_file(vf), p.vk);
  std::filesystem::remove(pf);
  std::filesystem::remove(vf);
}

TEST(ParametersEncoding, CorruptionIsReportedWithOffset) {
  const Parameters& p = params();
  auto b = encode_parameters(p);
  const size_t vk_end = 868 + 96 * p.vk.ic.size();
  const size_t h_pts = vk_end + 4, l_pts = h_pts + 96 * p.h.size() + 4;
  // A point in l[2] pushed off the curve.
  auto bad = b;
  bad[l_pts + 2 * 96 + 95] ^= 1;
  EXPECT_EQ(format_error([&] { decode_parameters(bad, "z.params"); }, "z.params: offset"), l_pts + 2 * 96);
  format_error([&] { decode_parameters(bad); }, "l[2]: G1 uncompressed: point is not on the curve");
  // The identity in h.
  bad = b;
  std::fill(bad.begin() + h_pts + 96, bad.begin() + h_pts + 192, 0);
  bad[h_pts + 96] = 0x40;
  EXPECT_EQ(format_error([&] { decode_parameters(bad); }, "h[1]: point at infinity"), h_pts + 96);
  // Truncation anywhere, and a length that does not fit.
  for (size_t cut : {size_t(10), vk_end + 2, l_pts + 50, b.size() - 1})
    format_error([&] { decode_parameters(std::span(b).first(cut)); }, "truncated");
  bad = b;
  bad[vk_end] = 0x7f;
  format_error([&] { decode_parameters(bad); }, "h: truncated");
  // A field element >= p.
  bad = b;
  std::fill(bad.begin() + l_pts, bad.begin() + l_pts + 48, 0xff);
  bad[l_pts] = 0x1f;
  format_error([&] { decode_parameters(bad); }, "l[0]: G1 uncompressed: x is not canonical");
}
