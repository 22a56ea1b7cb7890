#pragma once
// Pre-compiled constraints (PCE): a circuit's R1CS recorded once, stored
// compactly, then evaluated per proof against a witness-only synthesis
// (WitnessCS). Gives exactly the ProvingAssignment of full synthesis (a, b,
// c, inputs, aux, A/B densities) without building or evaluating the gadgets'
// linear combinations for each proof.
//
// Storage: per term a 32-bit column and a 32-bit index into the matrix's
// table of distinct coefficients (most are 1, -1 or powers of two), 8 bytes
// instead of 36; index 0 is 1 and index 1 is -1, which evaluation adds or
// subtracts without a multiplication. Row offsets are 32-bit too (a matrix
// holds fewer than 2^32 terms: 309 M at most for the 32 GiB PoRep), so the
// 32 GiB PoRep partition takes 8 B x 722 M terms + 12 B x 130 M rows, 6.9 GiB.
// Columns index w = (aux..., inputs...), the order witness-only synthesis
// leaves its values in (r1cs/witness_cs.hpp), so the aux assignment is w
// truncated rather than copied.
//
// Per proof, C·w is not evaluated: for a witness that satisfies the circuit
// (the only kind that can give a valid proof) c_i = a_i·b_i, which is
// usually a copy or a zero, since b is mostly a bit or ONE. By the same
// token, where B's row is ONE and C's row is much shorter than A's
// (MultiEq's packed additions), a_i is evaluated from C.
#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "r1cs/evaluate.hpp"
#include "r1cs/fr_sum.hpp"
#include "r1cs/proving_assignment.hpp"
#include "r1cs/shape.hpp"
#include "r1cs/witness_cs.hpp"

namespace cuzk::r1cs {

// One matrix, compressed: row offsets, columns and coefficient indices as
// 32-bit arrays (views of memory that `storage` keeps alive: owned vectors
// after recording or packing, or a mapped .pce file), and the table of
// distinct coefficients.
struct PackedCsr {
  std::span<const uint32_t> row_ptr, col, coeff;  // coeff: index into table
  std::vector<Fr> table{Fr::one(), -Fr::one()};
  std::shared_ptr<const void> storage;  // owner of the three arrays

  PackedCsr() : row_ptr(kNoRows) {}
  // Takes ownership of the three arrays.
  PackedCsr(std::vector<uint32_t> row_ptr, std::vector<uint32_t> col, std::vector<uint32_t> coeff,
            std::vector<Fr> table);
  // Views arrays owned by `storage` (a mapped file).
  PackedCsr(std::span<const uint32_t> row_ptr, std::span<const uint32_t> col, std::span<const uint32_t> coeff,
            std::vector<Fr> table, std::shared_ptr<const void> storage);

  // `m` with columns moved to w order. Throws std::length_error for a matrix
  // of 2^32 terms or more.
  static PackedCsr pack(const CsrMatrix& m, size_t num_inputs, size_t num_aux);
  size_t rows() const { return row_ptr.empty() ? 0 : row_ptr.size() - 1; }
  size_t nnz() const { return col.size(); }
  size_t bytes() const;
  // Row i against w, written to `out` (whatever it held: a/b/c are not
  // zeroed first). Inline for the rows of one term (60% of A's rows and
  // nearly all of B's on the PoRep circuit).
  void eval_row(size_t i, std::span<const Fr> w, Fr& out) const {
    const uint32_t lo = row_ptr[i], hi = row_ptr[i + 1];
    if (hi - lo == 1) [[likely]] {
      const uint32_t t = coeff[lo];
      if (t == 0) out = w[col[lo]];  // coefficient 1 (nearly all of B): a copy, no test of the value
      else FrSum::term_into(table[t], w[col[lo]], out);
    } else if (hi - lo <= kSmallTerms && !small.empty() && small_sum(lo, hi, w, out)) return;
    else if (hi != lo) eval_sum(lo, hi, w, out);
    else out = Fr::zero();
  }

