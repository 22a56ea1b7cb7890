#pragma once
// Fallback PoSt challenges (storage-proofs-post fallback/vanilla.rs and
// utils.rs, docs/FILECOIN.md §7.11). `randomness` is the chain randomness with
// byte 31 already masked (& 0x3f), as Curio sends it.
#include <cstdint>
#include <vector>

#include "filecoin/common/domain.hpp"
#include "filecoin/post/post_config.hpp"

namespace cuzk::filecoin {

// u64_le(SHA256(prover_id ‖ randomness ‖ u64_le(n))[0..8]) mod sector_set_len.
uint64_t post_sector_challenge(const Domain& randomness, uint64_t n, uint64_t sector_set_len,
                               const Domain& prover_id);
// WinningPoSt: the index (into the miner's eligible sector list) of the sector to prove.
uint64_t winning_post_sector_index(const Domain& randomness, uint64_t sector_set_len,
                                   const Domain& prover_id);

// u64_le(SHA256(randomness ‖ u64_le(sector_id) ‖ u64_le(idx))[0..8]) mod nodes.
uint64_t post_leaf_challenge(const Domain& randomness, uint64_t sector_id, uint64_t idx, uint64_t nodes);
// The idx of challenge n of the sector at `sector_index` in the proved list:
// sector_index·challenge_count + n (ApiVersion 1.0/1.1), n (1.2).
uint64_t post_challenge_index(ApiVersion api, uint64_t sector_index, uint64_t challenge_count, uint64_t n);

// The leaves a vanilla proof of `sector_id` must open: Winning, its 66
// challenges; Window, the 10 of the sector at `sector_index` (position in
// the whole proved list, partition_index·sector_count + i).
std::vector<uint64_t> post_vanilla_challenges(const PostConfig& c, const Domain& randomness,
                                              uint64_t sector_id, uint64_t sector_index);

}  // namespace cuzk::filecoin
