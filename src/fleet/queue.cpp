#include "fleet/queue.hpp"

#include <algorithm>
#include <limits>

#include "platform/digest.hpp"
#include "platform/hex.hpp"

namespace cuzk::fleet {

namespace {

std::string sha256_hex(const std::string& data) {
  return platform::to_hex(platform::sha256({reinterpret_cast<const uint8_t*>(data.data()), data.size()}));
}

Param ms(std::chrono::milliseconds d) { return Param::integer(d.count()); }

// Claim order within one batch: priority, hot circuit, age, id.
struct Ordered {
  ClaimedJob job;
  bool hot;
  double created;
};

// The claimable jobs: queued, in a priority band, of a circuit the daemon
// serves ($7 NULL = any) and a payload it can hold ($8 < 0 = any size).
const char* kClaimSql = R"sql(
UPDATE cuzk_jobs j
   SET state = 'claimed', claimed_by = $1,
       lease_expires = clock_timestamp() + $2::bigint * interval '1 millisecond',
       attempts = j.attempts + 1, updated_at = clock_timestamp()
  FROM (SELECT job_id FROM cuzk_jobs
         WHERE state = 'queued' AND priority >= $3::int AND priority < $4::int
           AND ($7::text[] IS NULL OR circuit_id = ANY($7::text[]))
           AND ($8::bigint < 0 OR payload_bytes <= $8::bigint)
         ORDER BY priority DESC, (circuit_id = ANY($5::text[])) DESC, created_at, seq
         LIMIT $6::int
         FOR UPDATE SKIP LOCKED) c
 WHERE j.job_id = c.job_id
RETURNING j.job_id, j.request_id, j.kind, j.priority, j.circuit_id, j.payload, j.partitions, j.attempts,
          j.max_attempts, (j.circuit_id = ANY($5::text[])), extract(epoch FROM j.created_at)::float8
)sql";

// A job ends: its payload is no longer needed (its digest stays).
const char* kEndedPayload = "payload = NULL";

// A row of kInfoColumns starting at column `c`.
JobInfo job_info(const Result& r, int row, int c) {
  JobInfo j;
  j.job_id = r.text(row, c);
  j.request_id = r.text(row, c + 1);
  j.kind = int(r.integer(row, c + 2));
  j.priority = int(r.integer(row, c + 3));
  j.circuit_id = r.text(row, c + 4);
  j.state = parse_state(r.text(row, c + 5));
  j.claimed_by = r.text(row, c + 6);
  j.attempts = int(r.integer(row, c + 7));
  j.max_attempts = int(r.integer(row, c + 8));
  j.last_error = r.text(row, c + 9);
  if (!r.is_null(row, c + 10)) j.result = r.bytes(row, c + 10);
  j.payload_digest = r.text(row, c + 11);
  j.lease_remaining_s = r.number(row, c + 12);
  return j;
}

const char* kInfoColumns =
    "job_id, request_id, kind, priority, circuit_id, state, coalesce(claimed_by, ''), attempts, "
    "max_attempts, "
    "coalesce(last_error, ''), result, payload_digest, "
    "coalesce(extract(epoch FROM lease_expires - clock_timestamp())::float8, 0)";

}  // namespace

const char* state_name(JobState s) {
  switch (s) {
    case JobState::Queued: return "queued";
    case JobState::Claimed: return "claimed";
    case JobState::Done: return "done";
    case JobState::Failed: return "failed";
    case JobState::Cancelled: return "cancelled";
  }
  return "?";
}

JobState parse_state(const std::string& s) {
  if (s == "queued") return JobState::Queued;
  if (s == "claimed") return JobState::Claimed;
  if (s == "done") return JobState::Done;
  if (s == "failed") return JobState::Failed;
  if (s == "cancelled") return JobState::Cancelled;
  throw DbError("queue: state", "unknown job state '" + s + "' in cuzk_jobs");
}

const char* outcome_name(CompleteOutcome o) {
  switch (o) {
    case CompleteOutcome::Completed: return "completed";
    case CompleteOutcome::LeaseLost: return "lease-lost";
    case CompleteOutcome::Cancelled: return "cancelled";
    case CompleteOutcome::NotFound: return "not-found";
  }
  return "?";
}
const char* outcome_name(FailOutcome o) {
  switch (o) {
    case FailOutcome::Requeued: return "requeued";
    case FailOutcome::Failed: return "failed";
    case FailOutcome::LeaseLost: return "lease-lost";
    case FailOutcome::NotFound: return "not-found";
  }
  return "?";
}