  // Row i as eval_row gives it, with w's bit tags (witness_cs.hpp's
  // bit_tag, one per value of w): a term's bit is read from its one-byte
  // tag, its 32-byte value only where the tag says it is not a bit.
  void eval_row_tagged(size_t i, std::span<const Fr> w, const uint8_t* tags, Fr& out) const;

  // Each table entry as a small integer (|k| <= 4), or kNotSmall; made by
  // index_small(), which PrecompiledCircuit calls (empty until then: every
  // row takes the general sum). Rows of up to four such terms over values
  // 0 and 1 (the bit gadgets' rows: 1 - a, b - c, 2bc - b - c, ...) sum as
  // integers and read their value from a table.
  static constexpr int8_t kNotSmall = 127;
  static constexpr uint32_t kSmallTerms = 4;
  std::vector<int8_t> small;
  void index_small();
  // The field element s, for a small sum s of up to kSmallTerms terms.
  const Fr& small_value(int s) const { return small_values_[size_t(s + kSmallRange)]; }

  // pow2[k]: the table index of 2^k (k < kPackedBits), or kNoIndex; made by
  // index_small(). A row whose term k has coefficient 2^k (packing bits into
  // a number: Σ 2^k b_k, the long rows that reach the general path) over bit
  // values is that number, built as an integer from the bits.
  static constexpr uint32_t kPackedBits = 254, kPackedMin = 16, kNoIndex = ~uint32_t(0);
  std::vector<uint32_t> pow2;

 private:
  void eval_sum(uint32_t lo, uint32_t hi, std::span<const Fr> w, Fr& out) const;
  bool packed_bits(uint32_t lo, uint32_t hi, const uint8_t* tags, Fr& out) const;
  bool small_sum(uint32_t lo, uint32_t hi, std::span<const Fr> w, Fr& out) const {
    int s = 0;
    for (uint32_t k = lo; k < hi; k++) {
      const int c = small[coeff[k]];
      if (c == kNotSmall) return false;
      bool one;  // which of 0 and 1 decides no branch: random bits would mispredict
      if (!fr_is_bit(w[col[k]], one)) return false;
      s += c & -int(one);
    }
    out = small_values_[size_t(s + kSmallRange)];
    return true;
  }
  static constexpr int kSmallRange = 4 * int(kSmallTerms);
  static constexpr uint32_t kNoRows[1] = {0};
  std::array<Fr, 2 * kSmallRange + 1> small_values_{};  // -16 ... 16
};

class PrecompiledCircuit {
 public:
  // Records `blank` (a circuit without its witness) once.
  static PrecompiledCircuit record(const Circuit& blank);
  explicit PrecompiledCircuit(const R1cs& r);
  // From packed matrices (columns in w order), as a .pce file holds them;
  // the densities are derived from the columns. `parts`: as parts().
  PrecompiledCircuit(size_t num_inputs, size_t num_aux, PackedCsr a, PackedCsr b, PackedCsr c,
                     std::vector<SynthesisCounts> parts = {});
  const PackedCsr& a() const { return a_; }
  const PackedCsr& b() const { return b_; }
  const PackedCsr& c() const { return c_; }

  // The counts at the start of each part of the circuit's first
  // ConstraintSystem::run_parts() call and at its end, whose witnesses
  // synthesize() computes in parallel; empty when it has none.
  const std::vector<SynthesisCounts>& parts() const { return parts_; }
  size_t num_inputs() const { return num_inputs_; }
  size_t num_aux() const { return num_aux_; }
  size_t num_constraints() const { return a_.rows(); }
  size_t nnz() const { return a_.nnz() + b_.nnz() + c_.nnz(); }
  // Memory held (matrices, tables, densities).
  size_t bytes() const;
  // Bytes of the matrices one synthesis reads: A's and B's offsets (but not
  // within the stretches of row_runs(), which read terms in sequence) and
  // terms, C's terms only for the rows whose a comes from C (c = a∘b is not
  // evaluated from C), and the stretches. For the memory-bandwidth bound of
  // benchmarks.
  uint64_t matrix_bytes_read() const;

