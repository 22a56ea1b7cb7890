// Bridge's claim loop (fleet/bridge.hpp, docs/FLEET.md "Leases,
// attempts, timeouts"): renewals first, reports of ended local runs, reclaims
// (held off after a stall), capability-aware claims; the submitter that hands
// claimed jobs to the local engine, whose end callbacks report them.
#include <spdlog/spdlog.h>

#include <algorithm>

#include "fleet/engine_names.hpp"
#include "fleet/bridge.hpp"
#include "fleet/database.hpp"
#include "fleet/queue.hpp"

namespace cuzk::fleet {

namespace {

using Code = ServiceError::Code;
using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

// The request id a claimed job is submitted to the local engine under: its
// queue job id, or, past the engine's 256 bytes, the end of it (which holds
// the job's unique number).
std::string local_request_id(const std::string& job_id) {
  std::string id = job_id.size() <= 256 ? job_id : job_id.substr(job_id.size() - 256);
  while (!id.empty() && id.front() == ' ') id.erase(0, 1);
  return id;
}

}  // namespace

// ---- the claim loop --------------------------------------------------------------

Clock::time_point Bridge::loop_deadline() const {
  const int64_t ns = shutdown_deadline_ns_.load();
  const auto normal = Clock::now() + cfg_.db_timeout;
  return ns ? std::min(normal, Clock::time_point(Clock::duration(ns))) : normal;
}

void Bridge::loop() {
  fleet::Queue q(*loop_db_);
  // A pass slower than this, or a gap between passes this much longer than
  // the poll interval, is a stall: leases of other daemons that ran out
  // meanwhile are likely the stall's doing, not theirs (docs/FLEET.md).
  const auto stall = cfg_.lease / 4;
  while (!stop_) {
    const auto begin = Clock::now();
    bool failed = false;
    try {
      std::optional<fleet::Database::Deadline> bound;
      if (shutdown_deadline_ns_.load()) bound.emplace(*loop_db_, loop_deadline());
      step(q);
    } catch (const std::exception& e) {
      failed = true;
      std::lock_guard lk(mu_);
      counters_.db_errors++;
      spdlog::warn("fleet: claim loop of {}: {}", cfg_.daemon_id, e.what());
    }
    const auto end = Clock::now();
    const bool stalled =
        failed || end - begin > stall ||
        (last_step_end_ != Clock::time_point{} && begin - last_step_end_ > cfg_.poll_interval + stall);
    last_step_end_ = end;
    std::unique_lock lk(mu_);
    if (stalled) {
      if (reclaim_holdoff_until_ < end) counters_.reclaim_holdoffs++;
      reclaim_holdoff_until_ = end + cfg_.lease;
    }
    if (failed) {
      cv_.wait_for(lk, cfg_.poll_interval, [&] { return stop_.load(); });
    } else {
      cv_.wait_for(lk, cfg_.poll_interval, [&] { return stop_ || poke_ || !finished_.empty(); });
    }
    poke_ = false;
  }
  try {
    const fleet::Database::Deadline bound(*loop_db_, loop_deadline());
    report_finished(q);
  } catch (const std::exception& e) {
    spdlog::warn("fleet: {}: reporting the last results: {}", cfg_.daemon_id, e.what());
  }
}

void Bridge::step(fleet::Queue& q) {
  const auto now = Clock::now();
  // Own leases first: after a stall they are the most urgent thing.
  if (now >= next_renew_) {
    renew_leases(q);
    next_renew_ = now + cfg_.lease / 3;
  }
  report_finished(q);
  std::vector<std::string> held;
  {
    std::lock_guard lk(mu_);
    for (const auto& [id, r] : running_) held.push_back(id);
  }
  if (!swept_own_) {  // what an earlier run of this daemon held when it died
    q.reclaim_own(cfg_.daemon_id, held, true);
    swept_own_ = true;
  }
  if (now >= next_reclaim_ && now >= reclaim_holdoff_until_) {
    const auto back = q.reclaim_expired(cfg_.daemon_id);
    // Claims of this daemon it does not know of (a claim whose reply was
    // lost): back without an attempt.
    const auto orphans = q.reclaim_own(cfg_.daemon_id, held, false);
    // Leases run out in lease units: a tenth of one is soon enough.
    next_reclaim_ = now + std::max<Clock::duration>(cfg_.poll_interval, cfg_.lease / 10);
    std::lock_guard lk(mu_);
    counters_.lease_expiries += back.size();
    counters_.released += orphans.size();
  }
  if (now >= next_capabilities_ || !circuits_) {
    refresh_capabilities();
    next_capabilities_ = now + 5s;
  }
  const auto cap = engine_.capacity();
  if (claiming_ && now >= claim_pause_until_ && cap.payload_free_bytes > 0) {
    size_t busy = 0;
    {
      std::lock_guard lk(mu_);
      busy = running_.size();
    }
    if (busy < slots_) {
      fleet::ClaimRequest cr;
      cr.daemon_id = cfg_.daemon_id;
      cr.free_slots = int(slots_ - busy);
      cr.hot_circuits = cap.hot_circuits;
      cr.lease = cfg_.lease;
      cr.reserved_slots = int(cfg_.reserved_slots);
      cr.urgent_priority = int(Priority::High);
      cr.circuits = circuits_;
      cr.max_payload_bytes = int64_t(std::min<uint64_t>(cap.payload_free_bytes, INT64_MAX));
      auto jobs = q.claim(cr);
      {
        std::lock_guard lk(mu_);
        counters_.claims += jobs.size();
      }
      for (auto& j : jobs) start_run(j.job_id, std::move(j.payload));
    }
  }
  if (now >= next_heartbeat_) {
    q.heartbeat(cfg_.daemon_id, cap.hot_circuits, int(slots_));
    std::vector<DepthRow> rows;
    for (const auto& d : q.depth())
      rows.push_back(DepthRow{d.kind, d.priority, d.state == fleet::JobState::Claimed, d.jobs});
    next_heartbeat_ = now + 1s;
    std::lock_guard lk(mu_);
    depth_ = std::move(rows);
  }
  if (now >= next_cleanup_) {
    q.cleanup(std::chrono::duration_cast<std::chrono::seconds>(cfg_.result_retention));
    next_cleanup_ = now + std::clamp<Clock::duration>(cfg_.result_retention / 10, 1s, 60s);
  }
}

void Bridge::refresh_capabilities() {
  // Every circuit whose parameters this daemon has (on disk or loaded).
  std::vector<std::string> ids;
  for (const auto& s : engine_.status().loaded_srs) ids.push_back(s.circuit_id);
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  circuits_ = std::move(ids);
}

void Bridge::start_run(const std::string& job_id, std::string payload) {
  {
    std::lock_guard lk(mu_);
    auto r = std::make_unique<Running>();
    r->gen = next_gen_++;
    // An older local run of the same job (its lease was lost) is forgotten:
    // its end is not reported (report_finished matches the run).
    to_submit_.push_back({job_id, r->gen, std::move(payload)});
    running_[job_id] = std::move(r);
  }
  submit_cv_.notify_all();
}

void Bridge::submit_loop() {
  std::unique_lock lk(mu_);
  for (;;) {
    submit_cv_.wait(lk, [&] { return submit_stop_ || !to_submit_.empty(); });
    if (to_submit_.empty()) return;
    ToSubmit next = std::move(to_submit_.front());
    to_submit_.pop_front();
    lk.unlock();
    submit_claimed(next.job_id, next.gen, next.payload);
    lk.lock();
  }
}

void Bridge::finished(Finished f) {
  {
    std::lock_guard lk(mu_);
    finished_.push_back(std::move(f));
  }
  cv_.notify_all();
}

void Bridge::submit_claimed(const std::string& job_id, uint64_t gen, const std::string& payload) {
  Finished f{job_id, gen, {}, std::nullopt};
  ProofRequest req;
  try {
    req = decode_request(payload);
  } catch (const std::exception& e) {
    f.refusal = Code::InvalidArgument;  // nobody can prove it
    f.result.error_message = e.what();
    finished(std::move(f));
    return;
  }
  try {
    req.request_id = local_request_id(job_id);
    const std::string local = engine_.submit(std::move(req)).job_id;
    bool stop = true;
    {
      std::lock_guard lk(mu_);
      auto it = running_.find(job_id);
      if (it != running_.end() && it->second->gen == gen) {
        it->second->local_id = local;
        stop = it->second->stop;
      }
    }
    if (stop) try {  // lost, cancelled or replaced before it reached the engine
        engine_.cancel(local);
      } catch (const ServiceError&) {
      }
    engine_.on_end(local, [this, job_id, gen](ProofResult r) {
      finished(Finished{job_id, gen, std::move(r), {}});
    });
  } catch (const ServiceError& e) {
    f.refusal = e.code();
    f.result.error_message = e.what();
    finished(std::move(f));
  } catch (const std::exception& e) {  // out of memory and the like: not the job's fault
    f.refusal = Code::Internal;
    f.result.error_message = e.what();
    finished(std::move(f));
  }
}

void Bridge::report_finished(fleet::Queue& q) {
  const std::string& me = cfg_.daemon_id;
  for (;;) {
    Finished f;
    bool lease_lost = false;
    {
      std::lock_guard lk(mu_);
      if (finished_.empty()) break;
      f = std::move(finished_.front());
      finished_.pop_front();
      auto it = running_.find(f.job_id);
      if (it == running_.end() || it->second->gen != f.gen) continue;  // a replaced run: nothing to report
      lease_lost = it->second->lease_lost;
    }
    try {
      const std::string& id = f.job_id;
      const std::string& why = f.result.error_message;
      if (f.refusal) {
        if (*f.refusal == Code::InvalidArgument) {  // the request itself is bad: for good
          q.fail(me, id, me + ": " + why, false);
          std::lock_guard lk(mu_);
          counters_.failed++;
        } else {  // not the job's fault (no room, shutting down, ...): no attempt
          const bool back = q.release(me, id, me + " could not take it: " + why);
          std::lock_guard lk(mu_);
          counters_.released += back;
          // Whatever stopped this one stops the next claims too: a pause
          // rather than a claim and a release every poll.
          claim_pause_until_ = Clock::now() + 1s;
        }
      } else if (f.result.status == JobStatus::Completed) {
        const auto out = q.complete(me, id, f.result.proof);
        std::lock_guard lk(mu_);
        if (out == fleet::CompleteOutcome::Completed) counters_.completed++;
        else if (out == fleet::CompleteOutcome::LeaseLost) counters_.discarded_late++;
      } else if (!lease_lost && f.result.status == JobStatus::Cancelled) {
        // Shutdown (or a cancel, then the queue's row is cancelled already).
        const std::string reason = shut_down_ ? "daemon " + me + " shut down before the job finished"
                                              : "cancelled on daemon " + me + (why.empty() ? "" : ": " + why);
        const bool back = q.release(me, id, reason);
        std::lock_guard lk(mu_);
        counters_.released += back;
      } else if (!lease_lost) {  // the work failed: an attempt spent
        q.fail(me, id, me + ": " + why, true);
        std::lock_guard lk(mu_);
        counters_.failed++;
      }
    } catch (...) {
      std::lock_guard lk(mu_);
      finished_.push_front(std::move(f));  // reported on the next pass
      throw;
    }
    {
      std::lock_guard lk(mu_);
      auto it = running_.find(f.job_id);
      if (it != running_.end() && it->second->gen == f.gen) running_.erase(it);
    }
    cv_.notify_all();
  }
}

void Bridge::renew_leases(fleet::Queue& q) {
  std::vector<std::string> ids;
  {
    std::lock_guard lk(mu_);
    for (const auto& [id, r] : running_)
      if (!r->lease_lost) ids.push_back(id);
  }
  if (ids.empty()) return;
  for (const auto& id : q.renew_leases(cfg_.daemon_id, ids, cfg_.lease)) {
    // Taken by another daemon after it expired, or cancelled: stop proving it.
    std::string local;
    {
      std::lock_guard lk(mu_);
      auto it = running_.find(id);
      if (it == running_.end()) continue;
      it->second->lease_lost = true;
      it->second->stop = true;
      local = it->second->local_id;
      counters_.leases_lost++;
    }
    if (!local.empty()) try {
        engine_.cancel(local);
      } catch (const ServiceError&) {
      }
  }
}

}  // namespace cuzk::fleet
