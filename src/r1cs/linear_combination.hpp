#pragma once
// Variables and linear combinations in the bellpepper model: inputs (public,
// Input(0) is the constant ONE) and aux (private) variables, numbered in
// allocation order. An LC keeps its input and aux terms apart, each sorted by
// index with duplicates merged (bellpepper's Indexer), so terms that cancel
// leave a zero coefficient behind, exactly as upstream: densities and the
// constraint-system hash skip zero coefficients.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <new>
#include <type_traits>
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

struct LcEntry {
  size_t index;
  Fr coeff;
};
static_assert(std::is_trivially_copyable_v<LcEntry>);

// A vector of LC entries keeping the first N inline. Almost every LC of the
// SHA-256 and boolean gadgets has 1-3 terms, and one heap allocation per LC
// was the largest single cost of synthesis.
template <size_t N>
class LcEntries {
 public:
  LcEntries() noexcept : data_(inline_data()) {}
  LcEntries(const LcEntries& o) : LcEntries() { assign(o); }
  LcEntries(LcEntries&& o) noexcept : LcEntries() { take(o); }
  LcEntries& operator=(const LcEntries& o) {
    if (this != &o) {
      size_ = 0;
      assign(o);
    }
    return *this;
  }
  LcEntries& operator=(LcEntries&& o) noexcept {
    if (this != &o) {
      release();
      data_ = inline_data();
      size_ = 0;
      cap_ = N;
      take(o);
    }
    return *this;
  }
  ~LcEntries() { release(); }

  const LcEntry* begin() const { return data_; }
  const LcEntry* end() const { return data_ + size_; }
  LcEntry* begin() { return data_; }
  LcEntry* end() { return data_ + size_; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const LcEntry& operator[](size_t i) const { return data_[i]; }
  LcEntry& operator[](size_t i) { return data_[i]; }
  const LcEntry& back() const { return data_[size_ - 1]; }

  void reserve(size_t n) {
    if (n > cap_) grow(n);
  }
  void push_back(const LcEntry& e) {
    if (size_ == cap_) grow(size_t(cap_) * 2);
    data_[size_++] = e;
  }
  void insert(const LcEntry* pos, const LcEntry& e) {
    size_t at = size_t(pos - data_);
    if (size_ == cap_) grow(size_t(cap_) * 2);
    std::memmove(data_ + at + 1, data_ + at, (size_ - at) * sizeof(LcEntry));
    data_[at] = e;
    size_++;
  }

 private:
  LcEntry* inline_data() { return reinterpret_cast<LcEntry*>(buf_); }
  bool is_inline() const { return data_ == reinterpret_cast<const LcEntry*>(buf_); }
  void release() {
    if (!is_inline()) ::operator delete(data_);
  }
  void grow(size_t n) {
    auto* p = static_cast<LcEntry*>(::operator new(n * sizeof(LcEntry)));
    std::memcpy(p, data_, size_ * sizeof(LcEntry));
    release();
    data_ = p;
    cap_ = uint32_t(n);
  }
  // Copies of up to N entries move the whole inline buffer: a fixed-size
  // copy is a few vector moves, a variable one a library call. (A heap
  // buffer always has room for more than N entries.)
  void assign(const LcEntries& o) {  // *this is empty
    if (o.size_ <= N && is_inline()) {
      std::memcpy(buf_, o.data_, sizeof(buf_));
    } else {
      reserve(o.size_);
      std::memcpy(data_, o.data_, o.size_ * sizeof(LcEntry));
    }
    size_ = o.size_;
  }
  void take(LcEntries& o) {  // *this is empty and inline
    if (o.is_inline()) {
      std::memcpy(buf_, o.buf_, sizeof(buf_));
    } else {
      data_ = o.data_;
      cap_ = o.cap_;
      o.data_ = o.inline_data();
      o.cap_ = N;
    }
    size_ = o.size_;
    o.size_ = 0;
  }

  LcEntry* data_;
  uint32_t size_ = 0, cap_ = N;
  alignas(LcEntry) unsigned char buf_[N * sizeof(LcEntry)];
};

class LinearCombination {
 public:
  using Entry = LcEntry;
  // Inline capacities: ONE is usually the only input; xor's C has 3 aux terms.
  using InputEntries = LcEntries<1>;
  using AuxEntries = LcEntries<3>;

  LinearCombination() = default;
  LinearCombination(Variable v) { add(Fr::one(), v); }       // NOLINT: implicit by design
  LinearCombination(const Term& t) { add(t.coeff, t.var); }  // NOLINT
  static LinearCombination zero() { return {}; }

  LinearCombination& add(const Fr& coeff, Variable v) {
    if (v.is_input()) upsert(inputs_, v.index, coeff);
    else upsert(aux_, v.index, coeff);
    return *this;
  }
  LinearCombination& sub(const Fr& coeff, Variable v) { return add(-coeff, v); }
  LinearCombination& add_scaled(const Fr& k, const LinearCombination& o) {
    if (k.is_one()) {  // k·c = c: skip the multiplications
      for (const auto& e : o.inputs_) upsert(inputs_, e.index, e.coeff);
      for (const auto& e : o.aux_) upsert(aux_, e.index, e.coeff);
    } else {
      for (const auto& e : o.inputs_) upsert(inputs_, e.index, k * e.coeff);
      for (const auto& e : o.aux_) upsert(aux_, e.index, k * e.coeff);
    }
    return *this;
  }
  // Room for this many terms without reallocating.
  void reserve(size_t inputs, size_t aux) {
    inputs_.reserve(inputs);
    aux_.reserve(aux);
  }

  LinearCombination& operator+=(Variable v) { return add(Fr::one(), v); }
  LinearCombination& operator-=(Variable v) { return add(minus_one(), v); }
  LinearCombination& operator+=(const Term& t) { return add(t.coeff, t.var); }
  LinearCombination& operator-=(const Term& t) { return sub(t.coeff, t.var); }
  LinearCombination& operator+=(const LinearCombination& o) { return add_scaled(Fr::one(), o); }
  LinearCombination& operator-=(const LinearCombination& o) { return add_scaled(minus_one(), o); }

  // Sorted by index; may contain zero coefficients (see the file comment).
  const InputEntries& inputs() const { return inputs_; }
  const AuxEntries& aux() const { return aux_; }
  size_t size() const { return inputs_.size() + aux_.size(); }
  bool empty() const { return inputs_.empty() && aux_.empty(); }

  Fr eval(const std::vector<Fr>& input_values, const std::vector<Fr>& aux_values) const {
    Fr acc = Fr::zero();
    for (const auto& e : inputs_) acc += e.coeff * input_values[e.index];
    for (const auto& e : aux_) acc += e.coeff * aux_values[e.index];
    return acc;
  }

  static const Fr& minus_one() {
    static const Fr m = -Fr::one();
    return m;
  }

 private:
  // Appends in O(1) when indices arrive in increasing order (the common case),
  // otherwise a binary-search insert.
  template <class V>
  static void upsert(V& v, size_t index, const Fr& coeff) {
    if (v.empty() || v.back().index < index) {
      v.push_back({index, coeff});
      return;
    }
    auto it =
        std::lower_bound(v.begin(), v.end(), index, [](const Entry& e, size_t i) { return e.index < i; });
    if (it != v.end() && it->index == index) it->coeff += coeff;
    else v.insert(it, {index, coeff});
  }

  InputEntries inputs_;
  AuxEntries aux_;
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
