#pragma once
// Fleet mode (docs/FLEET.md): the daemon's ProvingService when [fleet] names
// a database. It sits in front of the local Engine:
//
//   submit       checks the request as the engine would (engine.check) and
//                records it in the shared queue (fleet::Queue::enqueue): a
//                job is (request id, payload), named "<request_id>#<n>" with
//                n the queue's number; the request travels as the payload
//                (engine/request_codec.hpp: encode_request, request_digest)
//   await/cancel read and cancel the queue's rows, so any daemon answers for
//                any job, by job id or by bare request id; awaited jobs are
//                polled together, one statement per tick for all of them
//   claim loop   one thread with its own database connection: renewal of
//                its leases (first), reports of ended local runs, reclaim of
//                other daemons' expired leases (held off after a stall),
//                claims sized by the engine's free capacity and limited to
//                what it can serve (circuits with parameters here, payloads
//                that fit), heartbeat, retention cleanup
//   submitter    one thread hands the claimed jobs to the local engine in
//                turn (admission parses and checks each payload) and asks to
//                be told when each ends (engine::Engine::on_end): no thread
//                waits per job; a refusal (no room, shutting down) hands the
//                job back without costing an attempt
//
// Every database call has a deadline (fleet.db_timeout): the RPC threads use
// a small pool of connections of their own, so neither a stalled claim loop
// nor one stuck RPC blocks the others.
//
// status, /status, /metrics, preload and evict are the local engine's;
// /metrics gains the fleet gauges and counters (cuzk_fleet_*), /status a
// `fleet` object: this daemon's figures, the fleet's queue depth, and the
// daemons of the fleet with the jobs they hold and their leases (read from
// the database at most once a second, within a short deadline; an error is
// shown instead when it does not answer). Reports: status.cpp; the claim loop:
// claims.cpp.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "engine/config.hpp"
#include "engine/request_codec.hpp"
#include "engine/service.hpp"

namespace cuzk::engine {
class Engine;
}  // namespace cuzk::engine

namespace cuzk::fleet {

class Database;
class Queue;
struct FleetView;

// fleet.daemon_id when the configuration gives none: "<host>/<listen
// address>", unique among the daemons of one host and the same after a
// restart (so a restarted daemon finds what its earlier run held).
std::string default_daemon_id(const std::string& listen);

class Bridge final : public engine::ProvingService {
 public:
  // Connects to fleet.database, migrates the schema and starts the claim
  // loop. Throws (fleet::DbError, std::runtime_error) when the database
  // cannot be reached or holds a newer schema.
  Bridge(engine::Engine& engine, engine::EngineConfig::Fleet cfg);
  ~Bridge() override;  // shutdown(0) if not done

  // Stops claiming, shuts the engine down, reports what ended (results
  // stored; jobs cut short are handed back to the queue without an attempt)
  // and stops the claim loop, all within `grace` (at least a second for the
  // reports), whatever the database does. Idempotent.
  void shutdown(std::chrono::milliseconds grace);

  engine::SubmitResult submit(engine::ProofRequest req) override;
  engine::ProofResult await(const std::string& job_id,
                            std::optional<std::chrono::milliseconds> timeout) override;
  bool cancel(const std::string& job_id) override;
  engine::StatusSnapshot status() const override;
  std::string metrics_text() const override;
  std::string status_json() const override;
  engine::PreloadResult preload(const std::string& circuit_id) override;
  engine::EvictResult evict(const std::string& circuit_id) override;

  const std::string& daemon_id() const { return cfg_.daemon_id; }
  uint32_t slots() const { return slots_; }

  struct Counters {
    uint64_t claims = 0;            // jobs this daemon claimed
    uint64_t lease_expiries = 0;    // expired leases this daemon reclaimed (any daemon's)
    uint64_t completed = 0;         // results stored
    uint64_t discarded_late = 0;    // results discarded: the lease had expired
    uint64_t failed = 0;            // failures reported (requeued or final)
    uint64_t leases_lost = 0;       // running jobs cancelled locally after a failed renew
    uint64_t db_errors = 0;         // claim-loop steps that failed on the database
    uint64_t released = 0;          // jobs handed back without an attempt (no room, shutdown, ...)
    uint64_t reclaim_holdoffs = 0;  // stalls after which reclaiming waited for the others to renew
  };
  Counters counters() const;
  // Statements the RPC threads' connections sent (tests: awaiting costs a
  // bounded number of queries).
  uint64_t client_statements() const;

