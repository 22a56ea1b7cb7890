#pragma once
// fleet::Queue: the shared job queue of a daemon fleet, on the tables of
// fleet::Schema (docs/FLEET.md). Every daemon enqueues the jobs submitted to
// it; any daemon with free capacity claims queued jobs under a lease, renews
// the lease while it proves, and completes or fails the job; a lease that
// runs out returns the job to the queue (or fails it past max_attempts).
//
// A Queue uses one Database (one connection, one thread at a time). Kinds and
// priorities are plain integers: the engine's ProofKind / Priority values
// (engine/service.hpp), which this layer does not include.
#include <chrono>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "fleet/database.hpp"

namespace cuzk::fleet {

enum class JobState { Queued, Claimed, Done, Failed, Cancelled };
const char* state_name(JobState s);  // "queued", "claimed", ...
JobState parse_state(const std::string& s);

// Errors of the queue's rules (not of the database).
class QueueError : public std::runtime_error {
 public:
  enum class Code { InvalidArgument };
  QueueError(Code c, const std::string& msg) : std::runtime_error(msg), code_(c) {}
  Code code() const { return code_; }

 private:
  Code code_;
};

struct JobSpec {
  std::string request_id;  // required; the job is named "<request_id>#<seq>"
  // Names the job by request_id alone (a request id that is unique by
  // construction, such as a fresh UUID for a request without one).
  bool name_is_request_id = false;
  int kind = 0;      // engine::ProofKind value
  int priority = 2;  // engine::Priority value (4 CRITICAL .. 1 LOW)
  std::string circuit_id;
  std::string payload;  // stored once, as bytea, until the job ends
  // The payload's identity (hex): jobs of one request id with the same
  // digest are one job. "" = SHA-256 of `payload`.
  std::string payload_digest;
  int partitions = 1;
  int max_attempts = 3;
};

struct EnqueueResult {
  std::string job_id;
  bool created = false;  // false: the live or done job with the same payload was returned
  JobState state = JobState::Queued;
};

struct ClaimRequest {
  std::string daemon_id;
  int free_slots = 0;                     // how many jobs the daemon can start now
  std::vector<std::string> hot_circuits;  // circuit ids whose SRS the daemon holds hot
  std::chrono::milliseconds lease{30000};
  // Reservation: jobs below `urgent_priority` may not take the last
  // `reserved_slots` free slots, so CRITICAL/HIGH work never waits behind
  // them (e.g. reserved_slots = 1: a daemon with one free slot claims only
  // CRITICAL/HIGH jobs).
  int reserved_slots = 0;
  int urgent_priority = 3;  // engine::Priority::High
  // Capability: only jobs of these circuits (the daemon has their
  // parameters); nullopt = any circuit.
  std::optional<std::vector<std::string>> circuits;
  // Only jobs whose payload is at most this many bytes; < 0 = any size.
  int64_t max_payload_bytes = -1;
};

struct ClaimedJob {
  std::string job_id;
  std::string request_id;
  int kind = 0, priority = 0;
  std::string circuit_id;
  std::string payload;
  int partitions = 1;
  int attempt = 0;  // 1 on the first claim
  int max_attempts = 0;
};

struct JobInfo {
  std::string job_id;
  std::string request_id;
  int kind = 0, priority = 0;
  std::string circuit_id;
  JobState state = JobState::Queued;
  std::string claimed_by;  // the daemon holding it (claimed) or that last held it (done, cancelled); else ""
  int attempts = 0, max_attempts = 0;
  std::string last_error;
  std::optional<std::string> result;  // set when done
  std::string payload_digest;         // hex
  double lease_remaining_s = 0;       // claimed jobs: seconds until the lease runs out (<= 0: expired)
};

enum class CompleteOutcome {
  Completed,  // the result is stored
  LeaseLost,  // another daemon holds the job now, or it ended otherwise: the result is discarded
  Cancelled,  // the job was cancelled while running: the result is discarded
  NotFound,
};
enum class FailOutcome { Requeued, Failed, LeaseLost, NotFound };
enum class CancelOutcome { Cancelled, WasRunning, AlreadyEnded, NotFound };
const char* outcome_name(CompleteOutcome o);
const char* outcome_name(FailOutcome o);

struct CancelResult {
  CancelOutcome outcome = CancelOutcome::NotFound;
  // The jobs cancelled now, with the daemon that held each ("" when queued).
  std::vector<std::pair<std::string, std::string>> cancelled;
};

struct Reclaimed {
  std::string job_id;
  std::string daemon_id;  // whose lease expired
  JobState state;         // Queued again, or Failed past max_attempts
};

struct DepthRow {
  int kind = 0, priority = 0;
  JobState state = JobState::Queued;
  int64_t jobs = 0;
};

// The fleet as the database records it (Queue::fleet_view): each daemon of
// the registry and each daemon holding a claimed job, with those jobs.
struct HeldJob {
  std::string job_id;
  int kind = 0, priority = 0;
  std::string circuit_id;
  double lease_remaining_s = 0;  // seconds until the lease runs out (< 0: expired, not yet reclaimed)
  int attempts = 0, max_attempts = 0;
};

struct FleetDaemon {
  std::string daemon_id;
  // Seconds since its last heartbeat; nullopt when it holds jobs but is not
  // in the registry (it never sent a heartbeat).
  std::optional<double> heartbeat_age_s;
  int capacity = 0;           // its slots, as it last reported them
  std::vector<HeldJob> jobs;  // the claimed jobs it holds, soonest lease expiry first
};

struct FleetView {
  std::vector<FleetDaemon> daemons;  // by daemon id
  // More daemons or claimed jobs exist than the limits let in.
  bool truncated = false;
};

class Queue {
 public:
  explicit Queue(Database& db) : db_(db) {}

