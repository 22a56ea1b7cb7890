#pragma once
// The proof kinds a daemon serves by default, configured from EngineConfig.
#include <memory>
#include <vector>

#include "engine/backend.hpp"
#include "engine/config.hpp"

namespace cuzk::engine {

// Today: GENERIC_R1CS over srs.param_cache. The Filecoin kinds (PoRep C2,
// PoSt, SnapDeals) join this list as their circuits land.
std::vector<std::unique_ptr<KindHandler>> default_handlers(const EngineConfig& cfg);

}  // namespace cuzk::engine