std::string Queue::text_array(const std::vector<std::string>& items) {
  std::string s = "{";
  for (size_t i = 0; i < items.size(); ++i) {
    if (i) s += ',';
    s += '"';
    for (char c : items[i]) {
      if (c == '"' || c == '\\') s += '\\';
      s += c;
    }
    s += '"';
  }
  return s + "}";
}

EnqueueResult Queue::enqueue(const JobSpec& spec) {
  if (spec.request_id.empty())
    throw QueueError(QueueError::Code::InvalidArgument, "enqueue: request_id is required");
  if (spec.partitions < 1 || spec.max_attempts < 1)
    throw QueueError(QueueError::Code::InvalidArgument,
                     "enqueue " + spec.request_id + ": partitions and max_attempts must be at least 1");
  const std::string digest = spec.payload_digest.empty() ? sha256_hex(spec.payload) : spec.payload_digest;
  const std::string step = "enqueue " + spec.request_id;
  // One statement: the identity index turns a second identical submission
  // (on this daemon or another) into a conflict, answered by the existing
  // job. The loop covers the rare races: the existing job ended between the
  // two statements, or a job id of an older row is spelled like the new one.
  for (int attempt = 0;; ++attempt) {
    try {
      Result ins = db_.exec(
          step + ": insert",
          "INSERT INTO cuzk_jobs (seq, job_id, request_id, kind, priority, circuit_id, payload, "
          "payload_bytes, "
          "payload_digest, partitions, max_attempts) "
          "SELECT n.s, CASE WHEN $9::bool THEN $1::text ELSE $1::text || '#' || n.s END, $1::text, $2::int, "
          "$3::int, $4::text, $5::bytea, octet_length($5::bytea), $6::text, $7::int, $8::int "
          "FROM (SELECT nextval('cuzk_jobs_seq') AS s) n "
          "ON CONFLICT (request_id, payload_digest) WHERE state IN ('queued', 'claimed', 'done') DO NOTHING "
          "RETURNING job_id",
          {Param::text(spec.request_id), Param::integer(spec.kind), Param::integer(spec.priority),
           Param::text(spec.circuit_id), Param::bytes(spec.payload), Param::text(digest),
           Param::integer(spec.partitions), Param::integer(spec.max_attempts),
           Param::text(spec.name_is_request_id ? "t" : "f")},
          Retry::Idempotent);  // a rerun after a lost reply finds the job it made
      if (ins.rows() == 1) return EnqueueResult{ins.text(0, 0), true, JobState::Queued};
    } catch (const DbError& e) {
      if (e.sqlstate() != "23505" || attempt >= 3) throw;  // a job_id clash: take the next number
      continue;
    }
    Result cur = db_.exec(step + ": existing job",
                          "SELECT job_id, state FROM cuzk_jobs WHERE request_id = $1 AND payload_digest = $2 "
                          "AND state IN ('queued', 'claimed', 'done')",
                          {Param::text(spec.request_id), Param::text(digest)}, Retry::Idempotent);
    if (cur.rows() == 1) return EnqueueResult{cur.text(0, 0), false, parse_state(cur.text(0, 1))};
    if (attempt >= 3) throw DbError(step, "the existing job keeps changing; retry", "40001");
  }
}

