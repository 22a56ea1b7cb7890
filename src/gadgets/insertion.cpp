#include "gadgets/insertion.hpp"

#include <stdexcept>
#include <string>

namespace cuzk::gadgets {

AllocatedNum pick(ConstraintSystem& cs, const Boolean& cond, const AllocatedNum& a, const AllocatedNum& b) {
  std::optional<Fr> v;
  if (auto c = cond.value()) v = *c ? a.value : b.value;
  AllocatedNum c = in_ns(cs, "pick result", [&] { return AllocatedNum::alloc(cs, v); });
  cs.enforce("pick", LC(b.var) - a.var, cond.lc(Fr::one()), LC(b.var) - c.var);
  return c;
}

AllocatedNum select(ConstraintSystem& cs, std::span<const AllocatedNum> from, std::span<const Boolean> bits) {
  if (from.size() != (size_t(1) << bits.size())) throw std::invalid_argument("select: size != 2^bits");
  std::vector<AllocatedNum> state(from.begin(), from.end());
  size_t half = from.size() / 2;
  // Most significant bit first: each step halves the candidates.
  for (size_t i = 0; i < bits.size(); i++, half /= 2) {
    const Boolean& bit = bits[bits.size() - 1 - i];
    std::vector<AllocatedNum> next;
    for (size_t j = 0; j < half; j++)
      next.push_back(in_ns(
          cs, [&] { return "pick " + std::to_string(i) + ", " + std::to_string(j); },
          [&] { return pick(cs, bit, state[half + j], state[j]); }));
    state = std::move(next);
  }
  return state[0];
}

namespace {

using Nums = std::vector<AllocatedNum>;

// `witness!(name <== if cond { a } else { b })` of insertion.rs.
AllocatedNum w(ConstraintSystem& cs, const char* name, const Boolean& cond, const AllocatedNum& a,
               const AllocatedNum& b) {
  return in_ns(cs, name, [&] { return pick(cs, cond, a, b); });
}

Nums insert_2(ConstraintSystem& cs, const AllocatedNum& x, std::span<const Boolean> bits,
              std::span<const AllocatedNum> e) {
  return {w(cs, "binary insert 0", bits[0], e[0], x), w(cs, "binary insert 1", bits[0], x, e[0])};
}

Nums insert_4(ConstraintSystem& cs, const AllocatedNum& a, std::span<const Boolean> bits,
              std::span<const AllocatedNum> e) {
  const Boolean &b0 = bits[0], &b1 = bits[1];
  const AllocatedNum &b = e[0], &c = e[1], &d = e[2];
  // p<pos>_<x..>: output position pos when the x'ed bits are still unknown.
  auto p0_x0 = w(cs, "p0_x0", b0, b, a);
  auto p0 = w(cs, "p0", b1, b, p0_x0);
  auto p1_x0 = w(cs, "p1_x0", b0, a, b);
  auto p1 = w(cs, "p1", b1, c, p1_x0);
  auto p2_x1 = w(cs, "p2_x1", b0, d, a);
  auto p2 = w(cs, "p2", b1, p2_x1, c);
  auto p3_x1 = w(cs, "p3_x1", b0, a, d);
  auto p3 = w(cs, "p3", b1, p3_x1, d);
  return {p0, p1, p2, p3};
}

Nums insert_8(ConstraintSystem& cs, const AllocatedNum& a, std::span<const Boolean> bits,
              std::span<const AllocatedNum> el) {
  const Boolean &b0 = bits[0], &b1 = bits[1], &b2 = bits[2];
  if (b0.kind() != Boolean::Kind::Is || b1.kind() != Boolean::Kind::Is)
    throw std::invalid_argument("insert: bits must be allocated and unnegated");
  const AllocatedNum &b = el[0], &c = el[1], &d = el[2], &e = el[3], &f = el[4], &g = el[5], &h = el[6];
  Boolean nor01 = in_ns(cs, "b0 nor b1", [&] { return AllocatedBit::nor(cs, b0.bit(), b1.bit()); });
  Boolean and01 = in_ns(cs, "b0 and b1", [&] { return AllocatedBit::and_(cs, b0.bit(), b1.bit()); });

  auto p0_xx0 = w(cs, "p0_xx0", nor01, a, b);
  auto p0 = w(cs, "p0", b2, b, p0_xx0);

  auto p1_x00 = w(cs, "p1_x00", b0, a, b);
  auto p1_xx0 = w(cs, "p1_xx0", b1, c, p1_x00);
  auto p1 = w(cs, "p1", b2, c, p1_xx0);

  auto p2_x10 = w(cs, "p2_x10", b0, d, a);
  auto p2_xx0 = w(cs, "p2_xx0", b1, p2_x10, c);
  auto p2 = w(cs, "p2", b2, d, p2_xx0);

  auto p3_xx0 = w(cs, "p3_xx0", and01, a, d);
  auto p3 = w(cs, "p3", b2, e, p3_xx0);

  auto p4_xx1 = w(cs, "p4_xx1", nor01, a, f);
  auto p4 = w(cs, "p4", b2, p4_xx1, e);

  auto p5_x01 = w(cs, "p5_x01", b0, a, f);
  auto p5_xx1 = w(cs, "p5_xx1", b1, g, p5_x01);
  auto p5 = w(cs, "p5", b2, p5_xx1, f);

  auto p6_x11 = w(cs, "p6_x11", b0, h, a);
  auto p6_xx1 = w(cs, "p6_xx1", b1, p6_x11, g);
  auto p6 = w(cs, "p6", b2, p6_xx1, g);

  auto p7_xx1 = w(cs, "p7_xx1", and01, a, h);
  auto p7 = w(cs, "p7", b2, p7_xx1, h);
  return {p0, p1, p2, p3, p4, p5, p6, p7};
}

}  // namespace

Nums insert(ConstraintSystem& cs, const AllocatedNum& element, std::span<const Boolean> bits,
            std::span<const AllocatedNum> elements) {
  const size_t size = elements.size() + 1;
  if (size != (size_t(1) << bits.size())) throw std::invalid_argument("insert: size != 2^bits");
  if (size == 2) return insert_2(cs, element, bits, elements);
  if (size == 4) return insert_4(cs, element, bits, elements);
  if (size == 8) return insert_8(cs, element, bits, elements);
  // General case: for each output position, select among the values it
  // takes for every possible index.
  Nums result;
  for (size_t pos = 0; pos < size; pos++) {
    Nums choices;
    for (size_t index = 0; index < size; index++)
      choices.push_back(pos < index ? elements[pos] : pos == index ? element : elements[pos - 1]);
    result.push_back(in_ns(
        cs, [&] { return "choice at " + std::to_string(pos); }, [&] { return select(cs, choices, bits); }));
  }
  return result;
}

}  // namespace cuzk::gadgets
