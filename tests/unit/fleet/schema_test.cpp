// fleet::Schema: migrations applied once, also by concurrent daemons.
#include <gtest/gtest.h>

#include <barrier>
#include <thread>

#include "unit/fleet/fleet_fixture.hpp"

namespace {

using cuzk::fleet::Database;
using cuzk::fleet::DbError;
using cuzk::fleet::Schema;

class SchemaTest : public cuzk::test::FleetTest {
 protected:
  bool migrated() const override { return false; }
};

TEST_F(SchemaTest, MigrateIsIdempotent) {
  EXPECT_EQ(Schema::current_version(db()), 0);
  EXPECT_EQ(Schema::migrate(db()), Schema::latest_version());
  EXPECT_EQ(Schema::migrate(db()), Schema::latest_version());
  EXPECT_EQ(Schema::current_version(db()), Schema::latest_version());
  EXPECT_EQ(db().exec("count", "SELECT count(*) FROM cuzk_schema").integer(0, 0),
            int64_t(Schema::migrations().size()));
  // The tables exist with the columns the queue uses.
  for (const char* col :
       {"job_id", "kind", "priority", "circuit_id", "payload", "payload_digest", "partitions", "state",
        "claimed_by", "lease_expires", "attempts", "max_attempts", "last_error", "result", "created_at",
        "updated_at", "seq", "request_id", "payload_bytes"})
    EXPECT_EQ(db().exec("column",
                        "SELECT count(*) FROM information_schema.columns WHERE table_name = 'cuzk_jobs' "
                        "AND column_name = $1",
                        {cuzk::fleet::Param::text(col)})
                  .integer(0, 0),
              1)
        << col;
  EXPECT_EQ(db().exec("daemons", "SELECT count(*) FROM cuzk_daemons").integer(0, 0), 0);
  // Migration 2: payloads and results out of line, uncompressed.
  for (const char* col : {"payload", "result"})
    EXPECT_EQ(db().exec("storage",
                        "SELECT attstorage FROM pg_attribute WHERE attrelid = 'cuzk_jobs'::regclass "
                        "AND attname = $1",
                        {cuzk::fleet::Param::text(col)})
                  .text(0, 0),
              "e")
        << col;
}

TEST_F(SchemaTest, ConcurrentMigrationsApplyOnce) {
  // Several daemons starting at once: without the advisory lock the
  // CREATE TABLE statements race (unique violations on pg_type) or a
  // migration is recorded twice.
  constexpr int kDaemons = 6;
  for (int round = 0; round < 3; ++round) {
    const std::string uri = server().fresh_database("concurrent_" + std::to_string(round));
    std::vector<std::unique_ptr<Database>> conns;
    for (int i = 0; i < kDaemons; ++i) conns.push_back(std::make_unique<Database>(uri));
    std::barrier sync(kDaemons);
    std::vector<std::string> errors(kDaemons);
    std::vector<int> versions(kDaemons, -1);
    std::vector<std::thread> threads;
    for (int i = 0; i < kDaemons; ++i)
      threads.emplace_back([&, i] {
        sync.arrive_and_wait();
        try {
          versions[i] = Schema::migrate(*conns[i]);
        } catch (const std::exception& e) {
          errors[i] = e.what();
        }
      });
    for (auto& t : threads) t.join();
    for (int i = 0; i < kDaemons; ++i) {
      EXPECT_EQ(errors[i], "") << "daemon " << i;
      EXPECT_EQ(versions[i], Schema::latest_version()) << "daemon " << i;
    }
    EXPECT_EQ(conns[0]->exec("count", "SELECT count(*) FROM cuzk_schema").integer(0, 0),
              int64_t(Schema::migrations().size()));
  }
}

TEST_F(SchemaTest, JobIdentityMigrationKeepsEarlierRowsUsable) {
  // A database at version 2, with jobs named by their request id.
  db().exec("cuzk_schema",
            "CREATE TABLE cuzk_schema (version integer PRIMARY KEY, description text NOT NULL, "
            "applied_at timestamptz NOT NULL DEFAULT clock_timestamp())");
  for (const auto& m : Schema::migrations()) {
    if (m.version > 2) break;
    db().exec_script("old migration", m.sql);
    db().exec("record", "INSERT INTO cuzk_schema (version, description) VALUES ($1::int, $2)",
              {cuzk::fleet::Param::integer(m.version), cuzk::fleet::Param::text(m.description)});
  }
  db().exec(
      "old rows",
      "INSERT INTO cuzk_jobs (job_id, kind, priority, payload, payload_digest, state, result) VALUES "
      "('old-done', 1, 2, 'p1', 'd1', 'done', 'proof'), ('old-queued', 1, 2, 'p2', 'd2', 'queued', NULL)");
  EXPECT_EQ(Schema::migrate(db()), Schema::latest_version());
  cuzk::fleet::Queue q(db());
  auto done = q.get("old-done");
  ASSERT_TRUE(done);
  EXPECT_EQ(done->job_id, "old-done");
  EXPECT_EQ(done->request_id, "old-done");
  EXPECT_EQ(done->result.value_or(""), "proof");
  EXPECT_TRUE(db().exec("payload dropped", "SELECT payload IS NULL FROM cuzk_jobs WHERE job_id = 'old-done'")
                  .boolean(0, 0));
  // The queued one is claimed with its payload, by its old name.
  cuzk::fleet::ClaimRequest cr;
  cr.daemon_id = "d";
  cr.free_slots = 2;
  auto got = q.claim(cr);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].job_id, "old-queued");
  EXPECT_EQ(got[0].payload, "p2");
  // The same request and payload digest is the same job; a new one is numbered.
  cuzk::fleet::JobSpec spec;
  spec.request_id = "old-done";
  spec.payload = "p1";
  spec.payload_digest = "d1";
  EXPECT_EQ(q.enqueue(spec).job_id, "old-done");
  spec.payload_digest = "";
  const auto fresh = q.enqueue(spec);
  EXPECT_TRUE(fresh.created);
  EXPECT_EQ(fresh.job_id.rfind("old-done#", 0), 0u) << fresh.job_id;
  EXPECT_EQ(q.get("old-done")->job_id, "old-done") << "an exact job id wins over a request id";
}

TEST_F(SchemaTest, NewerDatabaseIsRefused) {
  Schema::migrate(db());
  db().exec("future", "INSERT INTO cuzk_schema (version, description) VALUES (999, 'from the future')");
  try {
    Schema::migrate(db());
    FAIL() << "a newer schema was accepted";
  } catch (const DbError& e) {
    EXPECT_NE(std::string(e.what()).find("newer than this daemon"), std::string::npos) << e.what();
  }
}

}  // namespace
