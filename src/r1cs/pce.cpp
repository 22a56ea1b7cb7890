#include "r1cs/pce.hpp"

#include <algorithm>
#if defined(__x86_64__)
#include <immintrin.h>
#endif
#include <stdexcept>
#include <string>

#include "r1cs/fr_sum.hpp"
#include "r1cs/pce_recorder.hpp"
#include "r1cs/vec_growth.hpp"
#include "r1cs/witness_cs.hpp"

#include <oneapi/tbb/parallel_for.h>

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
}

size_t PackedCsr::bytes() const {
  return (row_ptr.size() + col.size() + coeff.size()) * sizeof(uint32_t) + table.size() * sizeof(Fr);
}

void PackedCsr::eval_sum(uint32_t lo, uint32_t hi, std::span<const Fr> z, Fr& out) const {  // z: w order
  // Summed unreduced (fr_sum.hpp). A bit (nearly every value of these rows:
  // the packed additions' 2^k b) adds its coefficient or zero, a select: the
  // rows are long and their bits random, so a branch on each value would
  // mispredict half the time. Other values take the product.
  FrSum acc;
  for (uint32_t k = lo; k < hi; k++) {
    const Fr& v = z[col[k]];
    const Fr& c = table[coeff[k]];
    if (bool one; fr_is_bit(v, one)) [[likely]]
      acc.add_if(c, one);
    else acc.add(FrSum::product(c, v));
  }
  acc.store(out);
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

uint64_t PrecompiledCircuit::matrix_bytes_read() const {
  const uint64_t offsets = 4 * (uint64_t(num_constraints()) + 1);
  uint64_t a_terms = a_.nnz(), c_bytes = 0;
  for (uint32_t i : a_from_c_) {
    a_terms -= a_.row_ptr[i + 1] - a_.row_ptr[i];
    c_bytes += 8 + 8 * uint64_t(c_.row_ptr[i + 1] - c_.row_ptr[i]);  // two offsets, the terms
  }
  return 2 * offsets + 8 * (a_terms + b_.nnz()) + c_bytes;
}

std::vector<Fr> PrecompiledCircuit::witness(const Circuit& witnessed) const {
  WitnessCS w(num_inputs_, num_aux_, parts_);
  witnessed.synthesize(w);
  if (w.num_inputs() != num_inputs_ || w.num_aux() != num_aux_ || w.num_constraints() != num_constraints())
    throw PceMismatch("pre-compiled circuit does not match: it has " + std::to_string(num_inputs_) +
                      " inputs, " + std::to_string(num_aux_) + " aux, " + std::to_string(num_constraints()) +
                      " constraints; synthesis gave " + std::to_string(w.num_inputs()) + ", " +
                      std::to_string(w.num_aux()) + ", " + std::to_string(w.num_constraints()));
  return w.take_aux_then_inputs();
}

ProvingAssignment PrecompiledCircuit::synthesize(const Circuit& witnessed) const {
  std::vector<Fr> w = witness(witnessed);
  std::vector<Fr> inputs(w.end() - std::ptrdiff_t(num_inputs_), w.end());
  return assign(std::move(w), std::move(inputs), false);
}

ProvingAssignment PrecompiledCircuit::evaluate(std::span<const Fr> z) const {
  if (z.size() != num_inputs_ + num_aux_)
    throw SynthesisError("witness has " + std::to_string(z.size()) + " values, the circuit needs " +
                         std::to_string(num_inputs_ + num_aux_) + " (inputs incl. ONE + aux)");
  std::vector<Fr> w(z.begin() + std::ptrdiff_t(num_inputs_), z.end());
  w.insert(w.end(), z.begin(), z.begin() + std::ptrdiff_t(num_inputs_));
  return assign(std::move(w), {z.begin(), z.begin() + std::ptrdiff_t(num_inputs_)}, true);
}

void PrecompiledCircuit::evaluate_rows(std::span<const Fr> w, size_t first, size_t n, Fr* a, Fr* b,
                                       Fr* c) const {
  if (w.size() != num_inputs_ + num_aux_ || first > num_constraints() || n > num_constraints() - first)
    throw SynthesisError("evaluate_rows: witness or row range does not fit the circuit");
  if (w.size() > num_aux_ && !w[num_aux_].is_one()) throw SynthesisError("witness value 0 (ONE) must be 1");
  eval_rows(w, first, n, a, b, c, false);
}

namespace {

// a, b and c are written once and not read again by synthesis. For a large
// circuit they cannot stay in any cache either, and streaming (non-temporal)
// stores send them to memory without reading their lines first: half the
// write traffic of plain stores (the 32 GiB PoRep partition writes 12.5 GB of
// them; its a/b/c took 3.8-5.2 s instead of 5.8-6.3 s, alternating runs). A
// small circuit's (the 2 KiB PoRep's 258 MB) partly stay in the last-level
// cache for the prover, and plain stores measured level or 1-2% ahead
// (PrecompiledCircuit::streaming_rows).

// Streaming stores of a whole element where the arrays are 32-byte aligned
// (RawArray's are): one instruction instead of four loads and four stores
// (the evaluation is bound by its instructions per row more than by memory:
// 6% of its time).
enum class Store { Plain, Stream64, Stream256 };

Store store_kind(bool streaming, const Fr* a, const Fr* b, const Fr* c) {
  if (!streaming) return Store::Plain;
#if defined(__AVX__)
  const auto addr = [](const Fr* p) { return reinterpret_cast<uintptr_t>(p); };
  if (((addr(a) | addr(b) | addr(c)) & 31) == 0) return Store::Stream256;
#else
  (void)a, (void)b, (void)c;
#endif
  return Store::Stream64;
}

inline void store_row(Fr* dst, const Fr& x, Store kind) {
#if defined(__AVX__)
  if (kind == Store::Stream256) {
    _mm256_stream_si256(reinterpret_cast<__m256i*>(dst),
                        _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x.v.data())));
    return;
  }
#endif
#if defined(__x86_64__)
  if (kind == Store::Stream64) {
    auto* d = reinterpret_cast<long long*>(dst->v.data());
    for (size_t k = 0; k < 4; k++) _mm_stream_si64(d + k, static_cast<long long>(x.v[k]));
    return;
  }
#endif
  *dst = x;
}

