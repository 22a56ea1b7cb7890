#include "filecoin/porep/create_label.hpp"

#include <stdexcept>
#include <string>

#include "gadgets/multipack.hpp"
#include "gadgets/sha256.hpp"
#include "gadgets/sha256_domain.hpp"
#include "gadgets/uint32.hpp"

namespace cuzk::filecoin::circuit {

using gadgets::Boolean;

gadgets::AllocatedNum create_label_circuit(r1cs::ConstraintSystem& cs, std::span<const Boolean> replica_id,
                                           const std::vector<std::vector<Boolean>>& parents,
                                           uint32_t layer_index, const gadgets::UInt64& node) {
  if (replica_id.size() < 32 || replica_id.size() > 256)
    throw std::invalid_argument("create_label_circuit: replica id must have 32..256 bits, got " +
                                std::to_string(replica_id.size()));
  if (parents.size() != kTotalParents)
    throw std::invalid_argument("create_label_circuit: expected 37 parents, got " +
                                std::to_string(parents.size()));

  std::vector<Boolean> msg;
  msg.reserve((2 + kTotalParents) * 256);
  msg.assign(replica_id.begin(), replica_id.end());
  msg.resize(256, Boolean::constant(false));
  // The layer is a constant word, so its bits are constants too (no constraints).
  for (const Boolean& b : gadgets::UInt32::constant(layer_index).into_bits_be()) msg.push_back(b);
  for (const Boolean& b : node.to_bits_be()) msg.push_back(b);
  msg.resize(512, Boolean::constant(false));
  for (const auto& p : parents) {
    if (p.size() > 256) throw std::invalid_argument("create_label_circuit: a parent has more than 256 bits");
    msg.insert(msg.end(), p.begin(), p.end());
    msg.resize((msg.size() + 255) / 256 * 256, Boolean::constant(false));
  }

  std::vector<Boolean> digest = gadgets::in_ns(cs, "hash", [&] { return gadgets::sha256(cs, msg); });
  // Big-endian digest bits -> the LE integer's bit order; keep Fr::CAPACITY bits.
  std::vector<Boolean> le = gadgets::reverse_bit_numbering(digest);
  le.resize(254);
  return gadgets::in_ns(cs, "result_num", [&] { return gadgets::pack_bits(cs, le); });
}

}  // namespace cuzk::filecoin::circuit
