#include "r1cs/pce.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <unordered_map>

#include "r1cs/fr_sum.hpp"
#include "r1cs/vec_growth.hpp"
#include "r1cs/witness_cs.hpp"

#include <oneapi/tbb/parallel_for.h>

namespace cuzk::r1cs {

namespace {

struct FrHash {
  size_t operator()(const Fr& x) const {
    const auto& v = x.v;  // Montgomery limbs: any fixed function of them will do
    return size_t(v[0] ^ (v[1] * 0x9e3779b97f4a7c15ull) ^ (v[2] >> 7) ^ (v[3] << 13));
  }
};

// Interns coefficients into a matrix's table; 1 and -1 without hashing.
class CoeffIndex {
 public:
  explicit CoeffIndex(std::vector<Fr>& table) : table_(table) {}
  uint32_t operator()(const Fr& x) {
    if (fr_is_one(x)) return 0;
    if (x == FrSum::minus_one()) return 1;
    auto [it, fresh] = index_.try_emplace(x, uint32_t(table_.size()));
    if (fresh) table_.push_back(x);
    return it->second;
  }

 private:
  std::vector<Fr>& table_;
  std::unordered_map<Fr, uint32_t, FrHash> index_;
};

// Records a blank circuit straight into packed matrices (8 bytes a term,
// not the 36 of a CsrMatrix), so recording needs about the memory of its
// result. Columns are final for aux variables; inputs carry kInputBit until
// finish() knows the aux count and moves them behind.
class PackedRecorder final : public ConstraintSystem {
 public:
  static constexpr uint32_t kInputBit = 0x80000000u;

  PrecompiledCircuit finish() {
    if (uint64_t(num_inputs_) + num_aux_ > 0xffffffffull)
      throw SynthesisError("too many variables for a 32-bit column index");
    for (PackedCsr* m : {&m_[0], &m_[1], &m_[2]})
      for (uint32_t& j : m->col)
        if (j & kInputBit) j = uint32_t(num_aux_ + (j & ~kInputBit));
    return PrecompiledCircuit(num_inputs_, num_aux_, std::move(m_[0]), std::move(m_[1]), std::move(m_[2]),
                              std::move(parts_));
  }

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
  }

 private:
  SynthesisCounts counts() const { return {num_aux_, num_inputs_, m_[0].rows()}; }
  void append(int k, const LinearCombination& lc) {
    PackedCsr& m = m_[k];
    for (const auto& e : lc.inputs())
      if (!e.coeff.is_zero()) push(m, k, uint32_t(e.index) | kInputBit, e.coeff);
    for (const auto& e : lc.aux())
      if (!e.coeff.is_zero()) push(m, k, uint32_t(e.index), e.coeff);
    if (m.col.size() >= (uint64_t(1) << 32))
      throw std::length_error("pre-compiled circuit: 2^32 terms or more in a matrix");
    m.row_ptr.push_back(uint32_t(m.col.size()));
  }
  void push(PackedCsr& m, int k, uint32_t col, const Fr& coeff) {
    push_back_large(m.col, col);
    push_back_large(m.coeff, index_[k](coeff));
  }

  size_t num_inputs_ = 1, num_aux_ = 0;
  PackedCsr m_[3];
  std::vector<SynthesisCounts> parts_;
  bool parts_done_ = false, in_parts_ = false;
  CoeffIndex index_[3] = {CoeffIndex(m_[0].table), CoeffIndex(m_[1].table), CoeffIndex(m_[2].table)};
};

}  // namespace

PackedCsr PackedCsr::pack(const CsrMatrix& m, size_t num_inputs, size_t num_aux) {
  if (m.nnz() >= (uint64_t(1) << 32))
    throw std::length_error("pre-compiled circuit: 2^32 terms or more in a matrix");
  PackedCsr p;
  p.row_ptr.assign(m.row_ptr.begin(), m.row_ptr.end());
  p.col.resize(m.col.size());
  p.coeff.resize(m.val.size());
  CoeffIndex index(p.table);
  for (size_t k = 0; k < m.val.size(); k++) {
    const uint32_t j = m.col[k];  // z order: inputs, then aux
    p.col[k] = uint32_t(j < num_inputs ? num_aux + j : j - num_inputs);
    p.coeff[k] = index(m.val[k]);
  }
  return p;
}