// A matrix's arrays in locals, with the one-term row (most of A's, nearly
// all of B's) inline; other rows go to PackedCsr::eval_row.
struct Rows {
  explicit Rows(const PackedCsr& m)
      : rp(m.row_ptr.data()), col(m.col.data()), coeff(m.coeff.data()), table(m.table.data()), m(&m) {}
  void eval(size_t i, std::span<const Fr> w, Fr& out) const {
    const uint32_t lo = rp[i];
    if (rp[i + 1] - lo == 1) [[likely]] {
      const uint32_t t = coeff[lo];
      const Fr& v = w[col[lo]];
      if (t == 0) out = v;  // coefficient 1: a copy
      else FrSum::term_into(table[t], v, out);
    } else {
      m->eval_row(i, w, out);
    }
  }
  const uint32_t *rp, *col, *coeff;
  const Fr* table;
  const PackedCsr* m;
};

#if defined(__AVX2__)
// The row loop of satisfied-witness evaluation with a, b and c in vector
// registers from load to store: an element copied through memory as one
// 32-byte store and then read as four 8-byte words (the shortcuts' tests of
// 0 and 1) stalled on store forwarding in the loop's hottest lines.
using V256 = __m256i;
inline V256 load_v(const Fr& x) { return _mm256_loadu_si256(reinterpret_cast<const V256*>(x.v.data())); }

