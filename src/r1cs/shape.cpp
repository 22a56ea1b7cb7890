#include "r1cs/shape.hpp"

#include "r1cs/cs_hash.hpp"

namespace cuzk::r1cs {

Density CsrMatrix::column_density(size_t num_columns) const {
  Density d;
  d.resize(num_columns);
  for (uint32_t j : col) d.inc(j);
  return d;
}

size_t R1cs::first_unsatisfied(std::span<const Fr> z) const {
  for (size_t i = 0; i < num_constraints(); i++)
    if (a.eval_row(i, z) * b.eval_row(i, z) != c.eval_row(i, z)) return i;
  return num_constraints();
}

void R1cs::add_input_constraints() {
  for (size_t i = 0; i < num_inputs; i++) {
    a.col.push_back(uint32_t(i));
    a.val.push_back(Fr::one());
    a.row_ptr.push_back(a.col.size());
    b.row_ptr.push_back(b.col.size());
    c.row_ptr.push_back(c.col.size());
  }
}

std::string R1cs::hash() const {
  CsHasher h(num_inputs, num_aux, num_constraints());
  for (size_t i = 0; i < num_constraints(); i++) {
    for (const CsrMatrix* m : {&a, &b, &c}) {
      h.begin_lc(m->row_ptr[i + 1] - m->row_ptr[i]);
      for (uint64_t k = m->row_ptr[i]; k < m->row_ptr[i + 1]; k++) {
        bool in = m->col[k] < num_inputs;
        h.term(in, in ? m->col[k] : m->col[k] - num_inputs, m->val[k]);
      }
    }
  }
  return h.finish();
}

ShapeRecorder::ShapeRecorder() = default;

Variable ShapeRecorder::alloc_impl(const Name&, FnRef<Fr()>) {
  if (num_aux_ >= kAuxBit) throw SynthesisError("too many aux variables for a 32-bit column index");
  return Variable::aux(num_aux_++);
}

Variable ShapeRecorder::alloc_input_impl(const Name&, FnRef<Fr()>) {
  if (num_inputs_ >= kAuxBit) throw SynthesisError("too many inputs for a 32-bit column index");
  return Variable::input(num_inputs_++);
}

namespace {
void append_row(CsrMatrix& m, const LinearCombination& lc, uint32_t aux_bit) {
  for (const auto& e : lc.inputs())
    if (!e.coeff.is_zero()) {
      m.col.push_back(uint32_t(e.index));
      m.val.push_back(e.coeff);
    }
  for (const auto& e : lc.aux())
    if (!e.coeff.is_zero()) {
      m.col.push_back(uint32_t(e.index) | aux_bit);
      m.val.push_back(e.coeff);
    }
  m.row_ptr.push_back(m.col.size());
}
}  // namespace

void ShapeRecorder::enforce_impl(const Name&, LinearCombination&& la, LinearCombination&& lb,
                                 LinearCombination&& lc) {
  append_row(a_, la, kAuxBit);
  append_row(b_, lb, kAuxBit);
  append_row(c_, lc, kAuxBit);
}

R1cs ShapeRecorder::finish() {
  if (num_inputs_ + num_aux_ > 0xffffffffull)
    throw SynthesisError("too many variables for a 32-bit column index");
  R1cs r;
  r.num_inputs = num_inputs_;
  r.num_aux = num_aux_;
  // Inputs precede aux in a row, so remapping keeps rows sorted.
  for (CsrMatrix* m : {&a_, &b_, &c_})
    for (uint32_t& j : m->col)
      if (j & kAuxBit) j = uint32_t(num_inputs_ + (j & ~kAuxBit));
  r.a = std::move(a_);
  r.b = std::move(b_);
  r.c = std::move(c_);
  a_ = b_ = c_ = CsrMatrix{};
  num_inputs_ = 1;
  num_aux_ = 0;
  return r;
}

}  // namespace cuzk::r1cs