std::vector<ClaimedJob> Queue::claim(const ClaimRequest& req) {
  if (req.daemon_id.empty())
    throw QueueError(QueueError::Code::InvalidArgument, "claim: daemon_id is required");
  std::vector<ClaimedJob> out;
  if (req.free_slots <= 0) return out;
  const std::string hot = text_array(req.hot_circuits);
  const Param circuits = req.circuits ? Param::text(text_array(*req.circuits)) : Param::null();
  db_.transaction("claim for " + req.daemon_id, [&](Database& tx) {
    out.clear();
    auto batch = [&](const char* step, int lo, int hi, int limit) {
      if (limit <= 0) return;
      Result r =
          tx.exec(step, kClaimSql,
                  {Param::text(req.daemon_id), ms(req.lease), Param::integer(lo), Param::integer(hi),
                   Param::text(hot), Param::integer(limit), circuits, Param::integer(req.max_payload_bytes)},
                  Retry::Never, Format::Binary);
      std::vector<Ordered> got;
      for (int i = 0; i < r.rows(); ++i) {
        ClaimedJob j;
        j.job_id = r.text(i, 0);
        j.request_id = r.text(i, 1);
        j.kind = int(r.integer(i, 2));
        j.priority = int(r.integer(i, 3));
        j.circuit_id = r.text(i, 4);
        j.payload = r.bytes(i, 5);
        j.partitions = int(r.integer(i, 6));
        j.attempt = int(r.integer(i, 7));
        j.max_attempts = int(r.integer(i, 8));
        got.push_back({std::move(j), r.boolean(i, 9), r.number(i, 10)});
      }
      std::sort(got.begin(), got.end(), [](const Ordered& a, const Ordered& b) {
        if (a.job.priority != b.job.priority) return a.job.priority > b.job.priority;
        if (a.hot != b.hot) return a.hot;
        if (a.created != b.created) return a.created < b.created;
        return a.job.job_id < b.job.job_id;
      });
      for (auto& o : got) out.push_back(std::move(o.job));
    };
    // Urgent jobs may use every free slot; the others must leave
    // reserved_slots free after the claim.
    batch("claim: urgent jobs", req.urgent_priority, std::numeric_limits<int>::max(), req.free_slots);
    const int urgent = int(out.size());
    batch("claim: other jobs", std::numeric_limits<int>::min(), req.urgent_priority,
          req.free_slots - urgent - std::max(0, req.reserved_slots));
  });
  return out;
}

std::vector<std::string> Queue::renew_leases(const std::string& daemon_id,
                                             const std::vector<std::string>& job_ids,
                                             std::chrono::milliseconds lease) {
  if (job_ids.empty()) return {};
  Result r = db_.exec(
      "renew " + std::to_string(job_ids.size()) + " leases of " + daemon_id,
      "UPDATE cuzk_jobs SET lease_expires = clock_timestamp() + $3::bigint * interval '1 millisecond', "
      "updated_at = clock_timestamp() WHERE job_id = ANY($1::text[]) AND state = 'claimed' AND claimed_by = "
      "$2 "
      "RETURNING job_id",
      {Param::text(text_array(job_ids)), Param::text(daemon_id), ms(lease)}, Retry::Idempotent);
  std::vector<std::string> renewed;
  for (int i = 0; i < r.rows(); ++i) renewed.push_back(r.text(i, 0));
  std::sort(renewed.begin(), renewed.end());
  std::vector<std::string> lost;
  for (const auto& id : job_ids)
    if (!std::binary_search(renewed.begin(), renewed.end(), id)) lost.push_back(id);
  return lost;
}

bool Queue::renew_lease(const std::string& daemon_id, const std::string& job_id,
                        std::chrono::milliseconds lease) {
  return renew_leases(daemon_id, {job_id}, lease).empty();
}

CompleteOutcome Queue::complete(const std::string& daemon_id, const std::string& job_id,
                                const std::string& result) {
  CompleteOutcome out = CompleteOutcome::NotFound;
  db_.transaction("complete " + job_id, [&](Database& tx) {
    Result r = tx.exec("complete: store result",
                       std::string("UPDATE cuzk_jobs SET state = 'done', result = $3, claimed_by = $2, "
                                   "lease_expires = NULL, last_error = NULL, ") +
                           kEndedPayload +
                           ", updated_at = clock_timestamp() WHERE job_id = $1 AND "
                           "((state = 'claimed' AND claimed_by = $2) OR state = 'queued')",
                       {Param::text(job_id), Param::text(daemon_id), Param::bytes(result)});
    if (r.affected() == 1) {
      out = CompleteOutcome::Completed;
      return;
    }
    Result cur = tx.exec("complete: read job",
                         "SELECT state, claimed_by, result = $2 FROM cuzk_jobs WHERE job_id = $1",
                         {Param::text(job_id), Param::bytes(result)});
    if (cur.rows() == 0) {
      out = CompleteOutcome::NotFound;
      return;
    }
    const JobState st = parse_state(cur.text(0, 0));
    if (st == JobState::Cancelled) out = CompleteOutcome::Cancelled;
    else if (st == JobState::Done && cur.text(0, 1) == daemon_id && cur.boolean(0, 2))
      out = CompleteOutcome::Completed;  // the same completion again (e.g. a retry after a lost reply)
    else out = CompleteOutcome::LeaseLost;
  });
  return out;
}

