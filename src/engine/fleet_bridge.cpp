// FleetBridge: the engine's side of fleet mode (fleet_bridge.hpp,
// docs/FLEET.md "How the engine plugs in").
#include "engine/fleet_bridge.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "engine/engine.hpp"
#include "fleet/database.hpp"
#include "fleet/queue.hpp"
#include "fleet/schema.hpp"

namespace cuzk::engine {

namespace {

using Code = ServiceError::Code;
using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

// ---- request payload encoding ------------------------------------------------
// "CZKR", version 1, then every field in a fixed order: integers as 8 bytes
// little-endian, strings as their 8-byte length and bytes.
constexpr char kMagic[4] = {'C', 'Z', 'K', 'R'};
constexpr uint8_t kVersion = 1;

void put_u64(std::string& out, uint64_t v) {
  for (int i = 0; i < 8; i++) out.push_back(char(uint8_t(v >> (8 * i))));
}
void put_str(std::string& out, const std::string& s) {
  put_u64(out, s.size());
  out += s;
}

class Reader {
 public:
  explicit Reader(const std::string& b) : b_(b) {}
  uint64_t u64(const char* field) {
    need(8, field);
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v |= uint64_t(uint8_t(b_[pos_ + i])) << (8 * i);
    pos_ += 8;
    return v;
  }
  uint32_t u32(const char* field) {
    const uint64_t v = u64(field);
    if (v > 0xffffffffu) throw std::runtime_error(std::string("request payload: ") + field + " out of range");
    return uint32_t(v);
  }
  std::string str(const char* field) {
    const uint64_t n = u64(field);
    need(n, field);
    std::string s = b_.substr(pos_, size_t(n));
    pos_ += size_t(n);
    return s;
  }
  void need(uint64_t n, const char* field) const {
    if (n > b_.size() - pos_)
      throw std::runtime_error(std::string("request payload truncated at ") + field + " (offset " +
                               std::to_string(pos_) + " of " + std::to_string(b_.size()) + ")");
  }
  size_t pos() const { return pos_; }
  void skip(size_t n) { pos_ += n; }

