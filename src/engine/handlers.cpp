#include "engine/handlers.hpp"

#include "engine/generic_r1cs.hpp"
#include "engine/porep_handler.hpp"
#include "engine/post_handler.hpp"
#include "engine/snap_handler.hpp"

namespace cuzk::engine {

std::vector<std::unique_ptr<KindHandler>> default_handlers(const EngineConfig& cfg) {
  std::vector<std::unique_ptr<KindHandler>> out;
  out.push_back(std::make_unique<PorepHandler>(cfg.param_cache));
  out.push_back(std::make_unique<GenericR1csHandler>(cfg.param_cache));
  out.push_back(std::make_unique<PostHandler>(ProofKind::WinningPost, cfg.param_cache));
  out.push_back(std::make_unique<PostHandler>(ProofKind::WindowPostPartition, cfg.param_cache));
  out.push_back(std::make_unique<SnapHandler>(cfg.param_cache));
  return out;
}

}  // namespace cuzk::engine
