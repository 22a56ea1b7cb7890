#include "filecoin/hash/poseidon.hpp"

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "gadgets/poseidon_rounds.hpp"

namespace cuzk::filecoin {

namespace {

using gadgets::poseidon_mix_dense;
using gadgets::poseidon_quintic;

Fr pow2(unsigned k) { return Fr::from_u64(2).pow_vartime(uint64_t(k)); }

Fr hash_with(void (*perm)(const PoseidonConstants&, std::span<Fr>), const PoseidonConstants& c,
             std::span<const Fr> preimage, const Fr& tag) {
  if (preimage.size() > c.arity) throw std::invalid_argument("poseidon: preimage longer than arity");
  std::vector<Fr> state(c.width, Fr::zero());
  state[0] = tag;
  std::copy(preimage.begin(), preimage.end(), state.begin() + 1);
  perm(c, state);
  return state[1];
}

}  // namespace

Fr poseidon_tag_merkle_tree(size_t arity) { return pow2(unsigned(arity)) - Fr::one(); }
Fr poseidon_tag_constant_length(uint64_t len) { return Fr::from_u64(len) * pow2(64); }
Fr poseidon_tag_encryption() { return pow2(32); }
Fr poseidon_tag_custom(uint64_t id) {
  if (id < 1 || id > 256) throw std::invalid_argument("poseidon: custom domain tag id out of range");
  return Fr::from_u64(id) * pow2(40);
}

void poseidon_permute_correct(const PoseidonConstants& c, std::span<Fr> s) {
  const size_t t = c.width;
  size_t off = 0;
  auto full = [&] {
    for (size_t i = 0; i < t; i++) s[i] = poseidon_quintic(s[i] + c.round_constants[off + i]);
    off += t;
    poseidon_mix_dense(c.mds, s.data());
  };
  for (size_t r = 0; r < c.half_full_rounds; r++) full();
  for (size_t r = 0; r < c.partial_rounds; r++) {
    for (size_t i = 0; i < t; i++) s[i] += c.round_constants[off + i];
    off += t;
    s[0] = poseidon_quintic(s[0]);
    poseidon_mix_dense(c.mds, s.data());
  }
  for (size_t r = 0; r < c.half_full_rounds; r++) full();
}

void poseidon_permute(const PoseidonConstants& c, std::span<Fr> s) {
  gadgets::poseidon_static_rounds(c, s.data(), [](size_t, size_t, const Fr& x, const Fr* key) {
    return key ? poseidon_quintic(x) + *key : poseidon_quintic(x);
  });
}

Fr poseidon_hash(const PoseidonConstants& c, std::span<const Fr> preimage, const Fr& tag) {
  return hash_with(&poseidon_permute, c, preimage, tag);
}

Fr poseidon_hash_correct(const PoseidonConstants& c, std::span<const Fr> preimage, const Fr& tag) {
  return hash_with(&poseidon_permute_correct, c, preimage, tag);
}

Fr poseidon_hash(std::span<const Fr> preimage) {
  const auto& c = poseidon_constants(preimage.size());
  return poseidon_hash(c, preimage, poseidon_tag_merkle_tree(preimage.size()));
}

Fr poseidon_hash_md(std::span<const Fr> input) {
  if (input.size() < 2) throw std::invalid_argument("poseidon_hash_md needs more than one element");
  constexpr size_t kArity = 36;
  const auto& c = poseidon_constants(kArity);
  const Fr tag = poseidon_tag_merkle_tree(kArity);
  Fr acc = input[0];
  std::vector<Fr> pre;
  for (size_t i = 1; i < input.size(); i += kArity - 1) {
    size_t n = std::min(kArity - 1, input.size() - i);
    pre.assign(1, acc);
    pre.insert(pre.end(), input.begin() + i, input.begin() + i + n);
    acc = poseidon_hash(c, pre, tag);
  }
  return acc;
}

}  // namespace cuzk::filecoin
