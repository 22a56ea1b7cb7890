#include "r1cs/test_cs.hpp"

#include "r1cs/cs_hash.hpp"

namespace cuzk::r1cs {

TestConstraintSystem::TestConstraintSystem() {
  inputs_.emplace_back(Fr::one(), "ONE");
  named_.emplace("ONE", Named{Named::Kind::Var, Variable::one()});
}

std::vector<Fr> TestConstraintSystem::input_values() const {
  std::vector<Fr> v;
  for (const auto& x : inputs_) v.push_back(x.first);
  return v;
}

std::vector<Fr> TestConstraintSystem::aux_values() const {
  std::vector<Fr> v;
  for (const auto& x : aux_) v.push_back(x.first);
  return v;
}

std::string TestConstraintSystem::path_of(const Name& name) const {
  std::string s = name.str();
  if (s.find('/') != std::string::npos) throw SynthesisError("'/' is not allowed in names: \"" + s + "\"");
  std::string p;
  for (const auto& ns : namespace_) p += ns + "/";
  return p + s;
}

void TestConstraintSystem::name_object(const std::string& path, Named obj) {
  if (!named_.emplace(path, obj).second)
    throw SynthesisError("tried to create object at existing path: " + path);
}

Variable TestConstraintSystem::alloc_impl(const Name& name, FnRef<Fr()> value) {
  std::string path = path_of(name);
  Fr v = value();
  Variable var = Variable::aux(aux_.size());
  name_object(path, {Named::Kind::Var, var});
  aux_.emplace_back(v, std::move(path));
  return var;
}

Variable TestConstraintSystem::alloc_input_impl(const Name& name, FnRef<Fr()> value) {
  std::string path = path_of(name);
  Fr v = value();
  Variable var = Variable::input(inputs_.size());
  name_object(path, {Named::Kind::Var, var});
  inputs_.emplace_back(v, std::move(path));
  return var;
}

void TestConstraintSystem::enforce_impl(const Name& name, LinearCombination&& a, LinearCombination&& b,
                                        LinearCombination&& c) {
  std::string path = path_of(name);
  name_object(path, {Named::Kind::Constraint, {}});
  constraints_.push_back({std::move(a), std::move(b), std::move(c), std::move(path)});
}

void TestConstraintSystem::push_namespace(const Name& name) {
  std::string s = name.str();
  name_object(path_of(s), {Named::Kind::Namespace, {}});
  namespace_.push_back(std::move(s));
}

void TestConstraintSystem::pop_namespace() {
  if (namespace_.empty()) throw SynthesisError("pop_namespace without push_namespace");
  namespace_.pop_back();
}

std::optional<std::string> TestConstraintSystem::which_is_unsatisfied() const {
  std::vector<Fr> in = input_values(), aux = aux_values();
  for (const auto& k : constraints_)
    if (k.a.eval(in, aux) * k.b.eval(in, aux) != k.c.eval(in, aux)) return k.path;
  return std::nullopt;
}

std::string TestConstraintSystem::hash() const {
  CsHasher h(inputs_.size(), aux_.size(), constraints_.size());
  for (const auto& k : constraints_) {
    for (const LinearCombination* lc : {&k.a, &k.b, &k.c}) {
      // LC entries are merged and sorted already; only zeros need dropping.
      uint64_t n = 0;
      for (const auto& e : lc->inputs()) n += !e.coeff.is_zero();
      for (const auto& e : lc->aux()) n += !e.coeff.is_zero();
      h.begin_lc(n);
      for (const auto& e : lc->inputs())
        if (!e.coeff.is_zero()) h.term(true, e.index, e.coeff);
      for (const auto& e : lc->aux())
        if (!e.coeff.is_zero()) h.term(false, e.index, e.coeff);
    }
  }
  return h.finish();
}

Fr& TestConstraintSystem::value_ref(const std::string& path) {
  auto it = named_.find(path);
  if (it == named_.end()) throw std::out_of_range("no variable exists at path: " + path);
  if (it->second.kind != Named::Kind::Var) throw std::out_of_range("not a variable: " + path);
  Variable v = it->second.var;
  return v.is_input() ? inputs_[v.index].first : aux_[v.index].first;
}

Fr TestConstraintSystem::get(const std::string& path) const {
  return const_cast<TestConstraintSystem*>(this)->value_ref(path);
}

void TestConstraintSystem::set(const std::string& path, const Fr& value) { value_ref(path) = value; }

bool TestConstraintSystem::verify(const std::vector<Fr>& expected) const {
  if (expected.size() + 1 != inputs_.size()) return false;
  for (size_t i = 0; i < expected.size(); i++)
    if (inputs_[i + 1].first != expected[i]) return false;
  return true;
}

}  // namespace cuzk::r1cs
