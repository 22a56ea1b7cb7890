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

const char* kClaimSql = R"sql(
UPDATE cuzk_jobs j
   SET state = 'claimed', claimed_by = $1,
       lease_expires = clock_timestamp() + $2::bigint * interval '1 millisecond',
       attempts = j.attempts + 1, updated_at = clock_timestamp()
  FROM (SELECT job_id FROM cuzk_jobs
         WHERE state = 'queued' AND priority >= $3::int AND priority < $4::int
         ORDER BY priority DESC, (circuit_id = ANY($5::text[])) DESC, created_at, job_id
         LIMIT $6::int
         FOR UPDATE SKIP LOCKED) c
 WHERE j.job_id = c.job_id
RETURNING j.job_id, j.kind, j.priority, j.circuit_id, j.payload, j.partitions, j.attempts, j.max_attempts,
          (j.circuit_id = ANY($5::text[])), extract(epoch FROM j.created_at)::float8
)sql";

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
  if (spec.job_id.empty()) throw QueueError(QueueError::Code::InvalidArgument, "enqueue: job_id is required");
  if (spec.partitions < 1 || spec.max_attempts < 1)
    throw QueueError(QueueError::Code::InvalidArgument,
                     "enqueue " + spec.job_id + ": partitions and max_attempts must be at least 1");
  const std::string digest = sha256_hex(spec.payload);
  EnqueueResult out{spec.job_id, false, JobState::Queued};
  const std::vector<Param> row = {Param::text(spec.job_id),        Param::integer(spec.kind),
                                  Param::integer(spec.priority),   Param::text(spec.circuit_id),
                                  Param::bytes(spec.payload),      Param::text(digest),
                                  Param::integer(spec.partitions), Param::integer(spec.max_attempts)};
  db_.transaction("enqueue " + spec.job_id, [&](Database& tx) {
    out = EnqueueResult{spec.job_id, false, JobState::Queued};
    Result ins =
        tx.exec("enqueue: insert",
                "INSERT INTO cuzk_jobs (job_id, kind, priority, circuit_id, payload, payload_digest, "
                "partitions, max_attempts) VALUES ($1, $2::int, $3::int, $4, $5, $6, $7::int, $8::int) "
                "ON CONFLICT (job_id) DO NOTHING",
                row);
    if (ins.affected() == 1) {
      out.created = true;
      return;
    }
    Result cur = tx.exec("enqueue: read existing",
                         "SELECT payload_digest, state FROM cuzk_jobs WHERE job_id = $1 FOR UPDATE",
                         {Param::text(spec.job_id)});
    if (cur.rows() == 0)  // deleted by retention between the two statements
      throw DbError("enqueue " + spec.job_id, "job vanished while enqueueing; retry", "40001");
    const JobState st = parse_state(cur.text(0, 1));
    if (st == JobState::Failed || st == JobState::Cancelled) {
      // A retry under the same id starts a new job.
      tx.exec("enqueue: replace ended job",
              "UPDATE cuzk_jobs SET kind = $2::int, priority = $3::int, circuit_id = $4, payload = $5, "
              "payload_digest = $6, partitions = $7::int, max_attempts = $8::int, state = 'queued', "
              "claimed_by = NULL, lease_expires = NULL, attempts = 0, last_error = NULL, result = NULL, "
              "created_at = clock_timestamp(), updated_at = clock_timestamp() WHERE job_id = $1",
              row);
      out.created = true;
      return;
    }
    if (cur.text(0, 0) != digest)
      throw QueueError(QueueError::Code::AlreadyExists, "job_id " + spec.job_id + " is already " +
                                                            state_name(st) + " with a different payload");
    out.state = st;
  });
  return out;
}

