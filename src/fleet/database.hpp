#pragma once
// fleet::Database: a small RAII wrapper over one libpq connection (PGconn).
//
// One Database is one connection and is used by one thread at a time. Every
// statement is sent with PQsendQueryParams ($1, $2, ... placeholders, never
// string splicing); every error names the caller's step ("claim: select
// candidates") and carries the server's SQLSTATE.
//
// Every call is bounded in time: the connection runs in non-blocking mode and
// each wait (connecting, sending, waiting for the answer) is a poll() on the
// socket with a deadline, so an unreachable server, a network that drops
// packets or a proxy that stops forwarding costs at most the deadline, never
// a hang. The deadline of a call is Options::call_timeout from its start, or
// the one a Deadline scope sets (shorter or longer) for everything it covers.
// A statement that runs out of time drops the connection (its state is
// unknown); the next call reconnects.
//
// Broken connections: a statement that fails because the connection is gone
// (server restarted, network cut, timeout) makes the wrapper reconnect, retried
// every 100 ms until the call's deadline. A statement marked Retry::Idempotent
// outside a transaction is then sent once more; transaction() reruns its whole
// body once when the connection was lost before COMMIT (the server rolled the
// transaction back). A connection lost during COMMIT itself is reported, never
// retried: the outcome is unknown.
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
  // The connection broke (or was dropped after a timeout): the database was
  // unreachable, not the statement wrong.
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

// How result values come back: as text (the default), or in binary — bytea
// as its bytes rather than twice as many hex digits, integers, floats and
// booleans in network byte order (the accessors below decode both).
enum class Format { Text, Binary };

// A statement's result. Move-only; frees the PGresult.
class Result {
 public:
  Result() = default;
  explicit Result(pg_result* r, Format f = Format::Text) : r_(r), binary_(f == Format::Binary) {}
  Result(Result&& o) noexcept : r_(o.r_), binary_(o.binary_) { o.r_ = nullptr; }
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
  double number(int row, int col) const;      // float8 / numeric columns (float8 only in binary)
  bool boolean(int row, int col) const;       // 't' / 'f'
  std::string bytes(int row, int col) const;  // a bytea column, decoded
  std::optional<std::string> opt_text(int row, int col) const;
  pg_result* get() const { return r_; }  // the libpq result (status, error fields)

 private:
  void check(int row, int col) const;
  pg_result* r_ = nullptr;
  bool binary_ = false;
};

enum class Retry { Never, Idempotent };

class Database {
 public:
  using Clock = std::chrono::steady_clock;

  struct Options {
    // The longest one call may take — connecting or reconnecting, sending,
    // and waiting for the answer, a retry included — unless a Deadline scope
    // says otherwise. Also the server's statement_timeout, so a statement
    // whose client gave up does not run on.
    std::chrono::milliseconds call_timeout{10000};
    // The longest one connection attempt may take (each reconnect try).
    std::chrono::milliseconds connect_timeout{5000};
  };

  // `uri`: postgresql://[user[:password]@][host][:port]/dbname[?param=value...]
  // (host=/dir in the query selects a unix socket directory). Throws DbError
  // (step "connect") naming the URI without its password. Parameters of the
  // URI win over the defaults set here (TCP keepalives, tcp_user_timeout).
  explicit Database(const std::string& uri);
  Database(const std::string& uri, Options opts);
  // Connecting by `connect_deadline` at the latest (instead of call_timeout).
  Database(const std::string& uri, Options opts, Clock::time_point connect_deadline);
  ~Database();
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  // Sets the deadline of every call made while it lives (nested scopes: the
  // innermost wins); the previous one comes back at its end.
  class Deadline {
   public:
    Deadline(Database& db, Clock::time_point at) : db_(db), saved_(db.deadline_) { db.deadline_ = at; }
    ~Deadline() { db_.deadline_ = saved_; }
    Deadline(const Deadline&) = delete;
    Deadline& operator=(const Deadline&) = delete;

   private:
    Database& db_;
    std::optional<Clock::time_point> saved_;
  };

  // Runs one statement. `step` names it in errors. Throws DbError.
  Result exec(std::string_view step, const std::string& sql, const std::vector<Param>& params = {},
              Retry retry = Retry::Never, Format format = Format::Text);

  // Runs a script of several statements without parameters, e.g. a
  // migration. Never retried.
  void exec_script(std::string_view step, const std::string& sql);

  // BEGIN; body(*this); COMMIT, all within one deadline. Any exception from
  // the body rolls back and propagates; a connection lost inside the body
  // (before COMMIT) reconnects and runs the body once more from the start, so
  // the body must only touch the database (or be safe to repeat).
  void transaction(std::string_view step, const std::function<void(Database&)>& body);
  bool in_transaction() const { return in_tx_; }

  // Successful reconnects since construction (tests, metrics).
  uint64_t reconnects() const { return reconnects_; }
  // Statements sent since construction (BEGIN/COMMIT included).
  uint64_t statements() const { return statements_; }
  // The URI with any password replaced by "***".
  const std::string& redacted_uri() const { return redacted_; }
  const Options& options() const { return opts_; }

  // The URI with the password of its user part and any password= query
  // parameter replaced by "***".
  static std::string redact(const std::string& uri);

 private:
  Clock::time_point call_deadline() const;
  void connect(std::string_view step, Clock::time_point deadline);
  void reconnect(std::string_view step, Clock::time_point deadline);
  // Sends and waits; nullopt-free: throws DbError(connection_lost) on a
  // broken connection or when the deadline passes (the connection is dropped).
  Result run_once(std::string_view step, const std::string& sql, const std::vector<Param>& params,
                  Clock::time_point deadline, bool script, Format format);
  // Waits until the socket is readable (and writable when `write`), or throws
  // after dropping the connection once `deadline` passes.
  void wait_socket(std::string_view step, bool write, Clock::time_point deadline);
  [[noreturn]] void fail(std::string_view step, const Result& r);
  void drop();
  bool broken() const;

  std::string uri_;
  pg_conn* conn_ = nullptr;
  std::string redacted_;
  Options opts_;
  std::optional<Clock::time_point> deadline_;
  bool in_tx_ = false;
  uint64_t reconnects_ = 0;
  uint64_t statements_ = 0;
};

}  // namespace cuzk::fleet
