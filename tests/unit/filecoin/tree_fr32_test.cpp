// Domain <-> Fr conversion and fr32 padding (docs/FILECOIN.md §4.3, §7.8):
// hand-computed cases, a bit-by-bit reference model, round trips and the
// errors for malformed input.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "filecoin/common/domain.hpp"
#include "filecoin/hash/sha256.hpp"
#include "filecoin/tree/fr32.hpp"

using namespace cuzk;
using namespace cuzk::filecoin;

namespace {

std::vector<uint8_t> random_bytes(size_t n, std::mt19937_64& rng) {
  std::vector<uint8_t> v(n);
  for (auto& b : v) b = uint8_t(rng());
  return v;
}

// Reference: move every data bit i to bit (i % 254) of node i / 254.
std::vector<uint8_t> pad_bitwise(const std::vector<uint8_t>& data) {
  const size_t nodes = (data.size() * 8 + 253) / 254;
  std::vector<uint8_t> out(nodes * 32, 0);
  for (size_t i = 0; i < data.size() * 8; i++)
    if ((data[i / 8] >> (i % 8)) & 1) {
      size_t o = (i / 254) * 256 + i % 254;
      out[o / 8] |= uint8_t(1u << (o % 8));
    }
  return out;
}

TEST(TreeDomain, FrRoundTripAndCanonicalCheck) {
  std::mt19937_64 rng(1);
  for (int i = 0; i < 100; i++) {
    Fr x = Fr::random(rng);
    Domain d = fr_to_domain(x);
    EXPECT_EQ(domain_to_fr(d), x);
  }
  // Little-endian: byte 0 is the least significant.
  Domain one{};
  one[0] = 1;
  EXPECT_EQ(domain_to_fr(one), Fr::one());
  EXPECT_EQ(fr_to_domain(Fr::from_u64(0x0102)), (Domain{0x02, 0x01}));
  // r = 0x73eda753...00000001: r - 1 is fine, r and 2^256 - 1 are not.
  Domain r_le = fr_to_domain(-Fr::one());
  EXPECT_EQ(domain_to_fr(r_le), -Fr::one());
  r_le[0] += 1;  // ...ffffffff00000000 -> ...00000001: now r itself
  EXPECT_THROW(domain_to_fr(r_le), std::invalid_argument);
  Domain ff;
  ff.fill(0xff);
  try {
    domain_to_fr(ff);
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("not a canonical Fr"), std::string::npos) << e.what();
  }
  // Any trimmed SHA-256 digest is < 2^254 < r.
  for (int i = 0; i < 50; i++) {
    uint8_t b = uint8_t(i);
    Domain d = sha256_trimmed({&b, 1});
    d[31] |= 0x3f;
    EXPECT_NO_THROW(domain_to_fr(d));
  }
  std::vector<Fr> xs = {Fr::from_u64(5), Fr::from_u64(7)};
  EXPECT_EQ(domains_to_frs(frs_to_domains(xs)), xs);
}

TEST(TreeFr32, HandComputedCases) {
  // 127 bytes of ones: four nodes of 254 one-bits each.
  std::vector<uint8_t> ones(127, 0xff);
  std::vector<uint8_t> want;
  for (int n = 0; n < 4; n++) {
    want.insert(want.end(), 31, 0xff);
    want.push_back(0x3f);
  }
  EXPECT_EQ(fr32_pad(ones), want);
  // Data bits 254 and 255 (byte 31 = 0xc0) move to bits 0 and 1 of node 1.
  std::vector<uint8_t> d(127, 0);
  d[31] = 0xc0;
  std::vector<uint8_t> p = fr32_pad(d);
  ASSERT_EQ(p.size(), 128u);
  for (size_t i = 0; i < p.size(); i++) EXPECT_EQ(p[i], i == 32 ? 0x03 : 0x00) << i;
  // Byte 32 (bits 256..263) lands at node-1 bits 2..9.
  d.assign(127, 0);
  d[32] = 0xff;
  p = fr32_pad(d);
  EXPECT_EQ(p[32], 0xfc);
  EXPECT_EQ(p[33], 0x03);
  // Bit 1015 (the last data bit of a 127-byte unit) is bit 253 of node 3.
  d.assign(127, 0);
  d[126] = 0x80;
  p = fr32_pad(d);
  EXPECT_EQ(p[127], 0x20);
  EXPECT_EQ(fr32_unpad(p, 127), d);
}

TEST(TreeFr32, MatchesBitwiseModelAndRoundTrips) {
  std::mt19937_64 rng(2);
  for (size_t n : {0, 1, 5, 31, 32, 33, 126, 127, 128, 254, 255, 1000, 127 * 16, 127 * 64 + 3}) {
    std::vector<uint8_t> data = random_bytes(n, rng);
    std::vector<uint8_t> p = fr32_pad(data);
    EXPECT_EQ(p, pad_bitwise(data)) << n;
    EXPECT_EQ(p.size(), fr32_padded_size(n)) << n;
    EXPECT_GE(fr32_unpadded_capacity(p.size()), n);
    for (size_t k = 31; k < p.size(); k += 32) EXPECT_EQ(p[k] & 0xc0, 0) << n;
    EXPECT_EQ(fr32_unpad(p, n), data) << n;
  }
  EXPECT_EQ(fr32_padded_size(127 * 1024), 128u * 1024);
  EXPECT_EQ(fr32_unpadded_capacity(2048), 2032u);
  // Every 128-byte padded unit whose nodes have clear top bits unpads and pads back.
  std::vector<uint8_t> padded = random_bytes(128 * 8, rng);
  for (size_t k = 31; k < padded.size(); k += 32) padded[k] &= 0x3f;
  EXPECT_EQ(fr32_pad(fr32_unpad(padded, 127 * 8)), padded);
}

TEST(TreeFr32, UnpadRejectsMalformedInput) {
  std::vector<uint8_t> p(128, 0);
  EXPECT_THROW(fr32_unpad(std::span<const uint8_t>(p.data(), 100), 10), std::invalid_argument);
  EXPECT_THROW(fr32_unpad(p, 128), std::invalid_argument);  // capacity is 127
  EXPECT_NO_THROW(fr32_unpad(p, 127));
  p[63] = 0x40;
  try {
    fr32_unpad(p, 127);
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("node 1"), std::string::npos) << e.what();
  }
}

}  // namespace