  // Records a job, or returns the one it already is: a job of the same
  // request id and payload digest that is queued, claimed or done (created
  // = false). A different payload under the same request id is a new job; so
  // is the same payload after the earlier job FAILED or was CANCELLED.
  EnqueueResult enqueue(const JobSpec& spec);

  // Claims up to free_slots queued jobs for the daemon, ordered by priority
  // (highest first), then jobs whose circuit is hot on this daemon, then age;
  // only jobs the daemon can serve (req.circuits, req.max_payload_bytes).
  // SELECT ... FOR UPDATE SKIP LOCKED, so concurrent claimers never take the
  // same job. A claim counts one attempt (release() gives it back). Returned
  // in claim order; payloads travel in binary.
  std::vector<ClaimedJob> claim(const ClaimRequest& req);

  // Extends the leases of jobs the daemon holds (state claimed, claimed_by
  // it), expired or not: a lease that ran out while nobody else took the job
  // is still the daemon's. Returns the ids it no longer holds.
  std::vector<std::string> renew_leases(const std::string& daemon_id, const std::vector<std::string>& job_ids,
                                        std::chrono::milliseconds lease);
  bool renew_lease(const std::string& daemon_id, const std::string& job_id, std::chrono::milliseconds lease);

  // Stores the result while the caller holds the job (its lease expired or
  // not), or while the job waits in the queue again with nobody holding it:
  // a finished proof is never thrown away for a late clock.
  CompleteOutcome complete(const std::string& daemon_id, const std::string& job_id,
                           const std::string& result);

  // A failure of the work itself: records `reason`; requeues the job while
  // attempts < max_attempts and `retryable`, else fails it for good.
  FailOutcome fail(const std::string& daemon_id, const std::string& job_id, const std::string& reason,
                   bool retryable = true);

  // Hands a job the daemon holds back to the queue without counting an
  // attempt (the daemon could not serve it now: no room, no parameters,
  // shutting down). False when the daemon does not hold it.
  bool release(const std::string& daemon_id, const std::string& job_id, const std::string& reason);

  // Jobs of other daemons whose lease ran out before this reclaim began:
  // back to queued, or failed once attempts reached max_attempts; last_error
  // names the daemon whose lease expired. Never the caller's own jobs (it
  // renews or releases those itself).
  std::vector<Reclaimed> reclaim_expired(const std::string& caller);

  // The caller's claimed jobs that it does not hold (not in `held`): claims
  // of an earlier run of the daemon (crashed: counted as an expired lease,
  // `count_attempt`) or a claim whose reply was lost (released). Returns them.
  std::vector<Reclaimed> reclaim_own(const std::string& daemon_id, const std::vector<std::string>& held,
                                     bool count_attempt);

  // The job `id` names: the job with that job id, else the newest job of
  // that request id.
  std::optional<JobInfo> get(const std::string& id);
  // The states of many jobs (job ids) in one statement (awaiting daemons
  // poll with it); ids not in the queue are left out.
  std::vector<std::pair<std::string, JobState>> states(const std::vector<std::string>& job_ids);
  // A job id cancels that job; a request id, every queued or claimed job of it.
  CancelResult cancel(const std::string& id);

  // Deletes done/failed/cancelled jobs last updated more than `age` ago;
  // returns how many.
  int64_t cleanup(std::chrono::seconds age);

  // Jobs queued and claimed, by kind and priority (metrics).
  std::vector<DepthRow> depth();

  // The daemons (most recently seen first, at most `max_daemons`) and the
  // claimed jobs (soonest lease expiry first, at most `max_jobs`), in one
  // statement: a read-only view for the status page.
  FleetView fleet_view(int max_daemons = 100, int max_jobs = 500);

  // The daemon registry: upserts the daemon's heartbeat, hot circuits and
  // capacity.
  void heartbeat(const std::string& daemon_id, const std::vector<std::string>& hot_circuits, int capacity);

  // A PostgreSQL text[] literal: {"a","b"} with quotes and backslashes escaped.
  static std::string text_array(const std::vector<std::string>& items);

 private:
  Database& db_;
};

}  // namespace cuzk::fleet
