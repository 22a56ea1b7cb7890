// Engine::status(), status_json() and metrics_text(): read-only views of the
// engine's state for GetStatus, GET /status and GET /metrics.
#include <nlohmann/json.hpp>
#include <sstream>

#include "engine/engine.hpp"
#include "engine/job.hpp"

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
  s.memory_limit_bytes = budget_.limit();
  s.memory_used_bytes = budget_.used();
  std::lock_guard lk(mu_);
  s.uptime_seconds = uint64_t(std::chrono::duration_cast<std::chrono::seconds>(Clock::now() - started_).count());
  s.total_proofs_completed = completed_;
  s.total_proofs_failed = failed_;
  for (auto& slot : devices_) {
    for (auto& w : slot->workers) {
      GpuWorkerStatus g;
      g.ordinal = slot->device->ordinal();
      g.worker_id = w.worker_id;
      g.name = slot->device->name();
      g.memory_total_bytes = slot->device->memory_total_bytes();
      g.memory_free_bytes = slot->device->memory_free_bytes();
      g.current_job_id = w.job_id;
      g.current_proof_kind = w.kind;
      g.current_partition = w.partition;
      g.busy_secs = w.busy_secs + (w.proving ? std::chrono::duration<double>(Clock::now() - w.since).count() : 0);
      s.gpus.push_back(g);
    }
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

std::string Engine::status_json() const {
  using nlohmann::json;
  StatusSnapshot snap = status();
  json j;
  j["uptime_secs"] = snap.uptime_seconds;
  j["memory"] = {{"total", snap.memory_limit_bytes},
                 {"used", snap.memory_used_bytes},
                 {"available", snap.memory_limit_bytes - std::min(snap.memory_limit_bytes, snap.memory_used_bytes)},
                 {"peak", budget_.peak()}};
  json srs = json::array();
  for (auto& e : snap.loaded_srs)
    srs.push_back({{"circuit_id", e.circuit_id},
                   {"tier", e.tier == SrsTier::Hot ? "hot" : e.tier == SrsTier::Warm ? "warm" : "cold"},
                   {"size_bytes", e.size_bytes},
                   {"ref_count", e.ref_count}});
  j["allocations"] = {{"srs", srs}, {"pce", json::array()}};
  json workers = json::array();
  for (auto& g : snap.gpus)
    workers.push_back({{"worker_id", g.worker_id},
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
      pipelines.push_back({{"job_id", id},
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
    j["counters"] = {{"completed", completed_}, {"failed", failed_}, {"by_kind", by_kind}, {"queue_depth", queue_depth}};
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
  std::vector<double> durations;
  {
    std::lock_guard lk(mu_);
    for (auto& [id, j] : jobs_) running += !j->ended && j->dispatched;
    counter("cuzk_proofs_completed", "Proofs completed, by kind.", "counter");
    for (auto& [k, v] : completed_by_kind_) o << "cuzk_proofs_completed{proof_kind=\"" << k << "\"} " << v << "\n";
    counter("cuzk_proofs_failed", "Proofs failed, by kind.", "counter");
    for (auto& [k, v] : failed_by_kind_) o << "cuzk_proofs_failed{proof_kind=\"" << k << "\"} " << v << "\n";
    durations = durations_s_;
  }
  counter("cuzk_queue_depth", "Partitions waiting to start.", "gauge");
  o << "cuzk_queue_depth " << pending << "\n";
  counter("cuzk_running_jobs", "Jobs with partitions in flight.", "gauge");
  o << "cuzk_running_jobs " << running << "\n";
  counter("cuzk_gpu_workers", "Device workers.", "gauge");
  o << "cuzk_gpu_workers " << snap.gpus.size() << "\n";
  counter("cuzk_memory_used_bytes", "Bytes reserved from the memory budget.", "gauge");
  o << "cuzk_memory_used_bytes " << snap.memory_used_bytes << "\n";
  counter("cuzk_memory_budget_bytes", "The memory budget.", "gauge");
  o << "cuzk_memory_budget_bytes " << snap.memory_limit_bytes << "\n";
  counter("cuzk_proof_duration_seconds", "Time from submit to completion.", "histogram");
  const double bounds[] = {0.1, 0.5, 1, 2, 5, 10, 30, 60, 120, 300, 600};
  double sum = 0;
  for (double d : durations) sum += d;
  for (double b : bounds) {
    size_t c = 0;
    for (double d : durations) c += d <= b;
    o << "cuzk_proof_duration_seconds_bucket{le=\"" << b << "\"} " << c << "\n";
  }
  o << "cuzk_proof_duration_seconds_bucket{le=\"+Inf\"} " << durations.size() << "\n";
  o << "cuzk_proof_duration_seconds_sum " << sum << "\n";
  o << "cuzk_proof_duration_seconds_count " << durations.size() << "\n";
  return o.str();
}

}  // namespace cuzk::engine
