#include "gadgets/sha256_witness.hpp"

#include <array>
#include <bit>
#include <cstddef>
#include <stdexcept>

namespace cuzk::gadgets::detail {

namespace {

// A word: per bit, a constant, a variable or a variable's negation, as
// masks (bit i of each for bit i of the word) beside the word's value.
// Which variable a bit is matters only for the words the compression
// returns, and those are always sums (addmany), whose 32 bits are
// consecutive new variables: a word keeps the first of them, or kNoVars,
// rather than a variable per bit (copying 32 of those through every
// rotation and selection was most of the witness's own time).
struct Word {
  static constexpr uint64_t kNoVars = ~uint64_t(0);
  uint32_t value = 0;        // every bit's value (a negated bit's is its variable's, negated)
  uint32_t cmask = 0;        // constant bits
  uint32_t nmask = 0;        // negated variables (never set on constant bits)
  uint64_t first = kNoVars;  // a sum's: bit j is aux variable first + j

  // The bits of m from x, the others from this word.
  void take(uint32_t m, const Word& x) {
    value = (value & ~m) | (x.value & m);
    cmask = (cmask & ~m) | (x.cmask & m);
    nmask = (nmask & ~m) | (x.nmask & m);
    first = kNoVars;
  }
};

Word not_w(Word w) {
  w.value = ~w.value;
  w.nmask ^= ~w.cmask;
  w.first = Word::kNoVars;
  return w;
}
Word rotr(const Word& x, unsigned by) {
  Word r;
  r.value = std::rotr(x.value, int(by));
  r.cmask = std::rotr(x.cmask, int(by));
  r.nmask = std::rotr(x.nmask, int(by));
  return r;
}
Word shr(const Word& x, unsigned by) {  // the vacated high bits are constant zeros
  Word r;
  r.value = x.value >> by;
  r.cmask = (x.cmask >> by) | ~(~uint32_t(0) >> by);
  r.nmask = x.nmask >> by;
  return r;
}

// Boolean::and_ of every bit: bits with a constant false operand are false,
// a constant true operand gives the other operand (a's test first), and
// two variables give a new bit, whose place is returned in `alloc` (its
// value in value; the variable is assigned later, in bit order, by the
// caller, with the other allocations of the same word operation).
Word and_w(const Word& a, const Word& b, uint32_t& alloc) {
  const uint32_t f = (a.cmask & ~a.value) | (b.cmask & ~b.value);
  const uint32_t from_b = a.cmask & ~f, from_a = b.cmask & ~f & ~from_b;
  alloc = ~(f | from_b | from_a);
  Word r;
  r.take(from_a, a);
  r.take(from_b, b);
  r.cmask |= f;
  r.value = (r.value & ~(f | alloc)) | (a.value & b.value & alloc);
  return r;
}

// A word assembled bit by bit from cases tried in order (the first case
// whose mask holds a bit decides that bit), with the bits that become new
// variables in `alloc`.
struct Cases {
  Word r;
  uint32_t left = ~uint32_t(0), alloc = 0;

  void pick(uint32_t m, const Word& t, uint32_t t_alloc = 0) {
    m &= left;
    r.take(m, t);
    alloc |= m & t_alloc;
    left &= ~m;
  }
  void constant(uint32_t m, uint32_t value) {
    Word k;
    k.value = value;
    k.cmask = ~uint32_t(0);
    pick(m, k);
  }
  // x AND y, or NOT (x AND y).
  void pick_and(uint32_t m, const Word& x, const Word& y, bool negate) {
    if (!(m & left)) return;
    uint32_t al = 0;
    const Word t = and_w(x, y, al);
    pick(m, negate ? not_w(t) : t, al);
  }
  // The remaining bits: new variables holding `value`.
  void general(uint32_t value) {
    Word g;
    g.value = value;
    pick(~uint32_t(0), g, ~uint32_t(0));
  }
};

// The word operations of uint32.cpp with the bit cases of boolean.cpp, on
// a witness-only system. Every allocated bit comes with exactly one
// constraint there (its boolean, xor, and, ch or maj constraint), which is
// counted here.
class Witness {
 public:
  explicit Witness(ConstraintSystem& cs) : cs_(cs), eq_(cs) {}
  MultiEq& eq() { return eq_; }

