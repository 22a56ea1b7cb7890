// The fleet payload (engine/request_codec.hpp: encode_request /
// decode_request): every field of a request survives the round trip, and
// malformed bytes are refused before any allocation they would size.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "engine/request_codec.hpp"
#include "engine/service.hpp"

namespace cuzk::engine::test {
namespace {

ProofRequest full_request() {
  ProofRequest r;
  r.request_id = "wdpost-1000-3-[90 90 12]";
  r.kind = ProofKind::WindowPostPartition;
  r.sector_size = 32ull << 30;
  r.registered_proof = 0xffffffffffffffffull;
  r.priority = Priority::Critical;
  r.vanilla_proof = std::string("c1\0json\xff", 8);
  r.vanilla_proofs = {"", std::string(1000, '\0'), "third"};
  r.sector_number = 77;
  r.miner_id = 1000;
  r.randomness = std::string(32, '\x5a');
  r.partition_index = 4000000000u;
  r.comm_r_old = "old";
  r.comm_r_new = "new";
  r.comm_d_new = std::string(32, '\0');
  r.circuit_id = "some-circuit";
  return r;
}

void expect_same(const ProofRequest& a, const ProofRequest& b) {
  EXPECT_EQ(a.request_id, b.request_id);
  EXPECT_EQ(a.kind, b.kind);
  EXPECT_EQ(a.sector_size, b.sector_size);
  EXPECT_EQ(a.registered_proof, b.registered_proof);
  EXPECT_EQ(a.priority, b.priority);
  EXPECT_EQ(a.vanilla_proof, b.vanilla_proof);
  EXPECT_EQ(a.vanilla_proofs, b.vanilla_proofs);
  EXPECT_EQ(a.sector_number, b.sector_number);
  EXPECT_EQ(a.miner_id, b.miner_id);
  EXPECT_EQ(a.randomness, b.randomness);
  EXPECT_EQ(a.partition_index, b.partition_index);
  EXPECT_EQ(a.comm_r_old, b.comm_r_old);
  EXPECT_EQ(a.comm_r_new, b.comm_r_new);
  EXPECT_EQ(a.comm_d_new, b.comm_d_new);
  EXPECT_EQ(a.circuit_id, b.circuit_id);
}

TEST(FleetPayload, RoundTripsEveryField) {
  const ProofRequest r = full_request();
  expect_same(decode_request(encode_request(r)), r);
  const ProofRequest empty;
  expect_same(decode_request(encode_request(empty)), empty);
}

TEST(FleetPayload, RefusesMalformedBytes) {
  const std::string good = encode_request(full_request());
  // Every proper prefix is truncated somewhere.
  for (size_t n = 0; n < good.size(); n++)
    EXPECT_THROW(decode_request(good.substr(0, n)), std::runtime_error) << n;
  EXPECT_THROW(decode_request(good + "x"), std::runtime_error);  // trailing bytes
  std::string bad_magic = good;
  bad_magic[0] = 'X';
  try {
    decode_request(bad_magic);
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("bad magic"), std::string::npos);
  }
  std::string v2 = good;
  v2[4] = 2;
  try {
    decode_request(v2);
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("version 2"), std::string::npos);
  }
  // A count of vanilla proofs that cannot fit is refused before any allocation.
  ProofRequest r;
  std::string b = encode_request(r);
  // Layout: magic+version (5), request_id (8), kind, sector_size,
  // registered_proof, priority (4 x 8), vanilla_proof (8), then the count.
  const size_t count_at = 5 + 8 + 4 * 8 + 8;
  for (int i = 0; i < 8; i++) b[count_at + i] = '\xff';
  EXPECT_THROW(decode_request(b), std::runtime_error);
}

// Two daemons (engine + bridge) on one fresh database.

}  // namespace
}  // namespace cuzk::engine::test
