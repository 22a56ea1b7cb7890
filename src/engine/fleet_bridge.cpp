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
#include "platform/digest.hpp"
#include "platform/hex.hpp"

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

// The request id a claimed job is submitted to the local engine under: its
// queue job id, or, past the engine's 256 bytes, the end of it (which holds
// the job's unique number).
std::string local_request_id(const std::string& job_id) {
  std::string id = job_id.size() <= 256 ? job_id : job_id.substr(job_id.size() - 256);
  while (!id.empty() && id.front() == ' ') id.erase(0, 1);
  return id;
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

std::string request_digest(const ProofRequest& r) {
  ProofRequest copy = r;  // the encoding of every field but the priority
  copy.priority = Priority::Unspecified;
  const std::string bytes = encode_request(copy);
  return platform::to_hex(platform::sha256({reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()}));
}

std::string default_daemon_id(const std::string& listen) {
  std::string id = host_name() + "/" + listen;
  for (char& c : id)
    if (uint8_t(c) < 0x20 || uint8_t(c) > 0x7e) c = '?';
  if (id.size() > 200) id = host_name().substr(0, 180) + "/pid-" + std::to_string(::getpid());
  return id;
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
  std::thread runner;    // submits the job to the engine, then awaits it
  std::string local_id;  // the engine's job id, once submitted
  bool lease_lost = false;
  bool stop = false;  // cancel the local run (lease lost, cancelled) as soon as it exists
};

// The RPC threads' connections: up to `max` open at once, each lent to one
// caller at a time; a caller waits for one no longer than its deadline.
class FleetBridge::ClientPool {
 public:
  ClientPool(std::string uri, fleet::Database::Options opts, size_t max)
      : uri_(std::move(uri)), opts_(opts), max_(max) {}

  class Borrowed {
   public:
    Borrowed(ClientPool& p, std::unique_ptr<fleet::Database> db) : pool_(p), db_(std::move(db)) {}
    ~Borrowed() { pool_.give_back(std::move(db_)); }
    Borrowed(const Borrowed&) = delete;
    Borrowed& operator=(const Borrowed&) = delete;
    fleet::Database& operator*() { return *db_; }

   private:
    ClientPool& pool_;
    std::unique_ptr<fleet::Database> db_;
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

  uint64_t statements() const {
    std::lock_guard lk(mu_);
    uint64_t n = 0;  // connections lent out count once they are back
    for (const auto& db : idle_) n += db->statements();
    return n;
  }

 private:
  void give_back(std::unique_ptr<fleet::Database> db) {
    {
      std::lock_guard lk(mu_);
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

FleetBridge::FleetBridge(Engine& engine, EngineConfig::Fleet cfg) : engine_(engine), cfg_(std::move(cfg)) {
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
  // Reports get what the engine leaves of the grace period, at least a second.
  const auto end = Clock::now() + std::max<std::chrono::milliseconds>(grace, 1s);
  shutdown_deadline_ns_ = end.time_since_epoch().count();
  claiming_ = false;
  engine_.shutdown(grace * 3 / 4);  // every local job ends; the runners report them
  {
    std::unique_lock lk(mu_);
    cv_.wait_until(lk, end, [&] { return running_.empty() && finished_.empty(); });
    stop_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
  // Runners still here (their report failed) have ended with the engine's
  // jobs; joined without the lock, which they take to push their result.
  std::vector<std::thread> runners;
  {
    std::lock_guard lk(mu_);
    for (auto& [id, r] : running_) runners.push_back(std::move(r->runner));
    for (auto& t : retired_) runners.push_back(std::move(t.second));
    retired_.clear();
  }
  for (auto& t : runners)
    if (t.joinable()) t.join();
}

template <typename F>
auto FleetBridge::with_client(const char* what, F&& fn) {
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

uint64_t FleetBridge::client_statements() const { return pool_->statements(); }

SubmitResult FleetBridge::submit(ProofRequest req) {
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

ProofResult FleetBridge::result_of(const std::string& id, Clock::time_point start, std::string* job_id) {
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

ProofResult FleetBridge::await(const std::string& id, std::optional<std::chrono::milliseconds> timeout) {
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

void FleetBridge::poll_loop() {
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

bool FleetBridge::cancel(const std::string& id) {
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
      {"cuzk_fleet_claims_total", c.claims},
      {"cuzk_fleet_lease_expiries_total", c.lease_expiries},
      {"cuzk_fleet_completed_total", c.completed},
      {"cuzk_fleet_results_discarded_total", c.discarded_late},
      {"cuzk_fleet_failures_total", c.failed},
      {"cuzk_fleet_leases_lost_total", c.leases_lost},
      {"cuzk_fleet_db_errors_total", c.db_errors},
      {"cuzk_fleet_released_total", c.released},
      {"cuzk_fleet_reclaim_holdoffs_total", c.reclaim_holdoffs},
  };
  const char* helps[] = {
      "Jobs this daemon claimed from the fleet queue.",
      "Expired leases (of any daemon) this daemon returned to the queue.",
      "Results this daemon stored in the fleet queue.",
      "Results discarded because this daemon's lease had expired (late completions).",
      "Job failures this daemon reported (requeued or final).",
      "Running jobs cancelled here because their lease could not be renewed.",
      "Claim-loop steps that failed on the database.",
      "Claimed jobs handed back to the queue without an attempt (no room, no parameters, shutdown).",
      "Stalls of the claim loop after which reclaiming other daemons' leases waited a lease.",
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
                {"results_discarded", c.discarded_late},
                {"released", c.released}};
  return j.dump();
}

// ---- the claim loop --------------------------------------------------------------

Clock::time_point FleetBridge::loop_deadline() const {
  const int64_t ns = shutdown_deadline_ns_.load();
  const auto normal = Clock::now() + cfg_.db_timeout;
  return ns ? std::min(normal, Clock::time_point(Clock::duration(ns))) : normal;
}

void FleetBridge::loop() {
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
      std::fprintf(stderr, "cuzk fleet: claim loop of %s: %s\n", cfg_.daemon_id.c_str(), e.what());
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
    std::fprintf(stderr, "cuzk fleet: %s: reporting the last results: %s\n", cfg_.daemon_id.c_str(),
                 e.what());
  }
}

void FleetBridge::step(fleet::Queue& q) {
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
      for (auto& j : jobs) start_runner(j.job_id, std::move(j.payload));
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

void FleetBridge::refresh_capabilities() {
  // Every circuit whose parameters this daemon has (on disk or loaded).
  std::vector<std::string> ids;
  for (const auto& s : engine_.status().loaded_srs) ids.push_back(s.circuit_id);
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  circuits_ = std::move(ids);
}

void FleetBridge::start_runner(const std::string& job_id, std::string payload) {
  std::lock_guard lk(mu_);
  auto r = std::make_unique<Running>();
  r->gen = next_gen_++;
  const uint64_t gen = r->gen;
  auto it = running_.find(job_id);
  if (it != running_.end()) {  // an older local run of the same job (its lease was lost): let it end
    retired_.emplace_back(it->second->gen, std::move(it->second->runner));
    running_.erase(it);
  }
  Running& run_ref = *r;
  running_[job_id] = std::move(r);
  try {
    run_ref.runner = std::thread([this, job_id, gen, p = std::move(payload)] { run(job_id, gen, p); });
  } catch (const std::exception& e) {  // no thread: hand the job back
    Finished f{job_id, gen, {}, Code::Unavailable};
    f.result.error_message = std::string("cannot start a runner: ") + e.what();
    finished_.push_back(std::move(f));
  }
}

void FleetBridge::run(const std::string& job_id, uint64_t gen, const std::string& payload) {
  Finished f{job_id, gen, {}, std::nullopt};
  ProofRequest req;
  bool decoded = false;
  try {
    req = decode_request(payload);
    decoded = true;
  } catch (const std::exception& e) {
    f.refusal = Code::InvalidArgument;  // nobody can prove it
    f.result.error_message = e.what();
  }
  if (decoded) try {
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
      if (stop) try {
          engine_.cancel(local);
        } catch (const ServiceError&) {
        }
      f.result = engine_.await(local, std::nullopt);
    } catch (const ServiceError& e) {
      f.refusal = e.code();
      f.result.error_message = e.what();
    } catch (const std::exception& e) {  // out of memory and the like: not the job's fault
      f.refusal = Code::Internal;
      f.result.error_message = e.what();
    }
  {
    std::lock_guard lk(mu_);
    finished_.push_back(std::move(f));
  }
  cv_.notify_all();
}

void FleetBridge::report_finished(fleet::Queue& q) {
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
      if (it == running_.end() || it->second->gen != f.gen) {  // a retired run: nothing to report
        for (auto r = retired_.begin(); r != retired_.end(); ++r)
          if (r->first == f.gen) {
            if (r->second.joinable()) r->second.join();
            retired_.erase(r);
            break;
          }
        continue;
      }
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
    std::thread done;
    {
      std::lock_guard lk(mu_);
      auto it = running_.find(f.job_id);
      if (it != running_.end() && it->second->gen == f.gen) {
        done = std::move(it->second->runner);
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

}  // namespace cuzk::engine
