#include "fleet/schema.hpp"

namespace cuzk::fleet {

namespace {

// Migration 1: the job queue and the daemon registry.
//
// Payloads and results are bytea columns of the job row: stored once,
// TOASTed (compressed, out of line) by PostgreSQL, deleted with the row by
// retention. bytea holds up to 1 GiB, above the engine's payload limits.
const char* kMigration1 = R"sql(
CREATE TABLE cuzk_jobs (
  job_id         text PRIMARY KEY,
  kind           integer NOT NULL,
  priority       integer NOT NULL,
  circuit_id     text NOT NULL DEFAULT '',
  payload        bytea NOT NULL,
  payload_digest text NOT NULL,
  partitions     integer NOT NULL DEFAULT 1 CHECK (partitions >= 1),
  state          text NOT NULL DEFAULT 'queued'
                 CHECK (state IN ('queued', 'claimed', 'done', 'failed', 'cancelled')),
  claimed_by     text,
  lease_expires  timestamptz,
  attempts       integer NOT NULL DEFAULT 0,
  max_attempts   integer NOT NULL DEFAULT 3 CHECK (max_attempts >= 1),
  last_error     text,
  result         bytea,
  created_at     timestamptz NOT NULL DEFAULT clock_timestamp(),
  updated_at     timestamptz NOT NULL DEFAULT clock_timestamp(),
  CHECK (state <> 'claimed' OR (claimed_by IS NOT NULL AND lease_expires IS NOT NULL))
);
CREATE INDEX cuzk_jobs_queued ON cuzk_jobs (priority DESC, created_at) WHERE state = 'queued';
CREATE INDEX cuzk_jobs_leases ON cuzk_jobs (lease_expires) WHERE state = 'claimed';
CREATE INDEX cuzk_jobs_finished ON cuzk_jobs (updated_at) WHERE state IN ('done', 'failed', 'cancelled');

CREATE TABLE cuzk_daemons (
  daemon_id    text PRIMARY KEY,
  heartbeat    timestamptz NOT NULL DEFAULT clock_timestamp(),
  hot_circuits text[] NOT NULL DEFAULT '{}',
  capacity     integer NOT NULL DEFAULT 0
);
)sql";

// Payloads are stored out of line without compression: pglz compressed a
// 2 MiB generic-R1CS witness in about 90 ms of the server's CPU per job
// (docs/PERFORMANCE.md "Fleet mode"); payloads are read once and deleted
// with the row at retention. Existing rows keep their storage.
const char* const kMigration2 = R"sql(
ALTER TABLE cuzk_jobs ALTER COLUMN payload SET STORAGE EXTERNAL;
ALTER TABLE cuzk_jobs ALTER COLUMN result SET STORAGE EXTERNAL;
)sql";

// Job identity: a job is (request id, payload). Several jobs may share a
// request id (Curio sends every partition of a WindowPoSt deadline under one,
// a retry after FAILED/CANCELLED is a new job); each gets its own number
// `seq` and is named "<request_id>#<seq>". Rows from before keep their job_id
// (the request id), so ids handed out earlier still answer. At most one job
// per (request id, payload digest) is live or done: the unique index is what
// makes identical submissions to different daemons one job.
//
// payload_bytes lets a daemon claim only what fits its payload budget; the
// payload itself is dropped when a job ends (only its digest is needed
// then). The sequence is filled by an UPDATE rather than a serial column
// with a default, which would rewrite the table and every payload in it.
const char* const kMigration3 = R"sql(
CREATE SEQUENCE cuzk_jobs_seq;
ALTER TABLE cuzk_jobs ADD COLUMN seq bigint, ADD COLUMN request_id text, ADD COLUMN payload_bytes bigint,
  ALTER COLUMN payload DROP NOT NULL;
UPDATE cuzk_jobs SET seq = nextval('cuzk_jobs_seq'), request_id = job_id,
  payload_bytes = coalesce(octet_length(payload), 0),
  payload = CASE WHEN state IN ('done', 'failed', 'cancelled') THEN NULL ELSE payload END;
ALTER TABLE cuzk_jobs ALTER COLUMN seq SET DEFAULT nextval('cuzk_jobs_seq'), ALTER COLUMN seq SET NOT NULL,
  ALTER COLUMN request_id SET NOT NULL, ALTER COLUMN payload_bytes SET DEFAULT 0,
  ALTER COLUMN payload_bytes SET NOT NULL;
ALTER SEQUENCE cuzk_jobs_seq OWNED BY cuzk_jobs.seq;
CREATE UNIQUE INDEX cuzk_jobs_seq_key ON cuzk_jobs (seq);
CREATE UNIQUE INDEX cuzk_jobs_identity ON cuzk_jobs (request_id, payload_digest)
  WHERE state IN ('queued', 'claimed', 'done');
CREATE INDEX cuzk_jobs_request ON cuzk_jobs (request_id, seq);
)sql";

}  // namespace

const std::vector<Migration>& Schema::migrations() {
  static const std::vector<Migration> m = {
      {1, "cuzk_jobs (shared job queue) and cuzk_daemons (registry)", kMigration1},
      {2, "payload and result stored without compression (STORAGE EXTERNAL)", kMigration2},
      {3, "job identity (request_id, payload): seq numbers, request_id, payload_bytes", kMigration3},
  };
  return m;
}

int Schema::latest_version() { return migrations().back().version; }

int Schema::current_version(Database& db) {
  // (One statement cannot name a table that may not exist: it is resolved
  // when the statement is parsed.)
  if (!db.exec("schema: find cuzk_schema", "SELECT to_regclass('cuzk_schema') IS NOT NULL", {},
               Retry::Idempotent)
           .boolean(0, 0))
    return 0;
  return int(db.exec("schema: read version", "SELECT coalesce(max(version), 0) FROM cuzk_schema", {},
                     Retry::Idempotent)
                 .integer(0, 0));
}

int Schema::migrate(Database& db) {
  int version = 0;
  // A migration may rewrite a large table, and daemons starting together
  // wait for the first one's: no statement timeout here.
  const Database::Deadline long_enough(db, Database::Clock::now() + std::chrono::hours(1));
  db.transaction("schema: migrate", [&](Database& tx) {
    tx.exec("schema: no statement timeout", "SET LOCAL statement_timeout = 0");
    tx.exec("schema: advisory lock", "SELECT pg_advisory_xact_lock($1::bigint)", {Param::integer(kLockKey)});
    tx.exec("schema: create cuzk_schema",
            "CREATE TABLE IF NOT EXISTS cuzk_schema ("
            " version integer PRIMARY KEY,"
            " description text NOT NULL,"
            " applied_at timestamptz NOT NULL DEFAULT clock_timestamp())");
    version = int(
        tx.exec("schema: read version", "SELECT coalesce(max(version), 0) FROM cuzk_schema").integer(0, 0));
    if (version > latest_version())
      throw DbError("schema: migrate", "the database's schema version " + std::to_string(version) +
                                           " is newer than this daemon's (" +
                                           std::to_string(latest_version()) + "); upgrade the daemon");
    for (const Migration& m : migrations()) {
      if (m.version <= version) continue;
      tx.exec_script("schema: migration " + std::to_string(m.version), m.sql);
      tx.exec("schema: record migration " + std::to_string(m.version),
              "INSERT INTO cuzk_schema (version, description) VALUES ($1::int, $2)",
              {Param::integer(m.version), Param::text(m.description)});
      version = m.version;
    }
  });
  return version;
}

}  // namespace cuzk::fleet