FailOutcome Queue::fail(const std::string& daemon_id, const std::string& job_id, const std::string& reason,
                        bool retryable) {
  FailOutcome out = FailOutcome::NotFound;
  db_.transaction("fail " + job_id, [&](Database& tx) {
    Result r =
        tx.exec("fail: record",
                "UPDATE cuzk_jobs SET "
                "state = CASE WHEN $4::bool AND attempts < max_attempts THEN 'queued' ELSE 'failed' END, "
                "claimed_by = CASE WHEN $4::bool AND attempts < max_attempts THEN NULL ELSE claimed_by END, "
                "payload = CASE WHEN $4::bool AND attempts < max_attempts THEN payload END, "
                "lease_expires = NULL, last_error = $3, updated_at = clock_timestamp() "
                "WHERE job_id = $1 AND state = 'claimed' AND claimed_by = $2 RETURNING state",
                {Param::text(job_id), Param::text(daemon_id), Param::text(reason),
                 Param::text(retryable ? "t" : "f")});
    if (r.rows() == 1) {
      out = parse_state(r.text(0, 0)) == JobState::Queued ? FailOutcome::Requeued : FailOutcome::Failed;
      return;
    }
    Result cur =
        tx.exec("fail: read job", "SELECT 1 FROM cuzk_jobs WHERE job_id = $1", {Param::text(job_id)});
    out = cur.rows() == 0 ? FailOutcome::NotFound : FailOutcome::LeaseLost;
  });
  return out;
}

bool Queue::release(const std::string& daemon_id, const std::string& job_id, const std::string& reason) {
  Result r = db_.exec("release " + job_id,
                      "UPDATE cuzk_jobs SET state = 'queued', claimed_by = NULL, lease_expires = NULL, "
                      "attempts = greatest(attempts - 1, 0), last_error = $3, updated_at = clock_timestamp() "
                      "WHERE job_id = $1 AND state = 'claimed' AND claimed_by = $2",
                      {Param::text(job_id), Param::text(daemon_id), Param::text(reason)}, Retry::Idempotent);
  return r.affected() == 1;
}

namespace {

// Back to the queue as an expired lease (failed once attempts reached
// max_attempts) or, when `release`, without the attempt; `filter` selects
// the claimed rows (alias c), $1.. its parameters.
std::vector<Reclaimed> requeue_claimed(Database& db, const std::string& step, const std::string& filter,
                                       const std::vector<Param>& params, bool release) {
  const std::string n = std::to_string(params.size() + 1);
  std::vector<Reclaimed> out;
  // In a transaction: now() in `filter` is when it began, before any wait.
  db.transaction(step, [&](Database& tx) {
    out.clear();
    Result r = tx.exec(
        step,
        "UPDATE cuzk_jobs j SET "
        "state = CASE WHEN NOT $" +
            n +
            "::bool AND j.attempts >= j.max_attempts THEN 'failed' ELSE 'queued' END, "
            "payload = CASE WHEN NOT $" +
            n +
            "::bool AND j.attempts >= j.max_attempts THEN NULL ELSE j.payload END, "
            "attempts = CASE WHEN $" +
            n +
            "::bool THEN greatest(j.attempts - 1, 0) ELSE j.attempts END, "
            "last_error = CASE WHEN $" +
            n +
            "::bool THEN 'claim of daemon ' || c.claimed_by || ' released' "
            "ELSE 'lease of daemon ' || c.claimed_by || ' expired (attempt ' || j.attempts || ' of ' || "
            "j.max_attempts || ')' END, "
            "claimed_by = NULL, lease_expires = NULL, updated_at = clock_timestamp() "
            "FROM (SELECT job_id, claimed_by FROM cuzk_jobs c WHERE state = 'claimed' AND " +
            filter +
            "      FOR UPDATE SKIP LOCKED) c "
            "WHERE j.job_id = c.job_id RETURNING j.job_id, c.claimed_by, j.state",
        [&] {
          auto p = params;
          p.push_back(Param::text(release ? "t" : "f"));
          return p;
        }());
    for (int i = 0; i < r.rows(); ++i) out.push_back({r.text(i, 0), r.text(i, 1), parse_state(r.text(i, 2))});
  });
  std::sort(out.begin(), out.end(),
            [](const Reclaimed& a, const Reclaimed& b) { return a.job_id < b.job_id; });
  return out;
}

}  // namespace

