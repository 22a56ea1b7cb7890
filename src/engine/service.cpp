// The small part of the service interface that is code, not declarations:
// kind, priority and status names, default priorities. It is its own library
// (cuzk_engine_service, with the kinds' specs: kinds/registry.cpp) so the
// server links what it uses and not the engine.
#include "engine/service.hpp"

#include "engine/kinds/registry.hpp"

namespace cuzk::engine {

const char* kind_name(ProofKind k) {
  const KindSpec* s = find_kind(k);
  return s ? s->name.data() : "unspecified";  // the names are literals
}

Priority default_priority(ProofKind k) {
  const KindSpec* s = find_kind(k);
  return s ? s->default_priority : Priority::Normal;
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
