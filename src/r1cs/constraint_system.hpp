#pragma once
// The constraint-system interface circuits are written against (bellpepper's
// ConstraintSystem / Circuit), and the errors synthesis may raise.
//
// Values are produced by callbacks so that systems that only need the shape
// (ShapeRecorder, CountingCS) never compute a witness; a callback throws
// AssignmentMissing when the circuit was built without a witness. Names are
// lazy for the same reason: only TestConstraintSystem ever renders them.
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "r1cs/linear_combination.hpp"

namespace cuzk::r1cs {

struct SynthesisError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
struct AssignmentMissing : SynthesisError {
  AssignmentMissing() : SynthesisError("assignment missing") {}
};

// Non-owning reference to a callable; valid for the duration of one call.
template <class Sig>
class FnRef;
template <class R, class... A>
class FnRef<R(A...)> {
 public:
  template <class F>
  requires(!std::is_same_v<std::remove_cvref_t<F>, FnRef> && std::is_invocable_r_v<R, F&, A...>)
      FnRef(F&& f)  // NOLINT: implicit by design
      : obj_((void*)&f),
        call_([](void* o, A... a) -> R { return (*(std::remove_reference_t<F>*)o)(a...); }) {}
  R operator()(A... a) const { return call_(obj_, a...); }

 private:
  void* obj_;
  R (*call_)(void*, A...);
};

// An annotation: a string, or a callable producing one (rendered on demand).
class Name {
 public:
  Name(const char* s) : sv_(s) {}         // NOLINT
  Name(std::string_view s) : sv_(s) {}    // NOLINT
  Name(const std::string& s) : sv_(s) {}  // NOLINT
  template <class F>
  requires std::is_invocable_r_v<std::string, F&> Name(F&& f) : fn_(f) {}  // NOLINT
  std::string str() const { return fn_ ? (*fn_)() : std::string(sv_); }

 private:
  std::string_view sv_;
  std::optional<FnRef<std::string()>> fn_;
};

class ConstraintSystem {
 public:
  virtual ~ConstraintSystem() = default;

  static constexpr Variable one() { return Variable::one(); }

  // `value` is a callable returning Fr (it may throw AssignmentMissing).
  template <class F>
  Variable alloc(const Name& name, F&& value) {
    return alloc_impl(name, FnRef<Fr()>(value));
  }
  template <class F>
  Variable alloc_input(const Name& name, F&& value) {
    return alloc_input_impl(name, FnRef<Fr()>(value));
  }
  // Allocates bits.size() aux variables holding the bits (0 or 1), numbered
  // consecutively from the returned one, named "bit i". For witness-
  // only synthesis of bit-heavy gadgets (gadgets/sha256_witness.hpp): one
  // call per word operation instead of one per bit.
  Variable alloc_bits(std::span<const uint8_t> bits) { return alloc_bits_impl(bits); }
  // Enforces a * b = c.
  void enforce(const Name& name, LinearCombination a, LinearCombination b, LinearCombination c) {
    enforce_impl(name, std::move(a), std::move(b), std::move(c));
  }
  // The same with a, b, c built by callables, which a witness-only system
  // (builds_constraints() false) never calls: it only counts the constraint.
  // Hot gadgets use this so that such synthesis builds no linear combination.
  template <class FA, class FB, class FC>
  void enforce_with(const Name& name, FA&& a, FB&& b, FC&& c) {
    if (builds_constraints_) enforce_impl(name, a(), b(), c());
    else skipped_constraints_++;
  }
  bool builds_constraints() const { return builds_constraints_; }
  // For a gadget that would enforce a constraint it has not built (only
  // when builds_constraints() is false).
  void skip_constraint() { skipped_constraints_++; }
  virtual void push_namespace(const Name&) {}
  virtual void pop_namespace() {}

  // Runs part(0, cs), ..., part(n - 1, cs) in order, exactly as that loop
  // would. The parts must be independent: each reads only variables
  // allocated before this call or by itself. A witness-only system that
  // knows where each part's variables start (pre-compiled constraints,
  // r1cs/pce.hpp) gives each part its own system and runs them in parallel.
  virtual void run_parts(size_t n, FnRef<void(size_t, ConstraintSystem&)> part) {
    for (size_t i = 0; i < n; i++) part(i, *this);
  }

 protected:
  virtual Variable alloc_impl(const Name& name, FnRef<Fr()> value) = 0;
  virtual Variable alloc_input_impl(const Name& name, FnRef<Fr()> value) = 0;
  virtual void enforce_impl(const Name& name, LinearCombination&& a, LinearCombination&& b,
                            LinearCombination&& c) = 0;
  virtual Variable alloc_bits_impl(std::span<const uint8_t> bits) {
    Variable first{};
    for (size_t i = 0; i < bits.size(); i++) {
      const Variable v = alloc_impl([&] { return "bit " + std::to_string(i); },
                                    [&] { return bits[i] ? Fr::one() : Fr::zero(); });
      if (i == 0) first = v;
    }
    return first;
  }

  // Set by witness-only systems, which then count skipped constraints here.
  bool builds_constraints_ = true;
  size_t skipped_constraints_ = 0;
};

// RAII namespace: { Namespace ns(cs, "sha256"); ... }
class Namespace {
 public:
  Namespace(ConstraintSystem& cs, const Name& name) : cs_(cs) { cs_.push_namespace(name); }
  ~Namespace() { cs_.pop_namespace(); }
  Namespace(const Namespace&) = delete;
  Namespace& operator=(const Namespace&) = delete;

 private:
  ConstraintSystem& cs_;
};

// A circuit synthesizes the same constraints whatever system it is given;
// the witness (if any) lives in the circuit object. `synthesize` may be called
// several times (shape for setup, then assignment for proving).
class Circuit {
 public:
  virtual ~Circuit() = default;
  virtual void synthesize(ConstraintSystem& cs) const = 0;
};

}  // namespace cuzk::r1cs
