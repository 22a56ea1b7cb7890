#include "filecoin/snap/gadgets.hpp"

#include <stdexcept>
#include <string>

#include "filecoin/circuit/merkle.hpp"
#include "filecoin/hash/poseidon.hpp"
#include "gadgets/insertion.hpp"
#include "gadgets/multipack.hpp"
#include "gadgets/poseidon.hpp"
#include "gadgets/sha256_domain.hpp"

namespace cuzk::filecoin::snap_gadgets {

using gadgets::Boolean;
using gadgets::in_ns;
using gadgets::pow2;
using r1cs::LC;
using r1cs::Variable;

namespace {

std::string str(size_t v) { return std::to_string(v); }

size_t log2_exact(size_t n) { return size_t(__builtin_ctzll(n)); }

// Σ 2^i·bits[i].
LC packed(std::span<const AllocatedBit> bits) {
  LC lc;
  for (size_t i = 0; i < bits.size(); i++) lc.add(pow2(i), bits[i].var);
  return lc;
}

}  // namespace

std::vector<AllocatedBit> num_to_bits(ConstraintSystem& cs, const AllocatedNum& num) {
  std::vector<AllocatedBit> bits = gadgets::field_into_allocated_bits_le(cs, num.value);
  cs.enforce("binary decomp", packed(bits), Variable::one(), num.var);
  return bits;
}

AllocatedNum randomness_hash(ConstraintSystem& cs, const AllocatedNum& a, const AllocatedNum& b) {
  static const Fr tag = poseidon_tag_custom(1);
  const AllocatedNum pre[2] = {a, b};
  return gadgets::poseidon_hash(cs, pre, circuit::constants_for(2), tag);
}

void por_no_challenge_input(ConstraintSystem& cs, const TreeArities& tree, std::span<const AllocatedBit> bits,
                            const AllocatedNum& leaf, const std::vector<std::vector<AllocatedNum>>& path,
                            const AllocatedNum& root) {
  const size_t extra = (tree.sub ? 1 : 0) + (tree.top ? 1 : 0);
  if (path.size() < extra) throw std::invalid_argument("por_no_challenge_input: path too short for the tree");
  AllocatedNum cur = leaf;
  size_t next_bit = 0;
  for (size_t h = 0; h < path.size(); h++) {
    const size_t arity = h < path.size() - extra                  ? tree.base
                         : (tree.sub && h == path.size() - extra) ? tree.sub
                                                                  : tree.top;
    if (path[h].size() != arity - 1)
      throw std::invalid_argument("por_no_challenge_input: wrong sibling count");
    const size_t nbits = log2_exact(arity);
    if (next_bit + nbits > bits.size())
      throw std::invalid_argument("por_no_challenge_input: too few index bits");
    std::vector<Boolean> index(bits.begin() + std::ptrdiff_t(next_bit),
                               bits.begin() + std::ptrdiff_t(next_bit + nbits));
    next_bit += nbits;
    std::vector<AllocatedNum> preimage = in_ns(
        cs, [&] { return "merkle proof insert (height=" + str(h) + ")"; },
        [&] { return gadgets::insert(cs, cur, index, path[h]); });
    cur = in_ns(
        cs, [&] { return "merkle proof hash (height=" + str(h) + ")"; },
        [&] {
          if (tree.sha256) return gadgets::sha256_hash_leaves(cs, preimage);
          return gadgets::poseidon_hash(cs, preimage, circuit::constants_for(arity),
                                        circuit::merkle_tag(arity));
        });
  }
  if (next_bit != bits.size())
    throw std::invalid_argument("por_no_challenge_input: index bits and tree disagree");
  cs.enforce("calculated root == provided root", cur.var, Variable::one(), root.var);
}

void apex_por(ConstraintSystem& cs, std::span<const AllocatedNum> apex_leafs,
              std::span<const AllocatedBit> partition_bits, const std::vector<AllocatedNum>& partition_path,
              const AllocatedNum& comm_d) {
  std::vector<AllocatedNum> row(apex_leafs.begin(), apex_leafs.end());
  for (size_t r = 0; row.size() > 1; r++) {
    std::vector<AllocatedNum> up;
    for (size_t i = 0; i < row.size() / 2; i++)
      up.push_back(in_ns(
          cs, [&] { return "apex_tree generation hash (tree_row=" + str(r) + ", siblings=" + str(i) + ")"; },
          [&] {
            return gadgets::sha256_hash_leaves(cs, std::span<const AllocatedNum>(row).subspan(2 * i, 2));
          }));
    row = std::move(up);
  }
  std::vector<std::vector<AllocatedNum>> path;
  for (const auto& s : partition_path) path.push_back({s});
  in_ns(cs, "partition-tree por", [&] {
    por_no_challenge_input(cs, TreeArities{2, 0, 0, true}, partition_bits, row[0], path, comm_d);
  });
}

std::vector<std::vector<AllocatedBit>> gen_challenge_bits(ConstraintSystem& cs,
                                                          const AllocatedNum& comm_r_new,
                                                          const AllocatedNum& partition, size_t challenges,
                                                          size_t bits_per_challenge) {
  const size_t per_digest = 254 / bits_per_challenge;
  const uint64_t digests = (challenges + per_digest - 1) / per_digest;
  std::vector<std::vector<AllocatedBit>> out;
  for (uint64_t j = 0; j < digests; j++) {
    std::optional<Fr> index;
    if (partition.value) index = *partition.value * Fr::from_u64(digests) + Fr::from_u64(j);
    AllocatedNum digest_index = in_ns(
        cs, [&] { return "digest_index_" + str(j); }, [&] { return AllocatedNum::alloc(cs, index); });
    LC a;
    a.add(Fr::from_u64(digests), partition.var);
    a.add(Fr::from_u64(j), Variable::one());  // kept even when j = 0, as upstream's LC does
    cs.enforce([&] { return "digest_index_" + str(j) + " == k * digests_per_partition + " + str(j); },
               std::move(a), Variable::one(), digest_index.var);
    AllocatedNum digest = in_ns(
        cs, [&] { return "digest_" + str(j); },
        [&] { return randomness_hash(cs, comm_r_new, digest_index); });
    std::vector<AllocatedBit> bits = in_ns(
        cs, [&] { return "digest_" + str(j) + "_bits"; }, [&] { return num_to_bits(cs, digest); });
    const size_t take = j + 1 == digests ? challenges - out.size() : per_digest;
    for (size_t i = 0; i < take; i++)
      out.emplace_back(bits.begin() + std::ptrdiff_t(i * bits_per_challenge),
                       bits.begin() + std::ptrdiff_t((i + 1) * bits_per_challenge));
  }
  return out;
}

AllocatedNum challenge_high_bits(ConstraintSystem& cs, std::span<const AllocatedBit> c_bits,
                                 std::span<const AllocatedBit> h_select_bits, std::span<const size_t> hs) {
  if (h_select_bits.size() != hs.size())
    throw std::invalid_argument("challenge_high_bits: one h_select bit per h");
  const size_t n = c_bits.size();
  std::vector<AllocatedNum> scaled;
  for (size_t k = 0; k < hs.size(); k++) {
    const size_t h = hs[k];
    auto tag = [&] { return "(h=" + str(h) + ", k=" + str(k) + ")"; };
    std::vector<Boolean> top(c_bits.begin() + std::ptrdiff_t(n - h), c_bits.end());
    AllocatedNum c_high = in_ns(
        cs, [&] { return "c_high " + tag(); }, [&] { return gadgets::pack_bits(cs, top); });
    std::optional<Fr> v;
    if (h_select_bits[k].value && c_high.value) v = *h_select_bits[k].value ? *c_high.value : Fr::zero();
    AllocatedNum or_zero = in_ns(
        cs, [&] { return "c_high_or_zero " + tag(); }, [&] { return AllocatedNum::alloc(cs, v); });
    cs.enforce([&] { return "c_high_or_zero == c_high * h_select_bit " + tag(); }, c_high.var,
               h_select_bits[k].var, or_zero.var);
    scaled.push_back(or_zero);
  }
  std::optional<Fr> sum = Fr::zero();
  for (const auto& s : scaled) sum = sum && s.value ? std::optional<Fr>(*sum + *s.value) : std::nullopt;
  AllocatedNum selected = in_ns(cs, "c_high_selected", [&] { return AllocatedNum::alloc(cs, sum); });
  LC a;
  for (const auto& s : scaled) a.add(Fr::one(), s.var);
  cs.enforce("c_high_selected == dot(c_highs, h_select_bits)", std::move(a), Variable::one(), selected.var);
  return selected;
}

AllocatedNum label_r_new(ConstraintSystem& cs, const AllocatedNum& label_r_old,
                         const AllocatedNum& label_d_new, const AllocatedNum& rho) {
  AllocatedNum d_rho = in_ns(cs, "label_d_new * rho", [&] { return label_d_new.mul(cs, rho); });
  std::optional<Fr> v;
  if (label_r_old.value && d_rho.value) v = *label_r_old.value + *d_rho.value;
  AllocatedNum out = in_ns(cs, "label_r_new", [&] { return AllocatedNum::alloc(cs, v); });
  cs.enforce("label_r_new == label_r_old + label_d_new * rho", LC(label_r_old.var) + d_rho.var,
             Variable::one(), out.var);
  return out;
}

}  // namespace cuzk::filecoin::snap_gadgets
