#include "r1cs/pce.hpp"

#include <string>
#include <unordered_map>

#include "r1cs/witness_cs.hpp"

namespace cuzk::r1cs {

namespace {

struct FrHash {
  size_t operator()(const Fr& x) const {
    const auto& v = x.v;  // Montgomery limbs: any fixed function of them will do
    return size_t(v[0] ^ (v[1] * 0x9e3779b97f4a7c15ull) ^ (v[2] >> 7) ^ (v[3] << 13));
  }
};

}  // namespace

PackedCsr PackedCsr::pack(const CsrMatrix& m) {
  PackedCsr p;
  p.row_ptr = m.row_ptr;
  p.col = m.col;
  p.coeff.resize(m.val.size());
  std::unordered_map<Fr, uint32_t, FrHash> index{{Fr::one(), 0}, {-Fr::one(), 1}};
  for (size_t k = 0; k < m.val.size(); k++) {
    auto [it, fresh] = index.try_emplace(m.val[k], uint32_t(p.table.size()));
    if (fresh) p.table.push_back(m.val[k]);
    p.coeff[k] = it->second;
  }
  return p;
}

size_t PackedCsr::bytes() const {
  return row_ptr.size() * sizeof(uint64_t) + (col.size() + coeff.size()) * sizeof(uint32_t) + table.size() * sizeof(Fr);
}

Fr PackedCsr::eval_row(size_t i, std::span<const Fr> z) const {
  Fr acc = Fr::zero();
  for (uint64_t k = row_ptr[i]; k < row_ptr[i + 1]; k++) {
    const uint32_t t = coeff[k];
    if (t == 0) acc += z[col[k]];
    else if (t == 1) acc -= z[col[k]];
    else acc += table[t] * z[col[k]];
  }
  return acc;
}

PrecompiledCircuit PrecompiledCircuit::record(const Circuit& blank) {
  ShapeRecorder rec;
  blank.synthesize(rec);
  return PrecompiledCircuit(rec.finish());
}

PrecompiledCircuit::PrecompiledCircuit(const R1cs& r)
    : num_inputs_(r.num_inputs),
      num_aux_(r.num_aux),
      a_(PackedCsr::pack(r.a)),
      b_(PackedCsr::pack(r.b)),
      c_(PackedCsr::pack(r.c)),
      densities_(ShapeDensities::of(r)) {}

size_t PrecompiledCircuit::bytes() const {
  const auto dens = [](const Density& d) { return d.size() / 8; };
  return a_.bytes() + b_.bytes() + c_.bytes() + dens(densities_.a_aux) + dens(densities_.b_input) +
         dens(densities_.b_aux);
}

ProvingAssignment PrecompiledCircuit::synthesize(const Circuit& witnessed) const {
  WitnessCS w;
  witnessed.synthesize(w);
  if (w.inputs.size() != num_inputs_ || w.aux.size() != num_aux_ || w.num_constraints() != num_constraints())
    throw SynthesisError("pre-compiled circuit does not match: it has " + std::to_string(num_inputs_) + " inputs, " +
                         std::to_string(num_aux_) + " aux, " + std::to_string(num_constraints()) +
                         " constraints; synthesis gave " + std::to_string(w.inputs.size()) + ", " +
                         std::to_string(w.aux.size()) + ", " + std::to_string(w.num_constraints()));
  std::vector<Fr> z = std::move(w.inputs);
  z.insert(z.end(), w.aux.begin(), w.aux.end());
  return evaluate(z);
}

ProvingAssignment PrecompiledCircuit::evaluate(std::span<const Fr> z) const {
  return assign_rows(num_inputs_, num_aux_, num_constraints(), densities_, z, [&](size_t i, Fr& a, Fr& b, Fr& c) {
    a = a_.eval_row(i, z);
    b = b_.eval_row(i, z);
    c = c_.eval_row(i, z);
  });
}

}  // namespace cuzk::r1cs