  // New bits, one per set bit of m in bit order, valued as their variables
  // must be (a negated bit's variable holds the negation); `second`: bits
  // of m that allocate one more bit right after their own (maj's "b and
  // c"), valued by second_values. Every new bit has one constraint.
  void alloc_bits(const Word& r, uint32_t m, uint32_t second = 0, uint32_t second_values = 0) {
    const uint32_t under = r.value ^ r.nmask;
    std::array<uint8_t, 64> vals;
    size_t n = 0;
    for (uint32_t t = m; t; t &= t - 1) {
      const int i = std::countr_zero(t);
      vals[n++] = (under >> i) & 1;
      if ((second >> i) & 1) vals[n++] = (second_values >> i) & 1;
    }
    if (!n) return;
    cs_.alloc_bits(std::span(vals.data(), n));
    for (size_t j = 0; j < n; j++) cs_.skip_constraint();
  }

  // Boolean::xor_: a constant operand gives the other (negated when the
  // constant is true); two variables give a new one holding the xor of the
  // variables, negated when exactly one operand is.
  Word xor_(const Word& x, const Word& y) {
    const uint32_t from_y = x.cmask & ~y.cmask, from_x = y.cmask & ~x.cmask;
    const uint32_t both = ~x.cmask & ~y.cmask;
    Word r;
    r.take(from_x, x);
    r.take(from_y, y);
    r.value = x.value ^ y.value;
    r.cmask = x.cmask & y.cmask;
    r.nmask = (from_y & (y.nmask ^ x.value)) | (from_x & (x.nmask ^ y.value)) | (both & (x.nmask ^ y.nmask));
    alloc_bits(r, both);
    return r;
  }
  // Boolean::sha256_ch, bit by bit, its cases in their order.
  Word ch(const Word& a, const Word& b, const Word& c) {
    const uint32_t v = (a.value & b.value) ^ (~a.value & c.value);
    Cases k;
    if (a.cmask | b.cmask | c.cmask) {
      k.constant(a.cmask & b.cmask & c.cmask, v);
      k.pick(a.cmask & ~a.value, c);
      k.pick_and(b.cmask & ~b.value, not_w(a), c, false);
      k.pick_and(c.cmask & ~c.value, a, b, false);
      k.pick_and(c.cmask & c.value, a, not_w(b), true);
      k.pick_and(b.cmask & b.value, not_w(a), not_w(c), true);
    }
    k.general(v);  // "ch": a(b - c) = ch - c
    alloc_bits(k.r, k.alloc);
    return k.r;
  }
  // Boolean::sha256_maj: in the general case two new bits, "maj" and then
  // "b and c".
  Word maj(const Word& a, const Word& b, const Word& c) {
    const uint32_t v = (a.value & b.value) ^ (a.value & c.value) ^ (b.value & c.value);
    Cases k;
    if (a.cmask | b.cmask | c.cmask) {
      k.constant(a.cmask & b.cmask & c.cmask, v);
      k.pick_and(a.cmask & ~a.value, b, c, false);
      k.pick_and(b.cmask & ~b.value, a, c, false);
      k.pick_and(c.cmask & ~c.value, a, b, false);
      k.pick_and(c.cmask & c.value, not_w(a), not_w(b), true);
      k.pick_and(b.cmask & b.value, not_w(a), not_w(c), true);
      k.pick_and(a.cmask & a.value, not_w(b), not_w(c), true);
    }
    const uint32_t general = k.left;
    k.general(v);
    alloc_bits(k.r, k.alloc, general, b.value & c.value);
    return k.r;
  }
  Word sigma(const Word& x, unsigned r1, unsigned r2, unsigned r3, bool shift) {
    const Word s = xor_(rotr(x, r1), rotr(x, r2));
    return xor_(s, shift ? shr(x, r3) : rotr(x, r3));
  }
  // UInt32::addmany: a constant when every bit is, else the sum's bits
  // (carries included) allocated, then their width reserved in the MultiEq.
  Word addmany(std::span<const Word* const> ops) {
    uint64_t sum = 0;
    uint32_t all_constant = ~uint32_t(0);
    for (const Word* op : ops) {
      sum += op->value;
      all_constant &= op->cmask;
    }
    Word r;
    r.value = uint32_t(sum);
    if (all_constant == ~uint32_t(0)) {
      r.cmask = ~uint32_t(0);
      return r;
    }
    size_t n = 0;
    std::array<uint8_t, 64> vals;
    for (uint64_t max = uint64_t(ops.size()) * 0xffffffffull; max; max >>= 1, n++) vals[n] = (sum >> n) & 1;
    const Variable first = cs_.alloc_bits(std::span(vals.data(), n));
    for (size_t j = 0; j < n; j++) cs_.skip_constraint();
    r.first = first.index;
    eq_.reserve(n);
    return r;
  }

