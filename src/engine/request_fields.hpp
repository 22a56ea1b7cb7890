#pragma once
// The fields of a ProofRequest (engine/service.hpp), listed once: their wire
// names (proto/cuzk/v1/proving.proto's SubmitProofRequest), which of them a
// kind reads (KindSpec::reads), and the order in which the request codec, the
// payload digest and the payload size visit them (engine/request_codec.hpp).
// A field added to ProofRequest is added here, to the server's to_request and
// nowhere else.
#include <array>
#include <cstdint>
#include <initializer_list>
#include <string_view>

#include "engine/service.hpp"

namespace cuzk::engine {

// Every ProofRequest member, in the request codec's order (its version 1).
enum class Field : uint8_t {
  RequestId,
  Kind,
  SectorSize,
  RegisteredProof,
  Priority,
  VanillaProof,
  VanillaProofs,
  SectorNumber,
  MinerId,
  Randomness,
  PartitionIndex,
  CommROld,
  CommRNew,
  CommDNew,
  CircuitId,
};
inline constexpr size_t kFieldCount = 15;

struct FieldInfo {
  std::string_view name;  // the wire name, "vanilla_proof"
  // Counts towards the payload's size (limits.max_payload): the bytes a
  // kind parses, not the ids that name the request or its circuit.
  bool payload = false;
};
inline constexpr std::array<FieldInfo, kFieldCount> kFields{{
    {"request_id", false},
    {"proof_kind", false},
    {"sector_size", false},
    {"registered_proof", false},
    {"priority", false},
    {"vanilla_proof", true},
    {"vanilla_proofs", true},
    {"sector_number", false},
    {"miner_id", false},
    {"randomness", true},
    {"partition_index", false},
    {"comm_r_old", true},
    {"comm_r_new", true},
    {"comm_d_new", true},
    {"circuit_id", false},
}};
constexpr const FieldInfo& field_info(Field f) { return kFields[size_t(f)]; }

// A set of fields (what a kind reads, what it requires).
class FieldSet {
 public:
  constexpr FieldSet() = default;
  constexpr FieldSet(std::initializer_list<Field> fields) {
    for (Field f : fields) bits_ |= uint32_t(1) << unsigned(f);
  }
  constexpr bool has(Field f) const { return (bits_ >> unsigned(f)) & 1; }
  constexpr bool empty() const { return bits_ == 0; }

 private:
  uint32_t bits_ = 0;
};

// Calls visit(field, member) for every member of `r` in the codec's order;
// `member` is a (const) std::string&, uint64_t&, uint32_t&, ProofKind&,
// Priority& or std::vector<std::string>&.
template <class Request, class Visit>
void for_each_field(Request& r, Visit&& visit) {
  visit(Field::RequestId, r.request_id);
  visit(Field::Kind, r.kind);
  visit(Field::SectorSize, r.sector_size);
  visit(Field::RegisteredProof, r.registered_proof);
  visit(Field::Priority, r.priority);
  visit(Field::VanillaProof, r.vanilla_proof);
  visit(Field::VanillaProofs, r.vanilla_proofs);
  visit(Field::SectorNumber, r.sector_number);
  visit(Field::MinerId, r.miner_id);
  visit(Field::Randomness, r.randomness);
  visit(Field::PartitionIndex, r.partition_index);
  visit(Field::CommROld, r.comm_r_old);
  visit(Field::CommRNew, r.comm_r_new);
  visit(Field::CommDNew, r.comm_d_new);
  visit(Field::CircuitId, r.circuit_id);
}

}  // namespace cuzk::engine
