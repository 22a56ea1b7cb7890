#include "gadgets/sha256_domain.hpp"

#include <string>

#include "gadgets/multipack.hpp"
#include "gadgets/sha256.hpp"

namespace cuzk::gadgets {

std::vector<Boolean> reverse_bit_numbering(std::span<const Boolean> bits) {
  std::vector<Boolean> padded(bits.begin(), bits.end());
  while (padded.size() % 8) padded.push_back(Boolean::constant(false));
  std::vector<Boolean> out;
  out.reserve(padded.size());
  for (size_t i = 0; i < padded.size(); i += 8)
    for (size_t k = 8; k-- > 0;) out.push_back(padded[i + k]);
  return out;
}

AllocatedNum sha256_hash_to_fr(ConstraintSystem& cs, std::span<const Boolean> bits) {
  std::vector<Boolean> be = in_ns(cs, "hash", [&] { return sha256(cs, bits); });
  std::vector<Boolean> le = reverse_bit_numbering(be);
  le.resize(254);  // Fr::CAPACITY
  return in_ns(cs, "pack_le", [&] { return pack_bits(cs, le); });
}

AllocatedNum sha256_hash_leaves(ConstraintSystem& cs, std::span<const AllocatedNum> leaves) {
  std::vector<Boolean> bits;
  for (size_t i = 0; i < leaves.size(); i++) {
    auto le = in_ns(
        cs, [&] { return std::to_string(i) + "_num_into_bits"; }, [&] { return leaves[i].to_bits_le(cs); });
    auto be = reverse_bit_numbering(le);
    bits.insert(bits.end(), be.begin(), be.end());
  }
  return sha256_hash_to_fr(cs, bits);
}

}  // namespace cuzk::gadgets
