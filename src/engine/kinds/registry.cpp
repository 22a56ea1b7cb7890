#include "engine/kinds/registry.hpp"

#include <atomic>
#include <mutex>
#include <stdexcept>
#include <type_traits>

#include "engine/kinds/builtin.hpp"

namespace cuzk::engine {

namespace {

template <class... K>
constexpr std::array<const KindSpec*, sizeof...(K)> specs_of(KindList<K...>) {
  return {&K::spec...};
}
constexpr auto kBuiltin = specs_of(kinds::Builtin{});

// Registered kinds: appended under the mutex, published by the count, so
// lookups read them without a lock.
constexpr size_t kMaxRegistered = 16;
struct Registered {
  const KindSpec* spec = nullptr;
  HandlerFactory make = nullptr;
};
std::array<Registered, kMaxRegistered> g_registered;
std::atomic<size_t> g_registered_count{0};
std::mutex g_register_mu;

template <class Fn>
const KindSpec* find_if(Fn match) {
  for (const KindSpec* s : kBuiltin)
    if (match(*s)) return s;
  const size_t n = g_registered_count.load(std::memory_order_acquire);
  for (size_t i = 0; i < n; i++)
    if (match(*g_registered[i].spec)) return g_registered[i].spec;
  return nullptr;
}

}  // namespace

std::vector<const KindSpec*> all_kinds() {
  std::vector<const KindSpec*> out(kBuiltin.begin(), kBuiltin.end());
  const size_t n = g_registered_count.load(std::memory_order_acquire);
  for (size_t i = 0; i < n; i++) out.push_back(g_registered[i].spec);
  return out;
}

const KindSpec* find_kind(ProofKind value) {
  return find_if([&](const KindSpec& s) { return s.value == value; });
}

const KindSpec* find_kind(std::string_view name) {
  return find_if([&](const KindSpec& s) { return s.name == name; });
}

std::string kind_names() {
  std::string out;
  for (const KindSpec* s : all_kinds()) out += (out.empty() ? "" : ", ") + std::string(s->name);
  return out;
}

void register_kind(const KindSpec& spec, HandlerFactory make) {
  std::lock_guard lk(g_register_mu);
  if (spec.value == ProofKind::Unspecified || spec.name.empty() || !make)
    throw std::invalid_argument("register_kind: a kind needs a number, a name and a handler");
  if (find_kind(spec.value))
    throw std::invalid_argument("register_kind: proof kind " + std::to_string(int(spec.value)) + " is taken");
  if (find_kind(spec.name))
    throw std::invalid_argument("register_kind: the name " + std::string(spec.name) + " is taken");
  const size_t n = g_registered_count.load(std::memory_order_relaxed);
  if (n == kMaxRegistered) throw std::invalid_argument("register_kind: too many kinds");
  g_registered[n] = {&spec, make};
  g_registered_count.store(n + 1, std::memory_order_release);
}

std::vector<HandlerFactory> registered_handler_factories() {
  std::vector<HandlerFactory> out;
  const size_t n = g_registered_count.load(std::memory_order_acquire);
  for (size_t i = 0; i < n; i++) out.push_back(g_registered[i].make);
  return out;
}

const FieldInfo* missing_required(const ProofRequest& req, const KindSpec& spec) {
  const FieldInfo* missing = nullptr;
  for_each_field(req, [&](Field f, const auto& m) {
    using T = std::decay_t<decltype(m)>;
    if (missing || !spec.required.has(f)) return;
    bool empty;
    if constexpr (std::is_same_v<T, std::string> || std::is_same_v<T, std::vector<std::string>>) {
      empty = m.empty();
    } else {
      empty = m == T{};
    }
    if (empty) missing = &field_info(f);
  });
  return missing;
}

}  // namespace cuzk::engine
