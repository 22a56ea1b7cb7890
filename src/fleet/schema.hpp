#pragma once
// fleet::Schema: the versioned tables of the shared job queue, created and
// migrated by the daemon itself (docs/FLEET.md "Schema").
//
// cuzk_schema(version) records every applied migration. migrate() takes a
// transaction-scoped advisory lock first, so daemons starting at the same
// time apply each migration exactly once (the others wait, then find it
// applied); every migration runs in that one transaction with its version row.
#include <string>
#include <vector>

#include "fleet/database.hpp"

namespace cuzk::fleet {

struct Migration {
  int version;
  std::string description;
  std::string sql;  // one or more statements, no parameters
};

class Schema {
 public:
  // The advisory-lock key migrations run under ('cuzk' in ASCII).
  static constexpr long long kLockKey = 0x63757a6b;

  // All migrations this build knows, in version order.
  static const std::vector<Migration>& migrations();
  static int latest_version();

  // Applies the missing migrations; returns the version now in the database.
  // Throws DbError when the database holds a newer schema than this build.
  static int migrate(Database& db);
  // The applied version, 0 when cuzk_schema does not exist yet.
  static int current_version(Database& db);
};

}  // namespace cuzk::fleet