// Bit tests as masks: whether x equals ONE and whether it is zero, each all
// ones or none (movemask of the four limbs' compares).
inline uint32_t one_mask(V256 x, V256 one) {
  return uint32_t(_mm256_movemask_epi8(_mm256_cmpeq_epi64(x, one)));
}
inline uint32_t zero_mask(V256 x) {
  return uint32_t(_mm256_movemask_epi8(_mm256_cmpeq_epi64(x, _mm256_setzero_si256())));
}
constexpr uint32_t kAll = 0xffffffffu;
// x & (keep ? ~0 : 0).
inline V256 keep_if(V256 x, bool keep) { return _mm256_and_si256(x, _mm256_set1_epi64x(-int64_t(keep))); }
// fr_is_bit in a register: one test (the larger mask all ones) for the caller
// to branch on, `one` set without a branch.
inline bool bit_v(V256 x, V256 one_v, bool& one) {
  const uint32_t m1 = one_mask(x, one_v);
  one = m1 == kAll;
  return std::max(m1, zero_mask(x)) == kAll;
}

struct VecRows {
  explicit VecRows(const PackedCsr& m)
      : r(m), small(m.small.empty() ? nullptr : m.small.data()), one(load_v(Fr::one())) {}
  // Row i's value, in a register. Witness values of these rows are mostly
  // random bits, so whether a value is 0 or 1 is one test (nearly always
  // true) and which of the two a select, never a branch (it would
  // mispredict half the time): a copy (one term, coefficient 1: most of A's
  // rows, nearly all of B's); a coefficient times a bit (XOR's 2a: half of
  // A's rows on the PoRep circuit) as a mask of the coefficient; up to four
  // small coefficients times bits (a third of A's) as an integer sum whose
  // element is read from a table. Other values and rows: PackedCsr's path.
  V256 eval(size_t i, std::span<const Fr> w) const {
    const uint32_t lo = r.rp[i], n = r.rp[i + 1] - lo;
    if (n == 1) [[likely]] {
      const uint32_t t = r.coeff[lo];
      const V256 v = load_v(w[r.col[lo]]);
      if (t == 0) [[likely]]
        return v;
      if (bool is_one; bit_v(v, one, is_one)) [[likely]]
        return keep_if(load_v(r.table[t]), is_one);
    } else if (n - 2 <= PackedCsr::kSmallTerms - 2 && small) {
      int s = 0;
      uint32_t bits = kAll;
      for (uint32_t k = lo; k < lo + n; k++) {
        const int c = small[r.coeff[k]];
        const V256 v = load_v(w[r.col[k]]);
        const uint32_t m1 = one_mask(v, one);
        bits &= std::max(m1, zero_mask(v)) & -uint32_t(c != PackedCsr::kNotSmall);
        s += c & -int(m1 == kAll);
      }
      if (bits == kAll) [[likely]]
        return load_v(r.m->small_value(s));
    }
    Fr out;
    r.eval(i, w, out);
    return load_v(out);
  }
  Rows r;
  const int8_t* small;  // PackedCsr::small, or null where it is not indexed
  V256 one;
};

// c = a·b with the shortcuts of product_into, in registers: b is nearly
// always a bit or ONE (a select), else a is.
inline V256 product_v(V256 a, V256 b, V256 one) {
  if (bool b1; bit_v(b, one, b1)) [[likely]]
    return keep_if(a, b1);
  if (bool a1; bit_v(a, one, a1)) return keep_if(b, a1);
  Fr x, y;
  _mm256_storeu_si256(reinterpret_cast<V256*>(x.v.data()), a);
  _mm256_storeu_si256(reinterpret_cast<V256*>(y.v.data()), b);
  return load_v(x * y);
}

inline void store_v(Fr* dst, V256 x, Store kind) {
  if (kind == Store::Stream256) {
    _mm256_stream_si256(reinterpret_cast<V256*>(dst->v.data()), x);
  } else {
    Fr t;
    _mm256_storeu_si256(reinterpret_cast<V256*>(t.v.data()), x);
    store_row(dst, t, kind);
  }
}
#endif

