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
  Database short_wait(uri_, Database::Options{std::chrono::milliseconds(300), {}});
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
