#include "engine/circuit_table.hpp"

#include <algorithm>
#include <filesystem>

#include "engine/groth16_work.hpp"

namespace cuzk::engine {

namespace fs = std::filesystem;
using Code = ServiceError::Code;

uint64_t groth16_partition_bytes(uint64_t rows) {
  uint64_t m = 1;
  while (m < rows) m <<= 1;
  return 32 * (4 * rows + 2 * m);
}

CircuitTableHandler::CircuitTableHandler(const KindSpec& spec, std::string dir, CircuitOf circuit_of)
    : spec_(spec), dir_(std::move(dir)) {
  for (uint64_t p = spec.registered_proofs.first; p <= spec.registered_proofs.last; p++)
    table_.push_back(circuit_of(p));
}

void CircuitTableHandler::invalid(const std::string& msg) { throw ServiceError(Code::InvalidArgument, msg); }

const CircuitInfo* CircuitTableHandler::find(const std::string& id) const {
  for (const auto& c : table_)
    if (c.id == id) return &c;
  return nullptr;
}

std::string CircuitTableHandler::path_of(const CircuitInfo& c) const {
  return (fs::path(dir_) / (c.param_stem + ".params")).string();
}

const CircuitInfo& CircuitTableHandler::known(const std::string& id) const {
  const CircuitInfo* c = find(id);
  if (!c) throw ServiceError(Code::NotFound, "unknown " + std::string(spec_.name) + " circuit '" + id + "'");
  return *c;
}

std::string CircuitTableHandler::param_path(const std::string& id) { return path_of(known(id)); }

const CircuitInfo& CircuitTableHandler::circuit_with_parameters(uint64_t registered_proof) const {
  const CircuitInfo& c = table_.at(registered_proof - spec_.registered_proofs.first);
  if (!fs::exists(path_of(c)))
    throw ServiceError(Code::NotFound,
                       "no parameters for " + c.id + ": " + path_of(c) +
                           " is missing (generate test parameters with `cuzk setup --circuit " + c.id +
                           " --param-dir " + dir_ + "`)");
  return c;
}

std::shared_ptr<CircuitResources> CircuitTableHandler::load(const std::string& id,
                                                            std::span<const uint8_t> mapped) {
  const CircuitInfo& c = known(id);
  return load_circuit_params(mapped, path_of(c), id, c.public_inputs);
}

uint64_t CircuitTableHandler::estimate_size(const std::string& id) {
  return estimate_params_bytes(param_path(id));
}

std::vector<std::string> CircuitTableHandler::list_circuits() {
  std::vector<std::string> out;
  for (const auto& c : table_)
    if (std::find(out.begin(), out.end(), c.id) == out.end() && fs::exists(path_of(c))) out.push_back(c.id);
  return out;
}

}  // namespace cuzk::engine