std::vector<Reclaimed> Queue::reclaim_expired(const std::string& caller) {
  // now(): when the reclaim began. One that waited out a stall (a lock, a
  // restart) does not take the leases that ran out during that stall: their
  // holders were stalled as well, and renew first when it ends.
  return requeue_claimed(db_, "reclaim expired leases", "lease_expires < now() AND claimed_by <> $1",
                         {Param::text(caller)}, false);
}

std::vector<Reclaimed> Queue::reclaim_own(const std::string& daemon_id, const std::vector<std::string>& held,
                                          bool count_attempt) {
  return requeue_claimed(db_, "reclaim the jobs " + daemon_id + " does not hold",
                         "claimed_by = $1 AND NOT (job_id = ANY($2::text[]))",
                         {Param::text(daemon_id), Param::text(text_array(held))}, !count_attempt);
}

std::optional<JobInfo> Queue::get(const std::string& id) {
  // The job id first; else the newest job of the request id.
  Result r = db_.exec("get " + id,
                      std::string("SELECT * FROM ((SELECT 0 AS pref, ") + kInfoColumns +
                          " FROM cuzk_jobs WHERE job_id = $1) UNION ALL (SELECT 1, " + kInfoColumns +
                          " FROM cuzk_jobs WHERE request_id = $1 ORDER BY seq DESC LIMIT 1)) x "
                          "ORDER BY pref LIMIT 1",
                      {Param::text(id)}, Retry::Idempotent);
  if (r.rows() == 0) return std::nullopt;
  return job_info(r, 0, 1);  // column 0 is the preference
}

std::vector<std::pair<std::string, JobState>> Queue::states(const std::vector<std::string>& job_ids) {
  std::vector<std::pair<std::string, JobState>> out;
  if (job_ids.empty()) return out;
  Result r = db_.exec("states of " + std::to_string(job_ids.size()) + " jobs",
                      "SELECT job_id, state FROM cuzk_jobs WHERE job_id = ANY($1::text[]) ORDER BY job_id",
                      {Param::text(text_array(job_ids))}, Retry::Idempotent);
  for (int i = 0; i < r.rows(); ++i) out.emplace_back(r.text(i, 0), parse_state(r.text(i, 1)));
  return out;
}

CancelResult Queue::cancel(const std::string& id) {
  CancelResult out;
  db_.transaction("cancel " + id, [&](Database& tx) {
    out = CancelResult{};
    // The job id names one job; else the request id names all of its jobs.
    Result exact =
        tx.exec("cancel: find job", "SELECT 1 FROM cuzk_jobs WHERE job_id = $1", {Param::text(id)});
    const std::string which = exact.rows() == 1 ? "job_id = $1" : "request_id = $1";
    Result r = tx.exec(
        "cancel: mark",
        std::string(
            "WITH c AS (SELECT job_id, state, coalesce(claimed_by, '') AS holder FROM cuzk_jobs WHERE ") +
            which +
            " AND state IN ('queued', 'claimed') FOR UPDATE) "
            "UPDATE cuzk_jobs j SET state = 'cancelled', lease_expires = NULL, last_error = 'cancelled', " +
            kEndedPayload +
            ", updated_at = clock_timestamp() FROM c WHERE j.job_id = c.job_id "
            "RETURNING j.job_id, c.state, c.holder",
        {Param::text(id)});
    bool was_running = false;
    for (int i = 0; i < r.rows(); ++i) {
      const bool claimed = parse_state(r.text(i, 1)) == JobState::Claimed;
      was_running |= claimed;
      out.cancelled.emplace_back(r.text(i, 0), claimed ? r.text(i, 2) : std::string());
    }
    if (!out.cancelled.empty()) {
      out.outcome = was_running ? CancelOutcome::WasRunning : CancelOutcome::Cancelled;
      return;
    }
    if (exact.rows() == 1) {
      out.outcome = CancelOutcome::AlreadyEnded;
      return;
    }
    Result any = tx.exec("cancel: find request", "SELECT 1 FROM cuzk_jobs WHERE request_id = $1 LIMIT 1",
                         {Param::text(id)});
    out.outcome = any.rows() == 1 ? CancelOutcome::AlreadyEnded : CancelOutcome::NotFound;
  });
  return out;
}

