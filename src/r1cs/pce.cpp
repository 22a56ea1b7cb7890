#include "r1cs/pce.hpp"

#include <stdexcept>
#include <string>
#include <unordered_map>

#include "r1cs/fr_sum.hpp"
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

}  // namespace

PackedCsr PackedCsr::pack(const CsrMatrix& m, size_t num_inputs, size_t num_aux) {
  if (m.nnz() >= (uint64_t(1) << 32)) throw std::length_error("pre-compiled circuit: 2^32 terms or more in a matrix");
  PackedCsr p;
  p.row_ptr.assign(m.row_ptr.begin(), m.row_ptr.end());
  p.col.resize(m.col.size());
  p.coeff.resize(m.val.size());
  std::unordered_map<Fr, uint32_t, FrHash> index{{Fr::one(), 0}, {-Fr::one(), 1}};
  for (size_t k = 0; k < m.val.size(); k++) {
    const uint32_t j = m.col[k];  // z order: inputs, then aux
    p.col[k] = uint32_t(j < num_inputs ? num_aux + j : j - num_inputs);
    auto [it, fresh] = index.try_emplace(m.val[k], uint32_t(p.table.size()));
    if (fresh) p.table.push_back(m.val[k]);
    p.coeff[k] = it->second;
  }
  return p;
}

size_t PackedCsr::bytes() const {
  return (row_ptr.size() + col.size() + coeff.size()) * sizeof(uint32_t) + table.size() * sizeof(Fr);
}

void PackedCsr::eval_row(size_t i, std::span<const Fr> z, Fr& out) const {  // z: w order
  // As the gadget path evaluates (fr_sum.hpp): a single term needs no sum
  // (over a third of all rows: the bit gadgets' b = v, a = 2·x), zero values
  // add nothing (half of all bits), the rest is summed unreduced.
  const uint32_t lo = row_ptr[i], hi = row_ptr[i + 1];
  if (hi - lo <= 1) {
    if (hi == lo) return;  // `out` is a fresh zero
    const Fr& v = z[col[lo]];
    if (fr_is_zero(v)) return;
    const uint32_t t = coeff[lo];
    out = t == 0 ? v : t == 1 ? -v : FrSum::product(table[t], v);
    return;
  }
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
  ShapeRecorder rec;
  blank.synthesize(rec);
  return PrecompiledCircuit(rec.finish());
}

PrecompiledCircuit::PrecompiledCircuit(const R1cs& r)
    : num_inputs_(r.num_inputs),
      num_aux_(r.num_aux),
      a_(PackedCsr::pack(r.a, r.num_inputs, r.num_aux)),
      b_(PackedCsr::pack(r.b, r.num_inputs, r.num_aux)),
      c_(PackedCsr::pack(r.c, r.num_inputs, r.num_aux)),
      densities_(ShapeDensities::of(r)) {}

size_t PrecompiledCircuit::bytes() const {
  const auto dens = [](const Density& d) { return d.size() / 8; };
  return a_.bytes() + b_.bytes() + c_.bytes() + dens(densities_.a_aux) + dens(densities_.b_input) +
         dens(densities_.b_aux);
}

ProvingAssignment PrecompiledCircuit::synthesize(const Circuit& witnessed) const {
  WitnessCS w(num_inputs_, num_aux_);
  witnessed.synthesize(w);
  if (w.num_inputs() != num_inputs_ || w.num_aux() != num_aux_ || w.num_constraints() != num_constraints())
    throw SynthesisError("pre-compiled circuit does not match: it has " + std::to_string(num_inputs_) + " inputs, " +
                         std::to_string(num_aux_) + " aux, " + std::to_string(num_constraints()) +
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

ProvingAssignment PrecompiledCircuit::assign(std::vector<Fr>&& w, std::vector<Fr> inputs, bool exact_c) const {
  if (inputs.empty() || !inputs[0].is_one()) throw SynthesisError("witness value 0 (ONE) must be 1");
  const size_t rows = num_constraints();
  ProvingAssignment pa = start_assignment(rows, densities_);
  pa.input_assignment = std::move(inputs);
  const std::span<const Fr> ws(w);
  tbb::parallel_for(tbb::blocked_range<size_t>(0, rows, 4096), [&](const tbb::blocked_range<size_t>& rg) {
    for (size_t i = rg.begin(); i < rg.end(); i++) {
      a_.eval_row(i, ws, pa.a[i]);
      b_.eval_row(i, ws, pa.b[i]);
      if (exact_c)
        c_.eval_row(i, ws, pa.c[i]);
      else
        product_into(pa.a[i], pa.b[i], pa.c[i]);
    }
  });
  w.resize(num_aux_);  // drops the inputs behind the aux values
  pa.aux_assignment = std::move(w);
  return pa;
}

}  // namespace cuzk::r1cs
