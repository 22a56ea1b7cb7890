#include "filecoin/snap/challenges.hpp"

#include <stdexcept>
#include <string>

#include "filecoin/hash/poseidon.hpp"

namespace cuzk::filecoin {

ff::Fr snap_randomness_hash(const ff::Fr& a, const ff::Fr& b) {
  static const ff::Fr tag = poseidon_tag_custom(1);
  const ff::Fr pre[2] = {a, b};
  return poseidon_hash(poseidon_constants(2), pre, tag);
}

ff::Fr snap_phi(const ff::Fr& comm_d_new, const ff::Fr& comm_r_old) {
  return snap_randomness_hash(comm_d_new, comm_r_old);
}

ff::Fr snap_rho(const ff::Fr& phi, uint64_t high) {
  return snap_randomness_hash(phi, ff::Fr::from_u64(high));
}

uint64_t snap_node_high(const SnapConfig& c, uint64_t node) { return node >> (c.challenge_bits() - c.h); }

std::vector<uint32_t> snap_challenges(const SnapConfig& c, const ff::Fr& comm_r_new, size_t k) {
  if (k >= c.partitions)
    throw std::invalid_argument("snap challenges: partition " + std::to_string(k) + " of " +
                                std::to_string(c.partitions));
  const size_t bits = c.random_bits(), per_digest = c.challenges_per_digest();
  const uint32_t partition_bits = uint32_t(k) << bits;
  std::vector<uint32_t> out;
  out.reserve(c.challenge_count);
  uint64_t digest_index = uint64_t(k) * c.digests_per_partition();
  while (out.size() < c.challenge_count) {
    const auto d = snap_randomness_hash(comm_r_new, ff::Fr::from_u64(digest_index++)).to_canonical();
    for (size_t i = 0; i < per_digest && out.size() < c.challenge_count; i++) {
      uint32_t v = 0;
      for (size_t b = 0; b < bits; b++) {
        const size_t at = i * bits + b;
        v |= uint32_t((d[at / 64] >> (at % 64)) & 1) << b;
      }
      out.push_back(v | partition_bits);
    }
  }
  return out;
}

}  // namespace cuzk::filecoin
