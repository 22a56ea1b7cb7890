#pragma once
// Variables and linear combinations in the bellpepper model: inputs (public,
// Input(0) is the constant ONE) and aux (private) variables, numbered in
// allocation order. An LC keeps its input and aux terms apart, each sorted by
// index with duplicates merged (bellpepper's Indexer), so terms that cancel
// leave a zero coefficient behind, exactly as upstream: densities and the
// constraint-system hash skip zero coefficients.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "ff/bls12_381.hpp"

namespace cuzk::r1cs {

using ff::Fr;

struct Variable {
  enum class Kind : uint8_t { Input, Aux };
  Kind kind = Kind::Input;
  size_t index = 0;

  static constexpr Variable input(size_t i) { return {Kind::Input, i}; }
  static constexpr Variable aux(size_t i) { return {Kind::Aux, i}; }
  static constexpr Variable one() { return input(0); }
  bool is_input() const { return kind == Kind::Input; }
  bool is_aux() const { return kind == Kind::Aux; }
  friend bool operator==(const Variable&, const Variable&) = default;
};

// coeff * var, the result of `Fr * Variable`.
struct Term {
  Fr coeff;
  Variable var;
};
inline Term operator*(const Fr& c, Variable v) { return {c, v}; }

class LinearCombination {
 public:
  struct Entry {
    size_t index;
    Fr coeff;
  };

  LinearCombination() = default;
  LinearCombination(Variable v) { add(Fr::one(), v); }     // NOLINT: implicit by design
  LinearCombination(const Term& t) { add(t.coeff, t.var); }  // NOLINT
  static LinearCombination zero() { return {}; }

  LinearCombination& add(const Fr& coeff, Variable v) {
    upsert(v.is_input() ? inputs_ : aux_, v.index, coeff);
    return *this;
  }
  LinearCombination& sub(const Fr& coeff, Variable v) { return add(-coeff, v); }
  LinearCombination& add_scaled(const Fr& k, const LinearCombination& o) {
    for (const auto& e : o.inputs_) upsert(inputs_, e.index, k * e.coeff);
    for (const auto& e : o.aux_) upsert(aux_, e.index, k * e.coeff);
    return *this;
  }

  LinearCombination& operator+=(Variable v) { return add(Fr::one(), v); }
  LinearCombination& operator-=(Variable v) { return sub(Fr::one(), v); }
  LinearCombination& operator+=(const Term& t) { return add(t.coeff, t.var); }
  LinearCombination& operator-=(const Term& t) { return sub(t.coeff, t.var); }
  LinearCombination& operator+=(const LinearCombination& o) { return add_scaled(Fr::one(), o); }
  LinearCombination& operator-=(const LinearCombination& o) { return add_scaled(-Fr::one(), o); }

  // Sorted by index; may contain zero coefficients (see the file comment).
  const std::vector<Entry>& inputs() const { return inputs_; }
  const std::vector<Entry>& aux() const { return aux_; }
  size_t size() const { return inputs_.size() + aux_.size(); }
  bool empty() const { return inputs_.empty() && aux_.empty(); }

  Fr eval(const std::vector<Fr>& input_values, const std::vector<Fr>& aux_values) const {
    Fr acc = Fr::zero();
    for (const auto& e : inputs_) acc += e.coeff * input_values[e.index];
    for (const auto& e : aux_) acc += e.coeff * aux_values[e.index];
    return acc;
  }

 private:
  // Appends in O(1) when indices arrive in increasing order (the common case),
  // otherwise a binary-search insert.
  static void upsert(std::vector<Entry>& v, size_t index, const Fr& coeff) {
    if (v.empty() || v.back().index < index) {
      v.push_back({index, coeff});
      return;
    }
    auto it = std::lower_bound(v.begin(), v.end(), index,
                               [](const Entry& e, size_t i) { return e.index < i; });
    if (it != v.end() && it->index == index)
      it->coeff += coeff;
    else
      v.insert(it, {index, coeff});
  }

  std::vector<Entry> inputs_, aux_;
};

using LC = LinearCombination;

inline LC operator+(LC lc, Variable v) { return std::move(lc += v); }
inline LC operator-(LC lc, Variable v) { return std::move(lc -= v); }
inline LC operator+(LC lc, const Term& t) { return std::move(lc += t); }
inline LC operator-(LC lc, const Term& t) { return std::move(lc -= t); }
inline LC operator+(LC lc, const LC& o) { return std::move(lc += o); }
inline LC operator-(LC lc, const LC& o) { return std::move(lc -= o); }
inline LC operator*(const Fr& k, const LC& lc) { return LC().add_scaled(k, lc); }

}  // namespace cuzk::r1cs
