#pragma once
// Small circuits shared by the r1cs and groth16 tests. A missing witness
// (nullopt) makes value callbacks throw AssignmentMissing.
#include <atomic>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "r1cs/constraint_system.hpp"

namespace cuzk::test {

using r1cs::Fr;
using r1cs::LC;
using r1cs::Variable;

inline Fr need(const std::optional<Fr>& v) {
  if (!v) throw r1cs::AssignmentMissing();
  return *v;
}

// A circuit built blank or with its witness: value(v) is v, or throws
// AssignmentMissing in a blank one.
struct MaybeWitnessed : r1cs::Circuit {
  explicit MaybeWitnessed(bool witness) : with_witness(witness) {}
  bool with_witness;
  Fr value(const Fr& v) const {
    if (!with_witness) throw r1cs::AssignmentMissing();
    return v;
  }
  // n values, each gen(), allocated: their variables and values appended.
  template <class Gen>
  void alloc_values(r1cs::ConstraintSystem& cs, size_t n, const Gen& gen, std::vector<Variable>& vars,
                    std::vector<Fr>& vals) const {
    for (size_t i = 0; i < n; i++) {
      const Fr v = gen();
      vars.push_back(cs.alloc("v", [&] { return value(v); }));
      vals.push_back(v);
    }
  }
};

// x^3 + x + 5 = y, y public.
struct CubicCircuit : r1cs::Circuit {
  std::optional<Fr> x;
  void synthesize(r1cs::ConstraintSystem& cs) const override {
    auto xv = [&] { return need(x); };
    Variable vx = cs.alloc("x", xv);
    Variable x2 = cs.alloc("x2", [&] { return xv().square(); });
    cs.enforce("x2 = x*x", vx, vx, x2);
    Variable x3 = cs.alloc("x3", [&] { return xv().square() * xv(); });
    cs.enforce("x3 = x2*x", x2, vx, x3);
    Variable y = cs.alloc_input("y", [&] { return xv().square() * xv() + xv() + Fr::from_u64(5); });
    cs.enforce("y = x3+x+5", LC(x3) + vx + Fr::from_u64(5) * cs.one(), cs.one(), y);
  }
};

// Duplicate terms, a cancelled term, negative coefficients and inputs added
// after aux in an LC.
struct MixedCircuit : r1cs::Circuit {
  void synthesize(r1cs::ConstraintSystem& cs) const override {
    Variable u = cs.alloc_input("u", [] { return Fr::from_u64(4); });
    Variable p = cs.alloc("p", [] { return Fr::from_u64(2); });
    Variable q = cs.alloc("q", [] { return Fr::from_u64(8); });
    Fr m1 = -Fr::one();
    cs.enforce("k1", LC(q) + m1 * p + p, cs.one(), q);
    cs.enforce("k2", LC(p) + u + Fr::from_u64(3) * cs.one(), m1 * cs.one(), LC(m1 * q) + m1 * cs.one());
  }
};

// n public inputs x_i = i + 1: x_i^2 = sq_i and sum x_i = s.
struct ManyInputsCircuit : r1cs::Circuit {
  size_t n = 20;
  bool with_witness = true;
  void synthesize(r1cs::ConstraintSystem& cs) const override {
    auto val = [&](uint64_t v) {
      if (!with_witness) throw r1cs::AssignmentMissing();
      return Fr::from_u64(v);
    };
    std::vector<Variable> xs;
    for (size_t i = 0; i < n; i++)
      xs.push_back(cs.alloc_input([&] { return "x" + std::to_string(i); }, [&] { return val(i + 1); }));
    LC sum;
    uint64_t total = 0;
    for (size_t i = 0; i < n; i++) {
      r1cs::Namespace ns(cs, [&] { return "sq " + std::to_string(i); });
      Variable sq = cs.alloc("sq", [&] { return val((i + 1) * (i + 1)); });
      cs.enforce("square", xs[i], xs[i], sq);
      sum += xs[i];
      total += i + 1;
    }
    Variable s = cs.alloc("s", [&] { return val(total); });
    cs.enforce("sum", sum, cs.one(), s);
  }
};

// x_{i+1} = x_i * x_i + i for `len` steps; the last value is public.
struct ChainCircuit : r1cs::Circuit {
  size_t len = 10;
  std::optional<Fr> x0;
  void synthesize(r1cs::ConstraintSystem& cs) const override {
    std::optional<Fr> cur = x0;
    Variable v = cs.alloc("x0", [&] { return need(cur); });
    for (size_t i = 0; i < len; i++) {
      r1cs::Namespace ns(cs, [&] { return "step " + std::to_string(i); });
      std::optional<Fr> next;
      if (cur) next = cur->square() + Fr::from_u64(i);
      Variable nv = cs.alloc("x", [&] { return need(next); });
      cs.enforce("mul", v, v, LC(nv) - Fr::from_u64(i) * cs.one());
      v = nv;
      cur = next;
    }
    Variable out = cs.alloc_input("out", [&] { return need(cur); });
    cs.enforce("out check", v, cs.one(), out);
  }
};

// A shared variable x, then independent parts (ConstraintSystem::run_parts):
// part i starts at x + i, squares lens[i] times and makes the result public;
// after the parts, y = x·x.
struct PartsCircuit : r1cs::Circuit {
  explicit PartsCircuit(std::optional<Fr> x = std::nullopt, std::vector<size_t> part_lens = {5, 9, 3, 7},
                        std::vector<size_t> part_bits = {2, 0, 3, 1})
      : lens(std::move(part_lens)), bits(std::move(part_bits)), x0(x) {}
  std::vector<size_t> lens;
  std::vector<size_t> bits;  // per part, bits allocated at once (alloc_bits), each constrained boolean
  std::optional<Fr> x0;
  mutable std::atomic<size_t> parts_on_own_system{0};  // parts given a system of their own
  void synthesize(r1cs::ConstraintSystem& cs) const override {
    Variable x = cs.alloc("x", [&] { return need(x0); });
    cs.run_parts(lens.size(), [&](size_t i, r1cs::ConstraintSystem& part) {
      if (&part != &cs) parts_on_own_system++;
      r1cs::Namespace ns(part, [&] { return "part " + std::to_string(i); });
      std::optional<Fr> cur;
      if (x0) cur = *x0 + Fr::from_u64(i);
      Variable v = part.alloc("start", [&] { return need(cur); });
      part.enforce("start", LC(x) + Fr::from_u64(i) * part.one(), part.one(), v);
      for (size_t k = 0; k < lens[i]; k++) {
        if (cur) cur = cur->square();
        Variable nv = part.alloc("sq", [&] { return need(cur); });
        part.enforce("sq", v, v, nv);
        v = nv;
      }
      if (i < bits.size() && bits[i]) {
        std::vector<uint8_t> b(bits[i]);
        for (size_t k = 0; k < b.size(); k++) b[k] = (k + i) & 1;
        const Variable first = part.alloc_bits(b);
        for (size_t k = 0; k < b.size(); k++) {
          const Variable bv = Variable::aux(first.index + k);
          LC one_minus(part.one());
          one_minus.sub(Fr::one(), bv);
          part.enforce("bit", LC(bv), std::move(one_minus), LC());
        }
      }
      Variable out = part.alloc_input("out", [&] { return need(cur); });
      part.enforce("out", v, part.one(), out);
    });
    std::optional<Fr> y;
    if (x0) y = x0->square();
    Variable yv = cs.alloc("y", [&] { return need(y); });
    cs.enforce("y", x, x, yv);
  }
};

}  // namespace cuzk::test
