// Engine construction: the stages wired in pipeline order and started;
// shutdown. The stages are objects of their own (see engine.hpp).
#include "engine/engine.hpp"

#include <algorithm>

#include "engine/devices.hpp"
#include "engine/job.hpp"

namespace cuzk::engine {

namespace {

// The budget for parameters and partitions; payloads get their own pool
// (limits.payload_budget) carved out of the same total.
uint64_t resolve_budget(const EngineConfig& c) {
  if (c.total_budget_bytes) return c.total_budget_bytes;
  uint64_t mem = usable_memory_bytes();
  return mem > c.safety_margin_bytes ? mem - c.safety_margin_bytes : mem / 2;
}

uint64_t resolve_payload_pool(const EngineConfig& c, uint64_t total) {
  if (c.payload_budget_bytes) return std::min(c.payload_budget_bytes, total / 2);
  return std::min<uint64_t>(total / 8, 4ull << 30);
}

std::vector<std::unique_ptr<Device>> or_configured(std::vector<std::unique_ptr<Device>> devices,
                                                   const EngineConfig& c) {
  return devices.empty() ? make_devices(c) : std::move(devices);
}

}  // namespace

uint64_t proving_budget_bytes(const EngineConfig& c) {
  const uint64_t total = resolve_budget(c);
  return total - resolve_payload_pool(c, total);
}

const char* part_state_name(PartState s) {
  switch (s) {
    case PartState::Pending: return "pending";
    case PartState::Synthesizing: return "synthesizing";
    case PartState::SynthDone: return "synth_done";
    case PartState::Gpu: return "gpu";
    case PartState::Done: return "done";
    case PartState::Failed: return "failed";
  }
  return "unknown";
}

Engine::Engine(EngineConfig cfg, std::vector<std::unique_ptr<KindHandler>> handlers,
               TimelineEmitter::Sink timeline_sink, std::vector<std::unique_ptr<Device>> devices)
    : cfg_(std::move(cfg)),
      handlers_(std::move(handlers)),
      tl_(std::move(timeline_sink)),
      payload_budget_(resolve_payload_pool(cfg_, resolve_budget(cfg_))),
      budget_(proving_budget_bytes(cfg_)),
      srs_(budget_, cfg_.eviction_min_idle, tl_),
      pce_({cfg_.pce_enabled, cfg_.pce_dir.empty() ? cfg_.param_cache : cfg_.pce_dir}, budget_, tl_),
      started_(Clock::now()),
      board_(cfg_.synthesis_concurrency, dealloc_, budget_, notifier_),
      devices_(or_configured(std::move(devices), cfg_), cfg_.gpu_workers_per_device, board_, dealloc_, tl_,
               *this),
      synthesis_({cfg_.max_parallel_synthesis, cfg_.synthesis_threads, cfg_.throttle_synthesis_during_tail,
                  cfg_.max_gpu_queue_depth},
                 board_, budget_, pce_, dealloc_, tl_, devices_, *this),
      dispatcher_({cfg_.max_batch_size, cfg_.max_batch_wait, cfg_.pipeline_enabled}, board_, srs_, synthesis_,
                  tl_, *this),
      admission_(cfg_, handlers_, payload_budget_, budget_, board_, dispatcher_, devices_, tl_) {
  // Spent a/b/c/aux and scalar buffers are reused by the next partitions
  // instead of faulting in fresh pages (platform/recycle_pool.hpp), charged
  // to the budget while pooled: the next partition takes over the last
  // one's, and other requests have them freed when short (memory_budget.hpp).
  // The pool is the process's: with several engines in one process (tests),
  // the last one started is charged.
  charge_recycling_to(budget_);
  // Pre-compiled constraints go first: without them synthesis is slower,
  // without parameters it cannot run.
  budget_.set_reclaimer([this](uint64_t need) {
    const uint64_t got = pce_.reclaim(need);
    if (got < need) srs_.reclaim(need - got);
  });
  // Downstream first, so that no stage hands work to one not yet running.
  devices_.start(synthesis_);
  synthesis_.start();
  dispatcher_.start();
}

Engine::~Engine() {
  shutdown(std::chrono::milliseconds(0));
  // The pooled buffers are charged to this engine's budget: freed with it.
  stop_charging_recycling(budget_);
}

KindHandler* Engine::handler_for_circuit(const std::string& id) const {
  for (auto& h : handlers_) {
    auto ids = h->list_circuits();
    if (std::find(ids.begin(), ids.end(), id) != ids.end()) return h.get();
  }
  return nullptr;
}

void Engine::shutdown(std::chrono::milliseconds grace) {
  if (!board_.stop_accepting()) return;
  // Jobs not yet dispatched (queued, loading parameters, or held by the batch
  // collector): cancel now. Running jobs: let them finish within the grace period.
  dispatcher_.clear();
  board_.end_undispatched("daemon shutting down");
  board_.end_all_after(grace, "daemon shutting down");
  dispatcher_.close();
  synthesis_.close();
  devices_.close();
  budget_.poke();
  dispatcher_.join();
  synthesis_.join();
  devices_.join();
}

}  // namespace cuzk::engine