  // Witness-only synthesis of `witnessed`, then a = A·w, b = B·w and
  // c = a∘b in parallel over rows (on the caller's oneTBB arena): the
  // assignment of full synthesis whenever the witness satisfies the circuit.
  // Throws PceMismatch when the circuit's allocation or constraint counts
  // differ from the recorded ones (a stale PCE).
  ProvingAssignment synthesize(const Circuit& witnessed) const;
  // The two halves of synthesize(), for circuits whose a, b and c do not fit
  // in memory at once (the 32 GiB PoRep: 12 GB of them), evaluated a range
  // of rows at a time. witness(): witness-only synthesis checked against the
  // recorded counts (PceMismatch), w = (aux..., inputs...).
  // With `tags`, w's bit tags too (witness_cs.hpp's bit_tag, same order).
  std::vector<Fr> witness(const Circuit& witnessed, std::vector<uint8_t>* tags = nullptr) const;
  // Rows [first, first + n) against w: a, b and c = a∘b into a[0..n),
  // b[0..n), c[0..n), in parallel on the caller's oneTBB arena. Given w's
  // bit tags (as witness() makes them; empty: none), the rows read a tag
  // instead of a value wherever it is a bit (the AVX2 build; others read the
  // values): faster, and the same result for tags that are right.
  void evaluate_rows(std::span<const Fr> w, size_t first, size_t n, Fr* a, Fr* b, Fr* c,
                     std::span<const uint8_t> tags = {}) const;
  // From a full witness z = (ONE, inputs..., aux...), with c = C·z
  // evaluated: exactly full synthesis's assignment, satisfied or not.
  ProvingAssignment evaluate(std::span<const Fr> z) const;
  // Circuits of this many rows or more have a, b and c written with
  // streaming stores (pce_rows.cpp says why); tests lower it to reach that path.
  static inline size_t streaming_rows = size_t(1) << 23;

  // A stretch of rows [begin, end) whose B row is one term of coefficient 1
  // (nearly all of B's) and whose A rows are all of one kind: one term of
  // coefficient 1 (kind 0), one term of another (1), n terms for n of two
  // to four (kind n). The satisfied-witness loop with bit tags (the AVX2
  // build's) takes such a stretch with its terms read in sequence, without
  // the rows' offsets and the tests of their shape per row (on the 32 GiB
  // PoRep 83% of the rows lie in stretches of 16 or more).
  struct RowRun {
    uint32_t begin, end;
    uint8_t a_kind;
  };
  static constexpr size_t kMinRun = 16;
  const std::vector<RowRun>& row_runs() const { return runs_; }

 private:
  // Rows in parallel; c = C·w when exact_c, else a∘b. `w` becomes the aux
  // assignment; `tags`, when given, are witness()'s, one per value of w.
  ProvingAssignment assign(std::vector<Fr>&& w, std::vector<Fr> inputs, bool exact_c,
                           std::span<const uint8_t> tags = {}) const;
  void eval_rows(std::span<const Fr> w, std::span<const uint8_t> tags, size_t first, size_t n, Fr* a, Fr* b,
                 Fr* c, bool exact_c) const;
  // Rows [begin, end) with c = a∘b, into pa[i], pb[i], pc[i]; `store`: how
  // (pce_rows.cpp's Store). The AVX2 build's loops, without and with bit tags.
  void eval_rows_satisfied(std::span<const Fr> w, const uint8_t* tags, size_t begin, size_t end, Fr* pa,
                           Fr* pb, Fr* pc, int store) const;

  void find_rows_a_from_c();  // fills a_from_c_ (sorted rows)
  void find_row_runs();       // fills runs_

  size_t num_inputs_ = 0, num_aux_ = 0;
  PackedCsr a_, b_, c_;
  std::vector<uint32_t> a_from_c_;
  std::vector<RowRun> runs_;  // sorted, disjoint
  std::vector<SynthesisCounts> parts_;
  ShapeDensities densities_;
};

}  // namespace cuzk::r1cs
