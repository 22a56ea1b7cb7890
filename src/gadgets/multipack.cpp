#include "gadgets/multipack.hpp"

#include <algorithm>
#include <string>

namespace cuzk::gadgets {

namespace {
constexpr size_t kCapacity = 254;

Num pack(std::span<const Boolean> bits) {
  Num num;
  for (size_t j = 0; j < bits.size(); j++) num.add_bool_with_coeff(bits[j], pow2(j));
  return num;
}
}  // namespace

void pack_into_inputs(ConstraintSystem& cs, std::span<const Boolean> bits) {
  for (size_t i = 0, off = 0; off < bits.size(); i++, off += kCapacity) {
    Num num = pack(bits.subspan(off, std::min(kCapacity, bits.size() - off)));
    Variable in = cs.alloc_input([&] { return "input " + std::to_string(i); },
                                 [&] { return value_or_missing(num.value); });
    cs.enforce([&] { return "packing constraint " + std::to_string(i); }, num.lc, Variable::one(), in);
  }
}

AllocatedNum pack_bits(ConstraintSystem& cs, std::span<const Boolean> bits) {
  Num num = pack(bits.first(std::min(kCapacity, bits.size())));
  AllocatedNum a = in_ns(cs, "input", [&] { return AllocatedNum::alloc(cs, num.value); });
  cs.enforce("packing constraint", std::move(num.lc), Variable::one(), a.var);
  return a;
}

std::vector<bool> bytes_to_bits(std::span<const uint8_t> bytes) {
  std::vector<bool> r;
  for (uint8_t b : bytes)
    for (int i = 7; i >= 0; i--) r.push_back((b >> i) & 1);
  return r;
}

std::vector<bool> bytes_to_bits_le(std::span<const uint8_t> bytes) {
  std::vector<bool> r;
  for (uint8_t b : bytes)
    for (int i = 0; i < 8; i++) r.push_back((b >> i) & 1);
  return r;
}

std::vector<Fr> compute_multipacking(const std::vector<bool>& bits) {
  std::vector<Fr> r;
  for (size_t off = 0; off < bits.size(); off += kCapacity) {
    Fr cur = Fr::zero();
    for (size_t j = 0; j < kCapacity && off + j < bits.size(); j++)
      if (bits[off + j]) cur += pow2(j);
    r.push_back(cur);
  }
  return r;
}

}  // namespace cuzk::gadgets
