#include "engine/handlers.hpp"

#include "engine/kinds/builtin.hpp"
#include "engine/kinds/registry.hpp"

namespace cuzk::engine {

namespace {

template <class... K>
void add_builtin(KindList<K...>, const std::string& dir, std::vector<std::unique_ptr<KindHandler>>& out) {
  (out.push_back(K::handler(dir)), ...);
}

}  // namespace

std::vector<std::unique_ptr<KindHandler>> default_handlers(const EngineConfig& cfg) {
  std::vector<std::unique_ptr<KindHandler>> out;
  add_builtin(kinds::Builtin{}, cfg.param_cache, out);
  for (HandlerFactory make : registered_handler_factories()) out.push_back(make(cfg.param_cache));
  return out;
}

}  // namespace cuzk::engine
