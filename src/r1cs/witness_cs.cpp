#include "r1cs/witness_cs.hpp"

#include <oneapi/tbb/parallel_for.h>

namespace cuzk::r1cs {

namespace {

std::string counts_str(const SynthesisCounts& c) {
  return std::to_string(c.aux) + " aux, " + std::to_string(c.inputs) + " inputs, " +
         std::to_string(c.constraints) + " constraints";
}

// One part's system: its values go to the places recorded for them in the
// whole witness's buffers, and its variables get their whole-circuit
// numbers. Allocating past the recorded end would write over the next
// part's values, so it throws instead.
class PartCS final : public ConstraintSystem {
 public:
  PartCS(Fr* aux, uint8_t* tags, Fr* inputs, const SynthesisCounts& begin, const SynthesisCounts& end)
      : aux_(aux), tags_(tags), inputs_(inputs), next_(begin), end_(end) {
    builds_constraints_ = false;
  }
  SynthesisCounts counts() const {
    return {next_.aux, next_.inputs, next_.constraints + skipped_constraints_};
  }

 protected:
  Variable alloc_impl(const Name&, FnRef<Fr()> value) override {
    if (next_.aux == end_.aux) overrun("aux variables");
    const Fr x = value();
    aux_[next_.aux] = x;
    tags_[next_.aux] = bit_tag(x);
    return Variable::aux(next_.aux++);
  }
  Variable alloc_bits_impl(std::span<const uint8_t> bits) override {
    if (end_.aux - next_.aux < bits.size()) overrun("aux variables");
    const size_t first = next_.aux;
    // Through locals: a store through uint8_t* may alias the members.
    Fr* const aux = aux_ + first;
    uint8_t* const tags = tags_ + first;
    for (size_t k = 0; k < bits.size(); k++) aux[k] = bit_value(bits[k]);
    for (size_t k = 0; k < bits.size(); k++) tags[k] = bits[k] & 1;
    next_.aux += bits.size();
    return Variable::aux(first);
  }
  Variable alloc_input_impl(const Name&, FnRef<Fr()> value) override {
    if (next_.inputs == end_.inputs) overrun("inputs");
    inputs_[next_.inputs] = value();
    return Variable::input(next_.inputs++);
  }
  void enforce_impl(const Name&, LinearCombination&&, LinearCombination&&, LinearCombination&&) override {
    skipped_constraints_++;
  }

 private:
  [[noreturn]] void overrun(const char* what) const {
    throw PceMismatch(std::string("pre-compiled circuit does not match: a part allocates more ") + what +
                      " than recorded (it ends at " + counts_str(end_) + ")");
  }
  Fr* aux_;
  uint8_t* tags_;
  Fr* inputs_;
  SynthesisCounts next_;  // constraints: the part's first
  const SynthesisCounts end_;
};

}  // namespace

void WitnessCS::run_parts(size_t n, FnRef<void(size_t, ConstraintSystem&)> part) {
  // Only the first call was recorded, and only from the recorded counts on
  // do the parts' places hold; anything else runs in order (and a stale
  // recording then shows in the final counts).
  if (parts_run_ || parts_.size() != n + 1 || n < 2 || counts() != parts_[0]) {
    ConstraintSystem::run_parts(n, part);
    return;
  }
  parts_run_ = true;
  for (size_t i = 0; i < n; i++) {
    const SynthesisCounts &b = parts_[i], &e = parts_[i + 1];
    if (e.aux < b.aux || e.inputs < b.inputs || e.constraints < b.constraints)
      throw PceMismatch("pre-compiled circuit: part " + std::to_string(i) + " ends before it starts");
  }
  const SynthesisCounts end = parts_[n];
  for_each_buffer([&](auto& v) {
    reserve_large(v, end.aux + end.inputs);     // room for take_aux_then_inputs
    if (v.size() < end.aux) v.resize(end.aux);  // zeroes only a buffer not recycled
  });
  n_aux_ = end.aux;
  inputs_.resize(end.inputs);
  std::vector<SynthesisCounts> got(n);
  tbb::parallel_for(size_t(0), n, [&](size_t i) {
    PartCS cs(aux_.data(), tags_.data(), inputs_.data(), parts_[i], parts_[i + 1]);
    part(i, cs);
    got[i] = cs.counts();
  });
  for (size_t i = 0; i < n; i++)
    if (got[i] != parts_[i + 1])
      throw PceMismatch("pre-compiled circuit does not match: part " + std::to_string(i) + " ends at " +
                        counts_str(got[i]) + ", recorded " + counts_str(parts_[i + 1]));
  skipped_constraints_ = end.constraints;
}

}  // namespace cuzk::r1cs
