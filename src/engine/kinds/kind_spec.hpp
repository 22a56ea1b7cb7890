#pragma once
// What a proof kind is, as data. A kind is a struct with its spec and its
// handler's factory:
//
//   struct MyKind {
//     static constexpr KindSpec spec{...};            // this header's data
//     static std::unique_ptr<KindHandler> handler(const std::string& param_dir);
//   };
//
// declared in src/engine/kinds/<kind>/spec.hpp and listed once in
// kinds/builtin.hpp (or, for a test's kind, registered with register_kind
// before the engine and server start). The server, the configuration, status
// and metrics, cuzk-bench and the engine's handlers all read the kinds from
// the registry (kinds/registry.hpp); docs/ARCHITECTURE.md "Adding a proof
// kind" has the whole recipe. The spec is plain data, so the server and the
// configuration read it without linking the provers; the handler
// (engine/backend.hpp: parse and validate, parameters, synthesis, the
// self-check) and the definition of `handler` live beside it in the kind's
// folder (kinds/<kind>/handler.{hpp,cpp}), built into the engine.
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "engine/request_fields.hpp"
#include "engine/service.hpp"

namespace cuzk::engine {

class KindHandler;

// The registered proofs a kind serves, first..last (both included): the PoSt
// and SnapDeals handlers check requests against it and list their circuits
// from it; PoRep's C1 output names its own (filecoin::porep_config).
struct RegisteredProofs {
  bool any = false;  // false: the kind does not read registered_proof
  uint64_t first = 0, last = 0;
  constexpr bool contains(uint64_t p) const { return any && p >= first && p <= last; }
};

struct KindSpec {
  // proto/cuzk/v1/proving.proto's ProofKind number. A new kind takes a new
  // number; proto3 passes numbers the .proto does not name, so the wire
  // protocol does not change for it.
  ProofKind value = ProofKind::Unspecified;
  // "porep-c2": TIMELINE details, metrics labels, status, and the keys of
  // limits.max_payload.
  std::string_view name;
  // The proto's name for it ("POREP_SEAL_COMMIT"; messages).
  std::string_view wire_name;
  // cuzk-bench's name for it (-t porep), and more it accepts ("" = unused).
  std::string_view label;
  std::array<std::string_view, 3> aliases{};
  // When the request leaves priority unspecified.
  Priority default_priority = Priority::Normal;
  // The request fields its handler reads (docs/PROTOCOL.md §1), and those
  // without which the server refuses the request before admission.
  FieldSet reads, required;
  RegisteredProofs registered_proofs;
};

// The kinds of one build, as a list of types (kinds/builtin.hpp).
template <class... Kinds>
struct KindList {};

}  // namespace cuzk::engine
