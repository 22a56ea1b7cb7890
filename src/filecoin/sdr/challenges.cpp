#include "filecoin/sdr/challenges.hpp"

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

#include "filecoin/sdr/chacha.hpp"
#include "platform/libcrypto.hpp"

namespace cuzk::filecoin {
namespace {

constexpr std::array<uint8_t, 12> kSynthNonce = {'s', 'y', 'n', 't', 'h', '-', 'p', 'o', 'r', 'e', 'p', 0};

std::span<const uint8_t> bytes(std::string_view s) {
  return {reinterpret_cast<const uint8_t*>(s.data()), s.size()};
}

void check_nodes(uint64_t nodes) {
  if (nodes < 2 || nodes > (uint64_t(1) << 32))
    throw std::invalid_argument("challenges: node count " + std::to_string(nodes) + " outside [2, 2^32]");
}

uint32_t global_index(size_t per_partition, size_t partition, size_t i) {
  // Upstream passes the partition as u8 and j as u32.
  if (partition > 255)
    throw std::invalid_argument("challenges: partition " + std::to_string(partition) + " > 255");
  return uint32_t(per_partition * partition + i);
}

std::array<uint8_t, 4> u32_le(uint32_t v) {
  return {uint8_t(v), uint8_t(v >> 8), uint8_t(v >> 16), uint8_t(v >> 24)};
}

template <class Prefix>
std::vector<uint64_t> hashed_challenges(uint64_t nodes, size_t per_partition, size_t partition,
                                        Prefix&& prefix) {
  check_nodes(nodes);
  std::vector<uint64_t> out(per_partition);
  for (size_t i = 0; i < per_partition; i++) {
    Sha256 h;
    prefix(h);
    h.update(u32_le(global_index(per_partition, partition, i)));
    out[i] = challenge_from_bytes(h.finish(), nodes);
  }
  return out;
}

}  // namespace

uint64_t challenge_from_bytes(const Domain& le, uint64_t nodes) {
  check_nodes(nodes);
  // Horner over the LE u64 limbs from the top; the modulus is < 2^32.
  const unsigned __int128 m = nodes - 1;
  unsigned __int128 r = 0;
  for (int limb = 3; limb >= 0; limb--) {
    uint64_t w = 0;
    for (int b = 7; b >= 0; b--) w = w << 8 | le[8 * limb + b];
    r = ((r << 64) | w) % m;
  }
  return uint64_t(r) + 1;
}

std::vector<uint64_t> interactive_challenges(uint64_t nodes, size_t per_partition, const Domain& replica_id,
                                             const Domain& seed, size_t partition) {
  return hashed_challenges(nodes, per_partition, partition,
                           [&](Sha256& h) { h.update(replica_id).update(seed); });
}

std::vector<uint64_t> ni_challenges(uint64_t nodes, size_t per_partition, const Domain& replica_id,
                                    const Domain& comm_r, size_t partition) {
  return hashed_challenges(nodes, per_partition, partition, [&](Sha256& h) {
    h.update(bytes("filecoin.io|PoRep|1|NonInteractive|1")).update(replica_id).update(comm_r);
  });
}

std::array<uint8_t, 32> blake2b256_mac(std::span<const uint8_t> key, std::span<const uint8_t> data) {
  if (key.empty() || key.size() > 64)
    throw std::invalid_argument("blake2b256_mac: key of " + std::to_string(key.size()) +
                                " bytes, need 1..64");
  const platform::Libcrypto& c = platform::libcrypto();
  std::unique_ptr<EVP_MAC, decltype(c.EVP_MAC_free)> mac(c.EVP_MAC_fetch(nullptr, "BLAKE2BMAC", nullptr),
                                                         c.EVP_MAC_free);
  if (!mac) throw std::runtime_error("blake2b256_mac: OpenSSL has no BLAKE2BMAC");
  std::unique_ptr<EVP_MAC_CTX, decltype(c.EVP_MAC_CTX_free)> ctx(c.EVP_MAC_CTX_new(mac.get()),
                                                                 c.EVP_MAC_CTX_free);
  size_t size = 32;
  OSSL_PARAM params[] = {c.OSSL_PARAM_construct_size_t(OSSL_MAC_PARAM_SIZE, &size),
                         c.OSSL_PARAM_construct_end()};
  std::array<uint8_t, 32> out{};
  size_t len = 0;
  if (!ctx || c.EVP_MAC_init(ctx.get(), key.data(), key.size(), params) != 1 ||
      c.EVP_MAC_update(ctx.get(), data.data(), data.size()) != 1 ||
      c.EVP_MAC_final(ctx.get(), out.data(), &len, out.size()) != 1 || len != 32)
    throw std::runtime_error("blake2b256_mac: OpenSSL BLAKE2BMAC failed");
  return out;
}

SyntheticChallenges::SyntheticChallenges(uint64_t nodes, const Domain& replica_id, const Domain& comm_r,
                                         uint64_t num_synth)
    : nodes_(nodes), num_synth_(num_synth ? num_synth : default_count(nodes)), replica_id_(replica_id) {
  check_nodes(nodes);
  // Upstream seeks ChaCha20 by a u32 byte offset: 32 * count must fit.
  if (num_synth_ > (uint64_t(1) << 27))
    throw std::invalid_argument("synthetic challenges: count " + std::to_string(num_synth_) + " > 2^27");
  uint8_t data[64];
  std::copy(replica_id.begin(), replica_id.end(), data);
  std::copy(comm_r.begin(), comm_r.end(), data + 32);
  gen_key_ = blake2b256_mac(bytes("filecoin.io|PoRep|1|Synthetic|1|Generation"), data);
}

uint64_t SyntheticChallenges::challenge(uint64_t i) const {
  if (i >= num_synth_)
    throw std::out_of_range("synthetic challenge " + std::to_string(i) + " >= count " +
                            std::to_string(num_synth_));
  Domain r;
  chacha20_ietf_keystream(gen_key_, kSynthNonce, 32 * i, r);
  return challenge_from_bytes(r, nodes_);
}

std::vector<uint64_t> SyntheticChallenges::all() const {
  std::vector<uint8_t> stream(32 * num_synth_);
  chacha20_ietf_keystream(gen_key_, kSynthNonce, 0, stream);
  std::vector<uint64_t> out(num_synth_);
  for (uint64_t i = 0; i < num_synth_; i++) {
    Domain r;
    std::copy_n(stream.begin() + 32 * i, 32, r.begin());
    out[i] = challenge_from_bytes(r, nodes_);
  }
  return out;
}

std::vector<uint64_t> SyntheticChallenges::partition_indexes(size_t per_partition, const Domain& seed,
                                                             size_t partition) const {
  const uint32_t first = global_index(per_partition, partition, 0);
  uint8_t data[64];
  std::copy(replica_id_.begin(), replica_id_.end(), data);
  std::copy(seed.begin(), seed.end(), data + 32);
  auto key = blake2b256_mac(bytes("filecoin.io|PoRep|1|Synthetic|1|Selection"), data);
  std::vector<uint8_t> stream(4 * per_partition);
  chacha20_ietf_keystream(key, kSynthNonce, 4 * uint64_t(first), stream);
  std::vector<uint64_t> out(per_partition);
  for (size_t i = 0; i < per_partition; i++) {
    const uint8_t* p = &stream[4 * i];
    uint32_t v = uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
    out[i] = v % num_synth_;
  }
  return out;
}

std::vector<uint64_t> SyntheticChallenges::partition_challenges(size_t per_partition, const Domain& seed,
                                                                size_t partition) const {
  auto idx = partition_indexes(per_partition, seed, partition);
  for (auto& i : idx) i = challenge(i);
  return idx;
}

std::vector<uint64_t> porep_challenges(const PorepConfig& config, const Domain& replica_id,
                                       const Domain& seed, const Domain& comm_r, size_t partition) {
  if (partition >= config.partitions)
    throw std::invalid_argument("porep_challenges: partition " + std::to_string(partition) + " of " +
                                std::string(config.name) + " which has " + std::to_string(config.partitions));
  const size_t per = config.challenges_per_partition;
  switch (config.mode) {
    case ChallengeMode::Interactive:
      return interactive_challenges(config.nodes, per, replica_id, seed, partition);
    case ChallengeMode::NonInteractive:
      return ni_challenges(config.nodes, per, replica_id, comm_r, partition);
    case ChallengeMode::Synthetic:
      return SyntheticChallenges(config.nodes, replica_id, comm_r).partition_challenges(per, seed, partition);
  }
  throw std::invalid_argument("porep_challenges: unknown challenge mode");
}

}  // namespace cuzk::filecoin
