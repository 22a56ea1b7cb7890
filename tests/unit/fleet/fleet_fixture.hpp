#pragma once
// FleetTest: a fresh database on the process's PostgreSQL server
// (pg_server.hpp) for each test, migrated to the latest schema unless the
// test asks for an empty one.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "fleet/database.hpp"
#include "fleet/queue.hpp"
#include "fleet/schema.hpp"
#include "unit/fleet/pg_server.hpp"

namespace cuzk::test {

class FleetTest : public ::testing::Test {
 protected:
  virtual bool migrated() const { return true; }

  void SetUp() override {
    PgServer& s = PgServer::shared();
    if (!s.running()) GTEST_SKIP() << s.skip_reason();
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    uri_ = s.fresh_database(info->name());
    db_ = std::make_unique<fleet::Database>(uri_);
    if (migrated()) fleet::Schema::migrate(*db_);
  }

  PgServer& server() { return PgServer::shared(); }
  fleet::Database& db() { return *db_; }
  std::unique_ptr<fleet::Database> connect() { return std::make_unique<fleet::Database>(uri_); }

  std::string uri_;
  std::unique_ptr<fleet::Database> db_;
};

}  // namespace cuzk::test
