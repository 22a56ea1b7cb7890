// The small part of the service interface that is code, not declarations:
// kind, priority and status names, default priorities. It is its own library
// (cuzk_engine_service) so the server links what it uses and not the engine.
#include "engine/service.hpp"

namespace cuzk::engine {

const char* kind_name(ProofKind k) {
  switch (k) {
    case ProofKind::PorepSealCommit: return "porep-c2";
    case ProofKind::SnapDealsUpdate: return "snap-update";
    case ProofKind::WindowPostPartition: return "window-post";
    case ProofKind::WinningPost: return "winning-post";
    case ProofKind::GenericR1cs: return "generic-r1cs";
    default: return "unspecified";
  }
}

Priority default_priority(ProofKind k) {
  switch (k) {
    case ProofKind::WinningPost: return Priority::Critical;
    case ProofKind::WindowPostPartition: return Priority::High;
    default: return Priority::Normal;
  }
}

const char* priority_name(Priority p) {
  switch (p) {
    case Priority::Low: return "low";
    case Priority::Normal: return "normal";
    case Priority::High: return "high";
    case Priority::Critical: return "critical";
    default: return "unspecified";
  }
}

const char* job_status_name(JobStatus s) {
  switch (s) {
    case JobStatus::Completed: return "completed";
    case JobStatus::Failed: return "failed";
    case JobStatus::Cancelled: return "cancelled";
    case JobStatus::Timeout: return "timeout";
    default: return "unknown";
  }
}

}  // namespace cuzk::engine
