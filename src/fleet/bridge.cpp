// fleet::Bridge: fleet mode's service in front of the engine (fleet/bridge.hpp,
// docs/FLEET.md "How the engine plugs in"): construction and shutdown, the
// RPCs (submit, await and its poller, cancel) on a pool of connections, and
// the metrics. The claim loop and the submitter are in claims.cpp, the
// request payload encoding in engine/request_codec.cpp, /status and /metrics in
// status.cpp.
#include "fleet/bridge.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "fleet/engine_names.hpp"
#include "fleet/database.hpp"
#include "fleet/queue.hpp"
#include "fleet/schema.hpp"

namespace cuzk::fleet {

namespace {

using Code = ServiceError::Code;
using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

bool ended(fleet::JobState s) {
  return s == fleet::JobState::Done || s == fleet::JobState::Failed || s == fleet::JobState::Cancelled;
}

std::string host_name() {
  char buf[256] = {};
  if (::gethostname(buf, sizeof buf - 1) != 0 || buf[0] == 0) return "cuzk-daemon";
  return buf;
}

}  // namespace

std::string default_daemon_id(const std::string& listen) {
  std::string id = host_name() + "/" + listen;
  for (char& c : id)
    if (uint8_t(c) < 0x20 || uint8_t(c) > 0x7e) c = '?';
  if (id.size() > 200) id = host_name().substr(0, 180) + "/pid-" + std::to_string(::getpid());
  return id;
}

// ---- the bridge ----------------------------------------------------------------

// The RPC threads' connections: up to `max` open at once, each lent to one
// caller at a time; a caller waits for one no longer than its deadline.
class Bridge::ClientPool {
 public:
  ClientPool(std::string uri, fleet::Database::Options opts, size_t max)
      : uri_(std::move(uri)), opts_(opts), max_(max) {}

  class Borrowed {
   public:
    Borrowed(ClientPool& p, std::unique_ptr<fleet::Database> db)
        : pool_(p), db_(std::move(db)), statements_at_take_(db_->statements()) {}
    ~Borrowed() { pool_.give_back(std::move(db_), statements_at_take_); }
    Borrowed(const Borrowed&) = delete;
    Borrowed& operator=(const Borrowed&) = delete;
    fleet::Database& operator*() { return *db_; }

   private:
    ClientPool& pool_;
    std::unique_ptr<fleet::Database> db_;
    uint64_t statements_at_take_;
  };

  std::unique_ptr<Borrowed> take(Clock::time_point deadline) {
    std::unique_lock lk(mu_);
    if (!cv_.wait_until(lk, deadline, [&] { return !idle_.empty() || open_ < max_; }))
      throw fleet::DbError("connection pool", "all " + std::to_string(max_) + " connections are busy", "",
                           true);
    if (!idle_.empty()) {
      auto db = std::move(idle_.back());
      idle_.pop_back();
      return std::make_unique<Borrowed>(*this, std::move(db));
    }
    open_++;
    lk.unlock();
    try {
      return std::make_unique<Borrowed>(*this, std::make_unique<fleet::Database>(uri_, opts_, deadline));
    } catch (...) {
      lk.lock();
      open_--;
      cv_.notify_one();
      throw;
    }
  }

  // Statements of the borrows that have ended. Never decreases: a sum over
  // the idle connections fell whenever one was lent out between two reads.
  uint64_t statements() const {
    std::lock_guard lk(mu_);
    return statements_;
  }

 private:
  void give_back(std::unique_ptr<fleet::Database> db, uint64_t statements_at_take) {
    {
      std::lock_guard lk(mu_);
      statements_ += db->statements() - statements_at_take;
      idle_.push_back(std::move(db));
    }
    cv_.notify_one();
  }

