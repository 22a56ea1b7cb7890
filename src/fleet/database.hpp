#pragma once
// fleet::Database: a small RAII wrapper over one libpq connection (PGconn).
//
// One Database is one connection and is used by one thread at a time. Every
// statement is sent with PQexecParams ($1, $2, ... placeholders, never string
// splicing); every error names the caller's step ("claim: select candidates")
// and carries the server's SQLSTATE.
//
// Broken connections: a statement that fails because the connection is gone
// (PQstatus == CONNECTION_BAD afterwards: server restarted, network cut) makes
// the wrapper reconnect (PQreset, retried until Options::reconnect_timeout).
// A statement marked Retry::Idempotent outside a transaction is then sent once
// more; transaction() reruns its whole body once when the connection was lost
// before COMMIT (the server rolled the transaction back). A connection lost
// during COMMIT itself is reported, never retried: the outcome is unknown.
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

struct pg_conn;
struct pg_result;

namespace cuzk::fleet {

class DbError : public std::runtime_error {
 public:
  DbError(std::string step, const std::string& message, std::string sqlstate = "",
          bool connection_lost = false);
  const std::string& step() const { return step_; }
  // Five-character SQLSTATE from the server ("23505" unique violation, ...);
  // "" for client-side errors.
  const std::string& sqlstate() const { return sqlstate_; }
  bool connection_lost() const { return connection_lost_; }

 private:
  std::string step_, sqlstate_;
  bool connection_lost_;
};

// One statement parameter: text (the server casts it, e.g. "$1::int"), raw
// bytes sent in binary format (for bytea columns), or NULL.
struct Param {
  std::optional<std::string> value;
  bool binary = false;

  static Param text(std::string s) { return Param{std::move(s), false}; }
  static Param bytes(std::string s) { return Param{std::move(s), true}; }
  static Param integer(int64_t v) { return Param{std::to_string(v), false}; }
  static Param null() { return Param{std::nullopt, false}; }
};

// A statement's result (rows in text format). Move-only; frees the PGresult.
class Result {
 public:
  Result() = default;
  explicit Result(pg_result* r) : r_(r) {}
  Result(Result&& o) noexcept : r_(o.r_) { o.r_ = nullptr; }
  Result& operator=(Result&& o) noexcept;
  Result(const Result&) = delete;
  Result& operator=(const Result&) = delete;
  ~Result();

  int rows() const;
  int columns() const;
  // Rows changed by INSERT/UPDATE/DELETE (PQcmdTuples).
  int64_t affected() const;
  bool is_null(int row, int col) const;
  std::string text(int row, int col) const;   // "" for NULL
  int64_t integer(int row, int col) const;    // throws DbError on NULL or non-numbers
  double number(int row, int col) const;      // float8 / numeric columns
  bool boolean(int row, int col) const;       // 't' / 'f'
  std::string bytes(int row, int col) const;  // a bytea column, decoded
  std::optional<std::string> opt_text(int row, int col) const;
  pg_result* get() const { return r_; }  // the libpq result (status, error fields)

 private:
  void check(int row, int col) const;
  pg_result* r_ = nullptr;
};

enum class Retry { Never, Idempotent };

class Database {
 public:
  struct Options {
    // How long a lost connection is retried (PQreset every 100 ms) before
    // the statement fails with DbError::connection_lost().
    std::chrono::milliseconds reconnect_timeout{10000};
    // Server-side statement_timeout for every statement (0 = none).
    std::chrono::milliseconds statement_timeout{0};
  };

  // `uri`: postgresql://[user[:password]@][host][:port]/dbname[?param=value...]
  // (host=/dir in the query selects a unix socket directory). Throws DbError
  // (step "connect") naming the URI without its password.
  explicit Database(const std::string& uri);
  Database(const std::string& uri, Options opts);
  ~Database();
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  // Runs one statement. `step` names it in errors. Throws DbError.
  Result exec(std::string_view step, const std::string& sql, const std::vector<Param>& params = {},
              Retry retry = Retry::Never);

  // Runs a script of several statements without parameters (PQexec), e.g. a
  // migration. Never retried.
  void exec_script(std::string_view step, const std::string& sql);

  // BEGIN; body(*this); COMMIT. Any exception from the body rolls back and
  // propagates; a connection lost inside the body (before COMMIT) reconnects
  // and runs the body once more from the start, so the body must only touch
  // the database (or be safe to repeat).
  void transaction(std::string_view step, const std::function<void(Database&)>& body);
  bool in_transaction() const { return in_tx_; }

  // Successful reconnects since construction (tests, metrics).
  uint64_t reconnects() const { return reconnects_; }
  // The URI with any password replaced by "***".
  const std::string& redacted_uri() const { return redacted_; }

  static std::string redact(const std::string& uri);

 private:
  Result run_once(const std::string& sql, const std::vector<Param>& params, bool script = false);
  [[noreturn]] void fail(std::string_view step, const Result& r);
  void reconnect(std::string_view step);
  bool broken() const;

  pg_conn* conn_ = nullptr;
  std::string redacted_;
  Options opts_;
  bool in_tx_ = false;
  uint64_t reconnects_ = 0;
};

}  // namespace cuzk::fleet
