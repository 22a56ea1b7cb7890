#pragma once
// The proof kinds a daemon serves by default, configured from EngineConfig.
#include <memory>
#include <vector>

#include "engine/backend.hpp"
#include "engine/config.hpp"

namespace cuzk::engine {

// PoRep C2, GENERIC_R1CS, WinningPoSt, WindowPoSt and SnapDeals, all over
// srs.param_cache.
std::vector<std::unique_ptr<KindHandler>> default_handlers(const EngineConfig& cfg);

}  // namespace cuzk::engine
