#include "filecoin/post/challenges.hpp"

#include "filecoin/hash/sha256.hpp"

namespace cuzk::filecoin {
namespace {

void put_u64(Sha256& h, uint64_t v) {
  uint8_t b[8];
  for (int i = 0; i < 8; i++) b[i] = uint8_t(v >> (8 * i));
  h.update(b);
}

uint64_t first_u64(const Digest32& d) {
  uint64_t v = 0;
  for (int i = 0; i < 8; i++) v |= uint64_t(d[i]) << (8 * i);
  return v;
}

}  // namespace

uint64_t post_sector_challenge(const Domain& randomness, uint64_t n, uint64_t sector_set_len,
                               const Domain& prover_id) {
  Sha256 h;
  h.update(prover_id);
  h.update(randomness);
  put_u64(h, n);
  return first_u64(h.finish()) % sector_set_len;
}

uint64_t winning_post_sector_index(const Domain& randomness, uint64_t sector_set_len,
                                   const Domain& prover_id) {
  return post_sector_challenge(randomness, 0, sector_set_len, prover_id);  // WINNING_POST_SECTOR_COUNT = 1
}

uint64_t post_leaf_challenge(const Domain& randomness, uint64_t sector_id, uint64_t idx, uint64_t nodes) {
  Sha256 h;
  h.update(randomness);
  put_u64(h, sector_id);
  put_u64(h, idx);
  return first_u64(h.finish()) % nodes;
}

uint64_t post_challenge_index(ApiVersion api, uint64_t sector_index, uint64_t challenge_count, uint64_t n) {
  return api == ApiVersion::V1_2_0 ? n : sector_index * challenge_count + n;
}

std::vector<uint64_t> post_vanilla_challenges(const PostConfig& c, const Domain& randomness,
                                              uint64_t sector_id, uint64_t sector_index) {
  // Winning's vanilla proof is one sector with 66 challenges (index 0).
  const bool winning = c.kind == PostKind::Winning;
  const uint64_t count = winning ? kWinningPostChallenges : c.challenge_count;
  std::vector<uint64_t> out;
  for (uint64_t n = 0; n < count; n++)
    out.push_back(post_leaf_challenge(
        randomness, sector_id, post_challenge_index(c.api, winning ? 0 : sector_index, count, n), c.nodes));
  return out;
}

}  // namespace cuzk::filecoin