void PackedCsr::index_small() {
  for (int s = -kSmallRange; s <= kSmallRange; s++)
    small_values_[size_t(s + kSmallRange)] = s < 0 ? -Fr::from_u64(uint64_t(-s)) : Fr::from_u64(uint64_t(s));
  small.assign(table.size(), kNotSmall);
  for (size_t t = 0; t < table.size(); t++)
    for (int i = -4; i <= 4; i++)
      if (table[t] == small_values_[size_t(i + kSmallRange)]) small[t] = int8_t(i);
}

size_t PackedCsr::bytes() const {
  return (row_ptr.size() + col.size() + coeff.size()) * sizeof(uint32_t) + table.size() * sizeof(Fr);
}

void PackedCsr::eval_sum(uint32_t lo, uint32_t hi, std::span<const Fr> z, Fr& out) const {  // z: w order
  // As the gadget path sums (fr_sum.hpp): zero values add nothing (half of
  // all bits), the rest is summed unreduced.
  FrSum acc;
  for (uint32_t k = lo; k < hi; k++) {
    const Fr& v = z[col[k]];
    if (fr_is_zero(v)) continue;
    const uint32_t t = coeff[k];
    if (t == 0) acc.add(v);
    else if (t == 1) acc.sub(v);
    else acc.add_product(table[t], v);
  }
  acc.store(out);
}

PrecompiledCircuit PrecompiledCircuit::record(const Circuit& blank) {
  PackedRecorder rec;
  blank.synthesize(rec);
  return rec.finish();
}

PrecompiledCircuit::PrecompiledCircuit(const R1cs& r)
    : num_inputs_(r.num_inputs),
      num_aux_(r.num_aux),
      a_(PackedCsr::pack(r.a, r.num_inputs, r.num_aux)),
      b_(PackedCsr::pack(r.b, r.num_inputs, r.num_aux)),
      c_(PackedCsr::pack(r.c, r.num_inputs, r.num_aux)),
      densities_(ShapeDensities::of(r)) {
  for (PackedCsr* m : {&a_, &b_, &c_}) m->index_small();
  find_rows_a_from_c();
}

// Rows a·ONE = c whose C row is much shorter than their A row (MultiEq's
// packed additions: about 130 bits on the left, 34 on the right): for a
// satisfying witness a = c there, so a is evaluated from C.
void PrecompiledCircuit::find_rows_a_from_c() {
  a_from_c_.clear();
  const uint32_t one = uint32_t(num_aux_);  // ONE's place in w
  for (size_t i = 0; i < a_.rows(); i++) {
    const uint32_t blo = b_.row_ptr[i], bhi = b_.row_ptr[i + 1];
    if (bhi - blo != 1 || b_.coeff[blo] != 0 || b_.col[blo] != one) continue;
    const uint32_t na = a_.row_ptr[i + 1] - a_.row_ptr[i], nc = c_.row_ptr[i + 1] - c_.row_ptr[i];
    if (na > PackedCsr::kSmallTerms && 2 * nc < na) a_from_c_.push_back(uint32_t(i));
  }
}

PrecompiledCircuit::PrecompiledCircuit(size_t num_inputs, size_t num_aux, PackedCsr a, PackedCsr b,
                                       PackedCsr c, std::vector<SynthesisCounts> parts)
    : num_inputs_(num_inputs),
      num_aux_(num_aux),
      a_(std::move(a)),
      b_(std::move(b)),
      c_(std::move(c)),
      parts_(std::move(parts)) {
  // As ShapeDensities::of, on w columns (aux first): the recorded matrices
  // hold no zero coefficient, so every column listed counts.
  for (PackedCsr* m : {&a_, &b_, &c_}) m->index_small();
  find_rows_a_from_c();
  densities_.a_aux.resize(num_aux);
  densities_.b_input.resize(num_inputs);
  densities_.b_aux.resize(num_aux);
  for (uint32_t j : a_.col)
    if (j < num_aux) densities_.a_aux.inc(j);
  for (uint32_t j : b_.col) {
    if (j < num_aux) densities_.b_aux.inc(j);
    else densities_.b_input.inc(j - num_aux);
  }
}

