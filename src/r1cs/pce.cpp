#include "r1cs/pce.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include <oneapi/tbb/parallel_for.h>

#include "r1cs/fr_sum.hpp"
#include "r1cs/pce_recorder.hpp"
#include "platform/large_vector.hpp"
#include "r1cs/vec_growth.hpp"
#include "r1cs/witness_cs.hpp"

namespace cuzk::r1cs {

namespace {

// Terms into growing arrays (8 bytes a term, not the 36 of a CsrMatrix), so
// recording needs about the memory of its result.
struct MemorySink {
  std::vector<uint32_t> row_ptr[3] = {{0}, {0}, {0}}, col[3], coeff[3];
  void term(int k, uint32_t c, uint32_t t) {
    push_back_large(col[k], c);
    push_back_large(coeff[k], t);
  }
  void end_row(int k) {
    if (col[k].size() >= (uint64_t(1) << 32))
      throw std::length_error("pre-compiled circuit: 2^32 terms or more in a matrix");
    push_back_large(row_ptr[k], uint32_t(col[k].size()));
  }
};

struct OwnedArrays {
  std::vector<uint32_t> row_ptr, col, coeff;
};

}  // namespace

PackedCsr::PackedCsr(std::vector<uint32_t> row_ptr_v, std::vector<uint32_t> col_v,
                     std::vector<uint32_t> coeff_v, std::vector<Fr> table_v)
    : table(std::move(table_v)) {
  auto own =
      std::make_shared<OwnedArrays>(OwnedArrays{std::move(row_ptr_v), std::move(col_v), std::move(coeff_v)});
  if (own->row_ptr.empty()) own->row_ptr.push_back(0);
  row_ptr = own->row_ptr;
  col = own->col;
  coeff = own->coeff;
  storage = std::move(own);
}

PackedCsr::PackedCsr(std::span<const uint32_t> row_ptr_s, std::span<const uint32_t> col_s,
                     std::span<const uint32_t> coeff_s, std::vector<Fr> table_v,
                     std::shared_ptr<const void> st)
    : row_ptr(row_ptr_s), col(col_s), coeff(coeff_s), table(std::move(table_v)), storage(std::move(st)) {}

PackedCsr PackedCsr::pack(const CsrMatrix& m, size_t num_inputs, size_t num_aux) {
  if (m.nnz() >= (uint64_t(1) << 32))
    throw std::length_error("pre-compiled circuit: 2^32 terms or more in a matrix");
  std::vector<uint32_t> col(m.col.size()), coeff(m.val.size());
  pce_detail::CoeffIndex index;
  for (size_t k = 0; k < m.val.size(); k++) {
    const uint32_t j = m.col[k];  // z order: inputs, then aux
    col[k] = uint32_t(j < num_inputs ? num_aux + j : j - num_inputs);
    coeff[k] = index(m.val[k]);
  }
  return PackedCsr(std::vector<uint32_t>(m.row_ptr.begin(), m.row_ptr.end()), std::move(col),
                   std::move(coeff), index.take_table());
}

void PackedCsr::index_small() {
  for (int s = -kSmallRange; s <= kSmallRange; s++)
    small_values_[size_t(s + kSmallRange)] = s < 0 ? -Fr::from_u64(uint64_t(-s)) : Fr::from_u64(uint64_t(s));
  small.assign(table.size(), kNotSmall);
  for (size_t t = 0; t < table.size(); t++)
    for (int i = -4; i <= 4; i++)
      if (table[t] == small_values_[size_t(i + kSmallRange)]) small[t] = int8_t(i);
  // Where each power of two lies in the table (which holds a coefficient once).
  pow2.assign(kPackedBits, kNoIndex);
  std::vector<std::pair<Fr, uint32_t>> powers;
  Fr x = Fr::one();
  for (uint32_t k = 0; k < kPackedBits; k++, x = x + x) powers.push_back({x, k});
  std::sort(powers.begin(), powers.end(), [](const auto& a, const auto& b) { return a.first.v < b.first.v; });
  for (size_t t = table.size(); t-- > 0;) {
    auto it = std::lower_bound(powers.begin(), powers.end(), table[t],
                               [](const auto& p, const Fr& v) { return p.first.v < v.v; });
    if (it != powers.end() && it->first == table[t]) pow2[it->second] = uint32_t(t);
  }
}

// Row [lo, hi) as Σ 2^k b_k, where term k has coefficient 2^k and every
// value is a bit (false, out untouched, otherwise): the bits gathered into
// limbs, then one conversion into Montgomery form (the value is below 2^254
// < r). Three loads, a test and an or a term, against the general sum's
// coefficient fetch and five-limb addition; no branch on the bits.
bool PackedCsr::packed_bits(uint32_t lo, uint32_t hi, const uint8_t* tags, Fr& out) const {
  const uint32_t n = hi - lo;
  if (n < kPackedMin || n > pow2.size()) return false;
  const uint32_t *c = coeff.data() + lo, *j = col.data() + lo, *p = pow2.data();
  uint32_t off = 0;  // nonzero: a coefficient not 2^k, or a value not a bit
  Fr::Repr v{};
  for (uint32_t base = 0; base < n; base += 64) {
    const uint32_t end = std::min(n, base + 64);
    uint64_t limb = 0;
    for (uint32_t k = base; k < end; k++) {
      const uint32_t t = tags[j[k]];
      off |= (c[k] ^ p[k]) | (t >> 1);
      limb |= uint64_t(t & 1) << (k - base);
    }
    v[base / 64] = limb;
  }
  if (off) return false;
  out = Fr::from_canonical_unchecked(v);
  return true;
}

size_t PackedCsr::bytes() const {
  return (row_ptr.size() + col.size() + coeff.size()) * sizeof(uint32_t) + table.size() * sizeof(Fr);
}

namespace {

// Σ coeff·value over terms [lo, hi) of m, summed unreduced (fr_sum.hpp);
// is_bit(j, one) says whether value j is 0 or 1 (and which). A bit (nearly
// every value of the long rows: the packed additions' 2^k b) adds its
// coefficient or zero, a select: the rows are long and their bits random,
// so a branch on each value would mispredict half the time. Other values
// take the product.
template <class IsBit>
void sum_terms(const PackedCsr& m, uint32_t lo, uint32_t hi, std::span<const Fr> z, const IsBit& is_bit,
               Fr& out) {
  const uint32_t *col = m.col.data(), *coeff = m.coeff.data();
  const Fr* table = m.table.data();
  FrSum acc;
  for (uint32_t k = lo; k < hi; k++) {
    const uint32_t j = col[k];
    const Fr& c = table[coeff[k]];
    if (bool one; is_bit(j, one)) [[likely]]
      acc.add_if(c, one);
    else acc.add(FrSum::product(c, z[j]));
  }
  acc.store(out);
}

}  // namespace

void PackedCsr::eval_sum(uint32_t lo, uint32_t hi, std::span<const Fr> z, Fr& out) const {  // z: w order
  sum_terms(
      *this, lo, hi, z, [z](uint32_t j, bool& one) { return fr_is_bit(z[j], one); }, out);
}

// The long rows' values lie far apart in w (4.2 GB for the 32 GiB PoRep
// partition): reading their 32-byte values, the sum waited on a cache miss
// for most of its terms; the tags are 32 times denser.
void PackedCsr::eval_row_tagged(size_t i, std::span<const Fr> w, const uint8_t* tags, Fr& out) const {
  if (packed_bits(row_ptr[i], row_ptr[i + 1], tags, out)) return;
  const auto tag_bit = [tags](uint32_t j, bool& one) {
    const uint32_t t = tags[j];
    one = t & 1;
    return t <= 1;
  };
  sum_terms(*this, row_ptr[i], row_ptr[i + 1], w, tag_bit, out);
}

PrecompiledCircuit PrecompiledCircuit::record(const Circuit& blank) {
  MemorySink sink;
  pce_detail::Recorder<MemorySink> rec(sink);
  blank.synthesize(rec);
  const size_t num_aux = rec.num_aux(), num_inputs = rec.num_inputs();
  if (uint64_t(num_inputs) + num_aux > 0xffffffffull)
    throw SynthesisError("too many variables for a 32-bit column index");
  PackedCsr m[3];
  for (int k = 0; k < 3; k++) {
    for (uint32_t& j : sink.col[k])
      if (j & pce_detail::kInputBit) j = uint32_t(num_aux + (j & ~pce_detail::kInputBit));
    m[k] = PackedCsr(std::move(sink.row_ptr[k]), std::move(sink.col[k]), std::move(sink.coeff[k]),
                     rec.index(k).take_table());
  }
  return PrecompiledCircuit(num_inputs, num_aux, std::move(m[0]), std::move(m[1]), std::move(m[2]),
                            rec.take_parts());
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
  find_row_runs();
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

void PrecompiledCircuit::find_row_runs() {
  const size_t rows = num_constraints();
  const auto kind = [&](size_t i) -> int {
    const uint32_t blo = b_.row_ptr[i];
    if (b_.row_ptr[i + 1] - blo != 1 || b_.coeff[blo] != 0) return -1;
    const uint32_t lo = a_.row_ptr[i], n = a_.row_ptr[i + 1] - lo;
    if (n == 1) return a_.coeff[lo] == 0 ? 0 : 1;
    return n >= 2 && n <= PackedCsr::kSmallTerms ? int(n) : -1;
  };
  // Blocks of rows in parallel (a stretch across two blocks counts as two).
  constexpr size_t kBlock = size_t(1) << 20;
  std::vector<std::vector<RowRun>> found((rows + kBlock - 1) / kBlock);
  tbb::parallel_for(size_t(0), found.size(), [&](size_t blk) {
    const size_t end = std::min(rows, (blk + 1) * kBlock);
    for (size_t i = blk * kBlock; i < end;) {
      const int k = kind(i);
      size_t j = i + 1;
      while (j < end && kind(j) == k) j++;
      if (k >= 0 && j - i >= kMinRun) found[blk].push_back({uint32_t(i), uint32_t(j), uint8_t(k)});
      i = j;
    }
  });
  size_t total = 0;
  for (const auto& f : found) total += f.size();
  runs_.clear();
  runs_.reserve(total);
  for (auto& f : found) {
    runs_.insert(runs_.end(), f.begin(), f.end());
    std::vector<RowRun>().swap(f);
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
  find_row_runs();
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
         a_from_c_.size() * sizeof(uint32_t) + runs_.size() * sizeof(RowRun);
}

uint64_t PrecompiledCircuit::matrix_bytes_read() const {
  // The stretches' rows read no offsets: their rows' terms lie in sequence.
  uint64_t a_offsets = 4 * (uint64_t(num_constraints()) + 1), b_offsets = a_offsets;
  for (const RowRun& r : runs_) {
    b_offsets -= 4 * uint64_t(r.end - r.begin);
    a_offsets -= 4 * uint64_t(r.end - r.begin);
  }
  uint64_t a_terms = a_.nnz(), c_bytes = 0;
  for (uint32_t i : a_from_c_) {
    a_terms -= a_.row_ptr[i + 1] - a_.row_ptr[i];
    c_bytes += 8 + 8 * uint64_t(c_.row_ptr[i + 1] - c_.row_ptr[i]);  // two offsets, the terms
  }
  return a_offsets + b_offsets + 8 * (a_terms + b_.nnz()) + c_bytes + runs_.size() * sizeof(RowRun);
}

std::vector<Fr> PrecompiledCircuit::witness(const Circuit& witnessed, std::vector<uint8_t>* tags) const {
  WitnessCS w(num_inputs_, num_aux_, parts_);
  witnessed.synthesize(w);
  if (w.num_inputs() != num_inputs_ || w.num_aux() != num_aux_ || w.num_constraints() != num_constraints())
    throw PceMismatch("pre-compiled circuit does not match: it has " + std::to_string(num_inputs_) +
                      " inputs, " + std::to_string(num_aux_) + " aux, " + std::to_string(num_constraints()) +
                      " constraints; synthesis gave " + std::to_string(w.num_inputs()) + ", " +
                      std::to_string(w.num_aux()) + ", " + std::to_string(w.num_constraints()));
  return w.take_aux_then_inputs(tags);
}

ProvingAssignment PrecompiledCircuit::synthesize(const Circuit& witnessed) const {
  std::vector<uint8_t> tags;
  std::vector<Fr> w = witness(witnessed, &tags);
  std::vector<Fr> inputs(w.end() - std::ptrdiff_t(num_inputs_), w.end());
  ProvingAssignment pa = assign(std::move(w), std::move(inputs), false, tags);
  platform::recycle_large(tags);  // the next partition's witness takes it
  return pa;
}

ProvingAssignment PrecompiledCircuit::evaluate(std::span<const Fr> z) const {
  if (z.size() != num_inputs_ + num_aux_)
    throw SynthesisError("witness has " + std::to_string(z.size()) + " values, the circuit needs " +
                         std::to_string(num_inputs_ + num_aux_) + " (inputs incl. ONE + aux)");
  std::vector<Fr> w(z.begin() + std::ptrdiff_t(num_inputs_), z.end());
  w.insert(w.end(), z.begin(), z.begin() + std::ptrdiff_t(num_inputs_));
  return assign(std::move(w), {z.begin(), z.begin() + std::ptrdiff_t(num_inputs_)}, true);
}

void PrecompiledCircuit::evaluate_rows(std::span<const Fr> w, size_t first, size_t n, Fr* a, Fr* b, Fr* c,
                                       std::span<const uint8_t> tags) const {
  if (w.size() != num_inputs_ + num_aux_ || first > num_constraints() || n > num_constraints() - first)
    throw SynthesisError("evaluate_rows: witness or row range does not fit the circuit");
  if (!tags.empty() && tags.size() != w.size())
    throw SynthesisError("evaluate_rows: " + std::to_string(tags.size()) + " bit tags for " +
                         std::to_string(w.size()) + " witness values");
  if (w.size() > num_aux_ && !w[num_aux_].is_one()) throw SynthesisError("witness value 0 (ONE) must be 1");
  eval_rows(w, tags, first, n, a, b, c, false);
}

ProvingAssignment PrecompiledCircuit::assign(std::vector<Fr>&& w, std::vector<Fr> inputs, bool exact_c,
                                             std::span<const uint8_t> tags) const {
  if (inputs.empty() || !inputs[0].is_one()) throw SynthesisError("witness value 0 (ONE) must be 1");
  const size_t rows = num_constraints();
  ProvingAssignment pa = start_assignment(rows, densities_);
  pa.input_assignment = std::move(inputs);
  eval_rows(w, tags, 0, rows, pa.a.data(), pa.b.data(), pa.c.data(), exact_c);
  w.resize(num_aux_);  // drops the inputs behind the aux values
  pa.aux_assignment = std::move(w);
  return pa;
}

}  // namespace cuzk::r1cs
