#include "filecoin/snap/circuit.hpp"

#include <functional>
#include <stdexcept>
#include <string>

#include "filecoin/circuit/merkle.hpp"
#include "filecoin/common/domain.hpp"
#include "filecoin/snap/gadgets.hpp"
#include "gadgets/insertion.hpp"
#include "gadgets/multipack.hpp"
#include "gadgets/poseidon.hpp"

namespace cuzk::filecoin {

using ff::Fr;
using gadgets::AllocatedBit;
using gadgets::AllocatedNum;
using gadgets::Boolean;
using gadgets::in_ns;
using r1cs::ConstraintSystem;
using r1cs::LC;
using r1cs::Variable;
namespace sg = snap_gadgets;

namespace {

std::string str(size_t v) { return std::to_string(v); }
size_t log2_exact(size_t n) { return n ? size_t(__builtin_ctzll(n)) : 0; }

// TreeR levels as (arity, count): base levels, then the sub and top level.
std::vector<size_t> tree_r_arities(const SnapConfig& c) {
  const size_t base_levels =
      (c.challenge_bits() - log2_exact(c.shape.sub_arity) - log2_exact(c.shape.top_arity)) /
      log2_exact(c.shape.base_arity);
  std::vector<size_t> out(base_levels, c.shape.base_arity);
  if (c.shape.sub_arity) out.push_back(c.shape.sub_arity);
  if (c.shape.top_arity) out.push_back(c.shape.top_arity);
  return out;
}

Fr fr_or_throw(const Domain& d, size_t k, const std::string& field) {
  return domain_to_fr(d, "partition " + str(k) + " " + field);
}

std::vector<AllocatedNum> alloc_all(ConstraintSystem& cs, const std::vector<std::optional<Fr>>& vals,
                                    const std::function<std::string(size_t)>& name) {
  std::vector<AllocatedNum> out;
  out.reserve(vals.size());
  for (size_t i = 0; i < vals.size(); i++)
    out.push_back(in_ns(
        cs, [&] { return name(i); }, [&] { return AllocatedNum::alloc(cs, vals[i]); }));
  return out;
}

}  // namespace

EmptySectorUpdateCircuit::EmptySectorUpdateCircuit(const SnapConfig& c) : cfg_(c) {
  apex_leafs_.assign(c.apex_leaf_count, std::nullopt);
  partition_path_.assign(c.partition_bits(), std::nullopt);
  Challenge blank;
  for (size_t arity : tree_r_arities(c)) blank.path_r_old.emplace_back(arity - 1);
  blank.path_r_new = blank.path_r_old;
  blank.path_d.assign(c.apex_level(), std::nullopt);
  challenges_.assign(c.challenge_count, blank);
}

EmptySectorUpdateCircuit::EmptySectorUpdateCircuit(const SnapConfig& c, size_t k, const SnapPublic& pub,
                                                   const SnapPartitionProof& p)
    : cfg_(c) {
  auto bad = [&](const std::string& field, const std::string& msg) {
    throw std::invalid_argument("partition " + str(k) + " " + field + ": " + msg);
  };
  if (k >= c.partitions) bad("k", "only " + str(c.partitions) + " partitions");
  if (p.apex_leafs.size() != c.apex_leaf_count) bad("apex_leafs", str(p.apex_leafs.size()) + " leaves");
  if (p.challenge_proofs.size() != c.challenge_count)
    bad("challenge_proofs", str(p.challenge_proofs.size()) + " proofs");
  k_and_h_select_ = Fr::from_u64(snap_k_and_h_select(c, k));
  comm_r_old_ = fr_or_throw(pub.comm_r_old, k, "comm_r_old");
  comm_d_new_ = fr_or_throw(pub.comm_d_new, k, "comm_d_new");
  comm_r_new_ = fr_or_throw(pub.comm_r_new, k, "comm_r_new");
  comm_c_ = fr_or_throw(p.comm_c, k, "comm_c");
  root_r_old_ =
      fr_or_throw(p.challenge_proofs[0].proof_r_old.root, k, "challenge_proofs[0].proof_r_old.root");
  root_r_new_ =
      fr_or_throw(p.challenge_proofs[0].proof_r_new.root, k, "challenge_proofs[0].proof_r_new.root");
  for (size_t i = 0; i < p.apex_leafs.size(); i++)
    apex_leafs_.push_back(fr_or_throw(p.apex_leafs[i], k, "apex_leafs[" + str(i) + "]"));

  const std::vector<size_t> arities = tree_r_arities(c);
  const MerkleProofShape shape = c.shape.top_arity   ? MerkleProofShape::Top
                                 : c.shape.sub_arity ? MerkleProofShape::Sub
                                                     : MerkleProofShape::Single;
  auto tree_r_path = [&](const MerkleProof& m, const std::string& field) {
    if (m.shape != shape) bad(field, "wrong Merkle proof shape (Single/Sub/Top) for TreeR");
    std::vector<const MerklePathElement*> levels;
    for (const auto* part : {&m.base, &m.sub, &m.top})
      for (const auto& e : *part) levels.push_back(&e);
    if (levels.size() != arities.size())
      bad(field, str(levels.size()) + " levels, TreeR has " + str(arities.size()));
    Path out;
    for (size_t l = 0; l < levels.size(); l++) {
      if (levels[l]->hashes.size() != arities[l] - 1)
        bad(field, "level " + str(l) + " has " + str(levels[l]->hashes.size()) + " siblings");
      std::vector<Opt> sib;
      for (const auto& h : levels[l]->hashes) sib.push_back(fr_or_throw(h, k, field));
      out.push_back(std::move(sib));
    }
    return out;
  };
  for (size_t i = 0; i < p.challenge_proofs.size(); i++) {
    const SnapChallengeProof& cp = p.challenge_proofs[i];
    const std::string at = "challenge_proofs[" + str(i) + "]";
    Challenge ch;
    ch.leaf_r_old = fr_or_throw(cp.proof_r_old.leaf, k, at + ".proof_r_old.leaf");
    ch.leaf_d_new = fr_or_throw(cp.proof_d_new.leaf, k, at + ".proof_d_new.leaf");
    ch.path_r_old = tree_r_path(cp.proof_r_old, at + ".proof_r_old");
    ch.path_r_new = tree_r_path(cp.proof_r_new, at + ".proof_r_new");
    const auto& d = cp.proof_d_new.base;
    if (cp.proof_d_new.shape != MerkleProofShape::Single || d.size() != c.challenge_bits())
      bad(at + ".proof_d_new", "not a Single proof of " + str(c.challenge_bits()) + " levels");
    for (size_t l = 0; l < d.size(); l++)
      if (d[l].hashes.size() != 1) bad(at + ".proof_d_new", "level " + str(l) + " is not binary");
    for (size_t l = 0; l < c.apex_level(); l++)
      ch.path_d.push_back(fr_or_throw(d[l].hashes[0], k, at + ".proof_d_new"));
    if (i == 0)
      for (size_t l = c.random_bits(); l < d.size(); l++)
        partition_path_.push_back(fr_or_throw(d[l].hashes[0], k, at + ".proof_d_new"));
    challenges_.push_back(std::move(ch));
  }
}

void EmptySectorUpdateCircuit::synthesize(ConstraintSystem& cs) const {
  const SnapConfig& c = cfg_;
  const auto hs = snap_hs(c.nodes);
  const size_t pbits = c.partition_bits();

  // Public k_and_h_select and its bits: partition bits, then the six h_select bits.
  AllocatedNum khs = in_ns(cs, "k_and_h_select", [&] { return AllocatedNum::alloc(cs, k_and_h_select_); });
  in_ns(cs, "k_and_h_select (public input)", [&] { khs.inputize(cs); });
  std::optional<Fr::Repr> khs_repr;
  if (k_and_h_select_) khs_repr = k_and_h_select_->to_canonical();
  std::vector<AllocatedBit> khs_bits;
  LC decomp;
  for (size_t i = 0; i < pbits + hs.size(); i++) {
    std::optional<bool> b;
    if (khs_repr) b = ((*khs_repr)[i / 64] >> (i % 64)) & 1;
    khs_bits.push_back(in_ns(
        cs, [&] { return "k_and_h_select_bit_" + str(i); }, [&] { return AllocatedBit::alloc(cs, b); }));
    decomp.add(gadgets::pow2(i), khs_bits.back().var);
  }
  cs.enforce("k_and_h_select binary decomp", std::move(decomp), Variable::one(), khs.var);
  const std::vector<AllocatedBit> partition_bits(khs_bits.begin(), khs_bits.begin() + std::ptrdiff_t(pbits));
  const std::vector<AllocatedBit> h_select_bits(khs_bits.begin() + std::ptrdiff_t(pbits), khs_bits.end());
  const std::vector<Boolean> partition_booleans(partition_bits.begin(), partition_bits.end());
  AllocatedNum partition =
      in_ns(cs, "pack partition bits", [&] { return gadgets::pack_bits(cs, partition_booleans); });

  auto public_num = [&](const char* name, const char* input_name, const Opt& v) {
    AllocatedNum n = in_ns(cs, name, [&] { return AllocatedNum::alloc(cs, v); });
    in_ns(cs, input_name, [&] { n.inputize(cs); });
    return n;
  };
  AllocatedNum comm_r_old = public_num("comm_r_old", "comm_r_old_input", comm_r_old_);
  AllocatedNum comm_d_new = public_num("comm_d_new", "comm_d_new_input", comm_d_new_);
  AllocatedNum comm_r_new = public_num("comm_r_new", "comm_r_new_input", comm_r_new_);
  AllocatedNum phi = in_ns(cs, "phi", [&] { return sg::randomness_hash(cs, comm_d_new, comm_r_old); });

  AllocatedNum comm_c = in_ns(cs, "comm_c", [&] { return AllocatedNum::alloc(cs, comm_c_); });
  AllocatedNum root_r_old = in_ns(cs, "root_r_old", [&] { return AllocatedNum::alloc(cs, root_r_old_); });
  AllocatedNum root_r_new = in_ns(cs, "root_r_new", [&] { return AllocatedNum::alloc(cs, root_r_new_); });
  std::vector<AllocatedNum> apex = alloc_all(cs, apex_leafs_, [](size_t i) { return "apex_leaf_" + str(i); });
  std::vector<AllocatedNum> ppath =
      alloc_all(cs, partition_path_, [](size_t i) { return "partition_path_sibling_" + str(i); });

  // comm_r = H(comm_c, root_r) for the old and the new replica (calc·ONE = public).
  auto comm_r_check = [&](const char* ns, const char* eq, const AllocatedNum& root, const AllocatedNum& pub) {
    AllocatedNum calc = in_ns(cs, ns, [&] {
      const AllocatedNum pre[2] = {comm_c, root};
      return gadgets::poseidon_hash(cs, pre, circuit::constants_for(2), circuit::merkle_tag(2));
    });
    cs.enforce(eq, calc.var, Variable::one(), pub.var);
  };
  comm_r_check("comm_r_old_calc", "enforce comm_r_old_calc == comm_r_old", root_r_old, comm_r_old);
  comm_r_check("comm_r_new_calc", "enforce comm_r_new_calc == comm_r_new", root_r_new, comm_r_new);

  in_ns(cs, "apex_gadget", [&] { sg::apex_por(cs, apex, partition_bits, ppath, comm_d_new); });
  const auto generated = in_ns(cs, "gen_challenge_bits", [&] {
    return sg::gen_challenge_bits(cs, comm_r_new, partition, c.challenge_count, c.random_bits());
  });

  const sg::TreeArities tree_r{c.shape.base_arity, c.shape.sub_arity, c.shape.top_arity, false};
  const sg::TreeArities tree_d{2, 0, 0, true};
  for (size_t ci = 0; ci < challenges_.size(); ci++) {
    const Challenge& ch = challenges_[ci];
    auto tag = [&] { return "(c_index=" + str(ci) + ")"; };
    std::vector<AllocatedBit> c_bits = generated[ci];
    c_bits.insert(c_bits.end(), partition_bits.begin(), partition_bits.end());

    AllocatedNum c_high = in_ns(
        cs, [&] { return "get_challenge_high_bits " + tag(); },
        [&] { return sg::challenge_high_bits(cs, c_bits, h_select_bits, hs); });
    AllocatedNum rho = in_ns(
        cs, [&] { return "rho " + tag(); }, [&] { return sg::randomness_hash(cs, phi, c_high); });
    AllocatedNum leaf_r_old = in_ns(
        cs, [&] { return "leaf_r_old " + tag(); }, [&] { return AllocatedNum::alloc(cs, ch.leaf_r_old); });
    AllocatedNum leaf_d_new = in_ns(
        cs, [&] { return "leaf_d_new " + tag(); }, [&] { return AllocatedNum::alloc(cs, ch.leaf_d_new); });
    AllocatedNum leaf_r_new = in_ns(
        cs, [&] { return "leaf_r_new " + tag(); },
        [&] { return sg::label_r_new(cs, leaf_r_old, leaf_d_new, rho); });

    auto tree_r_por = [&](const Path& path, const char* name, const char* por, const AllocatedNum& leaf,
                          const AllocatedNum& root) {
      std::vector<std::vector<AllocatedNum>> sib;
      for (size_t row = 0; row < path.size(); row++)
        sib.push_back(alloc_all(cs, path[row], [&](size_t s) {
          return std::string(name) + " sibling (c_index=" + str(ci) + ", tree_row=" + str(row) +
                 ", sibling_index=" + str(s) + ")";
        }));
      in_ns(
          cs, [&] { return std::string(por) + " " + tag(); },
          [&] { sg::por_no_challenge_input(cs, tree_r, c_bits, leaf, sib, root); });
    };
    tree_r_por(ch.path_r_old, "path_r_old", "por tree_r_old", leaf_r_old, root_r_old);
    tree_r_por(ch.path_r_new, "path_r_new", "por tree_r_new", leaf_r_new, root_r_new);

    const size_t start = c.apex_level();
    const std::vector<Boolean> apex_bits(c_bits.begin() + std::ptrdiff_t(start),
                                         c_bits.begin() + std::ptrdiff_t(start + c.apex_bits()));
    AllocatedNum apex_leaf = in_ns(
        cs, [&] { return "select_apex_leaf " + tag(); },
        [&] { return gadgets::select(cs, apex, apex_bits); });
    std::vector<std::vector<AllocatedNum>> to_apex;
    for (size_t row = 0; row < ch.path_d.size(); row++)
      to_apex.push_back({in_ns(
          cs,
          [&] { return "path_to_apex_leaf sibling (c_index=" + str(ci) + ", tree_row=" + str(row) + ")"; },
          [&] { return AllocatedNum::alloc(cs, ch.path_d[row]); })});
    const std::vector<AllocatedBit> bits_to_apex(c_bits.begin(), c_bits.begin() + std::ptrdiff_t(start));
    in_ns(
        cs, [&] { return "por to_apex_leaf " + tag(); },
        [&] { sg::por_no_challenge_input(cs, tree_d, bits_to_apex, leaf_d_new, to_apex, apex_leaf); });
  }
}

std::vector<ff::Fr> snap_public_inputs(const SnapConfig& c, size_t k, const SnapPublic& pub) {
  return {Fr::from_u64(snap_k_and_h_select(c, k)), fr_or_throw(pub.comm_r_old, k, "comm_r_old"),
          fr_or_throw(pub.comm_d_new, k, "comm_d_new"), fr_or_throw(pub.comm_r_new, k, "comm_r_new")};
}

}  // namespace cuzk::filecoin
