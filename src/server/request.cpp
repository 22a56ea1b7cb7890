#include "server/request.hpp"

#include <string>

#include "engine/kinds/registry.hpp"

namespace cuzk::server {

namespace pb = ::cuzk::v1;

namespace {

grpc::Status invalid(const std::string& msg) { return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, msg); }

}  // namespace

grpc::Status to_request(pb::SubmitProofRequest& in, engine::ProofRequest& out) {
  const int kind = static_cast<int>(in.proof_kind());
  if (kind == pb::PROOF_KIND_UNSPECIFIED) return invalid("proof_kind is required");
  // The kinds this process knows (engine/kinds/registry.hpp); proto3 passes
  // numbers the .proto does not name, so a registered kind needs no wire change.
  const engine::KindSpec* spec = engine::find_kind(static_cast<engine::ProofKind>(kind));
  if (!spec) return invalid("unknown proof_kind " + std::to_string(kind));
  const int prio = static_cast<int>(in.priority());
  if (prio < pb::PRIORITY_UNSPECIFIED || prio > pb::CRITICAL)
    return invalid("unknown priority " + std::to_string(prio));

  out.request_id = in.request_id();
  out.kind = static_cast<engine::ProofKind>(kind);
  out.sector_size = in.sector_size();
  out.registered_proof = in.registered_proof();
  out.priority = static_cast<engine::Priority>(prio);
  out.vanilla_proof = std::move(*in.mutable_vanilla_proof());
  out.vanilla_proofs.reserve(size_t(in.vanilla_proofs_size()));
  for (auto& v : *in.mutable_vanilla_proofs()) out.vanilla_proofs.push_back(std::move(v));
  out.sector_number = in.sector_number();
  out.miner_id = in.miner_id();
  out.randomness = in.randomness();
  out.partition_index = in.partition_index();
  out.comm_r_old = in.comm_r_old();
  out.comm_r_new = in.comm_r_new();
  out.comm_d_new = in.comm_d_new();
  out.circuit_id = in.circuit_id();
  if (const engine::FieldInfo* f = engine::missing_required(out, *spec))
    return invalid(std::string(f->name) + " is required for " + std::string(spec->wire_name));
  return grpc::Status::OK;
}

}  // namespace cuzk::server
