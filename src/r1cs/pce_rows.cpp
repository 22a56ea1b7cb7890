// Evaluation of a pre-compiled circuit's rows (r1cs/pce.hpp): a, b and c =
// a∘b (or C·w) row by row, in parallel, with the fast paths for the rows and
// values hash circuits are made of.
#include <algorithm>
#if defined(__x86_64__)
#include <immintrin.h>
#endif
#include <span>
#include <type_traits>

#include <oneapi/tbb/parallel_for.h>

#include "r1cs/fr_sum.hpp"
#include "r1cs/pce.hpp"

namespace cuzk::r1cs {

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

// Orders the streaming stores before anything after them.
inline void streaming_done() {
#if defined(__x86_64__)
  _mm_sfence();
#endif
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
// A row's value and, where known, which bit it is (0, 1; 2: unknown).
struct Tagged {
  V256 v;
  uint32_t tag = 2;
};

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
  Tagged eval(size_t i, std::span<const Fr> w) const {
    const uint32_t lo = r.rp[i], n = r.rp[i + 1] - lo;
    if (n == 1) [[likely]] {
      const uint32_t t = r.coeff[lo];
      const V256 v = load_v(w[r.col[lo]]);
      if (t == 0) [[likely]]
        return {v};
      if (bool is_one; bit_v(v, one, is_one)) [[likely]]
        return {keep_if(load_v(r.table[t]), is_one)};
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
        return {load_v(r.m->small_value(s))};
    }
    return {row_of(*r.m, i, w)};
  }
  // Row i of m (this matrix's, or C's for a = c) by PackedCsr's general path.
  static V256 row_of(const PackedCsr& m, size_t i, std::span<const Fr> w) {
    Fr out;
    m.eval_row(i, w, out);
    return load_v(out);
  }
  Rows r;
  const int8_t* small;  // PackedCsr::small, or null where it is not indexed
  V256 one;
};

// VecRows's rows from w's bit tags (witness_cs.hpp's bit_tag) where the
// values are bits: a byte read instead of 32 (the 32 GiB PoRep's w is 4.2 GB,
// its tags 130 MB, so the values a row reads are far more often in cache)
// and a compare instead of two vector compares. A copy of a bit is its tag
// as an element, and says which bit it is, so that c = a∘b is a select
// without a test of b's value. Other rows (longer, other coefficients, a
// value not a bit) are summed term by term from the tags, reading w's value
// only for a term that is not a bit (PackedCsr::eval_row_tagged).
struct TagRows {
  TagRows(const PackedCsr& m, const uint8_t* tags)
      : r(m), small(m.small.empty() ? nullptr : m.small.data()), tags(tags), one(load_v(Fr::one())) {}
  Tagged eval(size_t i, std::span<const Fr> w) const {
    const uint32_t lo = r.rp[i], n = r.rp[i + 1] - lo;
    if (n == 1) [[likely]] {
      const uint32_t t = r.coeff[lo], col = r.col[lo];
      if (t == 0) [[likely]]
        return copy(col, w);
      return scaled(i, col, t, w);
    }
    if (n - 2 <= PackedCsr::kSmallTerms - 2 && small) return small_row(i, lo, n, w);
    return {row_of(*r.m, i, w)};
  }
  // A term of coefficient 1: its tag as an element where it is a bit.
  Tagged copy(uint32_t col, std::span<const Fr> w) const {
    const uint32_t tag = tags[col];
    return tag <= 1 ? Tagged{keep_if(one, tag), tag} : Tagged{load_v(w[col])};
  }
  // Row i, one term of coefficient table[t]: a select where it is a bit.
  Tagged scaled(size_t i, uint32_t col, uint32_t t, std::span<const Fr> w) const {
    const uint32_t tag = tags[col];
    if (tag <= 1) [[likely]]
      return {keep_if(load_v(r.table[t]), tag)};
    return {row_of(*r.m, i, w)};
  }
  // Row i of two to four terms (from lo): an integer sum where every term is
  // small and a bit, else the general path.
  Tagged small_row(size_t i, uint32_t lo, uint32_t n, std::span<const Fr> w) const {
    return small_row(i, r.col + lo, r.coeff + lo, n, w);
  }
  // The same from the row's columns and coefficient indices.
  Tagged small_row(size_t i, const uint32_t* col, const uint32_t* coeff, size_t n,
                   std::span<const Fr> w) const {
    int s = 0;
    uint32_t other = 0;  // a term not small or not a bit
    for (size_t k = 0; k < n; k++) {
      const int c = small[coeff[k]];
      const uint32_t tag = tags[col[k]];
      other |= (tag >> 1) | uint32_t(c == PackedCsr::kNotSmall);
      s += c & -int(tag & 1);
    }
    if (!other) [[likely]]
      return {load_v(r.m->small_value(s))};
    return {row_of(*r.m, i, w)};
  }
  V256 row_of(const PackedCsr& m, size_t i, std::span<const Fr> w) const {
    Fr out;
    m.eval_row_tagged(i, w, tags, out);
    return load_v(out);
  }
  Rows r;
  const int8_t* small;
  const uint8_t* tags;
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

// c = a·b where b's or a's tag says which bit it is: a select, no test.
inline V256 product_t(const Tagged& a, const Tagged& b, V256 one) {
  if (b.tag <= 1) [[likely]]
    return keep_if(a.v, b.tag);
  if (a.tag <= 1) return keep_if(b.v, a.tag);
  return product_v(a.v, b.v, one);
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

inline void store_abc(size_t i, V256 a, V256 b, V256 c, Fr* pa, Fr* pb, Fr* pc, Store k) {
  store_v(pa + i, a, k);
  store_v(pb + i, b, k);
  store_v(pc + i, c, k);
}

// A row's a and b; c = a∘b.
struct RowAB {
  Tagged a, b;
};

// Rows [begin, end) through row(i) (a RowAB), stored. With streaming stores
// two rows at a time, so that each array's two elements, one 64-byte line,
// are stored one after the other: a line written in two halves between the
// other arrays' stores cost the row loop 10% of its time on the 32 GiB PoRep
// (the write-combining buffers flushed lines part full, it seems; one
// 512-bit store of the line measured the same as the two 256-bit ones).
template <Store k, class RowFn>
inline void rows_by_lines(size_t begin, size_t end, Fr* pa, Fr* pb, Fr* pc, V256 one_v, const RowFn& row_ab) {
  const auto row = [&](size_t i, V256& a, V256& b, V256& c) {
    const RowAB r = row_ab(i);
    a = r.a.v;
    b = r.b.v;
    c = product_t(r.a, r.b, one_v);
  };
  size_t i = begin;
  V256 a0, b0, c0;
  if constexpr (k == Store::Stream256) {
    if (i < end && (reinterpret_cast<uintptr_t>(pa + i) & 63) != 0) {
      row(i, a0, b0, c0);
      store_abc(i, a0, b0, c0, pa, pb, pc, k);
      i++;
    }
    // Two rows; the values in named registers (in arrays they went through
    // the stack, and the loop took twice as long).
    for (; i + 2 <= end; i += 2) {
      V256 a1, b1, c1;
      row(i, a0, b0, c0);
      row(i + 1, a1, b1, c1);
      store_v(pa + i, a0, k);
      store_v(pa + i + 1, a1, k);
      store_v(pb + i, b0, k);
      store_v(pb + i + 1, b1, k);
      store_v(pc + i, c0, k);
      store_v(pc + i + 1, c1, k);
    }
  }
  for (; i < end; i++) {
    row(i, a0, b0, c0);
    store_abc(i, a0, b0, c0, pa, pb, pc, k);
  }
}

// Rows [begin, end) of satisfied-witness evaluation, over VecRows or
// TagRows, for one kind of store (the kind was read from memory and tested
// on every row). `next`: a_from_c's first row at or after begin; on return,
// its first at or after end (a search per call cost the rows 8-12% at porep-512m).
using RowIt = std::span<const uint32_t>::iterator;
template <Store k, class Matrix>
[[gnu::noinline]] void any_rows(const Matrix& ma, const Matrix& mb, const PackedCsr& cm, RowIt& next,
                                RowIt last, std::span<const Fr> w, size_t begin, size_t end, Fr* pa, Fr* pb,
                                Fr* pc) {
  const V256 one = load_v(Fr::one());
  rows_by_lines<k>(begin, end, pa, pb, pc, one, [&](size_t i) {
    Tagged ra;
    if (next != last && *next == i) [[unlikely]] {
      ra.v = ma.row_of(cm, i, w);  // b = 1: a = c for a satisfying witness
      ++next;
    } else {
      ra = ma.eval(i, w);
    }
    return RowAB{ra, mb.eval(i, w)};
  });
}

// Rows [begin, end) of a stretch (PrecompiledCircuit::RowRun) of A's kind:
// B's rows copies of one term, A's of one term (kinds 0, 1) or of AKind
// terms (2 to 4), their terms read in sequence from the stretch's first.
template <Store k, int AKind>
[[gnu::noinline]] void run_rows(const TagRows& ma, const TagRows& mb, std::span<const Fr> w, size_t begin,
                                size_t end, Fr* pa, Fr* pb, Fr* pc) {
  const uint32_t* const col_b = mb.r.col + mb.r.rp[begin] - begin;
  constexpr size_t terms = AKind < 2 ? 1 : AKind;
  const uint32_t* const col_a = ma.r.col + ma.r.rp[begin] - terms * begin;
  const uint32_t* const coeff_a = ma.r.coeff + ma.r.rp[begin] - terms * begin;
  rows_by_lines<k>(begin, end, pa, pb, pc, ma.one, [&](size_t i) {
    Tagged ra;
    if constexpr (AKind == 0) ra = ma.copy(col_a[i], w);
    else if constexpr (AKind == 1) ra = ma.scaled(i, col_a[i], coeff_a[i], w);
    else ra = ma.small_row(i, col_a + terms * i, coeff_a + terms * i, terms, w);
    return RowAB{ra, mb.copy(col_b[i], w)};
  });
}

// The row loop of satisfied-witness evaluation: the stretches (TagRows
// only) by their own loops, the rows between them by any_rows.
template <Store k, class Matrix>
void satisfied_rows_as(const Matrix& ma, const Matrix& mb, const PackedCsr& cm,
                       std::span<const uint32_t> a_from_c, std::span<const PrecompiledCircuit::RowRun> runs,
                       std::span<const Fr> w, size_t begin, size_t end, Fr* pa, Fr* pb, Fr* pc) {
  auto next = std::lower_bound(a_from_c.begin(), a_from_c.end(), uint32_t(begin));
  auto run = std::partition_point(runs.begin(), runs.end(),
                                  [begin](const PrecompiledCircuit::RowRun& r) { return r.end <= begin; });
  for (size_t i = begin; i < end;) {
    const size_t stop = run == runs.end() ? end : std::min<size_t>(end, std::max<size_t>(i, run->begin));
    if (i < stop) {
      any_rows<k>(ma, mb, cm, next, a_from_c.end(), w, i, stop, pa, pb, pc);
      i = stop;
      continue;
    }
    const size_t j = std::min<size_t>(end, run->end);
    if constexpr (std::is_same_v<Matrix, TagRows>) {
      switch (run->a_kind) {
        case 0: run_rows<k, 0>(ma, mb, w, i, j, pa, pb, pc); break;
        case 1: run_rows<k, 1>(ma, mb, w, i, j, pa, pb, pc); break;
        case 2: run_rows<k, 2>(ma, mb, w, i, j, pa, pb, pc); break;
        case 3: run_rows<k, 3>(ma, mb, w, i, j, pa, pb, pc); break;
        default: run_rows<k, 4>(ma, mb, w, i, j, pa, pb, pc); break;
      }
    } else {
      any_rows<k>(ma, mb, cm, next, a_from_c.end(), w, i, j, pa, pb, pc);
    }
    i = j;
    ++run;
  }
  if (k != Store::Plain) streaming_done();
}

template <class Matrix>
void satisfied_rows(const Matrix& ma, const Matrix& mb, const PackedCsr& cm,
                    std::span<const uint32_t> a_from_c, std::span<const PrecompiledCircuit::RowRun> runs,
                    std::span<const Fr> w, size_t begin, size_t end, Fr* pa, Fr* pb, Fr* pc, Store k) {
  switch (k) {
    case Store::Stream256:
      return satisfied_rows_as<Store::Stream256>(ma, mb, cm, a_from_c, runs, w, begin, end, pa, pb, pc);
    case Store::Stream64:
      return satisfied_rows_as<Store::Stream64>(ma, mb, cm, a_from_c, runs, w, begin, end, pa, pb, pc);
    case Store::Plain:
      return satisfied_rows_as<Store::Plain>(ma, mb, cm, a_from_c, runs, w, begin, end, pa, pb, pc);
  }
}
#endif

}  // namespace

void PrecompiledCircuit::eval_rows(std::span<const Fr> ws, std::span<const uint8_t> tags, size_t first,
                                   size_t n, Fr* a, Fr* b, Fr* c, bool exact_c) const {
  const Store kind = store_kind(num_constraints() >= streaming_rows, a, b, c);
  tbb::parallel_for(tbb::blocked_range<size_t>(first, first + n, 4096),
                    [&](const tbb::blocked_range<size_t>& rg) {
                      // Everything the loop reads in locals: the stores to a/b/c could alias
                      // members and captures, which the compiler would otherwise reload per
                      // row (with Rows, 10% of the evaluation's time).
                      const std::span<const Fr> w = ws;
#if defined(__AVX2__)
                      if (!exact_c) {
                        eval_rows_satisfied(w, tags.empty() ? nullptr : tags.data(), rg.begin(), rg.end(),
                                            a - first, b - first, c - first, int(kind));
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
void PrecompiledCircuit::eval_rows_satisfied(std::span<const Fr> w, const uint8_t* tags, size_t begin,
                                             size_t end, Fr* pa, Fr* pb, Fr* pc, int store) const {
  if (tags)
    satisfied_rows(TagRows(a_, tags), TagRows(b_, tags), c_, a_from_c_, runs_, w, begin, end, pa, pb, pc,
                   Store(store));
  else satisfied_rows(VecRows(a_), VecRows(b_), c_, a_from_c_, {}, w, begin, end, pa, pb, pc, Store(store));
}
#endif

}  // namespace cuzk::r1cs
