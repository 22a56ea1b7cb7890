#pragma once
// Witness-only synthesis, the per-proof half of pre-compiled constraints
// (r1cs/pce.hpp): the circuit's allocations run and their values are kept,
// each kind in creation order (the numbering of every other system);
// constraints are counted and otherwise ignored, so no linear combination is
// evaluated and no density is tracked. Gadgets that enforce through
// enforce_with() or check builds_constraints() skip building their linear
// combinations here. Input 0 (ONE = 1) is allocated by the constructor.
//
// Beside each value it keeps a bit tag (bit_tag: 0 or 1 where the value is
// that bit, 2 otherwise), one byte a value: a pre-compiled circuit's
// evaluation reads the tags instead of the 32-byte values wherever they are
// bits (most of a hash circuit's), so they are made where the bits are known.
//
// The aux values go straight into the buffer that becomes the proof's aux
// assignment; the inputs are appended behind them by take_aux_then_inputs(),
// the order in which pre-compiled matrices index the witness. A recycled
// buffer is taken with whatever it holds and written over (the first
// num_aux() of its elements are the values): zeroing it first was a serial
// pass over 4 GB, 0.3 s of the 1.7 s witness of a 32 GiB PoRep partition.
//
// Given where the parts of the circuit's first run_parts() call start (as
// recorded with its pre-compiled constraints), it runs those parts in
// parallel on the caller's oneTBB arena, each on a system of its own that
// writes its values at their recorded places.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "platform/large_vector.hpp"
#include "r1cs/constraint_system.hpp"
#include "r1cs/fr_sum.hpp"
#include "r1cs/vec_growth.hpp"

namespace cuzk::r1cs {

// A witnessed circuit whose counts differ from the recorded ones: the PCE
// is stale (recorded from other circuit code) and must not be used.
struct PceMismatch : SynthesisError {
  using SynthesisError::SynthesisError;
};

// A system's counts at one point of synthesis (inputs include ONE).
struct SynthesisCounts {
  uint64_t aux = 0, inputs = 0, constraints = 0;
  friend bool operator==(const SynthesisCounts&, const SynthesisCounts&) = default;
};

// 0 or 1 as a field element, by a load rather than a branch (the bits of a
// hash are random: a branch on them mispredicts half the time).
inline const Fr& bit_value(uint8_t b) {
  static constexpr Fr kBits[2] = {Fr::zero(), Fr::one()};
  return kBits[b & 1];
}

// 0 or 1 where x is that bit, else 2.
inline uint8_t bit_tag(const Fr& x) {
  bool one;
  return fr_is_bit(x, one) ? uint8_t(one) : uint8_t(2);
}

class WitnessCS final : public ConstraintSystem {
 public:
  // Sized for a circuit of `num_inputs` (with ONE) and `num_aux` variables,
  // as recorded; any other count still synthesizes (callers compare).
  // `parts`: the counts at the start of each part of the first run_parts()
  // call and at its end, or empty (parts run in order).
  explicit WitnessCS(size_t num_inputs = 1, size_t num_aux = 0, std::span<const SynthesisCounts> parts = {})
      : parts_(parts) {
    builds_constraints_ = false;
    for_each_buffer([&](auto& v) {
      if (platform::take_recycled(v, num_aux + num_inputs)) v.resize(num_aux + num_inputs);
      else reserve_large(v, num_aux + num_inputs);
    });
  }

  size_t num_inputs() const { return inputs_.size(); }
  size_t num_aux() const { return n_aux_; }
  size_t num_constraints() const { return skipped_constraints_; }
  SynthesisCounts counts() const { return {n_aux_, inputs_.size(), skipped_constraints_}; }
  // Throws PceMismatch when a part allocates other counts than recorded.
  void run_parts(size_t n, FnRef<void(size_t, ConstraintSystem&)> part) override;
  const std::vector<Fr>& inputs() const { return inputs_; }
  std::span<const Fr> aux() const { return {aux_.data(), n_aux_}; }
  // (aux..., inputs...), moved out, and their bit tags in the same order
  // into `tags` where given: the system is left without aux values.
  std::vector<Fr> take_aux_then_inputs(std::vector<uint8_t>* tags = nullptr) {
    if (tags) {
      tags_.resize(n_aux_);
      for (const Fr& x : inputs_) tags_.push_back(bit_tag(x));
      *tags = std::move(tags_);
    }
    platform::recycle_large(tags_);  // (empty where taken)
    aux_.resize(n_aux_);             // a shrink: writes nothing
    aux_.insert(aux_.end(), inputs_.begin(), inputs_.end());
    n_aux_ = 0;
    return std::move(aux_);
  }

 protected:
  Variable alloc_impl(const Name&, FnRef<Fr()> value) override {
    put(value());
    return Variable::aux(n_aux_ - 1);
  }
  Variable alloc_bits_impl(std::span<const uint8_t> bits) override {
    const size_t first = n_aux_;
    for (uint8_t b : bits)
      put(bit_value(b), b & 1);  // (the parts' systems take the fast way: witness_cs.cpp)
    return Variable::aux(first);
  }
  Variable alloc_input_impl(const Name&, FnRef<Fr()> value) override {
    inputs_.push_back(value());
    return Variable::input(inputs_.size() - 1);
  }
  // Reached only by gadgets that build their constraints regardless.
  void enforce_impl(const Name&, LinearCombination&&, LinearCombination&&, LinearCombination&&) override {
    skipped_constraints_++;
  }

 private:
  // The next aux value: over an element aux_ holds already, or appended.
  void put(const Fr& x) { put(x, bit_tag(x)); }
  void put(const Fr& x, uint8_t tag) {
    if (n_aux_ < aux_.size()) aux_[n_aux_] = x;
    else push_back_large(aux_, x);
    if (n_aux_ < tags_.size()) tags_[n_aux_] = tag;
    else push_back_large(tags_, tag);
    n_aux_++;
  }
  template <class F>
  void for_each_buffer(const F& f) {
    f(aux_);
    f(tags_);
  }

  std::vector<Fr> inputs_{Fr::one()};
  std::vector<Fr> aux_;        // its first n_aux_ elements are the values, the rest are not yet written
  std::vector<uint8_t> tags_;  // bit_tag of each of aux_'s, as far as they are written
  size_t n_aux_ = 0;
  std::span<const SynthesisCounts> parts_;
  bool parts_run_ = false;
};

}  // namespace cuzk::r1cs
