#include "filecoin/post/circuit.hpp"

#include <stdexcept>
#include <string>

#include "filecoin/circuit/merkle.hpp"
#include "filecoin/common/domain.hpp"
#include "filecoin/hash/poseidon.hpp"
#include "filecoin/tree/poseidon_tree.hpp"

namespace cuzk::filecoin {

using gadgets::AllocatedNum;
using gadgets::in_ns;
using gadgets::MerkleAuthPath;
using r1cs::ConstraintSystem;

namespace {

std::string str(uint64_t i) { return std::to_string(i); }

MerkleAuthPath blank_path(const PostConfig& c) {
  return MerkleAuthPath::blank(c.shape.base_arity, c.shape.sub_arity, c.shape.top_arity, c.nodes);
}

PostCircuitSector blank_sector(const PostConfig& c) {
  PostCircuitSector s;
  s.leaves.assign(c.challenge_count, std::nullopt);
  s.paths.assign(c.challenge_count, blank_path(c));
  return s;
}

}  // namespace

FallbackPostCircuit::FallbackPostCircuit(const PostConfig& c) : cfg_(c) {
  sectors_.assign(c.sector_count, blank_sector(c));
}

FallbackPostCircuit::FallbackPostCircuit(const PostConfig& c, std::span<const FallbackPoStSectorProof> proofs)
    : cfg_(c) {
  if (proofs.empty()) throw std::invalid_argument("fallback PoSt: no sector proofs");
  const MerkleAuthPath blank = blank_path(c);
  auto convert = [&](const FallbackPoStSectorProof& fp, size_t first, size_t count, const std::string& at) {
    if (fp.sectors.size() != 1)
      throw std::invalid_argument(at + ".vanilla_proof.sectors: " + str(fp.sectors.size()) +
                                  " entries, expected 1");
    const PostSectorProof& sp = fp.sectors[0];
    PostCircuitSector s;
    s.comm_r = domain_to_fr(fp.comm_r, (at + ".comm_r").c_str());
    s.comm_c = domain_to_fr(sp.comm_c, (at + ".comm_c").c_str());
    s.comm_r_last = domain_to_fr(sp.comm_r_last, (at + ".comm_r_last").c_str());
    for (size_t i = first; i < first + count; i++) {
      const std::string where = at + ".inclusion_proofs[" + str(i) + "]";
      s.leaves.push_back(domain_to_fr(sp.inclusion_proofs.at(i).leaf, (where + ".leaf").c_str()));
      s.paths.push_back(circuit::merkle_auth_path(sp.inclusion_proofs[i], blank, where));
    }
    return s;
  };
  if (c.kind == PostKind::Winning) {
    if (proofs.size() != kWinningPostSectorCount)
      throw std::invalid_argument("WinningPoSt proves 1 sector, got " + str(proofs.size()));
    const size_t inc = proofs[0].sectors.empty() ? 0 : proofs[0].sectors[0].inclusion_proofs.size();
    if (inc != kWinningPostChallenges)
      throw std::invalid_argument("vanilla_proofs[0]: " + str(inc) +
                                  " inclusion proofs, WinningPoSt needs 66");
    for (size_t slot = 0; slot < c.sector_count; slot++)
      sectors_.push_back(convert(proofs[0], slot, 1, "vanilla_proofs[0]"));
    return;
  }
  if (proofs.size() > c.sector_count)
    throw std::invalid_argument(str(proofs.size()) + " sectors in one partition, at most " +
                                str(c.sector_count));
  for (size_t i = 0; i < proofs.size(); i++) {
    const std::string at = "vanilla_proofs[" + str(i) + "]";
    const size_t inc = proofs[i].sectors.empty() ? 0 : proofs[i].sectors[0].inclusion_proofs.size();
    if (inc != c.challenge_count)
      throw std::invalid_argument(at + ": " + str(inc) + " inclusion proofs, expected " +
                                  str(c.challenge_count));
    sectors_.push_back(convert(proofs[i], 0, c.challenge_count, at));
  }
  while (sectors_.size() < c.sector_count) sectors_.push_back(sectors_.back());  // padding: repeat the last
}

void FallbackPostCircuit::synthesize(ConstraintSystem& top) const {
  // The sectors are independent: a witness-only synthesis with recorded
  // part counts runs them in parallel.
  top.run_parts(sectors_.size(), [&](size_t i, ConstraintSystem& cs) {
    r1cs::Namespace ns(cs, [&] { return "sector_" + str(i); });
    const PostCircuitSector& s = sectors_[i];
    AllocatedNum comm_r_last =
        in_ns(cs, "comm_r_last", [&] { return AllocatedNum::alloc(cs, s.comm_r_last); });
    AllocatedNum comm_c = in_ns(cs, "comm_c", [&] { return AllocatedNum::alloc(cs, s.comm_c); });
    AllocatedNum comm_r = in_ns(cs, "comm_r", [&] { return AllocatedNum::alloc(cs, s.comm_r); });
    in_ns(cs, "comm_r_input", [&] { comm_r.inputize(cs); });
    circuit::enforce_comm_r(cs, comm_r, comm_c, comm_r_last);
    for (size_t n = 0; n < s.leaves.size(); n++) {
      r1cs::Namespace cns(cs, [&] { return "challenge_inclusion_" + str(n); });
      // PoRCircuit allocates the leaf itself ("value"); the root is comm_r_last, private.
      gadgets::por_poseidon(cs, gadgets::PorValue{std::nullopt, s.leaves[n]}, s.paths[n],
                            gadgets::PorValue{comm_r_last, std::nullopt}, true, &circuit::constants_for);
    }
  });
}

std::vector<ff::Fr> post_partition_public_inputs(const PostConfig& c, const Domain& randomness,
                                                 std::span<const PostPublicSector> partition,
                                                 uint64_t first_index) {
  if (partition.empty()) throw std::invalid_argument("fallback PoSt: no public sectors");
  std::vector<ff::Fr> out;
  if (c.kind == PostKind::Winning) {
    // 66 copies of the one sector, slot j opening challenge j.
    const ff::Fr comm_r = domain_to_fr(partition[0].comm_r, "comm_r");
    for (uint64_t j = 0; j < c.sector_count; j++) {
      out.push_back(comm_r);
      out.push_back(ff::Fr::from_u64(post_leaf_challenge(randomness, partition[0].sector_id,
                                                         post_challenge_index(c.api, j, 1, 0), c.nodes)));
    }
    return out;
  }
  if (partition.size() > c.sector_count)
    throw std::invalid_argument("fallback PoSt: " + str(partition.size()) + " sectors in a partition of " +
                                str(c.sector_count));
  size_t block = 0;
  for (size_t i = 0; i < partition.size(); i++) {
    const PostPublicSector& s = partition[i];
    block = out.size();
    out.push_back(domain_to_fr(s.comm_r, "comm_r"));
    for (uint64_t n = 0; n < c.challenge_count; n++)
      out.push_back(ff::Fr::from_u64(
          post_leaf_challenge(randomness, s.sector_id,
                              post_challenge_index(c.api, first_index + i, c.challenge_count, n), c.nodes)));
  }
  // A short partition repeats its last sector's block.
  const std::vector<ff::Fr> last(out.begin() + std::ptrdiff_t(block), out.end());
  for (size_t i = partition.size(); i < c.sector_count; i++) out.insert(out.end(), last.begin(), last.end());
  return out;
}

std::vector<ff::Fr> post_public_inputs(const PostConfig& c, const Domain& randomness,
                                       std::span<const PostPublicSector> sectors, size_t k) {
  if (c.kind == PostKind::Winning)
    return post_partition_public_inputs(c, randomness, sectors.first(std::min<size_t>(1, sectors.size())), 0);
  const size_t first = k * c.sector_count;
  if (first >= sectors.size())
    throw std::invalid_argument("fallback PoSt: partition " + str(k) + " has no sectors");
  const size_t count = std::min(c.sector_count, sectors.size() - first);
  return post_partition_public_inputs(c, randomness, sectors.subspan(first, count), first);
}

void verify_post_vanilla(const PostConfig& c, const Domain& randomness,
                         std::span<const FallbackPoStSectorProof> proofs, uint64_t first_index) {
  const size_t base_levels = blank_path(c).base.size();
  for (size_t i = 0; i < proofs.size(); i++) {
    const FallbackPoStSectorProof& fp = proofs[i];
    const std::string at = "vanilla_proofs[" + str(i) + "] (sector " + str(fp.sector_id) + ")";
    auto fail = [&](const std::string& field, const std::string& msg) {
      throw std::invalid_argument(at + " " + field + ": " + msg);
    };
    if (fp.sectors.size() != 1)
      fail("vanilla_proof.sectors", str(fp.sectors.size()) + " entries, expected 1");
    const PostSectorProof& sp = fp.sectors[0];
    const auto want = post_vanilla_challenges(c, randomness, fp.sector_id, first_index + i);
    if (sp.inclusion_proofs.size() != want.size())
      fail("inclusion_proofs", str(sp.inclusion_proofs.size()) + " proofs, expected " + str(want.size()));
    auto fr = [&](const Domain& d, const char* field) { return domain_to_fr(d, at + " " + field); };
    const ff::Fr pre[2] = {fr(sp.comm_c, "comm_c"), fr(sp.comm_r_last, "comm_r_last")};
    if (poseidon_hash(pre) != fr(fp.comm_r, "comm_r"))
      fail("comm_r", "is not Poseidon2(comm_c, comm_r_last)");
    for (size_t n = 0; n < want.size(); n++) {
      const MerkleProof& p = sp.inclusion_proofs[n];
      const std::string field = "inclusion_proofs[" + str(n) + "]";
      if (p.root != sp.comm_r_last) fail(field + ".root", "is not comm_r_last");
      try {
        check_poseidon_proof(p, &c.shape);
      } catch (const std::exception& e) {
        fail(field, e.what());
      }
      // The path must also have the tree's full depth (check_poseidon_proof checks arities).
      if (p.base.size() != base_levels)
        fail(field, str(p.base.size()) + " base levels, the " + str(c.sector_size) + "-byte tree has " +
                        str(base_levels));
      const uint64_t leaf = merkle_proof_leaf_index(p);
      if (leaf != want[n])
        fail(field, "opens leaf " + str(leaf) + ", the randomness challenges leaf " + str(want[n]));
    }
  }
}

}  // namespace cuzk::filecoin
