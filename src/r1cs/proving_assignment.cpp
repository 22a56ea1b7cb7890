#include "r1cs/proving_assignment.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <new>

#include "r1cs/fr_sum.hpp"
#include "r1cs/vec_growth.hpp"

namespace cuzk::r1cs {

namespace {

// Zero coefficients neither contribute nor mark density (as upstream).
// Out of line: inlined three times into enforce_impl, the sums were kept
// on the stack for want of registers.
template <bool kInputDensity, bool kAuxDensity>
[[gnu::noinline]] void eval_tracked(Fr& out, const LinearCombination& lc, const Fr* in, const Fr* aux,
                                    Density* in_density = nullptr, Density* aux_density = nullptr) {
  // `out` is a new zero. Empty LCs and single aux terms (over a third of
  // all: the bit gadgets' b = v, a = 2·x) need no sum.
  if (lc.inputs().empty() && lc.aux().size() <= 1) {
    if (lc.aux().empty() || fr_is_zero(lc.aux()[0].coeff)) return;
    const auto& e = lc.aux()[0];
    if constexpr (kAuxDensity) aux_density->inc(e.index);
    FrSum::term_into(e.coeff, aux[e.index], out);
    return;
  }
  FrSum acc;
  for (const auto& e : lc.inputs()) {
    if (fr_is_zero(e.coeff)) continue;
    acc.add_product(e.coeff, in[e.index]);
    if constexpr (kInputDensity) in_density->inc(e.index);
  }
  for (const auto& e : lc.aux()) {
    if (fr_is_zero(e.coeff)) continue;
    acc.add_product(e.coeff, aux[e.index]);
    if constexpr (kAuxDensity) aux_density->inc(e.index);
  }
  acc.store(out);
}

}  // namespace

namespace {
// Sizes of the last assignment destroyed (0: none yet).
std::atomic<size_t> g_rows_hint{0}, g_aux_hint{0};
constexpr size_t kMinHint = size_t(1) << 16;  // smaller systems just grow

// The hinted size is only an optimisation: without memory for it, grow.
void reserve_or_grow(std::vector<Fr>& v, size_t cap) {
  try {
    reserve_large(v, cap);
  } catch (const std::bad_alloc&) {
    grow_large(v);
  }
}
}  // namespace

ProvingAssignment::ProvingAssignment() {
  input_assignment.push_back(Fr::one());
  b_input_density.add_element();
}

ProvingAssignment::~ProvingAssignment() {
  const size_t rows = std::max({a.size(), b.size(), c.size()});
  if (rows) g_rows_hint.store(rows, std::memory_order_relaxed);
  if (!aux_assignment.empty()) g_aux_hint.store(aux_assignment.size(), std::memory_order_relaxed);
  for (auto* v : {&a, &b, &c, &aux_assignment}) platform::recycle_large(*v);
}

// The first growth reserves the remembered size (taken at first use rather
// than construction, so that an assignment only assigned to holds nothing).
void ProvingAssignment::grow_rows() {
  const size_t hint = g_rows_hint.load(std::memory_order_relaxed);
  for (auto* v : {&a, &b, &c}) {
    if (v->size() < v->capacity()) continue;
    // a/b/c to a power of two, as doubling would have left them.
    if (v->empty() && hint >= kMinHint) reserve_or_grow(*v, std::bit_ceil(hint));
    else grow_large(*v);
  }
}

void ProvingAssignment::grow_aux() {
  const size_t hint = g_aux_hint.load(std::memory_order_relaxed);
  if (aux_assignment.empty() && hint >= kMinHint) reserve_or_grow(aux_assignment, hint);
  else grow_large(aux_assignment);
}

void ProvingAssignment::forget_size_hint() {
  g_rows_hint.store(0, std::memory_order_relaxed);
  g_aux_hint.store(0, std::memory_order_relaxed);
}

Variable ProvingAssignment::alloc_impl(const Name&, FnRef<Fr()> value) {
  Fr v = value();
  if (aux_assignment.size() == aux_assignment.capacity()) [[unlikely]]
    grow_aux();
  aux_assignment.push_back(v);
  a_aux_density.add_element();
  b_aux_density.add_element();
  return Variable::aux(aux_assignment.size() - 1);
}

Variable ProvingAssignment::alloc_input_impl(const Name&, FnRef<Fr()> value) {
  input_assignment.push_back(value());
  b_input_density.add_element();
  return Variable::input(input_assignment.size() - 1);
}

void ProvingAssignment::enforce_impl(const Name&, LinearCombination&& la, LinearCombination&& lb,
                                     LinearCombination&& lc) {
  const Fr* in = input_assignment.data();
  const Fr* aux = aux_assignment.data();
  if (a.size() == a.capacity() || b.size() == b.capacity() || c.size() == c.capacity()) [[unlikely]]
    grow_rows();
  eval_tracked<false, true>(a.emplace_back(), la, in, aux, nullptr, &a_aux_density);
  eval_tracked<true, true>(b.emplace_back(), lb, in, aux, &b_input_density, &b_aux_density);
  eval_tracked<false, false>(c.emplace_back(), lc, in, aux);
}

void ProvingAssignment::extend(const ProvingAssignment& o) {
  a_aux_density.extend(o.a_aux_density, false);
  b_input_density.extend(o.b_input_density, true);
  b_aux_density.extend(o.b_aux_density, false);
  a.insert(a.end(), o.a.begin(), o.a.end());
  b.insert(b.end(), o.b.begin(), o.b.end());
  c.insert(c.end(), o.c.begin(), o.c.end());
  input_assignment.insert(input_assignment.end(), o.input_assignment.begin() + 1, o.input_assignment.end());
  aux_assignment.insert(aux_assignment.end(), o.aux_assignment.begin(), o.aux_assignment.end());
}

}  // namespace cuzk::r1cs
