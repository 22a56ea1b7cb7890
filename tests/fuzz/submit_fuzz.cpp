// A gRPC SubmitProofRequest as it arrives on the wire: protobuf-decoded,
// converted as the server converts it, and passed through the engine's whole
// admission (request checks, limits, payload digest, the kind's parser and
// vanilla checks) with the daemon's default proof kinds. The parameter folder
// is empty, so a request that passes every payload check ends at the
// parameter lookup (NOT_FOUND); one admitted anyway is cancelled at once.
// Whatever arrives, the engine answers with a client error and keeps serving.
#include <filesystem>
#include <memory>
#include <string>
#include <unistd.h>

#include "cuzk/v1/proving.pb.h"
#include "engine/engine.hpp"
#include "engine/handlers.hpp"
#include "fuzz_common.hpp"
#include "server/request.hpp"

using namespace cuzk;

namespace {

engine::Engine& the_engine() {
  static engine::Engine* e = [] {
    engine::EngineConfig cfg;
    cfg.total_budget_bytes = 2ull << 30;
    cfg.synthesis_threads = 1;
    cfg.gpu_threads = 1;
    cfg.max_parallel_synthesis = 1;
    cfg.self_check = false;
    cfg.param_cache =
        (std::filesystem::temp_directory_path() / ("cuzk-fuzz-no-params-" + std::to_string(::getpid())))
            .string();
    // Leaked on purpose: the engine lives as long as the fuzzing process.
    return new engine::Engine(cfg, engine::default_handlers(cfg), [](const std::string&) {});
  }();
  return *e;
}

}  // namespace

CUZK_FUZZ_TARGET {
  cuzk::v1::SubmitProofRequest wire;
  if (!wire.ParseFromArray(data, int(size))) return 0;
  engine::ProofRequest req;
  if (!server::to_request(wire, req).ok()) return 0;
  try {
    auto res = the_engine().submit(std::move(req));
    the_engine().cancel(res.job_id);
  } catch (const engine::ServiceError& e) {
    fuzz::note_refusal(e);
    // Bad input is the client's error; INTERNAL would be ours.
    if (e.code() == engine::ServiceError::Code::Internal) std::fprintf(stderr, "INTERNAL: %s\n", e.what());
    fuzz::check(e.code() != engine::ServiceError::Code::Internal,
                "admission answers bad input with a client error");
  }
  return 0;
}
