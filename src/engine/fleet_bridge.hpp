#pragma once
// Fleet mode (docs/FLEET.md): the daemon's ProvingService when [fleet] names
// a database. It sits in front of the local Engine:
//
//   submit       checks the request as the engine would (engine.check) and
//                records it in the shared queue (fleet::Queue::enqueue); the
//                request travels as the payload (encode_request below)
//   await/cancel read and cancel the queue's row, so any daemon answers for
//                any job; awaited jobs are polled together, one statement
//                per tick for all of them (Queue::states)
//   claim loop   one thread with its own database connection: heartbeat,
//                reclaim of expired leases, claims sized by the engine's
//                free capacity (reserved_slots kept for CRITICAL/HIGH), each
//                claimed job admitted to the local engine, its lease renewed
//                while it runs (a lost lease cancels it locally), its result
//                stored with complete() or its failure with fail(); periodic
//                cleanup of ended jobs past fleet.result_retention
//
// status, /status, /metrics, preload and evict are the local engine's;
// /metrics gains the fleet gauges and counters (cuzk_fleet_*).
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "engine/config.hpp"
#include "engine/service.hpp"

namespace cuzk::fleet {
class Database;
class Queue;
}  // namespace cuzk::fleet

namespace cuzk::engine {

class Engine;

// The queue payload of a request: a versioned binary encoding of every
// ProofRequest field. decode_request throws std::runtime_error on anything
// malformed (wrong magic or version, truncation, trailing bytes).
std::string encode_request(const ProofRequest& req);
ProofRequest decode_request(const std::string& bytes);

class FleetBridge final : public ProvingService {
 public:
  // Connects to fleet.database, migrates the schema and starts the claim
  // loop. Throws (fleet::DbError, std::runtime_error) when the database
  // cannot be reached or holds a newer schema.
  FleetBridge(Engine& engine, EngineConfig::Fleet cfg);
  ~FleetBridge() override;  // shutdown(0) if not done

  // Stops claiming, shuts the engine down (running partitions get `grace`),
  // reports what ended (results stored; jobs cut short are requeued for the
  // other daemons) and stops the claim loop. Idempotent.
  void shutdown(std::chrono::milliseconds grace);

  SubmitResult submit(ProofRequest req) override;
  ProofResult await(const std::string& job_id, std::optional<std::chrono::milliseconds> timeout) override;
  bool cancel(const std::string& job_id) override;
  StatusSnapshot status() const override;
  std::string metrics_text() const override;
  std::string status_json() const override;
  PreloadResult preload(const std::string& circuit_id) override;
  EvictResult evict(const std::string& circuit_id) override;

  const std::string& daemon_id() const { return cfg_.daemon_id; }
  uint32_t slots() const { return slots_; }

  struct Counters {
    uint64_t claims = 0;          // jobs this daemon claimed
    uint64_t lease_expiries = 0;  // expired leases this daemon reclaimed (any daemon's)
    uint64_t completed = 0;       // results stored
    uint64_t discarded_late = 0;  // results discarded: the lease had expired
    uint64_t failed = 0;          // failures reported (requeued or final)
    uint64_t leases_lost = 0;     // running jobs cancelled locally after a failed renew
    uint64_t db_errors = 0;       // claim-loop steps that failed on the database
  };
  Counters counters() const;

 private:
  struct Running;
  struct Finished {
    std::string job_id;
    uint64_t gen = 0;  // which local run of the job (Running::gen)
    ProofResult result;
  };
  void loop();
  void step(fleet::Queue& q);  // one pass of the claim loop
  void admit(fleet::Queue& q, const std::string& job_id, const std::string& payload);
  void report_finished(fleet::Queue& q);
  void renew_leases(fleet::Queue& q);
  void poll_loop();  // the awaiters' poller
  ProofResult result_of(const std::string& job_id, std::chrono::steady_clock::time_point start);
  // Runs fn on the shared client connection (submit/await/cancel threads).
  template <typename F>
  auto with_client(const char* what, F&& fn);

  Engine& engine_;
  EngineConfig::Fleet cfg_;
  uint32_t slots_ = 0;

  std::unique_ptr<fleet::Database> loop_db_;  // the claim loop's connection
  std::chrono::steady_clock::time_point next_reclaim_{}, next_renew_{}, next_heartbeat_{}, next_cleanup_{};

  std::mutex client_mu_;  // the connection of the RPC threads
  std::unique_ptr<fleet::Database> client_db_;
  std::unique_ptr<fleet::Queue> client_q_;

  mutable std::mutex mu_;  // running_, finished_, counters_, depth_
  std::condition_variable cv_;
  std::map<std::string, std::unique_ptr<Running>> running_;
  std::deque<Finished> finished_;
  // Waiters of local runs replaced by a new claim of the same job (gen, thread).
  std::vector<std::pair<uint64_t, std::thread>> retired_;
  uint64_t next_gen_ = 1;
  Counters counters_;
  struct DepthRow {
    int kind, priority;
    bool claimed;
    int64_t jobs;
  };
  std::vector<DepthRow> depth_;  // last Queue::depth() of the claim loop
  bool poke_ = false;            // a local submit: claim now rather than at the next poll
  std::atomic<bool> claiming_{true};
  std::atomic<bool> stop_{false};

  // Awaited jobs: AwaitProof callers wait on watch_cv_ while the poller
  // reads the states of every watched job in one statement per tick. An
  // entry lingers a little after its last waiter (the server awaits in
  // slices), so a slice does not cost a query of its own.
  struct Watch {
    int waiters = 0;
    bool ended = false;  // ended, or gone from the queue
    std::chrono::steady_clock::time_point last_used{};
  };
  std::mutex watch_mu_;
  std::condition_variable watch_cv_;
  std::map<std::string, Watch> watched_;
  bool watch_stop_ = false;
  std::thread poller_;
  std::atomic<bool> shut_down_{false};
  std::thread thread_;
};

}  // namespace cuzk::engine