std::vector<ClaimedJob> Queue::claim(const ClaimRequest& req) {
  if (req.daemon_id.empty())
    throw QueueError(QueueError::Code::InvalidArgument, "claim: daemon_id is required");
  std::vector<ClaimedJob> out;
  if (req.free_slots <= 0) return out;
  const std::string hot = text_array(req.hot_circuits);
  db_.transaction("claim for " + req.daemon_id, [&](Database& tx) {
    out.clear();
    auto batch = [&](const char* step, int lo, int hi, int limit) {
      if (limit <= 0) return;
      Result r = tx.exec(step, kClaimSql,
                         {Param::text(req.daemon_id), ms(req.lease), Param::integer(lo), Param::integer(hi),
                          Param::text(hot), Param::integer(limit)});
      std::vector<Ordered> got;
      for (int i = 0; i < r.rows(); ++i) {
        ClaimedJob j;
        j.job_id = r.text(i, 0);
        j.kind = int(r.integer(i, 1));
        j.priority = int(r.integer(i, 2));
        j.circuit_id = r.text(i, 3);
        j.payload = r.bytes(i, 4);
        j.partitions = int(r.integer(i, 5));
        j.attempt = int(r.integer(i, 6));
        j.max_attempts = int(r.integer(i, 7));
        got.push_back({std::move(j), r.boolean(i, 8), r.number(i, 9)});
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

bool Queue::renew_lease(const std::string& daemon_id, const std::string& job_id,
                        std::chrono::milliseconds lease) {
  Result r = db_.exec(
      "renew lease of " + job_id,
      "UPDATE cuzk_jobs SET lease_expires = clock_timestamp() + $3::bigint * interval '1 millisecond', "
      "updated_at = clock_timestamp() WHERE job_id = $1 AND state = 'claimed' AND claimed_by = $2 "
      "AND lease_expires > clock_timestamp()",
      {Param::text(job_id), Param::text(daemon_id), ms(lease)}, Retry::Idempotent);
  return r.affected() == 1;
}

CompleteOutcome Queue::complete(const std::string& daemon_id, const std::string& job_id,
                                const std::string& result) {
  CompleteOutcome out = CompleteOutcome::NotFound;
  db_.transaction("complete " + job_id, [&](Database& tx) {
    Result r =
        tx.exec("complete: store result",
                "UPDATE cuzk_jobs SET state = 'done', result = $3, lease_expires = NULL, last_error = NULL, "
                "updated_at = clock_timestamp() WHERE job_id = $1 AND state = 'claimed' AND claimed_by = $2 "
                "AND lease_expires > clock_timestamp()",
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
    Result r = tx.exec(
        "fail: record",
        "UPDATE cuzk_jobs SET "
        "state = CASE WHEN $4::bool AND attempts < max_attempts THEN 'queued' ELSE 'failed' END, "
        "claimed_by = CASE WHEN $4::bool AND attempts < max_attempts THEN NULL ELSE claimed_by END, "
        "lease_expires = NULL, last_error = $3, updated_at = clock_timestamp() "
        "WHERE job_id = $1 AND state = 'claimed' AND claimed_by = $2 AND lease_expires > clock_timestamp() "
        "RETURNING state",
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

std::vector<Reclaimed> Queue::reclaim_expired() {
  Result r = db_.exec(
      "reclaim expired leases",
      "UPDATE cuzk_jobs j SET "
      "state = CASE WHEN j.attempts >= j.max_attempts THEN 'failed' ELSE 'queued' END, "
      "last_error = 'lease of daemon ' || c.claimed_by || ' expired (attempt ' || j.attempts || ' of ' || "
      "j.max_attempts || ')', "
      "claimed_by = NULL, lease_expires = NULL, updated_at = clock_timestamp() "
      "FROM (SELECT job_id, claimed_by FROM cuzk_jobs WHERE state = 'claimed' AND lease_expires <= "
      "clock_timestamp() "
      "      FOR UPDATE SKIP LOCKED) c "
      "WHERE j.job_id = c.job_id RETURNING j.job_id, c.claimed_by, j.state",
      {}, Retry::Idempotent);
  std::vector<Reclaimed> out;
  for (int i = 0; i < r.rows(); ++i) out.push_back({r.text(i, 0), r.text(i, 1), parse_state(r.text(i, 2))});
  std::sort(out.begin(), out.end(),
            [](const Reclaimed& a, const Reclaimed& b) { return a.job_id < b.job_id; });
  return out;
}

std::optional<JobInfo> Queue::get(const std::string& job_id) {
  Result r = db_.exec("get " + job_id,
                      "SELECT job_id, kind, priority, circuit_id, state, coalesce(claimed_by, ''), attempts, "
                      "max_attempts, coalesce(last_error, ''), result, payload_digest, "
                      "coalesce(extract(epoch FROM lease_expires - clock_timestamp())::float8, 0) "
                      "FROM cuzk_jobs WHERE job_id = $1",
                      {Param::text(job_id)}, Retry::Idempotent);
  if (r.rows() == 0) return std::nullopt;
  JobInfo j;
  j.job_id = r.text(0, 0);
  j.kind = int(r.integer(0, 1));
  j.priority = int(r.integer(0, 2));
  j.circuit_id = r.text(0, 3);
  j.state = parse_state(r.text(0, 4));
  j.claimed_by = r.text(0, 5);
  j.attempts = int(r.integer(0, 6));
  j.max_attempts = int(r.integer(0, 7));
  j.last_error = r.text(0, 8);
  if (!r.is_null(0, 9)) j.result = r.bytes(0, 9);
  j.payload_digest = r.text(0, 10);
  j.lease_remaining_s = r.number(0, 11);
  return j;
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

CancelOutcome Queue::cancel(const std::string& job_id) {
  CancelOutcome out = CancelOutcome::NotFound;
  db_.transaction("cancel " + job_id, [&](Database& tx) {
    Result cur = tx.exec("cancel: lock job", "SELECT state FROM cuzk_jobs WHERE job_id = $1 FOR UPDATE",
                         {Param::text(job_id)});
    if (cur.rows() == 0) {
      out = CancelOutcome::NotFound;
      return;
    }
    const JobState st = parse_state(cur.text(0, 0));
    if (st != JobState::Queued && st != JobState::Claimed) {
      out = CancelOutcome::AlreadyEnded;
      return;
    }
    tx.exec("cancel: mark",
            "UPDATE cuzk_jobs SET state = 'cancelled', lease_expires = NULL, last_error = 'cancelled', "
            "updated_at = clock_timestamp() WHERE job_id = $1",
            {Param::text(job_id)});
    out = st == JobState::Claimed ? CancelOutcome::WasRunning : CancelOutcome::Cancelled;
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