 private:
  const std::string& b_;
  size_t pos_ = 0;
};

const char* priority_label(int p) {
  switch (p) {
    case 1: return "low";
    case 2: return "normal";
    case 3: return "high";
    case 4: return "critical";
    default: return "unspecified";
  }
}

bool ended(fleet::JobState s) {
  return s == fleet::JobState::Done || s == fleet::JobState::Failed || s == fleet::JobState::Cancelled;
}

std::string host_name() {
  char buf[256] = {};
  if (::gethostname(buf, sizeof buf - 1) != 0 || buf[0] == 0) return "cuzk-daemon";
  return buf;
}

}  // namespace

std::string encode_request(const ProofRequest& r) {
  std::string out(kMagic, 4);
  out.push_back(char(kVersion));
  put_str(out, r.request_id);
  put_u64(out, uint64_t(r.kind));
  put_u64(out, r.sector_size);
  put_u64(out, r.registered_proof);
  put_u64(out, uint64_t(r.priority));
  put_str(out, r.vanilla_proof);
  put_u64(out, r.vanilla_proofs.size());
  for (const auto& v : r.vanilla_proofs) put_str(out, v);
  put_u64(out, r.sector_number);
  put_u64(out, r.miner_id);
  put_str(out, r.randomness);
  put_u64(out, r.partition_index);
  put_str(out, r.comm_r_old);
  put_str(out, r.comm_r_new);
  put_str(out, r.comm_d_new);
  put_str(out, r.circuit_id);
  return out;
}

ProofRequest decode_request(const std::string& b) {
  if (b.size() < 5 || b.compare(0, 4, std::string(kMagic, 4)) != 0)
    throw std::runtime_error("request payload: not a cuzk request (bad magic)");
  if (uint8_t(b[4]) != kVersion)
    throw std::runtime_error("request payload: version " + std::to_string(int(uint8_t(b[4]))) +
                             " is not supported (this daemon reads version " + std::to_string(int(kVersion)) +
                             ")");
  Reader rd(b);
  rd.skip(5);
  ProofRequest r;
  r.request_id = rd.str("request_id");
  const uint64_t kind = rd.u64("kind");
  if (kind > 1000)
    throw std::runtime_error("request payload: kind " + std::to_string(kind) + " out of range");
  r.kind = ProofKind(int(kind));
  r.sector_size = rd.u64("sector_size");
  r.registered_proof = rd.u64("registered_proof");
  const uint64_t prio = rd.u64("priority");
  if (prio > uint64_t(Priority::Critical))
    throw std::runtime_error("request payload: priority " + std::to_string(prio) + " out of range");
  r.priority = Priority(int(prio));
  r.vanilla_proof = rd.str("vanilla_proof");
  const uint64_t n = rd.u64("vanilla_proofs count");
  rd.need(n > UINT64_MAX / 8 ? UINT64_MAX : n * 8, "vanilla_proofs");  // 8 bytes each at least
  r.vanilla_proofs.reserve(size_t(n));
  for (uint64_t i = 0; i < n; i++) r.vanilla_proofs.push_back(rd.str("vanilla_proofs"));
  r.sector_number = rd.u64("sector_number");
  r.miner_id = rd.u64("miner_id");
  r.randomness = rd.str("randomness");
  r.partition_index = rd.u32("partition_index");
  r.comm_r_old = rd.str("comm_r_old");
  r.comm_r_new = rd.str("comm_r_new");
  r.comm_d_new = rd.str("comm_d_new");
  r.circuit_id = rd.str("circuit_id");
  if (rd.pos() != b.size())
    throw std::runtime_error("request payload: " + std::to_string(b.size() - rd.pos()) + " trailing bytes");
  return r;
}

// ---- the bridge ----------------------------------------------------------------

struct FleetBridge::Running {
  uint64_t gen = 0;
  std::thread waiter;  // engine.await until the local job ends
  bool lease_lost = false;
};

FleetBridge::FleetBridge(Engine& engine, EngineConfig::Fleet cfg) : engine_(engine), cfg_(std::move(cfg)) {
  if (cfg_.daemon_id.empty()) cfg_.daemon_id = host_name();
  const auto cap = engine_.capacity();
  // Default: one job per device worker, one more queued locally (so the
  // engine starts the next job without waiting for the database), plus the
  // reserved ones.
  slots_ = cfg_.slots ? cfg_.slots : std::max<uint32_t>(1, cap.device_workers) + 1 + cfg_.reserved_slots;
  if (cfg_.reserved_slots >= slots_)
    throw std::runtime_error("fleet.reserved_slots (" + std::to_string(cfg_.reserved_slots) +
                             ") must be smaller than the daemon's slots (" + std::to_string(slots_) + ")");
  // The loop's connection is opened here, so that a bad URI or an
  // unreachable database stops the daemon at start.
  loop_db_ = std::make_unique<fleet::Database>(cfg_.database);
  fleet::Schema::migrate(*loop_db_);
  client_db_ = std::make_unique<fleet::Database>(cfg_.database);
  client_q_ = std::make_unique<fleet::Queue>(*client_db_);
  thread_ = std::thread([this] { loop(); });
  poller_ = std::thread([this] { poll_loop(); });
}

FleetBridge::~FleetBridge() {
  shutdown(0ms);
  {
    std::lock_guard lk(watch_mu_);
    watch_stop_ = true;
  }
  watch_cv_.notify_all();
  if (poller_.joinable()) poller_.join();
}

void FleetBridge::shutdown(std::chrono::milliseconds grace) {
  if (shut_down_.exchange(true)) return;
  claiming_ = false;
  engine_.shutdown(grace);  // every local job ends; the waiters report them
  {
    std::unique_lock lk(mu_);
    cv_.wait_for(lk, 10s, [&] { return running_.empty() && finished_.empty(); });
    stop_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
  // Waiters still here (their report failed) end with the engine's jobs;
  // joined without the lock, which they take to push their result.
  std::vector<std::thread> waiters;
  {
    std::lock_guard lk(mu_);
    for (auto& [id, r] : running_) waiters.push_back(std::move(r->waiter));
    for (auto& t : retired_) waiters.push_back(std::move(t.second));
    retired_.clear();
  }
  for (auto& t : waiters)
    if (t.joinable()) t.join();
}

template <typename F>
auto FleetBridge::with_client(const char* what, F&& fn) {
  std::lock_guard lk(client_mu_);
  try {
    return fn(*client_q_);
  } catch (const fleet::QueueError& e) {
    throw ServiceError(
        e.code() == fleet::QueueError::Code::AlreadyExists ? Code::AlreadyExists : Code::InvalidArgument,
        e.what());
  } catch (const fleet::DbError& e) {
    throw ServiceError(Code::Unavailable, std::string("fleet database (") + what + "): " + e.what());
  }
}

SubmitResult FleetBridge::submit(ProofRequest req) {
  if (req.request_id.empty()) req.request_id = new_job_id();
  if (req.priority == Priority::Unspecified) req.priority = default_priority(req.kind);
  const Engine::Checked checked = engine_.check(req);  // refusals as a single daemon gives them
  fleet::JobSpec spec;
  spec.job_id = req.request_id;
  spec.kind = int(req.kind);
  spec.priority = int(req.priority);
  spec.circuit_id = checked.circuit_id;
  spec.partitions = int(checked.partitions);
  spec.max_attempts = int(cfg_.max_attempts);
  spec.payload = encode_request(req);
  auto r = with_client("enqueue", [&](fleet::Queue& q) { return q.enqueue(spec); });
  {
    std::lock_guard lk(mu_);
    poke_ = true;  // this daemon may claim it at once
  }
  cv_.notify_all();
  return SubmitResult{r.job_id, 0, ""};
}

ProofResult FleetBridge::result_of(const std::string& job_id, Clock::time_point start) {
  auto info = with_client("await", [&](fleet::Queue& q) { return q.get(job_id); });
  if (!info) throw ServiceError(Code::NotFound, "unknown job id " + job_id);
  ProofResult r;
  r.job_id = job_id;
  switch (info->state) {
    case fleet::JobState::Done:
      r.status = JobStatus::Completed;
      r.proof = info->result.value_or("");
      break;
    case fleet::JobState::Failed:
      r.status = JobStatus::Failed;
      r.error_message = info->last_error;
      break;
    case fleet::JobState::Cancelled:
      r.status = JobStatus::Cancelled;
      r.error_message = info->last_error.empty() ? "cancelled" : info->last_error;
      break;
    default:
      r.status = JobStatus::Timeout;
      r.error_message = std::string("job ") + fleet::state_name(info->state) +
                        (info->claimed_by.empty() ? std::string() : " on " + info->claimed_by);
      return r;
  }
  r.total_ms = uint64_t(std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count());
  return r;
}

ProofResult FleetBridge::await(const std::string& job_id, std::optional<std::chrono::milliseconds> timeout) {
  const auto start = Clock::now();
  const bool forever = !timeout || *timeout > std::chrono::hours(24 * 365 * 10);
  const auto deadline = forever ? Clock::time_point::max() : start + std::max(*timeout, 0ms);
  bool watched = false;
  {
    std::lock_guard lk(watch_mu_);
    auto it = watched_.find(job_id);
    if (it != watched_.end()) {  // watched already (another waiter, or the previous slice)
      it->second.waiters++;
      it->second.last_used = start;
      watched = true;
    }
  }
  if (!watched) {  // first look: unknown ids and ended jobs answer at once
    ProofResult r = result_of(job_id, start);
    if (r.status != JobStatus::Timeout) return r;
    std::lock_guard lk(watch_mu_);
    auto& w = watched_[job_id];
    w.waiters++;
    w.last_used = start;
  }
  watch_cv_.notify_all();  // the poller may be idle
  bool ended_now = false;
  {
    std::unique_lock lk(watch_mu_);
    auto pred = [&] { return watch_stop_ || watched_[job_id].ended; };
    if (forever) watch_cv_.wait(lk, pred);
    else watch_cv_.wait_until(lk, deadline, pred);
    auto& w = watched_[job_id];
    ended_now = w.ended;
    w.waiters--;
    w.last_used = Clock::now();
  }
  if (ended_now) return result_of(job_id, start);
  ProofResult r;
  r.job_id = job_id;
  r.status = JobStatus::Timeout;
  r.error_message =
      "timed out after " + std::to_string(forever ? 0 : timeout->count()) + " ms; job still running";
  return r;
}

void FleetBridge::poll_loop() {
  const auto tick = std::clamp<std::chrono::milliseconds>(cfg_.poll_interval / 2, 10ms, 250ms);
  constexpr auto kLinger = 2s;
  std::unique_lock lk(watch_mu_);
  while (!watch_stop_) {
    const auto now = Clock::now();
    std::vector<std::string> ids;
    for (auto it = watched_.begin(); it != watched_.end();) {
      if (it->second.waiters == 0 && now - it->second.last_used > kLinger) {
        it = watched_.erase(it);
        continue;
      }
      if (!it->second.ended && it->second.waiters > 0) ids.push_back(it->first);
      ++it;
    }
    if (watched_.empty()) {
      watch_cv_.wait(lk, [&] { return watch_stop_ || !watched_.empty(); });
      continue;
    }
    if (!ids.empty()) {
      lk.unlock();
      std::vector<std::pair<std::string, fleet::JobState>> states;
      bool ok = true;
      try {
        states = with_client("await", [&](fleet::Queue& q) { return q.states(ids); });
      } catch (const std::exception&) {
        ok = false;  // the waiters keep waiting; the next tick tries again
      }
      lk.lock();
      if (ok) {
        std::map<std::string, fleet::JobState> by_id(states.begin(), states.end());
        for (const auto& id : ids) {
          auto s = by_id.find(id);
          auto it = watched_.find(id);
          if (it != watched_.end() && (s == by_id.end() || ended(s->second)))
            it->second.ended = true;  // or gone
        }
        watch_cv_.notify_all();
      }
    }
    watch_cv_.wait_for(lk, tick, [&] { return watch_stop_; });
  }
}

bool FleetBridge::cancel(const std::string& job_id) {
  const auto out = with_client("cancel", [&](fleet::Queue& q) { return q.cancel(job_id); });
  switch (out) {
    case fleet::CancelOutcome::NotFound: throw ServiceError(Code::NotFound, "unknown job id " + job_id);
    case fleet::CancelOutcome::WasRunning: {
      bool local = false;
      {
        std::lock_guard lk(mu_);
        local = running_.count(job_id) > 0;
      }
      if (local) {  // the daemon holding it stops at its next renew anyway; here at once
        try {
          engine_.cancel(job_id);
        } catch (const ServiceError&) {
        }
      }
      return true;
    }
    default: return false;
  }
}

StatusSnapshot FleetBridge::status() const { return engine_.status(); }
PreloadResult FleetBridge::preload(const std::string& circuit_id) { return engine_.preload(circuit_id); }
EvictResult FleetBridge::evict(const std::string& circuit_id) { return engine_.evict(circuit_id); }

FleetBridge::Counters FleetBridge::counters() const {
  std::lock_guard lk(mu_);
  return counters_;
}

std::string FleetBridge::metrics_text() const {
  std::ostringstream o;
  o << engine_.metrics_text();
  Counters c;
  std::vector<DepthRow> depth;
  size_t running = 0;
  {
    std::lock_guard lk(mu_);
    c = counters_;
    depth = depth_;
    running = running_.size();
  }
  auto head = [&](const char* name, const char* help, const char* type) {
    o << "# HELP " << name << ' ' << help << "\n# TYPE " << name << ' ' << type << "\n";
  };
  head("cuzk_fleet_queue_jobs",
       "Jobs in the fleet queue by kind, priority and state (refreshed every second).", "gauge");
  for (const auto& d : depth)
    o << "cuzk_fleet_queue_jobs{kind=\"" << kind_name(ProofKind(d.kind)) << "\",priority=\""
      << priority_label(d.priority) << "\",state=\"" << (d.claimed ? "claimed" : "queued") << "\"} " << d.jobs
      << "\n";
  head("cuzk_fleet_slots", "Jobs this daemon proves at once in the fleet.", "gauge");
  o << "cuzk_fleet_slots " << slots_ << "\n";
  head("cuzk_fleet_running_jobs", "Claimed jobs running on this daemon.", "gauge");
  o << "cuzk_fleet_running_jobs " << running << "\n";
  const std::pair<const char*, uint64_t> totals[] = {
      {"cuzk_fleet_claims_total", c.claims},       {"cuzk_fleet_lease_expiries_total", c.lease_expiries},
      {"cuzk_fleet_completed_total", c.completed}, {"cuzk_fleet_results_discarded_total", c.discarded_late},
      {"cuzk_fleet_failures_total", c.failed},     {"cuzk_fleet_leases_lost_total", c.leases_lost},
      {"cuzk_fleet_db_errors_total", c.db_errors},
  };
  const char* helps[] = {
      "Jobs this daemon claimed from the fleet queue.",
      "Expired leases (of any daemon) this daemon returned to the queue.",
      "Results this daemon stored in the fleet queue.",
      "Results discarded because this daemon's lease had expired (late completions).",
      "Job failures this daemon reported (requeued or final).",
      "Running jobs cancelled here because their lease could not be renewed.",
      "Claim-loop steps that failed on the database.",
  };
  for (size_t i = 0; i < std::size(totals); i++) {
    head(totals[i].first, helps[i], "counter");
    o << totals[i].first << ' ' << totals[i].second << "\n";
  }
  return o.str();
}

std::string FleetBridge::status_json() const {
  auto j = nlohmann::json::parse(engine_.status_json());
  const Counters c = counters();
  size_t running = 0;
  {
    std::lock_guard lk(mu_);
    running = running_.size();
  }
  j["fleet"] = {{"daemon_id", cfg_.daemon_id},
                {"database", fleet::Database::redact(cfg_.database)},
                {"slots", slots_},
                {"running", running},
                {"claims", c.claims},
                {"completed", c.completed},
                {"lease_expiries", c.lease_expiries},
                {"results_discarded", c.discarded_late}};
  return j.dump();
}

// ---- the claim loop --------------------------------------------------------------

void FleetBridge::loop() {
  fleet::Queue q(*loop_db_);
  while (!stop_) {
    bool failed = false;
    try {
      step(q);
    } catch (const std::exception& e) {
      failed = true;
      std::lock_guard lk(mu_);
      counters_.db_errors++;
      std::fprintf(stderr, "cuzk fleet: claim loop of %s: %s\n", cfg_.daemon_id.c_str(), e.what());
    }
    std::unique_lock lk(mu_);
    if (failed) {
      cv_.wait_for(lk, cfg_.poll_interval, [&] { return stop_.load(); });
    } else {
      cv_.wait_for(lk, cfg_.poll_interval, [&] { return stop_ || poke_ || !finished_.empty(); });
    }
    poke_ = false;
  }
  try {
    report_finished(q);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cuzk fleet: %s: reporting the last results: %s\n", cfg_.daemon_id.c_str(),
                 e.what());
  }
}

void FleetBridge::step(fleet::Queue& q) {
  const auto now = Clock::now();
  if (now >= next_reclaim_) {
    const auto back = q.reclaim_expired();
    // Leases run out in lease units: a tenth of one is soon enough.
    next_reclaim_ = now + std::max<Clock::duration>(cfg_.poll_interval, cfg_.lease / 10);
    std::lock_guard lk(mu_);
    counters_.lease_expiries += back.size();
  }
  report_finished(q);
  if (now >= next_renew_) {
    renew_leases(q);
    next_renew_ = now + cfg_.lease / 3;
  }
  const auto cap = engine_.capacity();
  if (claiming_ && cap.payload_free_bytes > 0) {
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
      const auto jobs = q.claim(cr);
      {
        std::lock_guard lk(mu_);
        counters_.claims += jobs.size();
      }
      for (const auto& j : jobs) admit(q, j.job_id, j.payload);
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

void FleetBridge::admit(fleet::Queue& q, const std::string& job_id, const std::string& payload) {
  ProofRequest req;
  try {
    req = decode_request(payload);
  } catch (const std::exception& e) {
    q.fail(cfg_.daemon_id, job_id, e.what(), false);
    std::lock_guard lk(mu_);
    counters_.failed++;
    return;
  }
  req.request_id = job_id;
  try {
    engine_.submit(std::move(req));
  } catch (const ServiceError& e) {
    // Bad input fails for good; anything else (no room now, shutting down,
    // parameters missing here) goes back to the queue for another try.
    const bool retryable = e.code() != Code::InvalidArgument;
    q.fail(cfg_.daemon_id, job_id, cfg_.daemon_id + ": " + e.what(), retryable);
    std::lock_guard lk(mu_);
    counters_.failed++;
    return;
  }
  auto r = std::make_unique<Running>();
  std::lock_guard lk(mu_);
  r->gen = next_gen_++;
  const uint64_t gen = r->gen;
  r->waiter = std::thread([this, job_id, gen] {
    ProofResult res;
    try {
      res = engine_.await(job_id, std::nullopt);
    } catch (const std::exception& e) {
      res.status = JobStatus::Failed;
      res.error_message = e.what();
    }
    {
      std::lock_guard lk2(mu_);
      finished_.push_back(Finished{job_id, gen, std::move(res)});
    }
    cv_.notify_all();
  });
  auto it = running_.find(job_id);
  if (it != running_.end()) {  // an older local run of the same job (its lease was lost): let it end
    retired_.emplace_back(it->second->gen, std::move(it->second->waiter));
    running_.erase(it);
  }
  running_[job_id] = std::move(r);
}

void FleetBridge::report_finished(fleet::Queue& q) {
  for (;;) {
    Finished f;
    bool lease_lost = false;
    {
      std::lock_guard lk(mu_);
      if (finished_.empty()) break;
      f = std::move(finished_.front());
      finished_.pop_front();
      auto it = running_.find(f.job_id);
      if (it == running_.end() || it->second->gen != f.gen) {  // a retired run: nothing to report
        for (auto r = retired_.begin(); r != retired_.end(); ++r)
          if (r->first == f.gen) {
            r->second.join();
            retired_.erase(r);
            break;
          }
        continue;
      }
      lease_lost = it->second->lease_lost;
    }
    try {
      const std::string& id = f.job_id;
      if (f.result.status == JobStatus::Completed) {
        const auto out = q.complete(cfg_.daemon_id, id, f.result.proof);
        std::lock_guard lk(mu_);
        if (out == fleet::CompleteOutcome::Completed) counters_.completed++;
        else if (out == fleet::CompleteOutcome::LeaseLost) counters_.discarded_late++;
      } else if (!lease_lost) {
        std::string reason = f.result.error_message;
        if (f.result.status == JobStatus::Cancelled)
          reason = shut_down_
                       ? "daemon " + cfg_.daemon_id + " shut down before the job finished"
                       : "cancelled on daemon " + cfg_.daemon_id + (reason.empty() ? "" : ": " + reason);
        else reason = cfg_.daemon_id + ": " + reason;
        q.fail(cfg_.daemon_id, id, reason, true);
        std::lock_guard lk(mu_);
        counters_.failed++;
      }
    } catch (...) {
      std::lock_guard lk(mu_);
      finished_.push_front(std::move(f));  // reported on the next pass
      throw;
    }
    std::thread done;
    {
      std::lock_guard lk(mu_);
      auto it = running_.find(f.job_id);
      if (it != running_.end() && it->second->gen == f.gen) {
        done = std::move(it->second->waiter);
        running_.erase(it);
      }
    }
    if (done.joinable()) done.join();
    cv_.notify_all();
  }
}

void FleetBridge::renew_leases(fleet::Queue& q) {
  std::vector<std::string> ids;
  {
    std::lock_guard lk(mu_);
    for (const auto& [id, r] : running_)
      if (!r->lease_lost) ids.push_back(id);
  }
  for (const auto& id : ids) {
    if (q.renew_lease(cfg_.daemon_id, id, cfg_.lease)) continue;
    {
      std::lock_guard lk(mu_);
      auto it = running_.find(id);
      if (it != running_.end()) it->second->lease_lost = true;
      counters_.leases_lost++;
    }
    try {  // expired, reclaimed by another daemon or cancelled: stop proving it
      engine_.cancel(id);
    } catch (const ServiceError&) {
    }
  }
}

}  // namespace cuzk::engine