  const std::string uri_;
  const fleet::Database::Options opts_;
  const size_t max_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::vector<std::unique_ptr<fleet::Database>> idle_;
  size_t open_ = 0;
  uint64_t statements_ = 0;
};

namespace {

// Connections of the RPC threads (submit, await, cancel, the await poller).
constexpr size_t kClientConnections = 4;

fleet::Database::Options db_options(const EngineConfig::Fleet& cfg) {
  fleet::Database::Options o;
  o.call_timeout = cfg.db_timeout;
  o.connect_timeout = std::min<std::chrono::milliseconds>(cfg.db_timeout, 5s);
  return o;
}

}  // namespace

Bridge::Bridge(Engine& engine, EngineConfig::Fleet cfg) : engine_(engine), cfg_(std::move(cfg)) {
  if (cfg_.daemon_id.empty()) cfg_.daemon_id = host_name() + "/pid-" + std::to_string(::getpid());
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
  loop_db_ = std::make_unique<fleet::Database>(cfg_.database, db_options(cfg_));
  fleet::Schema::migrate(*loop_db_);
  pool_ = std::make_unique<ClientPool>(cfg_.database, db_options(cfg_), kClientConnections);
  submitter_ = std::thread([this] { submit_loop(); });
  thread_ = std::thread([this] { loop(); });
  poller_ = std::thread([this] { poll_loop(); });
}

Bridge::~Bridge() {
  shutdown(0ms);
  {
    std::lock_guard lk(watch_mu_);
    watch_stop_ = true;
  }
  watch_cv_.notify_all();
  if (poller_.joinable()) poller_.join();
}

void Bridge::shutdown(std::chrono::milliseconds grace) {
  if (shut_down_.exchange(true)) return;
  // Reports get what the engine leaves of the grace period, at least a second.
  const auto end = Clock::now() + std::max<std::chrono::milliseconds>(grace, 1s);
  shutdown_deadline_ns_ = end.time_since_epoch().count();
  claiming_ = false;
  engine_.shutdown(grace * 3 / 4);  // every local job ends; its end callback reports it
  {
    std::unique_lock lk(mu_);
    cv_.wait_until(lk, end, [&] { return running_.empty() && finished_.empty(); });
    stop_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
  {
    std::lock_guard lk(mu_);
    submit_stop_ = true;  // what is still queued was claimed too late: the engine would refuse it
    to_submit_.clear();
  }
  submit_cv_.notify_all();
  if (submitter_.joinable()) submitter_.join();
  // No end callback of this bridge runs after this.
  engine_.flush_end_callbacks();
}

template <typename F>
auto Bridge::with_client(const char* what, F&& fn) {
  const auto deadline = Clock::now() + cfg_.db_timeout;
  try {
    auto conn = pool_->take(deadline);
    const fleet::Database::Deadline bound(**conn, deadline);
    fleet::Queue q(**conn);
    return fn(q);
  } catch (const fleet::QueueError& e) {
    throw ServiceError(Code::InvalidArgument, e.what());
  } catch (const fleet::DbError& e) {
    throw ServiceError(Code::Unavailable, std::string("fleet database (") + what + "): " + e.what());
  }
}

uint64_t Bridge::client_statements() const { return pool_->statements(); }

SubmitResult Bridge::submit(ProofRequest req) {
  const bool anonymous = req.request_id.empty();
  if (anonymous) req.request_id = new_job_id();
  if (req.priority == Priority::Unspecified) req.priority = default_priority(req.kind);
  const Engine::Checked checked = engine_.check(req);  // refusals as a single daemon gives them
  fleet::JobSpec spec;
  spec.request_id = req.request_id;
  spec.name_is_request_id = anonymous;  // a fresh UUID names its one job, as on a single daemon
  spec.kind = int(req.kind);
  spec.priority = int(req.priority);
  spec.circuit_id = checked.circuit_id;
  spec.partitions = int(checked.partitions);
  spec.max_attempts = int(cfg_.max_attempts);
  spec.payload_digest = request_digest(req);
  spec.payload = encode_request(req);
  auto r = with_client("enqueue", [&](fleet::Queue& q) { return q.enqueue(spec); });
  {
    std::lock_guard lk(mu_);
    poke_ = true;  // this daemon may claim it at once
  }
  cv_.notify_all();
  return SubmitResult{r.job_id, 0, ""};
}

ProofResult Bridge::result_of(const std::string& id, Clock::time_point start, std::string* job_id) {
  auto info = with_client("await", [&](fleet::Queue& q) { return q.get(id); });
  if (!info) throw ServiceError(Code::NotFound, "unknown job id " + id);
  if (job_id) *job_id = info->job_id;
  ProofResult r;
  r.job_id = info->job_id;
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

ProofResult Bridge::await(const std::string& id, std::optional<std::chrono::milliseconds> timeout) {
  const auto start = Clock::now();
  const bool forever = !timeout || *timeout > std::chrono::hours(24 * 365 * 10);
  const auto deadline = forever ? Clock::time_point::max() : start + std::max(*timeout, 0ms);
  std::string job;  // the job id `id` names
  {
    std::lock_guard lk(watch_mu_);
    // Watched already (another waiter, or the previous slice): no query.
    auto it = watched_.find(id);
    if (it == watched_.end())
      if (auto a = aliases_.find(id); a != aliases_.end()) {
        it = watched_.find(a->second);
        if (it != watched_.end() && it->second.ended) it = watched_.end();  // a newer job may exist
      }
    if (it != watched_.end()) {
      it->second.waiters++;
      it->second.last_used = start;
      job = it->first;
    }
  }
  if (job.empty()) {  // first look: unknown ids and ended jobs answer at once
    ProofResult r = result_of(id, start, &job);
    if (r.status != JobStatus::Timeout) return r;
    std::lock_guard lk(watch_mu_);
    auto& w = watched_[job];
    w.waiters++;
    w.last_used = start;
    if (job != id) aliases_[id] = job;
  }
  watch_cv_.notify_all();  // the poller may be idle
  bool ended_now = false;
  {
    std::unique_lock lk(watch_mu_);
    auto pred = [&] { return watch_stop_ || watched_[job].ended; };
    if (forever) watch_cv_.wait(lk, pred);
    else watch_cv_.wait_until(lk, deadline, pred);
    auto& w = watched_[job];
    ended_now = w.ended;
    w.waiters--;
    w.last_used = Clock::now();
  }
  if (ended_now) return result_of(job, start, nullptr);
  ProofResult r;
  r.job_id = job;
  r.status = JobStatus::Timeout;
  r.error_message =
      "timed out after " + std::to_string(forever ? 0 : timeout->count()) + " ms; job still running";
  return r;
}

void Bridge::poll_loop() {
  const auto tick = std::clamp<std::chrono::milliseconds>(cfg_.poll_interval / 2, 10ms, 250ms);
  constexpr auto kLinger = 2s;
  std::unique_lock lk(watch_mu_);
  while (!watch_stop_) {
    const auto now = Clock::now();
    std::vector<std::string> ids;
    for (auto it = watched_.begin(); it != watched_.end();) {
      if (it->second.waiters == 0 && now - it->second.last_used > kLinger) {
        std::erase_if(aliases_, [&](const auto& a) { return a.second == it->first; });
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
            it->second.ended = true;  // or gone; final either way
        }
        watch_cv_.notify_all();
      }
    }
    watch_cv_.wait_for(lk, tick, [&] { return watch_stop_; });
  }
}

bool Bridge::cancel(const std::string& id) {
  const auto out = with_client("cancel", [&](fleet::Queue& q) { return q.cancel(id); });
  if (out.outcome == fleet::CancelOutcome::NotFound)
    throw ServiceError(Code::NotFound, "unknown job id " + id);
  // Jobs held here stop at once (elsewhere: at their holder's next renew).
  for (const auto& [job, holder] : out.cancelled) {
    if (holder != cfg_.daemon_id) continue;
    std::string local;
    {
      std::lock_guard lk(mu_);
      auto it = running_.find(job);
      if (it == running_.end()) continue;
      it->second->stop = true;
      local = it->second->local_id;
    }
    if (!local.empty()) try {
        engine_.cancel(local);
      } catch (const ServiceError&) {
      }
  }
  return out.outcome == fleet::CancelOutcome::WasRunning;
}

StatusSnapshot Bridge::status() const { return engine_.status(); }
PreloadResult Bridge::preload(const std::string& circuit_id) { return engine_.preload(circuit_id); }
EvictResult Bridge::evict(const std::string& circuit_id) { return engine_.evict(circuit_id); }

Bridge::Counters Bridge::counters() const {
  std::lock_guard lk(mu_);
  return counters_;
}

fleet::FleetView Bridge::read_fleet_view(std::chrono::milliseconds timeout) const {
  const auto deadline = Clock::now() + timeout;
  auto conn = pool_->take(deadline);
  const fleet::Database::Deadline bound(**conn, deadline);
  return fleet::Queue(**conn).fleet_view();
}

}  // namespace cuzk::fleet
