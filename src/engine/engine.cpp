// Engine construction, its threads and shutdown; the name tables of the
// service types. The stages live in admission.cpp, dispatcher.cpp,
// pipeline.cpp and results.cpp (see engine.hpp).
#include "engine/engine.hpp"

#include <algorithm>

#include "engine/devices.hpp"
#include "engine/job.hpp"
#include "platform/large_vector.hpp"

namespace cuzk::engine {

namespace {

constexpr uint32_t kLoaderThreads = 1;  // loads run one at a time, in priority order

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

}  // namespace

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
      budget_(resolve_budget(cfg_) - payload_budget_.limit()),
      srs_(budget_, cfg_.eviction_min_idle, tl_),
      pce_({cfg_.pce_enabled, cfg_.pce_dir.empty() ? cfg_.param_cache : cfg_.pce_dir}, budget_, tl_),
      synth_arena_(int(resolve_threads(cfg_.synthesis_threads))),
      started_(Clock::now()) {
  // Spent a/b/c/aux and scalar buffers are reused by the next partitions
  // instead of faulting in fresh pages (platform/large_vector.hpp): up to
  // 1 GiB, or 1/16 of the proving budget if that is less, held outside the
  // budget (within its safety margin).
  platform::set_recycle_limit(std::min<uint64_t>(uint64_t(1) << 30, budget_.limit() / 16));
  // Pre-compiled constraints go first: without them synthesis is slower,
  // without parameters it cannot run.
  budget_.set_reclaimer([this](uint64_t need) {
    const uint64_t got = pce_.reclaim(need);
    if (got < need) srs_.reclaim(need - got);
  });
  if (devices.empty()) devices = make_devices(cfg_);
  const uint32_t k = std::max<uint32_t>(1, cfg_.gpu_workers_per_device);
  for (size_t d = 0; d < devices.size(); d++) {
    auto slot = std::make_unique<DeviceSlot>();
    slot->device = std::move(devices[d]);
    for (uint32_t i = 0; i < k; i++) {
      WorkerState w;
      w.worker_id = uint32_t(d * k + i);
      slot->workers.push_back(std::move(w));
    }
    devices_.push_back(std::move(slot));
  }
  threads_.emplace_back([this] { dispatcher_loop(); });
  for (uint32_t i = 0; i < kLoaderThreads; i++) threads_.emplace_back([this] { loader_loop(); });
  const uint32_t synth_workers = std::max<uint32_t>(1, cfg_.max_parallel_synthesis);
  for (uint32_t i = 0; i < synth_workers; i++) threads_.emplace_back([this] { synthesis_loop(); });
  for (auto& slot : devices_) {
    for (auto& w : slot->workers) {
      DeviceSlot* s = slot.get();
      uint32_t id = w.worker_id;
      threads_.emplace_back([this, s, id] { device_loop(*s, id); });
      threads_.emplace_back([this, s] { finalizer_loop(*s); });
    }
  }
}

Engine::~Engine() { shutdown(std::chrono::milliseconds(0)); }

KindHandler* Engine::handler_for(ProofKind k) const {
  for (auto& h : handlers_)
    if (h->kind() == k) return h.get();
  return nullptr;
}

KindHandler* Engine::handler_for_circuit(const std::string& id) const {
  for (auto& h : handlers_) {
    auto ids = h->list_circuits();
    if (std::find(ids.begin(), ids.end(), id) != ids.end()) return h.get();
  }
  return nullptr;
}

void Engine::shutdown(std::chrono::milliseconds grace) {
  {
    std::lock_guard lk(mu_);
    if (!accepting_ && stopping_) return;
    accepting_ = false;
  }
  // Jobs not yet dispatched (queued, loading parameters, or held by the batch
  // collector): cancel now.
  job_queue_.remove_if([](const WorkKey&, const std::shared_ptr<Job>&) { return true; });
  load_queue_.remove_if([](const WorkKey&, const std::shared_ptr<Job>&) { return true; });
  {
    std::lock_guard lk(mu_);
    for (auto& [id, j] : jobs_.all())
      if (!j->ended && !j->dispatched) finish_locked(*j, JobStatus::Cancelled, "daemon shutting down");
    job_cv_.notify_all();
  }
  // Running jobs: let them finish within the grace period.
  {
    std::unique_lock lk(mu_);
    job_cv_.wait_for(lk, grace, [&] {
      for (auto& [id, j] : jobs_.all())
        if (!j->ended) return false;
      return true;
    });
    for (auto& [id, j] : jobs_.all())
      if (!j->ended) finish_locked(*j, JobStatus::Cancelled, "daemon shutting down");
    stopping_ = true;
    job_cv_.notify_all();
  }
  job_queue_.close();
  load_queue_.close();
  synth_queue_.close();
  device_queue_.close();
  for (auto& slot : devices_) slot->final_queue.close();
  budget_.poke();
  for (auto& t : threads_)
    if (t.joinable()) t.join();
  threads_.clear();
}

}  // namespace cuzk::engine
