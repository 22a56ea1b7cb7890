// Engine::status(), status_json() and metrics_text(): read-only views of the
// engine's state for GetStatus, GET /status and GET /metrics.
#include <nlohmann/json.hpp>
#include <algorithm>
#include <map>
#include <sstream>

#include "engine/engine.hpp"
#include "engine/job.hpp"
#include "engine/kinds/registry.hpp"
#include "platform/large_vector.hpp"

namespace cuzk::engine {

namespace {

constexpr size_t kRecentJobs = 20;  // "recent" in /status
// Every kind of the registry, in its order (the built-in ones first).
std::vector<const char*> kind_names_in_order() {
  std::vector<const char*> out;
  for (const KindSpec* k : all_kinds()) out.push_back(k->name.data());  // the names are literals
  return out;
}

bool in_flight(PartState s) {
  return s == PartState::Synthesizing || s == PartState::SynthDone || s == PartState::Gpu;
}

constexpr Priority kPriorities[] = {Priority::Critical, Priority::High, Priority::Normal, Priority::Low};

// Live jobs by (kind, priority): admitted jobs that have not started a
// partition yet (waiting since submission) and jobs with partitions started.
struct QueueRow {
  uint32_t queued_jobs = 0, running_jobs = 0, pending_partitions = 0;
  double oldest_wait_s = 0;  // the longest a queued job has waited so far
};
template <class Jobs>
std::map<std::pair<std::string, Priority>, QueueRow> queue_rows(const Jobs& jobs, Clock::time_point now) {
  std::map<std::pair<std::string, Priority>, QueueRow> rows;
  for (const auto& [id, j] : jobs) {
    if (j->ended) continue;
    QueueRow& r = rows[{kind_name(j->kind), j->priority}];
    for (PartState st : j->states) r.pending_partitions += st == PartState::Pending;
    if (j->has_started) {
      r.running_jobs++;
    } else {
      r.queued_jobs++;
      r.oldest_wait_s = std::max(r.oldest_wait_s, std::chrono::duration<double>(now - j->submitted).count());
    }
  }
  return rows;
}

}  // namespace

StatusSnapshot Engine::status() const {
  StatusSnapshot s;
  std::vector<KindHandler*> hs;
  for (auto& h : handlers_) hs.push_back(h.get());
  s.loaded_srs = srs_.status(hs);
  s.budget_limit_bytes = budget_.limit() + payload_budget_.limit();
  s.budget_used_bytes = budget_.used() + payload_budget_.used();
  s.devices = devices_.status(s.workers);
  s.uptime_seconds =
      uint64_t(std::chrono::duration_cast<std::chrono::seconds>(Clock::now() - started_).count());
  std::map<std::string, QueueStatus> q;
  for (const char* k : kind_names_in_order()) q[k].proof_kind = k;
  board_.with_table([&](const JobTable& jobs, const JobCounts& counts) {
    s.total_proofs_completed = counts.completed;
    s.total_proofs_failed = counts.failed;
    // Partition-level counts: pending = not started yet, in_progress = in flight.
    for (auto& [id, j] : jobs.all()) {
      if (j->ended) continue;
      auto& qs = q[kind_name(j->kind)];
      for (PartState st : j->states) {
        if (st == PartState::Pending) qs.pending++;
        else if (in_flight(st)) qs.in_progress++;
      }
    }
  });
  for (auto& [k, v] : q) s.queues.push_back(v);
  return s;
}

Engine::Capacity Engine::capacity() const {
  Capacity c;
  c.hot_circuits = srs_.hot_circuits();
  const uint64_t used = payload_budget_.used(), limit = payload_budget_.limit();
  c.payload_free_bytes = limit > used ? limit - used : 0;
  c.device_workers = devices_.worker_count();
  c.live_jobs = board_.with_table([](const JobTable& jobs, const JobCounts&) { return jobs.live(); });
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
      {"recycled",
       {{"limit", platform::recycle_limit()},
        {"held", platform::recycled_bytes()},
        {"charged", budget_.pooled()},
        {"pledged", budget_.pledged()}}}};
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
                   {"device_bytes", e.device_bytes},
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
  j["synthesis"] = {{"max_concurrent", cfg_.max_parallel_synthesis}, {"active", synthesis_.synthesizing()}};
  board_.with_table([&](const JobTable& jobs, const JobCounts& counts) {
    for (auto& [id, job] : jobs.all()) {
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
           {"priority", priority_name(job->priority)},
           {"started_secs_ago", std::chrono::duration<double>(Clock::now() - job->submitted).count()},
           {"total_partitions", job->partitions},
           {"partitions_done", done},
           {"partitions", parts}});
    }
    json by_kind = json::object();
    for (const char* k : kind_names_in_order()) {
      auto c = counts.completed_by_kind.find(k);
      auto f = counts.failed_by_kind.find(k);
      by_kind[k] = {{"completed", c == counts.completed_by_kind.end() ? 0 : c->second},
                    {"failed", f == counts.failed_by_kind.end() ? 0 : f->second}};
    }
    j["counters"] = {{"completed", counts.completed},
                     {"failed", counts.failed},
                     {"by_kind", by_kind},
                     {"queue_depth", queue_depth}};
    const auto now = Clock::now();
    json queues = json::array();
    for (const auto& [key, r] : queue_rows(jobs.all(), now))
      queues.push_back({{"proof_kind", key.first},
                        {"priority", priority_name(key.second)},
                        {"queued_jobs", r.queued_jobs},
                        {"running_jobs", r.running_jobs},
                        {"pending_partitions", r.pending_partitions},
                        {"oldest_wait_secs", r.oldest_wait_s}});
    j["queues"] = queues;
    // The jobs that ended last (those still retained), newest first.
    json recent = json::array();
    for (const auto& ended : jobs.recently_ended(kRecentJobs)) {
      const Job& job = *ended;
      recent.push_back(
          {{"job_id", job.id},
           {"request_id", job.request_id},
           {"proof_kind", kind_name(job.kind)},
           {"priority", priority_name(job.priority)},
           {"status", job_status_name(job.status)},
           {"total_secs", std::chrono::duration<double>(job.finished_at - job.submitted).count()},
           {"ended_secs_ago", std::chrono::duration<double>(now - job.finished_at).count()}});
    }
    j["recent"] = recent;
  });
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
  std::array<uint64_t, JobCounts::kDurationBounds.size()> buckets{};
  double sum = 0;
  uint64_t count = 0;
  std::map<Priority, uint64_t> queued;
  std::map<Priority, double> oldest;
  std::map<PartState, uint64_t> parts;
  board_.with_table([&](const JobTable& jobs, const JobCounts& counts) {
    for (auto& [id, j] : jobs.all()) running += !j->ended && j->dispatched;
    // Every kind from the start (0 until its first proof), so rates and alerts see a series.
    auto by_kind = [&](const char* name, const std::map<std::string, uint64_t>& counts) {
      for (const char* k : kind_names_in_order()) {
        auto it = counts.find(k);
        o << name << "{proof_kind=\"" << k << "\"} " << (it == counts.end() ? 0 : it->second) << "\n";
      }
    };
    counter("cuzk_proofs_completed", "Proofs completed, by kind.", "counter");
    by_kind("cuzk_proofs_completed", counts.completed_by_kind);
    counter("cuzk_proofs_failed", "Proofs failed, by kind.", "counter");
    by_kind("cuzk_proofs_failed", counts.failed_by_kind);
    buckets = counts.duration_buckets;
    sum = counts.duration_sum_s;
    count = counts.completed;
    for (const auto& [key, r] : queue_rows(jobs.all(), Clock::now())) {
      queued[key.second] += r.queued_jobs;
      oldest[key.second] = std::max(oldest[key.second], r.oldest_wait_s);
    }
    for (auto& [id, j] : jobs.all())
      if (!j->ended)
        for (PartState st : j->states) parts[st]++;
  });
  counter("cuzk_queued_jobs", "Admitted jobs that have not started a partition yet, by priority.", "gauge");
  for (Priority p : kPriorities)
    o << "cuzk_queued_jobs{priority=\"" << priority_name(p) << "\"} " << queued[p] << "\n";
  counter("cuzk_queue_oldest_wait_seconds",
          "How long the oldest job of each priority has waited to start (0: none waiting).", "gauge");
  for (Priority p : kPriorities)
    o << "cuzk_queue_oldest_wait_seconds{priority=\"" << priority_name(p) << "\"} " << oldest[p] << "\n";
  counter("cuzk_partitions", "Partitions of live jobs by state.", "gauge");
  for (PartState st : {PartState::Pending, PartState::Synthesizing, PartState::SynthDone, PartState::Gpu})
    o << "cuzk_partitions{state=\"" << part_state_name(st) << "\"} " << parts[st] << "\n";
  counter("cuzk_queue_depth", "Partitions waiting to start.", "gauge");
  o << "cuzk_queue_depth " << pending << "\n";
  counter("cuzk_running_jobs", "Jobs with partitions in flight.", "gauge");
  o << "cuzk_running_jobs " << running << "\n";
  counter("cuzk_devices", "Compute devices.", "gauge");
  o << "cuzk_devices " << snap.devices.size() << "\n";
  counter("cuzk_gpu_workers", "Device workers.", "gauge");
  o << "cuzk_gpu_workers " << snap.workers.size() << "\n";
  counter("cuzk_memory_used_bytes",
          "Bytes reserved from the memory budget, buffers pooled for reuse included.", "gauge");
  o << "cuzk_memory_used_bytes " << snap.budget_used_bytes << "\n";
  counter("cuzk_memory_budget_bytes", "The memory budget.", "gauge");
  o << "cuzk_memory_budget_bytes " << snap.budget_limit_bytes << "\n";
  counter("cuzk_proof_duration_seconds", "Time from submit to completion.", "histogram");
  for (size_t b = 0; b < JobCounts::kDurationBounds.size(); b++)
    o << "cuzk_proof_duration_seconds_bucket{le=\"" << JobCounts::kDurationBounds[b] << "\"} " << buckets[b]
      << "\n";
  o << "cuzk_proof_duration_seconds_bucket{le=\"+Inf\"} " << count << "\n";
  o << "cuzk_proof_duration_seconds_sum " << sum << "\n";
  o << "cuzk_proof_duration_seconds_count " << count << "\n";
  return o.str();
}

}  // namespace cuzk::engine
