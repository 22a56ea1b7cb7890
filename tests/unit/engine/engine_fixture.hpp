#pragma once
// The engine test fixture: an Engine over the fake proof kind (fake_kind.hpp)
// with its TIMELINE lines captured, and request/config helpers.
#include <filesystem>
#include <fstream>
#include <mutex>
#include <string>
#include <vector>

#include "engine/engine.hpp"
#include "fake_kind.hpp"

namespace cuzk::engine::test {

using namespace std::chrono_literals;

struct Events {
  std::mutex mu;
  std::vector<std::string> lines;
  void add(const std::string& l) {
    std::lock_guard lk(mu);
    lines.push_back(l);
  }
  std::vector<std::string> of(const std::string& event) {
    std::lock_guard lk(mu);
    std::vector<std::string> out;
    for (auto& l : lines)
      if (l.find("," + event + ",") != std::string::npos) out.push_back(l);
    return out;
  }
};

struct Fixture {
  std::filesystem::path param =
      std::filesystem::temp_directory_path() / ("cuzk-engine-test-" + std::to_string(::getpid()) + ".params");
  FakeHandler* handler = nullptr;
  Events events;
  std::unique_ptr<Engine> engine;

  explicit Fixture(EngineConfig cfg = {}, uint64_t partition_bytes = 1 << 20) {
    std::ofstream(param) << "fake parameters";
    auto h = std::make_unique<FakeHandler>();
    h->param_file = param.string();
    h->partition_bytes = partition_bytes;
    handler = h.get();
    std::vector<std::unique_ptr<KindHandler>> hs;
    hs.push_back(std::move(h));
    if (!cfg.total_budget_bytes) cfg.total_budget_bytes = 1ull << 30;
    cfg.eviction_min_idle = 0ms;
    engine = std::make_unique<Engine>(cfg, std::move(hs), [this](const std::string& l) { events.add(l); });
  }
  ~Fixture() {
    engine.reset();
    std::filesystem::remove(param);
  }
};

inline ProofRequest req(std::vector<std::string> parts, std::string id = "",
                        Priority pr = Priority::Unspecified) {
  ProofRequest r;
  r.request_id = std::move(id);
  r.kind = ProofKind::GenericR1cs;
  r.circuit_id = "fake";
  r.priority = pr;
  r.vanilla_proofs = std::move(parts);
  return r;
}

inline EngineConfig small_config() {
  EngineConfig c;
  c.max_parallel_synthesis = 2;
  c.synthesis_threads = 1;
  c.gpu_threads = 1;
  c.gpu_workers_per_device = 2;
  return c;
}

// The timestamp (ms) of a TIMELINE line.
inline uint64_t event_ms(const std::string& l) { return std::stoull(l.substr(9, l.find(',', 9) - 9)); }

}  // namespace cuzk::engine::test
