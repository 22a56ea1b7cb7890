#pragma once
// The proof kinds of this process, for everyone who asks by number or name:
// the built-in ones (kinds/builtin.hpp) and those registered at start (a
// test's kind, through the same KindSpec). Lookups are lock-free; register
// before the daemon serves.
#include <string>
#include <string_view>
#include <vector>

#include "engine/kinds/kind_spec.hpp"

namespace cuzk::engine {

// Makes a kind's handler over the parameter directory.
using HandlerFactory = std::unique_ptr<KindHandler> (*)(const std::string& param_dir);

// Every kind, built-in ones first, each once.
std::vector<const KindSpec*> all_kinds();
const KindSpec* find_kind(ProofKind value);
const KindSpec* find_kind(std::string_view name);  // KindSpec::name only
// "porep-c2, snap-update, ...": every kind's name, for messages.
std::string kind_names();

// Adds a kind to this process (before the engine and server start). `spec`
// must live as long as the process (a static) and its strings be literals.
// Throws std::invalid_argument when its number or name is taken.
void register_kind(const KindSpec& spec, HandlerFactory make);
template <class Kind>
void register_kind() {
  register_kind(Kind::spec, &Kind::handler);
}
// The factories of the registered (not built-in) kinds, in registration order.
std::vector<HandlerFactory> registered_handler_factories();

// The first of `spec.required` that `req` leaves empty (empty string or
// list, or 0), else nullptr.
const FieldInfo* missing_required(const ProofRequest& req, const KindSpec& spec);

}  // namespace cuzk::engine
