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

}  // namespace

const std::vector<Migration>& Schema::migrations() {
  static const std::vector<Migration> m = {
      {1, "cuzk_jobs (shared job queue) and cuzk_daemons (registry)", kMigration1},
      {2, "payload and result stored without compression (STORAGE EXTERNAL)", kMigration2},
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
  db.transaction("schema: migrate", [&](Database& tx) {
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
