#pragma once
// Recording a blank circuit for pre-compiled constraints (r1cs/pce.hpp),
// shared by the in-memory recorder (PrecompiledCircuit::record) and the
// streaming extractor (r1cs/pce_extract.hpp). The recorder interns each
// matrix's coefficients into its table (1 and -1 first, then in order of
// first use), counts variables, notes the part marks of the first
// run_parts() call, and hands every row's terms to a sink:
//   sink.term(k, column, coefficient index)   matrix k = 0 (A), 1 (B), 2 (C)
//   sink.end_row(k)
// Columns are in w order (aux, then inputs) when the aux count is known
// before recording (the extractor's counting pass gives it); otherwise input
// columns carry kInputBit, for the sink to move behind the aux count once
// it is known.
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "r1cs/constraint_system.hpp"
#include "r1cs/fr_sum.hpp"
#include "r1cs/witness_cs.hpp"

namespace cuzk::r1cs::pce_detail {

struct FrHash {
  size_t operator()(const Fr& x) const {
    const auto& v = x.v;  // Montgomery limbs: any fixed function of them will do
    return size_t(v[0] ^ (v[1] * 0x9e3779b97f4a7c15ull) ^ (v[2] >> 7) ^ (v[3] << 13));
  }
};

// Interns coefficients into a matrix's table; 1 and -1 without hashing.
class CoeffIndex {
 public:
  CoeffIndex() = default;
  uint32_t operator()(const Fr& x) {
    if (fr_is_one(x)) return 0;
    if (x == FrSum::minus_one()) return 1;
    auto [it, fresh] = index_.try_emplace(x, uint32_t(table_.size()));
    if (fresh) table_.push_back(x);
    return it->second;
  }
  const std::vector<Fr>& table() const { return table_; }
  std::vector<Fr> take_table() { return std::move(table_); }

 private:
  std::vector<Fr> table_{Fr::one(), -Fr::one()};
  std::unordered_map<Fr, uint32_t, FrHash> index_;
};

inline constexpr uint32_t kInputBit = 0x80000000u;

template <class Sink>
class Recorder final : public ConstraintSystem {
 public:
  // known_aux: the circuit's aux count when known in advance (columns are
  // then final), or -1.
  explicit Recorder(Sink& sink, int64_t known_aux = -1) : sink_(sink), known_aux_(known_aux) {}

  size_t num_inputs() const { return num_inputs_; }
  size_t num_aux() const { return num_aux_; }
  uint64_t rows() const { return rows_; }
  const std::vector<SynthesisCounts>& parts() const { return parts_; }
  std::vector<SynthesisCounts> take_parts() { return std::move(parts_); }
  CoeffIndex& index(int k) { return index_[k]; }

  // Notes where each part of the first call starts (nested and later calls
  // are not recorded: they run in order).
  void run_parts(size_t n, FnRef<void(size_t, ConstraintSystem&)> part) override {
    const bool record = !parts_done_ && !in_parts_;
    in_parts_ = true;
    for (size_t i = 0; i < n; i++) {
      if (record) parts_.push_back(counts());
      part(i, *this);
    }
    if (record) {
      parts_.push_back(counts());
      parts_done_ = true;
    }
    in_parts_ = false;
  }

 protected:
  Variable alloc_impl(const Name&, FnRef<Fr()>) override {
    if (num_aux_ >= kInputBit) throw SynthesisError("too many aux variables for a 32-bit column index");
    return Variable::aux(num_aux_++);
  }
  Variable alloc_input_impl(const Name&, FnRef<Fr()>) override {
    if (num_inputs_ >= kInputBit) throw SynthesisError("too many inputs for a 32-bit column index");
    return Variable::input(num_inputs_++);
  }
  void enforce_impl(const Name&, LinearCombination&& a, LinearCombination&& b,
                    LinearCombination&& c) override {
    append(0, a);
    append(1, b);
    append(2, c);
    rows_++;
  }

 private:
  SynthesisCounts counts() const { return {num_aux_, num_inputs_, rows_}; }
  void append(int k, const LinearCombination& lc) {
    for (const auto& e : lc.inputs())
      if (!e.coeff.is_zero()) {
        const uint64_t col = known_aux_ >= 0 ? uint64_t(known_aux_) + e.index : (e.index | kInputBit);
        if (col > 0xffffffffull) throw SynthesisError("too many variables for a 32-bit column index");
        sink_.term(k, uint32_t(col), index_[k](e.coeff));
      }
    for (const auto& e : lc.aux())
      if (!e.coeff.is_zero()) sink_.term(k, uint32_t(e.index), index_[k](e.coeff));
    sink_.end_row(k);
  }

  Sink& sink_;
  const int64_t known_aux_;
  size_t num_inputs_ = 1, num_aux_ = 0;
  uint64_t rows_ = 0;
  std::vector<SynthesisCounts> parts_;
  bool parts_done_ = false, in_parts_ = false;
  CoeffIndex index_[3];
};

}  // namespace cuzk::r1cs::pce_detail