 private:
  // A claimed job held here.
  struct Running {
    uint64_t gen = 0;
    std::string local_id;  // the engine's job id, once submitted
    bool lease_lost = false;
    bool stop = false;  // cancel the local run (lease lost, cancelled) as soon as it exists
  };
  // What the claim loop reports: a local run's result (the engine's end
  // callback), or a refusal before it ran (`refusal` set).
  struct Finished {
    std::string job_id;
    uint64_t gen = 0;  // which local run of the job (Running::gen)
    engine::ProofResult result;
    std::optional<engine::ServiceError::Code> refusal;
  };
  class ClientPool;
  void loop();
  void step(Queue& q);  // one pass of the claim loop
  // Queues a claimed job for the submitter (a new local run of it).
  void start_run(const std::string& job_id, std::string payload);
  void submit_loop();  // the submitter thread
  // Submits one claimed job to the engine and registers its end callback;
  // a refusal becomes a Finished entry at once.
  void submit_claimed(const std::string& job_id, uint64_t gen, const std::string& payload);
  void finished(Finished f);  // hands f to the claim loop
  void report_finished(Queue& q);
  void renew_leases(Queue& q);
  void refresh_capabilities();
  void poll_loop();  // the awaiters' poller
  engine::ProofResult result_of(const std::string& id, std::chrono::steady_clock::time_point start,
                                std::string* job_id);
  // Runs fn on a connection of the pool within the RPC deadline (submit,
  // await, cancel, the poller); database failures become UNAVAILABLE.
  template <typename F>
  auto with_client(const char* what, F&& fn);
  // The "fleet view" part of /status (daemons, their jobs and leases, or the
  // error of the read) as JSON text, read again when older than a second;
  // `read_at` gets the time of the read.
  std::string fleet_view_json(std::chrono::steady_clock::time_point* read_at) const;
  // Queue::fleet_view on a connection of the pool, within `timeout`.
  FleetView read_fleet_view(std::chrono::milliseconds timeout) const;
  std::chrono::steady_clock::time_point loop_deadline() const;

  engine::Engine& engine_;
  engine::EngineConfig::Fleet cfg_;
  uint32_t slots_ = 0;

  std::unique_ptr<Database> loop_db_;  // the claim loop's connection
  std::chrono::steady_clock::time_point next_reclaim_{}, next_renew_{}, next_heartbeat_{}, next_cleanup_{},
      next_capabilities_{};
  // Reclaiming other daemons' leases waits until this time: set after the
  // loop itself stalled (a slow call, a gap between passes, a database
  // error), when the others were likely stalled too and have yet to renew.
  std::chrono::steady_clock::time_point reclaim_holdoff_until_{};
  std::chrono::steady_clock::time_point last_step_end_{};
  std::chrono::steady_clock::time_point claim_pause_until_{};  // after a capacity refusal
  bool swept_own_ = false;  // the claims of an earlier run of this daemon are back in the queue
  std::optional<std::vector<std::string>> circuits_;  // with parameters here (refreshed)

  std::unique_ptr<ClientPool> pool_;  // the RPC threads' connections

  mutable std::mutex mu_;  // running_, finished_, counters_, depth_
  std::condition_variable cv_;
  std::map<std::string, std::unique_ptr<Running>> running_;  // by queue job id
  std::deque<Finished> finished_;
  // Claimed jobs waiting for the submitter: (job id, local run, payload).
  struct ToSubmit {
    std::string job_id;
    uint64_t gen = 0;
    std::string payload;
  };
  std::deque<ToSubmit> to_submit_;
  std::condition_variable submit_cv_;
  bool submit_stop_ = false;
  std::thread submitter_;
  uint64_t next_gen_ = 1;
  Counters counters_;
  struct DepthRow {
    int kind, priority;
    bool claimed;
    int64_t jobs;
  };
  std::vector<DepthRow> depth_;  // last Queue::depth() of the claim loop
  // The last fleet view of /status: its JSON text and when it was read. The
  // mutex is held while reading, so concurrent /status requests share one read.
  mutable std::mutex view_mu_;
  mutable std::string view_json_;
  mutable std::chrono::steady_clock::time_point view_at_{};
  bool poke_ = false;  // a local submit: claim now rather than at the next poll
  std::atomic<bool> claiming_{true};
  std::atomic<bool> stop_{false};
  std::atomic<int64_t> shutdown_deadline_ns_{0};  // steady clock; 0 = not shutting down

  // Awaited jobs (by job id): AwaitProof callers wait on watch_cv_ while the
  // poller reads the states of every watched job in one statement per tick.
  // An entry lingers a little after its last waiter (the server awaits in
  // slices), so a slice does not cost a query of its own; a bare request id
  // awaited in slices maps to its job through aliases_ while that job lives
  // (a job's end is final: a resubmission is a new job).
  struct Watch {
    int waiters = 0;
    bool ended = false;  // ended, or gone from the queue
    std::chrono::steady_clock::time_point last_used{};
  };
  std::mutex watch_mu_;
  std::condition_variable watch_cv_;
  std::map<std::string, Watch> watched_;
  std::map<std::string, std::string> aliases_;  // request id -> watched job id
  bool watch_stop_ = false;
  std::thread poller_;
  std::atomic<bool> shut_down_{false};
  std::thread thread_;
};

}  // namespace cuzk::fleet
