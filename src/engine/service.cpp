// The small part of the service interface that is code, not declarations:
// kind names and default priorities. It is its own library
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

}  // namespace cuzk::engine