int64_t Queue::cleanup(std::chrono::seconds age) {
  Result r = db_.exec("retention cleanup",
                      "DELETE FROM cuzk_jobs WHERE state IN ('done', 'failed', 'cancelled') "
                      "AND updated_at < clock_timestamp() - $1::bigint * interval '1 second'",
                      {Param::integer(age.count())}, Retry::Idempotent);
  return r.affected();
}

std::vector<DepthRow> Queue::depth() {
  Result r =
      db_.exec("queue depth",
               "SELECT kind, priority, state, count(*) FROM cuzk_jobs WHERE state IN ('queued', 'claimed') "
               "GROUP BY kind, priority, state ORDER BY kind, priority DESC, state DESC",
               {}, Retry::Idempotent);
  std::vector<DepthRow> out;
  for (int i = 0; i < r.rows(); ++i)
    out.push_back({int(r.integer(i, 0)), int(r.integer(i, 1)), parse_state(r.text(i, 2)), r.integer(i, 3)});
  return out;
}

// The registry's daemons joined with the claimed jobs' holders: a daemon
// without jobs is one row with NULL job columns, a holder missing from the
// registry one row per job with a NULL heartbeat. The last two columns say
// whether the limits left daemons or jobs out.
const char* const kFleetViewSql = R"sql(
WITH d AS (SELECT daemon_id, extract(epoch FROM clock_timestamp() - heartbeat)::float8 AS age, capacity
             FROM cuzk_daemons ORDER BY heartbeat DESC, daemon_id LIMIT $1::int),
     l AS (SELECT job_id, claimed_by, kind, priority, circuit_id, attempts, max_attempts,
                  extract(epoch FROM lease_expires - clock_timestamp())::float8 AS left_s
             FROM cuzk_jobs WHERE state = 'claimed' ORDER BY lease_expires, seq LIMIT $2::int),
     n AS (SELECT (SELECT count(*) FROM cuzk_daemons) > $1::int AS more_daemons,
                  (SELECT count(*) FROM cuzk_jobs WHERE state = 'claimed') > $2::int AS more_jobs)
SELECT coalesce(d.daemon_id, l.claimed_by), d.age, coalesce(d.capacity, 0), l.job_id, l.kind, l.priority,
       coalesce(l.circuit_id, ''), l.left_s, l.attempts, l.max_attempts, n.more_daemons, n.more_jobs
  FROM d FULL JOIN l ON l.claimed_by = d.daemon_id CROSS JOIN n
 ORDER BY 1, l.left_s, l.job_id
)sql";

FleetView Queue::fleet_view(int max_daemons, int max_jobs) {
  Result r = db_.exec("fleet view", kFleetViewSql, {Param::integer(max_daemons), Param::integer(max_jobs)},
                      Retry::Idempotent);
  FleetView v;
  for (int i = 0; i < r.rows(); ++i) {
    const std::string id = r.text(i, 0);
    if (v.daemons.empty() || v.daemons.back().daemon_id != id) {
      FleetDaemon d;
      d.daemon_id = id;
      if (!r.is_null(i, 1)) d.heartbeat_age_s = r.number(i, 1);
      d.capacity = int(r.integer(i, 2));
      v.daemons.push_back(std::move(d));
    }
    if (!r.is_null(i, 3)) {
      HeldJob j;
      j.job_id = r.text(i, 3);
      j.kind = int(r.integer(i, 4));
      j.priority = int(r.integer(i, 5));
      j.circuit_id = r.text(i, 6);
      j.lease_remaining_s = r.number(i, 7);
      j.attempts = int(r.integer(i, 8));
      j.max_attempts = int(r.integer(i, 9));
      v.daemons.back().jobs.push_back(std::move(j));
    }
    v.truncated = r.boolean(i, 10) || r.boolean(i, 11);
  }
  return v;
}

void Queue::heartbeat(const std::string& daemon_id, const std::vector<std::string>& hot_circuits,
                      int capacity) {
  db_.exec(
      "heartbeat of " + daemon_id,
      "INSERT INTO cuzk_daemons (daemon_id, heartbeat, hot_circuits, capacity) "
      "VALUES ($1, clock_timestamp(), $2::text[], $3::int) ON CONFLICT (daemon_id) DO UPDATE SET "
      "heartbeat = EXCLUDED.heartbeat, hot_circuits = EXCLUDED.hot_circuits, capacity = EXCLUDED.capacity",
      {Param::text(daemon_id), Param::text(text_array(hot_circuits)), Param::integer(capacity)},
      Retry::Idempotent);
}

}  // namespace cuzk::fleet
