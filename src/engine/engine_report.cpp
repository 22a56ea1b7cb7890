// Engine::status(), status_json() and metrics_text(): read-only views of the
// engine's state for GetStatus, GET /status and GET /metrics.
#include <nlohmann/json.hpp>
#include <sstream>

#include "engine/engine.hpp"
#include "engine/job.hpp"
#include "platform/large_vector.hpp"

namespace cuzk::engine {

namespace {

const char* kKinds[] = {"porep-c2", "snap-update", "window-post", "winning-post", "generic-r1cs"};

bool in_flight(PartState s) {
  return s == PartState::Synthesizing || s == PartState::SynthDone || s == PartState::Gpu;
}

}  // namespace

StatusSnapshot Engine::status() const {
  StatusSnapshot s;
  std::vector<KindHandler*> hs;
  for (auto& h : handlers_) hs.push_back(h.get());
  s.loaded_srs = srs_.status(hs);
  s.budget_limit_bytes = budget_.limit() + payload_budget_.limit();
  s.budget_used_bytes = budget_.used() + payload_budget_.used();
  // Device memory figures may be system calls: read them before the lock.
  std::vector<std::pair<uint64_t, uint64_t>> mem;
  for (auto& slot : devices_)
    mem.emplace_back(slot->device->memory_total_bytes(), slot->device->memory_free_bytes());
  std::lock_guard lk(mu_);
  s.uptime_seconds =
      uint64_t(std::chrono::duration_cast<std::chrono::seconds>(Clock::now() - started_).count());
  s.total_proofs_completed = completed_;
  s.total_proofs_failed = failed_;
  for (size_t d = 0; d < devices_.size(); d++) {
    const auto& slot = *devices_[d];
    DeviceStatus ds;
    ds.ordinal = slot.device->ordinal();
    ds.name = slot.device->name();
    ds.host_memory = slot.device->host_memory();
    ds.memory_total_bytes = mem[d].first;
    ds.memory_free_bytes = mem[d].second;
    ds.workers = uint32_t(slot.workers.size());
    const WorkerState* shown = nullptr;
    for (auto& w : slot.workers) {
      ds.busy_workers += w.proving;
      if (w.proving && (!shown || (w.on_device && !shown->on_device))) shown = &w;
      WorkerStatus ws;
      ws.ordinal = ds.ordinal;
      ws.worker_id = w.worker_id;
      ws.current_job_id = w.job_id;
      ws.current_proof_kind = w.kind;
      ws.current_partition = w.partition;
      ws.busy_secs =
          w.busy_secs + (w.proving ? std::chrono::duration<double>(Clock::now() - w.since).count() : 0);
      s.workers.push_back(ws);
    }
    if (shown) {
      ds.current_job_id = shown->job_id;
      ds.current_proof_kind = shown->kind;
    }
    s.devices.push_back(ds);
  }
  // Partition-level counts: pending = not started yet, in_progress = in flight.
  std::map<std::string, QueueStatus> q;
  for (const char* k : kKinds) q[k].proof_kind = k;
  for (auto& [id, j] : jobs_) {
    if (j->ended) continue;
    auto& qs = q[kind_name(j->kind)];
    for (PartState st : j->states) {
      if (st == PartState::Pending) qs.pending++;
      else if (in_flight(st)) qs.in_progress++;
    }
  }
  for (auto& [k, v] : q) s.queues.push_back(v);
  return s;
}

Engine::Capacity Engine::capacity() const {
  Capacity c;
  c.hot_circuits = srs_.hot_circuits();
  const uint64_t used = payload_budget_.used(), limit = payload_budget_.limit();
  c.payload_free_bytes = limit > used ? limit - used : 0;
  std::lock_guard lk(mu_);
  for (auto& slot : devices_) c.device_workers += uint32_t(slot->workers.size());
  c.live_jobs = live_jobs_;
  return c;
}

std::string Engine::status_json() const {
  using nlohmann::json;
  StatusSnapshot snap = status();
  json j;
  j["uptime_secs"] = snap.uptime_seconds;
  j["memory"] = {
      {"total", snap.budget_limit_bytes},
      {"used", snap.budget_used_bytes},
      {"available", snap.budget_limit_bytes - std::min(snap.budget_limit_bytes, snap.budget_used_bytes)},
      {"peak", budget_.peak() + payload_budget_.peak()},
      {"payloads", {{"limit", payload_budget_.limit()}, {"used", payload_budget_.used()}}},
      {"recycled", {{"limit", platform::recycle_limit()}, {"held", platform::recycled_bytes()}}}};
  json devices = json::array();
  for (auto& d : snap.devices)
    devices.push_back({{"ordinal", d.ordinal},
                       {"name", d.name},
                       {"memory_kind", d.host_memory ? "host" : "device"},
                       {"memory_total", d.memory_total_bytes},
                       {"memory_free", d.memory_free_bytes},
                       {"workers", d.workers},
                       {"busy_workers", d.busy_workers}});
  j["devices"] = devices;
  json srs = json::array();
  for (auto& e : snap.loaded_srs)
    srs.push_back({{"circuit_id", e.circuit_id},
                   {"tier", e.tier == SrsTier::Hot    ? "hot"
                            : e.tier == SrsTier::Warm ? "warm"
                                                      : "cold"},
                   {"size_bytes", e.size_bytes},
                   {"ref_count", e.ref_count}});
  json pce = json::array();
  for (const auto& e : pce_.list()) {
    json x = {{"circuit_id", e.circuit_id},
              {"state", e.state},
              {"size_bytes", e.bytes},
              {"proofs", e.proofs},
              {"on_disk", e.on_disk}};
    if (!e.error.empty()) x["error"] = e.error;
    pce.push_back(std::move(x));
  }
  j["allocations"] = {{"srs", srs}, {"pce", pce}};
  json workers = json::array();
  for (auto& g : snap.workers)
    workers.push_back(
        {{"worker_id", g.worker_id},
         {"gpu_ordinal", g.ordinal},
         {"state", g.current_job_id.empty() ? "idle" : "proving"},
         {"current_job", g.current_job_id.empty() ? json(nullptr) : json(g.current_job_id)},
         {"current_partition", g.current_partition < 0 ? json(nullptr) : json(g.current_partition)},
         {"busy_secs", g.busy_secs}});
  j["gpu_workers"] = workers;
  json pipelines = json::array();
  uint64_t queue_depth = 0;
  {
    std::lock_guard lk(mu_);
    j["synthesis"] = {{"max_concurrent", cfg_.max_parallel_synthesis}, {"active", synthesizing_.load()}};
    for (auto& [id, job] : jobs_) {
      if (job->ended) continue;
      if (!job->dispatched) {
        queue_depth++;
        continue;
      }
      json parts = json::array();
      uint32_t done = 0;
      for (uint32_t p = 0; p < job->partitions; p++) {
        done += job->states[p] == PartState::Done;
        parts.push_back({{"index", p},
                         {"state", part_state_name(job->states[p])},
                         {"synth_ms", job->synth_ms[p]},
                         {"gpu_ms", job->gpu_ms[p]}});
      }
      pipelines.push_back(
          {{"job_id", id},
           {"proof_kind", kind_name(job->kind)},
           {"started_secs_ago", std::chrono::duration<double>(Clock::now() - job->submitted).count()},
           {"total_partitions", job->partitions},
           {"partitions_done", done},
           {"partitions", parts}});
    }
    json by_kind = json::object();
    for (const char* k : kKinds) {
      auto c = completed_by_kind_.find(k);
      auto f = failed_by_kind_.find(k);
      by_kind[k] = {{"completed", c == completed_by_kind_.end() ? 0 : c->second},
                    {"failed", f == failed_by_kind_.end() ? 0 : f->second}};
    }
    j["counters"] = {
        {"completed", completed_}, {"failed", failed_}, {"by_kind", by_kind}, {"queue_depth", queue_depth}};
  }
  j["pipelines"] = pipelines;
  return j.dump(2);
}

std::string Engine::metrics_text() const {
  StatusSnapshot snap = status();
  std::ostringstream o;
  auto counter = [&](const char* name, const char* help, const char* type) {
    o << "# HELP " << name << ' ' << help << "\n# TYPE " << name << ' ' << type << "\n";
  };
  counter("cuzk_proofs_completed_total", "Proofs completed since start.", "counter");
  o << "cuzk_proofs_completed_total " << snap.total_proofs_completed << "\n";
  counter("cuzk_proofs_failed_total", "Proofs failed since start.", "counter");
  o << "cuzk_proofs_failed_total " << snap.total_proofs_failed << "\n";
  counter("cuzk_uptime_seconds", "Seconds since the engine started.", "gauge");
  o << "cuzk_uptime_seconds " << snap.uptime_seconds << "\n";
  uint64_t pending = 0, running = 0;
  for (auto& q : snap.queues) pending += q.pending;
  std::array<uint64_t, kDurationBounds.size()> buckets{};
  double sum = 0;
  uint64_t count = 0;
  {
    std::lock_guard lk(mu_);
    for (auto& [id, j] : jobs_) running += !j->ended && j->dispatched;
    counter("cuzk_proofs_completed", "Proofs completed, by kind.", "counter");
    for (auto& [k, v] : completed_by_kind_)
      o << "cuzk_proofs_completed{proof_kind=\"" << k << "\"} " << v << "\n";
    counter("cuzk_proofs_failed", "Proofs failed, by kind.", "counter");
    for (auto& [k, v] : failed_by_kind_) o << "cuzk_proofs_failed{proof_kind=\"" << k << "\"} " << v << "\n";
    buckets = duration_buckets_;
    sum = duration_sum_s_;
    count = completed_;
  }
  counter("cuzk_queue_depth", "Partitions waiting to start.", "gauge");
  o << "cuzk_queue_depth " << pending << "\n";
  counter("cuzk_running_jobs", "Jobs with partitions in flight.", "gauge");
  o << "cuzk_running_jobs " << running << "\n";
  counter("cuzk_devices", "Compute devices.", "gauge");
  o << "cuzk_devices " << snap.devices.size() << "\n";
  counter("cuzk_gpu_workers", "Device workers.", "gauge");
  o << "cuzk_gpu_workers " << snap.workers.size() << "\n";
  counter("cuzk_memory_used_bytes", "Bytes reserved from the memory budget.", "gauge");
  o << "cuzk_memory_used_bytes " << snap.budget_used_bytes << "\n";
  counter("cuzk_memory_budget_bytes", "The memory budget.", "gauge");
  o << "cuzk_memory_budget_bytes " << snap.budget_limit_bytes << "\n";
  counter("cuzk_proof_duration_seconds", "Time from submit to completion.", "histogram");
  for (size_t b = 0; b < kDurationBounds.size(); b++)
    o << "cuzk_proof_duration_seconds_bucket{le=\"" << kDurationBounds[b] << "\"} " << buckets[b] << "\n";
  o << "cuzk_proof_duration_seconds_bucket{le=\"+Inf\"} " << count << "\n";
  o << "cuzk_proof_duration_seconds_sum " << sum << "\n";
  o << "cuzk_proof_duration_seconds_count " << count << "\n";
  return o.str();
}

}  // namespace cuzk::engine
