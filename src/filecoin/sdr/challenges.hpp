#pragma once
// PoRep challenge derivation (docs/FILECOIN.md §7.4, rust-fil-proofs
// storage-proofs-porep challenges.rs): interactive, non-interactive and
// synthetic. Every challenge lies in [1, nodes - 1]: node 0 is never
// challenged. Partition k's challenges are the global challenges
// j = per_partition * k + i, i < per_partition.
#include <cstdint>
#include <vector>

#include "filecoin/common/domain.hpp"
#include "filecoin/common/registered_proof.hpp"

namespace cuzk::filecoin {

// LE_int(bytes) mod (nodes - 1) + 1; nodes in [2, 2^32].
uint64_t challenge_from_bytes(const Domain& le_bytes, uint64_t nodes);

// c_j = challenge_from_bytes(SHA256(replica_id ‖ seed ‖ u32_le(j))).
std::vector<uint64_t> interactive_challenges(uint64_t nodes, size_t per_partition, const Domain& replica_id,
                                             const Domain& seed, size_t partition);

// c_j = challenge_from_bytes(SHA256("filecoin.io|PoRep|1|NonInteractive|1" ‖
// replica_id ‖ comm_r ‖ u32_le(j))).
std::vector<uint64_t> ni_challenges(uint64_t nodes, size_t per_partition, const Domain& replica_id,
                                    const Domain& comm_r, size_t partition);

// Synthetic PoRep: a set of num_synth challenges fixed by (replica_id,
// comm_r) at sealing time, from which the seed later selects the PoRep
// challenges.
class SyntheticChallenges {
 public:
  static constexpr uint64_t kDefaultCount = uint64_t(1) << 18;
  // The production set size: min(nodes, 2^18).
  static uint64_t default_count(uint64_t nodes) { return nodes < kDefaultCount ? nodes : kDefaultCount; }

  // num_synth = 0 picks the production size min(nodes, 2^18).
  SyntheticChallenges(uint64_t nodes, const Domain& replica_id, const Domain& comm_r, uint64_t num_synth = 0);

  uint64_t count() const { return num_synth_; }
  // Synthetic challenge i < count(): ChaCha20 keystream bytes [32i, 32i+32)
  // under K1 = BLAKE2b-256(key "…|Synthetic|1|Generation", replica_id ‖ comm_r).
  uint64_t challenge(uint64_t i) const;
  // All count() synthetic challenges in order.
  std::vector<uint64_t> all() const;
  // Indexes into the synthetic set chosen for partition k: u32_le(keystream
  // under K2 = BLAKE2b-256(key "…|Selection", replica_id ‖ seed) at
  // 4*(k*per + i)) mod count().
  std::vector<uint64_t> partition_indexes(size_t per_partition, const Domain& seed, size_t partition) const;
  // challenge(i) for each of partition_indexes.
  std::vector<uint64_t> partition_challenges(size_t per_partition, const Domain& seed,
                                             size_t partition) const;

 private:
  uint64_t nodes_, num_synth_;
  Domain replica_id_;
  std::array<uint8_t, 32> gen_key_;
};

// The challenges of `partition` for the config's mode: interactive (seed),
// NI-PoRep (comm_r; seed unused) or synthetic (comm_r and seed), with
// config.challenges_per_partition per partition. Throws
// std::invalid_argument when partition >= config.partitions.
std::vector<uint64_t> porep_challenges(const PorepConfig& config, const Domain& replica_id,
                                       const Domain& seed, const Domain& comm_r, size_t partition);

// Keyed BLAKE2b with a 32-byte digest (OpenSSL BLAKE2BMAC), as upstream
// derives the synthetic ChaCha20 keys. key: 1..64 bytes.
std::array<uint8_t, 32> blake2b256_mac(std::span<const uint8_t> key, std::span<const uint8_t> data);

}  // namespace cuzk::filecoin
