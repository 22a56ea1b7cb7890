#include "gadgets/por.hpp"

#include <stdexcept>
#include <string>

#include "gadgets/insertion.hpp"
#include "gadgets/multipack.hpp"
#include "gadgets/poseidon.hpp"
#include "gadgets/sha256_domain.hpp"

namespace cuzk::gadgets {

namespace {

size_t log2_exact(size_t n) {
  if (n == 0 || (n & (n - 1))) throw std::invalid_argument("por: arity must be a power of two");
  return size_t(__builtin_ctzll(n));
}

AllocatedNum allocated(ConstraintSystem& cs, const PorValue& v, const char* ns) {
  if (v.var) return *v.var;
  return in_ns(cs, ns, [&] { return AllocatedNum::alloc(cs, v.val); });
}

// SubPath::synthesize: returns the new current node; appends the index bits.
AllocatedNum sub_path(ConstraintSystem& cs, size_t arity, const std::vector<MerklePathLevel>& levels,
                      AllocatedNum cur, std::vector<Boolean>& bits, LevelHash hash) {
  if (arity == 0) {
    if (!levels.empty()) throw std::invalid_argument("por: levels given for an absent sub/top tree");
    return cur;
  }
  const size_t nbits = log2_exact(arity);
  for (size_t i = 0; i < levels.size(); i++) {
    const MerklePathLevel& level = levels[i];
    if (level.siblings.size() != arity - 1) throw std::invalid_argument("por: wrong number of siblings");
    Namespace ns(cs, [&] { return "merkle tree hash " + std::to_string(i); });
    std::vector<Boolean> index_bits;
    for (size_t k = 0; k < nbits; k++) {
      std::optional<bool> b;
      if (level.index) b = (*level.index >> k) & 1;
      index_bits.push_back(in_ns(
          cs, [&] { return "index bit " + std::to_string(k); }, [&] { return AllocatedBit::alloc(cs, b); }));
    }
    bits.insert(bits.end(), index_bits.begin(), index_bits.end());
    std::vector<AllocatedNum> path;
    for (size_t k = 0; k < level.siblings.size(); k++)
      path.push_back(in_ns(
          cs, [&] { return "path element " + std::to_string(k); },
          [&] { return AllocatedNum::alloc(cs, level.siblings[k]); }));
    std::vector<AllocatedNum> inserted = insert(cs, cur, index_bits, path);
    cur = in_ns(cs, "computation of commitment hash", [&] { return hash(cs, inserted, i); });
  }
  return cur;
}

}  // namespace

MerkleAuthPath MerkleAuthPath::blank(size_t base_arity, size_t sub_arity, size_t top_arity, size_t leaves) {
  MerkleAuthPath p;
  p.base_arity = base_arity;
  p.sub_arity = sub_arity;
  p.top_arity = top_arity;
  size_t base_leaves = leaves / ((sub_arity ? sub_arity : 1) * (top_arity ? top_arity : 1));
  size_t levels = 0;
  for (size_t n = 1; n < base_leaves; n *= base_arity) levels++;
  p.base.assign(levels, MerklePathLevel{std::vector<std::optional<Fr>>(base_arity - 1), std::nullopt});
  if (sub_arity)
    p.sub.assign(1, MerklePathLevel{std::vector<std::optional<Fr>>(sub_arity - 1), std::nullopt});
  if (top_arity)
    p.top.assign(1, MerklePathLevel{std::vector<std::optional<Fr>>(top_arity - 1), std::nullopt});
  return p;
}

void por_circuit(ConstraintSystem& cs, const PorValue& value, const MerkleAuthPath& path,
                 const PorValue& root, bool private_root, LevelHash hash) {
  if (path.top_arity && !path.sub_arity) throw std::invalid_argument("por: a top tree needs a sub tree");
  AllocatedNum cur = allocated(cs, value, "value");
  std::vector<Boolean> bits;
  // The namespaces are entered even for absent levels, as upstream does.
  cur = in_ns(cs, "base", [&] { return sub_path(cs, path.base_arity, path.base, cur, bits, hash); });
  cur = in_ns(cs, "sub", [&] { return sub_path(cs, path.sub_arity, path.sub, cur, bits, hash); });
  cur = in_ns(cs, "top", [&] { return sub_path(cs, path.top_arity, path.top, cur, bits, hash); });
  in_ns(cs, "path", [&] { pack_into_inputs(cs, bits); });
  AllocatedNum rt = allocated(cs, root, "root_value");
  cs.enforce("enforce root is correct", cur.var, Variable::one(), rt.var);  // constraint::equal
  if (!private_root) in_ns(cs, "root", [&] { rt.inputize(cs); });
}

void por_poseidon(ConstraintSystem& cs, const PorValue& value, const MerkleAuthPath& path,
                  const PorValue& root, bool private_root, PoseidonConstantsFor constants) {
  auto hash = [&](ConstraintSystem& c, std::span<const AllocatedNum> children, size_t) {
    const PoseidonConstants& k = constants(children.size());
    Fr tag = pow2(children.size()) - Fr::one();  // MerkleTree domain tag 2^arity - 1
    return poseidon_hash(c, children, k, tag);
  };
  por_circuit(cs, value, path, root, private_root, hash);
}

void por_sha256(ConstraintSystem& cs, const PorValue& value, const MerkleAuthPath& path, const PorValue& root,
                bool private_root) {
  auto hash = [](ConstraintSystem& c, std::span<const AllocatedNum> children, size_t) {
    return sha256_hash_leaves(c, children);
  };
  por_circuit(cs, value, path, root, private_root, hash);
}

}  // namespace cuzk::gadgets
