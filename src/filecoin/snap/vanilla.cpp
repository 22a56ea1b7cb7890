#include "filecoin/snap/vanilla.hpp"

#include <stdexcept>

#include "filecoin/bincode/bincode.hpp"
#include "filecoin/common/domain.hpp"
#include "filecoin/snap/challenges.hpp"
#include "filecoin/tree/commitments.hpp"
#include "filecoin/tree/poseidon_tree.hpp"
#include "filecoin/tree/tree_d.hpp"

namespace cuzk::filecoin {

SnapPartitionProof read_snap_partition_proof(std::span<const uint8_t> bytes, const std::string& what) {
  BincodeReader r(bytes, what);
  SnapPartitionProof p;
  p.comm_c = r.domain("comm_c");
  p.apex_leafs.resize(r.len("apex_leafs", 32));
  for (auto& d : p.apex_leafs) d = r.domain("apex_leafs[]");
  const uint64_t n = r.len("challenge_proofs", 3 * (4 + 64 + 8));  // three MerkleProofs, each at least that
  p.challenge_proofs.reserve(n);
  for (uint64_t i = 0; i < n; i++) {
    SnapChallengeProof cp;
    cp.proof_r_old = r.merkle_proof("challenge_proofs[].proof_r_old");
    cp.proof_d_new = r.merkle_proof("challenge_proofs[].proof_d_new");
    cp.proof_r_new = r.merkle_proof("challenge_proofs[].proof_r_new");
    p.challenge_proofs.push_back(std::move(cp));
  }
  r.expect_end();
  return p;
}

std::string write_snap_partition_proof(const SnapPartitionProof& p) {
  BincodeWriter w;
  w.domain(p.comm_c);
  w.u64(p.apex_leafs.size());
  for (const auto& d : p.apex_leafs) w.domain(d);
  w.u64(p.challenge_proofs.size());
  for (const auto& cp : p.challenge_proofs) {
    w.merkle_proof(cp.proof_r_old);
    w.merkle_proof(cp.proof_d_new);
    w.merkle_proof(cp.proof_r_new);
  }
  return w.take();
}

namespace {

std::string str(uint64_t v) { return std::to_string(v); }

// The nodes a TreeD path passes through, leaf (level 0) to root.
std::vector<Domain> tree_d_path_nodes(const MerkleProof& p) {
  std::vector<Domain> out{p.leaf};
  for (const auto& e : p.base)
    out.push_back(e.index ? tree_d_node(e.hashes[0], out.back()) : tree_d_node(out.back(), e.hashes[0]));
  return out;
}

}  // namespace

void verify_snap_vanilla(const SnapConfig& c, const SnapPublic& pub, const SnapPartitionProof& p, size_t k) {
  auto fail = [&](const std::string& field, const std::string& msg) {
    throw std::invalid_argument("partition " + str(k) + " " + field + ": " + msg);
  };
  if (k >= c.partitions)
    fail("k", "a " + str(c.sector_size) + "-byte update has " + str(c.partitions) + " partitions");
  auto fr = [&](const Domain& d, const std::string& field) {
    return domain_to_fr(d, "partition " + str(k) + " " + field);
  };
  const Fr comm_r_old = fr(pub.comm_r_old, "comm_r_old"), comm_r_new = fr(pub.comm_r_new, "comm_r_new");
  const Fr comm_d_new = fr(pub.comm_d_new, "comm_d_new");
  const Fr comm_c = fr(p.comm_c, "comm_c");
  if (p.apex_leafs.size() != c.apex_leaf_count)
    fail("apex_leafs", str(p.apex_leafs.size()) + " leaves, expected " + str(c.apex_leaf_count));
  if (p.challenge_proofs.size() != c.challenge_count)
    fail("challenge_proofs", str(p.challenge_proofs.size()) + " proofs, expected " + str(c.challenge_count));

  // The roots of challenge 0 stand for the partition (the circuit witnesses them once).
  const Domain root_r_old = p.challenge_proofs[0].proof_r_old.root,
               root_r_new = p.challenge_proofs[0].proof_r_new.root;
  if (comm_r(comm_c, fr(root_r_old, "challenge_proofs[0].proof_r_old.root")) != comm_r_old)
    fail("comm_r_old", "is not Poseidon2(comm_c, root of TreeROld)");
  if (comm_r(comm_c, fr(root_r_new, "challenge_proofs[0].proof_r_new.root")) != comm_r_new)
    fail("comm_r_new", "is not Poseidon2(comm_c, root of TreeRNew)");

  // The apex tree over this partition's apex leaves.
  std::vector<Domain> row = p.apex_leafs;
  while (row.size() > 1) {
    std::vector<Domain> up;
    for (size_t i = 0; i < row.size(); i += 2) up.push_back(tree_d_node(row[i], row[i + 1]));
    row = std::move(up);
  }
  const Domain apex_root = row[0];

  const size_t r_sub_top = (c.shape.sub_arity ? __builtin_ctzll(c.shape.sub_arity) : 0) +
                           (c.shape.top_arity ? __builtin_ctzll(c.shape.top_arity) : 0);
  const size_t r_base_levels = (c.challenge_bits() - r_sub_top) / size_t(__builtin_ctzll(c.shape.base_arity));
  const Fr phi = snap_phi(comm_d_new, comm_r_old);
  const auto challenges = snap_challenges(c, comm_r_new, k);
  std::vector<Domain> partition_path;  // challenge 0's TreeD siblings above the apex root
  for (size_t i = 0; i < challenges.size(); i++) {
    const SnapChallengeProof& cp = p.challenge_proofs[i];
    const std::string at = "challenge_proofs[" + str(i) + "]";
    const uint64_t node = challenges[i];
    auto check_r = [&](const MerkleProof& m, const Domain& root, const char* name) {
      const std::string field = at + "." + name;
      if (m.root != root) fail(field + ".root", "differs from challenge 0's root");
      try {
        check_poseidon_proof(m, &c.shape);
      } catch (const std::exception& e) {
        fail(field, e.what());
      }
      if (m.base.size() != r_base_levels)
        fail(field, str(m.base.size()) + " base levels, the tree has " + str(r_base_levels));
      if (merkle_proof_leaf_index(m) != node)
        fail(field, "opens node " + str(merkle_proof_leaf_index(m)) + ", the challenge is node " + str(node));
    };
    check_r(cp.proof_r_old, root_r_old, "proof_r_old");
    check_r(cp.proof_r_new, root_r_new, "proof_r_new");

    const MerkleProof& d = cp.proof_d_new;
    if (d.root != pub.comm_d_new) fail(at + ".proof_d_new.root", "is not comm_d_new");
    try {
      check_tree_d_proof(d);
    } catch (const std::exception& e) {
      fail(at + ".proof_d_new", e.what());
    }
    if (d.base.size() != c.challenge_bits())
      fail(at + ".proof_d_new", str(d.base.size()) + " levels, TreeD has " + str(c.challenge_bits()));
    if (merkle_proof_leaf_index(d) != node)
      fail(at + ".proof_d_new",
           "opens node " + str(merkle_proof_leaf_index(d)) + ", the challenge is node " + str(node));

    // Encoding: new = old + data·rho(phi, high(node)).
    const Fr old_leaf = fr(cp.proof_r_old.leaf, at + ".proof_r_old.leaf");
    const Fr data = fr(d.leaf, at + ".proof_d_new.leaf");
    if (old_leaf + data * snap_rho(phi, snap_node_high(c, node)) !=
        fr(cp.proof_r_new.leaf, at + ".proof_r_new.leaf"))
      fail(at + ".proof_r_new.leaf", "is not the encoding of proof_r_old.leaf and proof_d_new.leaf");

    // The path meets the apex leaves and, above them, this partition's apex root.
    const std::vector<Domain> nodes = tree_d_path_nodes(d);
    const size_t apex_index = (node >> c.apex_level()) & (c.apex_leaf_count - 1);
    if (nodes[c.apex_level()] != p.apex_leafs[apex_index])
      fail("apex_leafs[" + str(apex_index) + "]", "is not the TreeDNew node on " + at + "'s path");
    if (nodes[c.random_bits()] != apex_root)
      fail("apex_leafs", "do not hash to the TreeDNew node on " + at + "'s path");
    std::vector<Domain> above;
    for (size_t l = c.random_bits(); l < d.base.size(); l++) above.push_back(d.base[l].hashes[0]);
    if (i == 0) partition_path = above;
    else if (above != partition_path)
      fail(at + ".proof_d_new", "its path above the apex root differs from challenge 0's");
  }
}

}  // namespace cuzk::filecoin
