#pragma once
// The engine's names that the bridge's sources (bridge.cpp, claims.cpp,
// status.cpp) use unqualified: fleet mode is a service over the engine and
// speaks its types. Included by those sources only, never by a header.
#include "engine/engine.hpp"
#include "engine/request_codec.hpp"

namespace cuzk::fleet {

using engine::decode_request;
using engine::encode_request;
using engine::Engine;
using engine::EngineConfig;
using engine::EvictResult;
using engine::JobStatus;
using engine::kind_name;
using engine::new_job_id;
using engine::PreloadResult;
using engine::Priority;
using engine::ProofKind;
using engine::ProofRequest;
using engine::ProofResult;
using engine::ServiceError;
using engine::StatusSnapshot;
using engine::SubmitResult;

}  // namespace cuzk::fleet
