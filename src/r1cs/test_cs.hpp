#pragma once
// bellpepper's TestConstraintSystem: keeps everything (values, names,
// constraints) to check satisfiability, look variables up by path and compute
// the constraint-system hash of docs/FILECOIN.md §1.4. For tests and small
// circuits; use CountingCS to measure large ones.
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "r1cs/constraint_system.hpp"

namespace cuzk::r1cs {

class TestConstraintSystem : public ConstraintSystem {
 public:
  struct Constraint {
    LinearCombination a, b, c;
    std::string path;
  };

  TestConstraintSystem();

  size_t num_constraints() const { return constraints_.size(); }
  size_t num_inputs() const { return inputs_.size(); }  // including ONE
  size_t num_aux() const { return aux_.size(); }
  const std::vector<Constraint>& constraints() const { return constraints_; }
  std::vector<Fr> input_values() const;
  std::vector<Fr> aux_values() const;
  const std::string& input_name(size_t i) const { return inputs_.at(i).second; }
  const std::string& aux_name(size_t i) const { return aux_.at(i).second; }

  // Path ("ns/sub/name") of the first unsatisfied constraint, if any.
  std::optional<std::string> which_is_unsatisfied() const;
  bool is_satisfied() const { return !which_is_unsatisfied(); }

  // Lowercase hex BLAKE2s-256 digest, bit-compatible with bellpepper.
  std::string hash() const;

  // Value of the variable at `path`; throws std::out_of_range otherwise.
  Fr get(const std::string& path) const;
  void set(const std::string& path, const Fr& value);
  // True iff the inputs after ONE equal `expected`.
  bool verify(const std::vector<Fr>& expected) const;

  void push_namespace(const Name& name) override;
  void pop_namespace() override;

 protected:
  Variable alloc_impl(const Name& name, FnRef<Fr()> value) override;
  Variable alloc_input_impl(const Name& name, FnRef<Fr()> value) override;
  void enforce_impl(const Name& name, LinearCombination&& a, LinearCombination&& b,
                    LinearCombination&& c) override;

 private:
  struct Named {
    enum class Kind { Var, Constraint, Namespace } kind;
    Variable var;
  };
  std::string path_of(const Name& name) const;
  void name_object(const std::string& path, Named obj);
  Fr& value_ref(const std::string& path);

  std::unordered_map<std::string, Named> named_;
  std::vector<std::string> namespace_;
  std::vector<Constraint> constraints_;
  std::vector<std::pair<Fr, std::string>> inputs_, aux_;
};

}  // namespace cuzk::r1cs
