// fleet::Database against a real server: parameters, bytea, errors that name
// their step, transactions, and reconnecting after the server restarts.
#include <gtest/gtest.h>

#include "unit/fleet/fleet_fixture.hpp"

namespace {

using cuzk::fleet::Database;
using cuzk::fleet::DbError;
using cuzk::fleet::Param;
using cuzk::fleet::Retry;

// Stops the shared server after the last test of the process.
class PgEnvironment : public ::testing::Environment {
 public:
  void TearDown() override { cuzk::test::PgServer::stop_shared(); }
};
[[maybe_unused]] auto* const pg_env = ::testing::AddGlobalTestEnvironment(new PgEnvironment);

class DatabaseTest : public cuzk::test::FleetTest {
 protected:
  bool migrated() const override { return false; }
};

TEST(DatabaseUri, RejectsOtherSchemesAndRedactsPasswords) {
  try {
    Database db("host=/tmp dbname=x");
    FAIL() << "a non-URI connection string was accepted";
  } catch (const DbError& e) {
    EXPECT_EQ(e.step(), "connect");
    EXPECT_NE(std::string(e.what()).find("postgresql://"), std::string::npos) << e.what();
  }
  EXPECT_EQ(Database::redact("postgresql://u:secret@db.example:5432/cuzk"),
            "postgresql://u:***@db.example:5432/cuzk");
  EXPECT_EQ(Database::redact("postgresql://u@db/cuzk"), "postgresql://u@db/cuzk");
  EXPECT_EQ(Database::redact("postgresql:///cuzk?host=/a@b"), "postgresql:///cuzk?host=/a@b");
  EXPECT_EQ(Database::redact("postgresql://u@db/cuzk?sslmode=require&password=hunter2&x=1"),
            "postgresql://u@db/cuzk?sslmode=require&password=***&x=1");
  EXPECT_EQ(Database::redact("postgres://db/cuzk?password=a&password=b"),
            "postgres://db/cuzk?password=***&password=***");
  EXPECT_EQ(Database::redact("postgresql://u:p@db/cuzk?password=q"),
            "postgresql://u:***@db/cuzk?password=***");
}

TEST(DatabaseUri, UnreachableServerIsAConnectError) {
  try {
    Database db("postgresql://u:hunter2@/x?host=/nonexistent-cuzk-dir&port=1");
    FAIL() << "connected to nothing";
  } catch (const DbError& e) {
    const std::string what = e.what();
    EXPECT_EQ(e.step(), "connect");
    EXPECT_NE(what.find("cannot connect"), std::string::npos) << what;
    EXPECT_EQ(what.find("hunter2"), std::string::npos) << "password leaked: " << what;
  }
}

TEST_F(DatabaseTest, ParametersNullsAndBinaryBytea) {
  std::string blob("\0\x01\xff\\x'\"", 7);
  for (int i = 0; i < 1000; ++i) blob += char(i * 7);
  db().exec("create", "CREATE TABLE t (id int, s text, b bytea)");
  db().exec("insert", "INSERT INTO t VALUES ($1::int, $2, $3)",
            {Param::integer(7), Param::text("it's $1"), Param::bytes(blob)});
  db().exec("insert null", "INSERT INTO t VALUES ($1::int, $2, $3)",
            {Param::integer(8), Param::null(), Param::null()});
  auto r = db().exec("select", "SELECT id, s, b FROM t ORDER BY id");
  ASSERT_EQ(r.rows(), 2);
  EXPECT_EQ(r.integer(0, 0), 7);
  EXPECT_EQ(r.text(0, 1), "it's $1");
  EXPECT_EQ(r.bytes(0, 2), blob);
  EXPECT_TRUE(r.is_null(1, 1));
  EXPECT_FALSE(r.opt_text(1, 1).has_value());
  EXPECT_THROW(r.integer(5, 0), DbError);
  auto u = db().exec("update", "UPDATE t SET s = 'x'");
  EXPECT_EQ(u.affected(), 2);
}

TEST_F(DatabaseTest, BinaryResults) {
  std::string blob("\0\x01\xff", 3);
  auto r = db().exec("binary",
                     "SELECT $1::bytea, 42::int2, -7::int4, 1234567890123::int8, 2.5::float8, true, false, "
                     "'text'::text, NULL::int4",
                     {Param::bytes(blob)}, Retry::Never, cuzk::fleet::Format::Binary);
  EXPECT_EQ(r.bytes(0, 0), blob);
  EXPECT_EQ(r.integer(0, 1), 42);
  EXPECT_EQ(r.integer(0, 2), -7);
  EXPECT_EQ(r.integer(0, 3), 1234567890123);
  EXPECT_EQ(r.number(0, 4), 2.5);
  EXPECT_TRUE(r.boolean(0, 5));
  EXPECT_FALSE(r.boolean(0, 6));
  EXPECT_EQ(r.text(0, 7), "text");
  EXPECT_TRUE(r.is_null(0, 8));
  EXPECT_THROW(r.integer(0, 8), DbError);
}

TEST_F(DatabaseTest, EveryCallEndsByItsDeadline) {
  // A statement stuck behind a lock: the call gives up at its deadline
  // (here a scope's 500 ms; by default Options::call_timeout), the
  // connection is dropped, and the next call reconnects.
  db().exec("create", "CREATE TABLE t (id int)");
  auto locker = connect();
  locker->exec("begin", "BEGIN");
  locker->exec("lock", "LOCK TABLE t IN ACCESS EXCLUSIVE MODE");
  const auto t0 = std::chrono::steady_clock::now();
  try {
    const Database::Deadline soon(db(), std::chrono::steady_clock::now() + std::chrono::milliseconds(500));
    db().exec("blocked", "SELECT count(*) FROM t", {}, Retry::Idempotent);
    ADD_FAILURE() << "a blocked statement returned";
  } catch (const DbError& e) {
    EXPECT_TRUE(e.connection_lost()) << e.what();
    EXPECT_EQ(e.step(), "blocked");
  }
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_GE(s, 0.45);
  EXPECT_LT(s, 1.5);
  locker->exec("commit", "COMMIT");
  EXPECT_EQ(db().exec("after", "SELECT count(*) FROM t").integer(0, 0), 0);
  EXPECT_EQ(db().reconnects(), 1u);

  // A transaction shares one deadline; the server's statement_timeout is the
  // call timeout as well.
  Database quick(uri_, Database::Options{std::chrono::milliseconds(400), std::chrono::milliseconds(400)});
  locker->exec("begin", "BEGIN");
  locker->exec("lock", "LOCK TABLE t IN ACCESS EXCLUSIVE MODE");
  EXPECT_THROW(quick.transaction("tx", [](Database& tx) { tx.exec("insert", "INSERT INTO t VALUES (1)"); }),
               DbError);
  EXPECT_FALSE(quick.in_transaction());
  locker->exec("commit", "COMMIT");
  EXPECT_EQ(quick.exec("statement_timeout", "SHOW statement_timeout").text(0, 0), "400ms");
  EXPECT_GT(quick.statements(), 0u);
}

TEST_F(DatabaseTest, ErrorsNameTheStepAndSqlstate) {
  try {
    db().exec("read the widgets", "SELECT * FROM no_such_table");
    FAIL() << "no error";
  } catch (const DbError& e) {
    EXPECT_EQ(e.step(), "read the widgets");
    EXPECT_EQ(e.sqlstate(), "42P01");
    EXPECT_FALSE(e.connection_lost());
    EXPECT_NE(std::string(e.what()).find("read the widgets"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("no_such_table"), std::string::npos) << e.what();
  }
  // The connection is still usable.
  EXPECT_EQ(db().exec("after", "SELECT 1").integer(0, 0), 1);
}

TEST_F(DatabaseTest, TransactionCommitsOrRollsBack) {
  db().exec("create", "CREATE TABLE t (id int PRIMARY KEY)");
  db().transaction("two rows", [](Database& tx) {
    tx.exec("a", "INSERT INTO t VALUES (1)");
    tx.exec("b", "INSERT INTO t VALUES (2)");
  });
  EXPECT_THROW(db().transaction("fails",
                                [](Database& tx) {
                                  tx.exec("c", "INSERT INTO t VALUES (3)");
                                  tx.exec("dup", "INSERT INTO t VALUES (1)");  // unique violation
                                }),
               DbError);
  EXPECT_THROW(db().transaction("throws",
                                [](Database& tx) {
                                  tx.exec("d", "INSERT INTO t VALUES (4)");
                                  throw std::runtime_error("caller error");
                                }),
               std::runtime_error);
  EXPECT_FALSE(db().in_transaction());
  EXPECT_EQ(db().exec("count", "SELECT count(*) FROM t").integer(0, 0), 2);
}

TEST_F(DatabaseTest, ReconnectsAfterServerRestart) {
  db().exec("create", "CREATE TABLE t (id int)");
  server().restart();
  // An idempotent statement reconnects and is sent again.
  EXPECT_EQ(db().exec("after restart", "SELECT count(*) FROM t", {}, Retry::Idempotent).integer(0, 0), 0);
  EXPECT_EQ(db().reconnects(), 1u);

  // A statement not marked idempotent reports the lost connection...
  server().restart();
  try {
    db().exec("insert once", "INSERT INTO t VALUES (1)");
    FAIL() << "the lost connection went unnoticed";
  } catch (const DbError& e) {
    EXPECT_TRUE(e.connection_lost()) << e.what();
    EXPECT_EQ(e.step(), "insert once");
  }
  // ...and the next one reconnects first.
  db().exec("insert again", "INSERT INTO t VALUES (2)");
  EXPECT_EQ(db().reconnects(), 2u);

  // A transaction whose connection breaks before COMMIT runs again, whole.
  int runs = 0;
  db().transaction("restart inside", [&](Database& tx) {
    ++runs;
    tx.exec("insert in tx", "INSERT INTO t VALUES (3)");
    if (runs == 1) server().restart();
    tx.exec("insert in tx 2", "INSERT INTO t VALUES (4)");
  });
  EXPECT_EQ(runs, 2);
  EXPECT_EQ(db().exec("rows", "SELECT string_agg(id::text, ',' ORDER BY id) FROM t").text(0, 0), "2,3,4");
}

TEST_F(DatabaseTest, GivesUpWhenTheServerStaysDown) {
  Database short_wait(uri_,
                      Database::Options{std::chrono::milliseconds(300), std::chrono::milliseconds(300)});
  server().stop_server();
  try {
    short_wait.exec("while down", "SELECT 1", {}, Retry::Idempotent);
    ADD_FAILURE() << "a statement succeeded with the server stopped";
  } catch (const DbError& e) {
    EXPECT_TRUE(e.connection_lost()) << e.what();
    EXPECT_NE(std::string(e.what()).find("not re-established"), std::string::npos) << e.what();
  }
  server().start_server();
  EXPECT_EQ(short_wait.exec("back", "SELECT 1", {}, Retry::Idempotent).integer(0, 0), 1);
}

}  // namespace