size_t PrecompiledCircuit::bytes() const {
  const auto dens = [](const Density& d) { return d.size() / 8; };
  return a_.bytes() + b_.bytes() + c_.bytes() + dens(densities_.a_aux) + dens(densities_.b_input) +
         dens(densities_.b_aux) + parts_.size() * sizeof(SynthesisCounts) +
         a_from_c_.size() * sizeof(uint32_t);
}

ProvingAssignment PrecompiledCircuit::synthesize(const Circuit& witnessed) const {
  WitnessCS w(num_inputs_, num_aux_, parts_);
  witnessed.synthesize(w);
  if (w.num_inputs() != num_inputs_ || w.num_aux() != num_aux_ || w.num_constraints() != num_constraints())
    throw PceMismatch("pre-compiled circuit does not match: it has " + std::to_string(num_inputs_) +
                      " inputs, " + std::to_string(num_aux_) + " aux, " + std::to_string(num_constraints()) +
                      " constraints; synthesis gave " + std::to_string(w.num_inputs()) + ", " +
                      std::to_string(w.num_aux()) + ", " + std::to_string(w.num_constraints()));
  std::vector<Fr> inputs = w.inputs();
  return assign(w.take_aux_then_inputs(), std::move(inputs), false);
}

ProvingAssignment PrecompiledCircuit::evaluate(std::span<const Fr> z) const {
  if (z.size() != num_inputs_ + num_aux_)
    throw SynthesisError("witness has " + std::to_string(z.size()) + " values, the circuit needs " +
                         std::to_string(num_inputs_ + num_aux_) + " (inputs incl. ONE + aux)");
  std::vector<Fr> w(z.begin() + std::ptrdiff_t(num_inputs_), z.end());
  w.insert(w.end(), z.begin(), z.begin() + std::ptrdiff_t(num_inputs_));
  return assign(std::move(w), {z.begin(), z.begin() + std::ptrdiff_t(num_inputs_)}, true);
}

ProvingAssignment PrecompiledCircuit::assign(std::vector<Fr>&& w, std::vector<Fr> inputs,
                                             bool exact_c) const {
  if (inputs.empty() || !inputs[0].is_one()) throw SynthesisError("witness value 0 (ONE) must be 1");
  const size_t rows = num_constraints();
  ProvingAssignment pa = start_assignment(rows, densities_);
  pa.input_assignment = std::move(inputs);
  const std::span<const Fr> ws(w);
  tbb::parallel_for(tbb::blocked_range<size_t>(0, rows, 4096), [&](const tbb::blocked_range<size_t>& rg) {
    auto next = std::lower_bound(a_from_c_.begin(), a_from_c_.end(), uint32_t(rg.begin()));
    for (size_t i = rg.begin(); i < rg.end(); i++) {
      if (!exact_c && next != a_from_c_.end() && *next == i) [[unlikely]] {
        c_.eval_row(i, ws, pa.a[i]);  // b = 1: a = c for a satisfying witness
        ++next;
      } else {
        a_.eval_row(i, ws, pa.a[i]);
      }
      b_.eval_row(i, ws, pa.b[i]);
      if (exact_c) c_.eval_row(i, ws, pa.c[i]);
      else product_into(pa.a[i], pa.b[i], pa.c[i]);
    }
  });
  w.resize(num_aux_);  // drops the inputs behind the aux values
  pa.aux_assignment = std::move(w);
  return pa;
}

}  // namespace cuzk::r1cs