// Orders the streaming stores before anything after them.
inline void streaming_done() {
#if defined(__x86_64__)
  _mm_sfence();
#endif
}

}  // namespace

void PrecompiledCircuit::eval_rows(std::span<const Fr> ws, size_t first, size_t n, Fr* a, Fr* b, Fr* c,
                                   bool exact_c) const {
  const Store kind = store_kind(num_constraints() >= streaming_rows, a, b, c);
  tbb::parallel_for(
      tbb::blocked_range<size_t>(first, first + n, 4096), [&](const tbb::blocked_range<size_t>& rg) {
        // Everything the loop reads in locals: the stores to a/b/c could alias
        // members and captures, which the compiler would otherwise reload per
        // row (with Rows, 10% of the evaluation's time).
        const std::span<const Fr> w = ws;
#if defined(__AVX2__)
        if (!exact_c) {
          eval_rows_satisfied(w, rg.begin(), rg.end(), a - first, b - first, c - first, int(kind));
          return;
        }
#endif
        const Rows ma(a_), mb(b_);
        Fr *const pa = a - first, *const pb = b - first, *const pc = c - first;
        const Store k = kind;
        const bool exact = exact_c;
        auto next = std::lower_bound(a_from_c_.begin(), a_from_c_.end(), uint32_t(rg.begin()));
        const auto last = a_from_c_.end();
        for (size_t i = rg.begin(); i < rg.end(); i++) {
          Fr ai, bi, ci;
          if (!exact && next != last && *next == i) [[unlikely]] {
            c_.eval_row(i, w, ai);  // b = 1: a = c for a satisfying witness
            ++next;
          } else {
            ma.eval(i, w, ai);
          }
          mb.eval(i, w, bi);
          if (exact) c_.eval_row(i, w, ci);
          else product_into(ai, bi, ci);
          store_row(pa + i, ai, k);
          store_row(pb + i, bi, k);
          store_row(pc + i, ci, k);
        }
        if (k != Store::Plain) streaming_done();
      });
}

#if defined(__AVX2__)
void PrecompiledCircuit::eval_rows_satisfied(std::span<const Fr> w, size_t begin, size_t end, Fr* pa, Fr* pb,
                                             Fr* pc, int store) const {
  const VecRows ma(a_), mb(b_);
  const Store k = Store(store);
  const V256 one = load_v(Fr::one());
  auto next = std::lower_bound(a_from_c_.begin(), a_from_c_.end(), uint32_t(begin));
  const auto last = a_from_c_.end();
  for (size_t i = begin; i < end; i++) {
    V256 va;
    if (next != last && *next == i) [[unlikely]] {
      Fr ai;
      c_.eval_row(i, w, ai);  // b = 1: a = c for a satisfying witness
      va = load_v(ai);
      ++next;
    } else {
      va = ma.eval(i, w);
    }
    const V256 vb = mb.eval(i, w);
    const V256 vc = product_v(va, vb, one);
    store_v(pa + i, va, k);
    store_v(pb + i, vb, k);
    store_v(pc + i, vc, k);
  }
  if (k != Store::Plain) streaming_done();
}
#endif

ProvingAssignment PrecompiledCircuit::assign(std::vector<Fr>&& w, std::vector<Fr> inputs,
                                             bool exact_c) const {
  if (inputs.empty() || !inputs[0].is_one()) throw SynthesisError("witness value 0 (ONE) must be 1");
  const size_t rows = num_constraints();
  ProvingAssignment pa = start_assignment(rows, densities_);
  pa.input_assignment = std::move(inputs);
  eval_rows(w, 0, rows, pa.a.data(), pa.b.data(), pa.c.data(), exact_c);
  w.resize(num_aux_);  // drops the inputs behind the aux values
  pa.aux_assignment = std::move(w);
  return pa;
}

}  // namespace cuzk::r1cs
