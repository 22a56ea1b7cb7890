#pragma once
// The proof kinds a daemon serves by default, configured from EngineConfig.
#include <memory>
#include <vector>

#include "engine/backend.hpp"
#include "engine/config.hpp"

namespace cuzk::engine {

// PoRep C2 and GENERIC_R1CS, both over srs.param_cache. PoSt and SnapDeals
// join this list as their circuits land.
std::vector<std::unique_ptr<KindHandler>> default_handlers(const EngineConfig& cfg);

}  // namespace cuzk::engine
