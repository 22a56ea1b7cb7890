// The request codec against the layout written out by hand: the fleet queue
// stores these bytes and their digests (docs/FLEET.md), so the encoding made
// from the field list (engine/request_fields.hpp) must stay byte for byte
// what daemons of earlier builds wrote and compare.
#include "engine/request_codec.hpp"

#include <gtest/gtest.h>

#include "platform/digest.hpp"
#include "platform/hex.hpp"

namespace cuzk::engine {
namespace {

void put_u64(std::string& out, uint64_t v) {
  for (int i = 0; i < 8; i++) out.push_back(char(uint8_t(v >> (8 * i))));
}
void put_str(std::string& out, const std::string& s) {
  put_u64(out, s.size());
  out += s;
}

// "CZKR", version 1, then every field: integers as 8 bytes little-endian,
// strings as their 8-byte length and bytes, the vanilla proofs as a count
// and each proof.
std::string by_hand(const ProofRequest& r) {
  std::string out = "CZKR";
  out.push_back('\x01');
  put_str(out, r.request_id);
  put_u64(out, uint64_t(r.kind));
  put_u64(out, r.sector_size);
  put_u64(out, r.registered_proof);
  put_u64(out, uint64_t(r.priority));
  put_str(out, r.vanilla_proof);
  put_u64(out, r.vanilla_proofs.size());
  for (const auto& v : r.vanilla_proofs) put_str(out, v);
  put_u64(out, r.sector_number);
  put_u64(out, r.miner_id);
  put_str(out, r.randomness);
  put_u64(out, r.partition_index);
  put_str(out, r.comm_r_old);
  put_str(out, r.comm_r_new);
  put_str(out, r.comm_d_new);
  put_str(out, r.circuit_id);
  return out;
}

ProofRequest sample() {
  ProofRequest r;
  r.request_id = "wdpost-1000-3-[90 90]";
  r.kind = ProofKind::WindowPostPartition;
  r.sector_size = 34359738368ull;
  r.registered_proof = 8;
  r.priority = Priority::High;
  r.vanilla_proof = "c1";
  r.vanilla_proofs = {"first", std::string(300, '\x07'), ""};
  r.sector_number = 0x0102030405060708ull;
  r.miner_id = 1000;
  r.randomness = std::string(32, '\x5a');
  r.partition_index = 3;
  r.comm_r_old = "old";
  r.comm_r_new = std::string(32, '\x01');
  r.comm_d_new = "d";
  r.circuit_id = "window-post-32g";
  return r;
}

TEST(RequestCodec, EncodesTheDocumentedLayout) {
  EXPECT_EQ(encode_request(sample()), by_hand(sample()));
  EXPECT_EQ(encode_request(ProofRequest{}), by_hand(ProofRequest{}));
}

TEST(RequestCodec, DigestIsTheEncodingsHashWithoutThePriority) {
  ProofRequest r = sample();
  ProofRequest unprioritized = r;
  unprioritized.priority = Priority::Unspecified;
  const std::string bytes = by_hand(unprioritized);
  const auto expected = platform::sha256({reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()});
  EXPECT_EQ(payload_digest(r), expected);
  EXPECT_EQ(request_digest(r), platform::to_hex(expected));
  r.priority = Priority::Low;  // a retry may change it: the same job
  EXPECT_EQ(payload_digest(r), expected);
  r.vanilla_proofs[2] = "x";  // any payload byte is another job
  EXPECT_NE(payload_digest(r), expected);
}

TEST(RequestCodec, PayloadSizeCountsThePayloadFields) {
  const ProofRequest r = sample();
  // vanilla_proof, vanilla_proofs, randomness and the three commitments;
  // not the ids.
  EXPECT_EQ(payload_size(r), 2u + 5 + 300 + 0 + 32 + 3 + 32 + 1);
}

}  // namespace
}  // namespace cuzk::engine
