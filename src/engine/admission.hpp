#pragma once
// Admission: everything a request must pass before it becomes a job — kind,
// request id, payload size, queue and payload limits, request-id semantics
// (Curio retries under the same id), the handler's parse-and-validate step,
// and whether a partition can ever fit the budget — then the job enters the
// board and the dispatcher's queue. Nothing here blocks on the pipeline; a
// refusal is a ServiceError that the server maps to a gRPC status.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/backend.hpp"
#include "engine/config.hpp"
#include "engine/device_stage.hpp"
#include "engine/dispatcher.hpp"
#include "engine/job_board.hpp"
#include "engine/memory_budget.hpp"
#include "engine/service.hpp"
#include "engine/timeline_emitter.hpp"

namespace cuzk::engine {

// Throws ServiceError(InvalidArgument) unless `id` is at most 256 bytes of
// printable ASCII without commas or edge spaces (it is written into TIMELINE
// lines; Curio's WindowPoSt ids have inner spaces).
void validate_request_id(const std::string& id);
// A fresh job id (a random UUID) for a request without request_id.
std::string new_job_id();
// The id of job number `seq` submitted under `request_id` (non-empty):
// "<request_id>#<seq>", unique for the engine's life (docs/PROTOCOL.md §1).
std::string job_id_for(const std::string& request_id, uint64_t seq);

// The handler of a kind, or nullptr.
KindHandler* handler_of(const std::vector<std::unique_ptr<KindHandler>>& handlers, ProofKind k);

class Admission {
 public:
  struct Checked {
    std::string circuit_id;
    uint32_t partitions = 0;
  };
  // `budget` is the proving budget (a partition must fit it beside its
  // parameters); parsed payloads are charged to `payload_budget`.
  Admission(const EngineConfig& cfg, const std::vector<std::unique_ptr<KindHandler>>& handlers,
            MemoryBudget& payload_budget, const MemoryBudget& budget, JobBoard& board, Dispatcher& dispatcher,
            const DeviceStage& devices, TimelineEmitter& tl);

  // Admits the request as a job (or answers with the job that already
  // serves it); throws ServiceError for a refusal.
  SubmitResult submit(ProofRequest req);
  // What submit would refuse, without admitting: the request checks and the
  // handler's parse-and-validate on a copy of the request.
  Checked check(const ProofRequest& req) const;

 private:
  // The checks that need no parsing: kind, request id, payload size.
  void check_request(const ProofRequest& req) const;
  // The handler's parse-and-validate (a non-ServiceError becomes
  // InvalidArgument) and the limits on what it parsed: partitions, and a
  // partition that could never fit the budget.
  std::unique_ptr<PreparedJob> prepare_request(ProofRequest& req) const;
  // The job that answers req if one of its request id does (JobTable::
  // reusable). Under the board's lock.
  std::optional<SubmitResult> existing(const JobTable& jobs, const ProofRequest& req,
                                       const PayloadDigest& d) const;

  const EngineConfig& cfg_;
  const std::vector<std::unique_ptr<KindHandler>>& handlers_;
  MemoryBudget& payload_budget_;
  const MemoryBudget& budget_;
  JobBoard& board_;
  Dispatcher& dispatcher_;
  const DeviceStage& devices_;
  TimelineEmitter& tl_;
};

}  // namespace cuzk::engine
