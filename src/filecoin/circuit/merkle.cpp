#include "filecoin/circuit/merkle.hpp"

#include <stdexcept>

#include "filecoin/common/domain.hpp"
#include "filecoin/hash/poseidon_constants.hpp"
#include "gadgets/constraint.hpp"
#include "gadgets/poseidon.hpp"

namespace cuzk::filecoin::circuit {

using gadgets::AllocatedNum;
using gadgets::MerkleAuthPath;

const gadgets::PoseidonConstants& constants_for(size_t arity) { return filecoin::poseidon_constants(arity); }

ff::Fr merkle_tag(size_t arity) { return gadgets::pow2(arity) - ff::Fr::one(); }

MerkleAuthPath merkle_auth_path(const MerkleProof& p, const MerkleAuthPath& expected,
                                const std::string& what) {
  auto bad = [&](const std::string& msg) { throw std::invalid_argument(what + ": " + msg); };
  auto str = [](size_t i) { return std::to_string(i); };
  MerkleProofShape shape = expected.top_arity   ? MerkleProofShape::Top
                           : expected.sub_arity ? MerkleProofShape::Sub
                                                : MerkleProofShape::Single;
  if (p.shape != shape) bad("wrong Merkle proof shape (Single/Sub/Top) for the tree");
  MerkleAuthPath out = expected;
  auto convert = [&](const std::vector<MerklePathElement>& in, std::vector<gadgets::MerklePathLevel>& levels,
                     size_t arity, const char* part) {
    if (in.size() != levels.size())
      bad(std::string(part) + " path has " + str(in.size()) + " levels, expected " + str(levels.size()));
    for (size_t l = 0; l < in.size(); l++) {
      if (in[l].hashes.size() != arity - 1)
        bad(std::string(part) + " level " + str(l) + " has " + str(in[l].hashes.size()) +
            " siblings, expected " + str(arity - 1));
      if (in[l].index >= arity) bad(std::string(part) + " level " + str(l) + " index out of range");
      levels[l].index = size_t(in[l].index);
      for (size_t k = 0; k < arity - 1; k++)
        levels[l].siblings[k] = domain_to_fr(in[l].hashes[k], what.c_str());
    }
  };
  convert(p.base, out.base, expected.base_arity, "base");
  convert(p.sub, out.sub, expected.sub_arity, "sub");
  convert(p.top, out.top, expected.top_arity, "top");
  return out;
}

void inclusion_poseidon(r1cs::ConstraintSystem& cs, const MerkleAuthPath& path, const AllocatedNum& root,
                        const AllocatedNum& leaf) {
  gadgets::por_poseidon(cs, gadgets::PorValue{leaf, std::nullopt}, path,
                        gadgets::PorValue{root, std::nullopt}, true, &constants_for);
}

void enforce_comm_r(r1cs::ConstraintSystem& cs, const AllocatedNum& comm_r, const AllocatedNum& comm_c,
                    const AllocatedNum& comm_r_last) {
  AllocatedNum h = gadgets::in_ns(cs, "H_comm_c_comm_r_last", [&] {
    const AllocatedNum pre[2] = {comm_c, comm_r_last};
    return gadgets::poseidon_hash(cs, pre, constants_for(2), merkle_tag(2));
  });
  gadgets::enforce_equal(cs, "enforce comm_r = H(comm_c || comm_r_last)", comm_r, h);
}

}  // namespace cuzk::filecoin::circuit