 private:
  ConstraintSystem& cs_;
  MultiEq eq_;
};

Word word_of(const Boolean* bits, bool msb_first) {
  Word w;
  for (unsigned j = 0; j < 32; j++) {
    const Boolean& b = bits[msb_first ? 31 - j : j];
    const uint32_t m = uint32_t(1) << j;
    if (*b.value()) w.value |= m;
    if (b.is_constant()) w.cmask |= m;
    else if (b.kind() == Boolean::Kind::Not) w.nmask |= m;
  }
  return w;
}

// A word the compression returns: constant, or a sum's new bits.
UInt32 uint32_of(const Word& w) {
  if (w.cmask != ~uint32_t(0) && (w.first == Word::kNoVars || w.nmask))
    throw std::logic_error("sha256_compression_witness: a returned word is neither constant nor a sum");
  std::array<Boolean, 32> bits;
  for (unsigned j = 0; j < 32; j++) {
    const bool v = (w.value >> j) & 1;
    if ((w.cmask >> j) & 1) bits[j] = Boolean::constant(v);
    else bits[j] = AllocatedBit{Variable::aux(w.first + j), v};
  }
  return UInt32::from_bits(bits.data());
}

// A sum still to be reduced (the gadget's deferred `e` and `a`): at most the
// seven terms of `a` and the chaining word added at the end.
struct Deferred {
  bool deferred = false;
  Word concrete;
  std::array<const Word*, 8> terms{};
  size_t n = 0;
  Word compute(Witness& wt, const Word* extra = nullptr) {
    if (!deferred) return concrete;
    if (extra) terms[n++] = extra;
    return wt.addmany(std::span(terms.data(), n));
  }
};

}  // namespace

std::vector<UInt32> sha256_compression_witness(ConstraintSystem& cs, std::span<const Boolean> input,
                                               const std::vector<UInt32>& h0) {
  Witness wt(cs);
  std::array<Word, 64> w;
  for (size_t i = 0; i < 16; i++) w[i] = word_of(input.data() + 32 * i, true);
  for (size_t i = 16; i < 64; i++) {
    const Word s0 = wt.sigma(w[i - 15], 7, 18, 3, true);
    const Word s1 = wt.sigma(w[i - 2], 17, 19, 10, true);
    const Word* ops[] = {&w[i - 16], &s0, &w[i - 7], &s1};
    w[i] = wt.addmany(ops);
  }

  std::array<Word, 8> hv;
  for (size_t i = 0; i < 8; i++) hv[i] = word_of(h0[i].bits().data(), false);
  // The terms of the deferred sums live until the sums are computed: the
  // round's words are kept in two alternating slots.
  struct RoundTerms {
    Word h, s1, ch, k, w, d, s0, maj;
  };
  std::array<RoundTerms, 2> slot;
  Deferred a{false, hv[0]}, e{false, hv[4]};
  Word b = hv[1], c = hv[2], d = hv[3], f = hv[5], g = hv[6], h = hv[7];
  for (size_t i = 0; i < 64; i++) {
    RoundTerms& t = slot[i % 2];
    const Word new_e = e.compute(wt);
    t.s1 = wt.sigma(new_e, 6, 11, 25, false);
    t.ch = wt.ch(new_e, f, g);
    const Word new_a = a.compute(wt);
    t.s0 = wt.sigma(new_a, 2, 13, 22, false);
    t.maj = wt.maj(new_a, b, c);
    t.h = h;
    t.k.value = kSha256RoundConstants[i];
    t.k.cmask = ~uint32_t(0);
    t.w = w[i];
    t.d = d;
    h = g;
    g = f;
    f = new_e;
    d = c;
    c = b;
    b = new_a;
    e = Deferred{true, {}, {&t.h, &t.s1, &t.ch, &t.k, &t.w, &t.d}, 6};
    a = Deferred{true, {}, {&t.h, &t.s1, &t.ch, &t.k, &t.w, &t.s0, &t.maj}, 7};
  }

  std::array<Word, 8> out;
  out[0] = a.compute(wt, &hv[0]);
  auto add2 = [&](const Word& x, const Word& y) {
    const Word* ops[] = {&x, &y};
    return wt.addmany(ops);
  };
  out[1] = add2(hv[1], b);
  out[2] = add2(hv[2], c);
  out[3] = add2(hv[3], d);
  out[4] = e.compute(wt, &hv[4]);
  out[5] = add2(hv[5], f);
  out[6] = add2(hv[6], g);
  out[7] = add2(hv[7], h);
  wt.eq().finish();
  std::vector<UInt32> r;
  r.reserve(8);
  for (const Word& o : out) r.push_back(uint32_of(o));
  return r;
}

}  // namespace cuzk::gadgets::detail
