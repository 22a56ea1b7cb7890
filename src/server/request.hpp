#pragma once
// A wire SubmitProofRequest converted to the engine's ProofRequest (the
// server's SubmitProof/Prove and the admission fuzz target share it).
#include <grpcpp/support/status.h>

#include "cuzk/v1/proving.pb.h"
#include "engine/service.hpp"

namespace cuzk::server {

// Returns INVALID_ARGUMENT for a kind the registry does not know
// (engine/kinds/registry.hpp), an unknown priority, and a request that
// leaves out a field its kind requires (KindSpec::required: GENERIC_R1CS's
// circuit_id); everything else is the engine's to judge. The payload fields
// are moved out of `in` (a request of 50 MB is not copied).
grpc::Status to_request(::cuzk::v1::SubmitProofRequest& in, engine::ProofRequest& out);

}  // namespace cuzk::server
