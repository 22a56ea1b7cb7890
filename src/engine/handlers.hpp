#pragma once
// The proof kinds a daemon serves, configured from EngineConfig.
#include <memory>
#include <vector>

#include "engine/backend.hpp"
#include "engine/config.hpp"

namespace cuzk::engine {

// A handler for every kind of the registry (engine/kinds/registry.hpp): the
// built-in ones (kinds/builtin.hpp) and those registered before the call, all
// over srs.param_cache.
std::vector<std::unique_ptr<KindHandler>> default_handlers(const EngineConfig& cfg);

}  // namespace cuzk::engine
