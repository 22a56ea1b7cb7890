#include "fleet/database.hpp"

#include <libpq-fe.h>

#include <poll.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <thread>

namespace cuzk::fleet {

namespace {

std::string trim(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

void ignore_notice(void*, const char*) {}  // "relation ... already exists, skipping" etc.

}  // namespace

DbError::DbError(std::string step, const std::string& message, std::string sqlstate, bool connection_lost)
    : std::runtime_error("fleet database: " + step + ": " + message +
                         (sqlstate.empty() ? std::string() : " (SQLSTATE " + sqlstate + ")")),
      step_(std::move(step)),
      sqlstate_(std::move(sqlstate)),
      connection_lost_(connection_lost) {}

// ---- Result ------------------------------------------------------------------

Result& Result::operator=(Result&& o) noexcept {
  if (this != &o) {
    if (r_) PQclear(r_);
    r_ = o.r_;
    binary_ = o.binary_;
    o.r_ = nullptr;
  }
  return *this;
}
Result::~Result() {
  if (r_) PQclear(r_);
}
int Result::rows() const { return r_ ? PQntuples(r_) : 0; }
int Result::columns() const { return r_ ? PQnfields(r_) : 0; }
int64_t Result::affected() const {
  if (!r_) return 0;
  const char* s = PQcmdTuples(r_);
  return (s && *s) ? std::strtoll(s, nullptr, 10) : 0;
}
void Result::check(int row, int col) const {
  if (!r_ || row < 0 || row >= rows() || col < 0 || col >= columns())
    throw DbError("result", "no value at row " + std::to_string(row) + ", column " + std::to_string(col) +
                                " of " + std::to_string(rows()) + "x" + std::to_string(columns()));
}
bool Result::is_null(int row, int col) const {
  check(row, col);
  return PQgetisnull(r_, row, col) != 0;
}
std::string Result::text(int row, int col) const {
  check(row, col);
  return std::string(PQgetvalue(r_, row, col), PQgetlength(r_, row, col));
}
std::optional<std::string> Result::opt_text(int row, int col) const {
  if (is_null(row, col)) return std::nullopt;
  return text(row, col);
}
namespace {

// A big-endian integer of `n` bytes (binary results), sign-extended.
int64_t be_signed(const char* p, int n) {
  uint64_t v = 0;
  for (int i = 0; i < n; i++) v = (v << 8) | uint8_t(p[i]);
  const int shift = 64 - 8 * n;
  return int64_t(v << shift) >> shift;
}

}  // namespace

int64_t Result::integer(int row, int col) const {
  if (is_null(row, col))
    throw DbError("result",
                  std::string("column ") + PQfname(r_, col) + " is NULL where a number was expected");
  if (binary_) {
    const int n = PQgetlength(r_, row, col);
    if (n != 2 && n != 4 && n != 8)
      throw DbError("result", std::string("column ") + PQfname(r_, col) + " is not a binary integer (" +
                                  std::to_string(n) + " bytes)");
    return be_signed(PQgetvalue(r_, row, col), n);
  }
  const std::string s = text(row, col);
  char* end = nullptr;
  errno = 0;
  const long long v = std::strtoll(s.c_str(), &end, 10);
  if (errno != 0 || end == s.c_str() || *end != '\0')
    throw DbError("result", std::string("column ") + PQfname(r_, col) + " is not an integer: '" + s + "'");
  return v;
}
double Result::number(int row, int col) const {
  if (is_null(row, col))
    throw DbError("result",
                  std::string("column ") + PQfname(r_, col) + " is NULL where a number was expected");
  if (binary_) {
    if (PQgetlength(r_, row, col) != 8)
      throw DbError("result", std::string("column ") + PQfname(r_, col) + " is not a binary float8");
    return std::bit_cast<double>(uint64_t(be_signed(PQgetvalue(r_, row, col), 8)));
  }
  return std::strtod(text(row, col).c_str(), nullptr);
}
bool Result::boolean(int row, int col) const {
  if (is_null(row, col)) return false;
  if (binary_) return PQgetlength(r_, row, col) == 1 && PQgetvalue(r_, row, col)[0] != 0;
  return text(row, col) == "t";
}
std::string Result::bytes(int row, int col) const {
  if (is_null(row, col)) return {};
  if (binary_) return text(row, col);  // the bytes themselves
  size_t n = 0;
  unsigned char* p = PQunescapeBytea(reinterpret_cast<const unsigned char*>(PQgetvalue(r_, row, col)), &n);
  if (!p) throw DbError("result", std::string("column ") + PQfname(r_, col) + ": cannot decode bytea");
  std::string out(reinterpret_cast<const char*>(p), n);
  PQfreemem(p);
  return out;
}

// ---- Database ------------------------------------------------------------------

namespace {

using Clock = std::chrono::steady_clock;

int64_t ms_left(Clock::time_point deadline) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
}

// Replaces the value of every `key=` parameter of the query part (after '?').
std::string redact_query(std::string uri, std::string_view key) {
  const auto q = uri.find('?');
  if (q == std::string::npos) return uri;
  size_t at = q + 1;
  while (at < uri.size()) {
    const size_t end = std::min(uri.find('&', at), uri.size());
    const size_t eq = uri.find('=', at);
    if (eq != std::string::npos && eq < end && uri.compare(at, eq - at, key) == 0) {
      uri.replace(eq + 1, end - eq - 1, "***");
      at = eq + 1 + 3 + 1;
    } else {
      at = end + 1;
    }
  }
  return uri;
}

}  // namespace

std::string Database::redact(const std::string& uri) {
  std::string out = redact_query(uri, "password");
  // scheme://user:password@host... -> scheme://user:***@host...
  const auto scheme = out.find("://");
  if (scheme == std::string::npos) return out;
  const auto at = out.find('@', scheme + 3);
  const auto slash = out.find_first_of("/?", scheme + 3);
  if (at == std::string::npos || (slash != std::string::npos && slash < at)) return out;
  const auto colon = out.find(':', scheme + 3);
  if (colon == std::string::npos || colon > at) return out;
  return out.substr(0, colon + 1) + "***" + out.substr(at);
}

Database::Database(const std::string& uri) : Database(uri, Options{}) {}

Database::Database(const std::string& uri, Options opts)
    : Database(uri, opts, Clock::now() + opts.call_timeout) {}

Database::Database(const std::string& uri, Options opts, Clock::time_point connect_deadline)
    : uri_(uri), redacted_(redact(uri)), opts_(opts) {
  if (uri.rfind("postgresql://", 0) != 0 && uri.rfind("postgres://", 0) != 0)
    throw DbError("connect", "database URI must start with postgresql:// (got '" + redacted_ + "')");
  connect("connect", connect_deadline);
}

Database::~Database() { drop(); }

void Database::drop() {
  if (conn_) PQfinish(conn_);
  conn_ = nullptr;
}

bool Database::broken() const { return !conn_ || PQstatus(conn_) == CONNECTION_BAD; }

Database::Clock::time_point Database::call_deadline() const {
  return deadline_ ? *deadline_ : Clock::now() + opts_.call_timeout;
}

// One connection attempt, non-blocking, until `deadline` (or the connect
// timeout, whichever is first). Host name resolution happens inside libpq
// and is not bounded here: give a host address or a unix socket directory
// where DNS may hang.
void Database::connect(std::string_view step, Clock::time_point deadline) {
  drop();
  deadline = std::min(deadline, Clock::now() + opts_.connect_timeout);
  const int64_t limit_ms = std::max<int64_t>(ms_left(deadline), 0);
  const auto call_ms = std::to_string(std::max<int64_t>(opts_.call_timeout.count(), 1));
  const auto idle_s = std::to_string(std::max<int64_t>(opts_.call_timeout.count() / 3000, 1));
  const std::string server_options = "-c statement_timeout=" + call_ms;
  // The defaults come before the URI: what the URI says wins.
  const char* keys[] = {"keepalives",
                        "keepalives_idle",
                        "keepalives_interval",
                        "keepalives_count",
                        "tcp_user_timeout",
                        "options",
                        "dbname",
                        nullptr};
  const char* values[] = {"1",          idle_s.c_str(), "1", "3", call_ms.c_str(), server_options.c_str(),
                          uri_.c_str(), nullptr};
  conn_ = PQconnectStartParams(keys, values, 1);
  if (!conn_) throw DbError(std::string(step), "out of memory creating a connection to " + redacted_);
  bool ok = PQstatus(conn_) != CONNECTION_BAD;
  for (PostgresPollingStatusType st = PGRES_POLLING_WRITING; ok;) {
    if (st == PGRES_POLLING_OK) break;
    if (st == PGRES_POLLING_FAILED) {
      ok = false;
      break;
    }
    const int left = int(std::clamp<int64_t>(ms_left(deadline), 0, 60000));
    pollfd p{PQsocket(conn_), short(st == PGRES_POLLING_READING ? POLLIN : POLLOUT), 0};
    const int n = left > 0 ? ::poll(&p, 1, left) : 0;
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      drop();
      throw DbError(
          std::string(step),
          "cannot connect to " + redacted_ + ": no answer within " + std::to_string(limit_ms) + " ms", "",
          true);
    }
    st = PQconnectPoll(conn_);
  }
  if (!ok || PQstatus(conn_) != CONNECTION_OK) {
    const std::string msg = trim(PQerrorMessage(conn_));
    drop();
    throw DbError(std::string(step), "cannot connect to " + redacted_ + ": " + msg, "", true);
  }
  PQsetNoticeProcessor(conn_, ignore_notice, nullptr);
  if (PQsetnonblocking(conn_, 1) != 0) {
    drop();
    throw DbError(std::string(step), "cannot make the connection to " + redacted_ + " non-blocking");
  }
}

void Database::reconnect(std::string_view step, Clock::time_point deadline) {
  for (;;) {
    std::string why;
    try {
      connect(step, deadline);
      ++reconnects_;
      return;
    } catch (const DbError& e) {
      why = e.what();
    }
    if (Clock::now() + std::chrono::milliseconds(100) >= deadline)
      throw DbError(std::string(step),
                    "connection to " + redacted_ + " lost and not re-established in time (" + why + ")", "",
                    true);
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
}

void Database::wait_socket(std::string_view step, bool write, Clock::time_point deadline) {
  for (;;) {
    const int64_t left = ms_left(deadline);
    pollfd p{PQsocket(conn_), short(POLLIN | (write ? POLLOUT : 0)), 0};
    const int n = left > 0 ? ::poll(&p, 1, int(std::min<int64_t>(left, 60000))) : 0;
    if (n < 0 && errno == EINTR) continue;
    if (n > 0) return;
    if (left > 60000) continue;
    drop();  // the statement's fate is unknown: this connection is not used again
    throw DbError(std::string(step), "no answer from " + redacted_ + " in time; connection dropped", "57014",
                  true);
  }
}

Result Database::run_once(std::string_view step, const std::string& sql, const std::vector<Param>& params,
                          Clock::time_point deadline, bool script, Format format) {
  ++statements_;
  int sent = 0;
  if (script) {
    sent = PQsendQuery(conn_, sql.c_str());
  } else {
    std::vector<const char*> values(params.size());
    std::vector<int> lengths(params.size()), formats(params.size());
    for (size_t i = 0; i < params.size(); ++i) {
      values[i] = params[i].value ? params[i].value->data() : nullptr;
      lengths[i] = params[i].value ? int(params[i].value->size()) : 0;
      formats[i] = params[i].binary ? 1 : 0;
    }
    sent = PQsendQueryParams(conn_, sql.c_str(), int(params.size()), nullptr, values.data(), lengths.data(),
                             formats.data(), format == Format::Binary ? 1 : 0);
  }
  auto lost = [&](const std::string& what) {
    const std::string msg = trim(PQerrorMessage(conn_));
    drop();
    return DbError(std::string(step), "connection to " + redacted_ + " lost " + what + ": " + msg, "", true);
  };
  if (!sent) {
    if (broken()) throw lost("before sending");
    throw DbError(std::string(step), trim(PQerrorMessage(conn_)));
  }
  for (;;) {  // large parameters (payloads) leave in pieces
    const int f = PQflush(conn_);
    if (f == 0) break;
    if (f < 0) throw lost("while sending");
    wait_socket(step, true, deadline);
    if (!PQconsumeInput(conn_)) throw lost("while sending");
  }
  Result out;
  bool have_error = false;
  for (;;) {
    while (PQisBusy(conn_)) {
      wait_socket(step, false, deadline);
      if (!PQconsumeInput(conn_)) throw lost("while waiting for the answer");
    }
    pg_result* r = PQgetResult(conn_);
    if (!r) break;
    const ExecStatusType st = PQresultStatus(r);
    const bool error = st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK;
    if (have_error) {  // keep the first error of a script
      PQclear(r);
      continue;
    }
    out = Result(r, format);
    have_error = error;
  }
  if (!out.get() && broken()) throw lost("while waiting for the answer");
  return out;
}

Result Database::exec(std::string_view step, const std::string& sql, const std::vector<Param>& params,
                      Retry retry, Format format) {
  const auto deadline = call_deadline();
  for (int attempt = 0;; ++attempt) {
    if (broken()) {
      if (in_tx_) throw DbError(std::string(step), "connection lost inside a transaction", "", true);
      reconnect(step, deadline);
    }
    try {
      Result r = run_once(step, sql, params, deadline, false, format);
      pg_result* raw = r.get();
      const ExecStatusType st = raw ? PQresultStatus(raw) : PGRES_FATAL_ERROR;
      if (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK) return r;
      if (broken() && !in_tx_ && retry == Retry::Idempotent && attempt == 0) continue;
      fail(step, r);
    } catch (const DbError& e) {
      // Lost, not timed out: an idempotent statement outside a transaction
      // is sent once more on a new connection.
      if (e.connection_lost() && !in_tx_ && retry == Retry::Idempotent && attempt == 0 &&
          Clock::now() < deadline)
        continue;
      throw;
    }
  }
}

void Database::fail(std::string_view step, const Result& r) {
  const bool lost = broken();
  std::string sqlstate, msg;
  if (pg_result* raw = r.get()) {
    if (const char* s = PQresultErrorField(raw, PG_DIAG_SQLSTATE)) sqlstate = s;
    msg = trim(PQresultErrorMessage(raw));
  }
  if (msg.empty() && conn_) msg = trim(PQerrorMessage(conn_));
  if (lost) msg = "connection to " + redacted_ + " lost: " + msg;
  throw DbError(std::string(step), msg, sqlstate, lost);
}

void Database::exec_script(std::string_view step, const std::string& sql) {
  const auto deadline = call_deadline();
  if (broken()) {
    if (in_tx_) throw DbError(std::string(step), "connection lost inside a transaction", "", true);
    reconnect(step, deadline);
  }
  Result r = run_once(step, sql, {}, deadline, true, Format::Text);
  const ExecStatusType st = r.get() ? PQresultStatus(r.get()) : PGRES_FATAL_ERROR;
  if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) fail(step, r);
}

void Database::transaction(std::string_view step, const std::function<void(Database&)>& body) {
  if (in_tx_) throw DbError(std::string(step), "nested transaction");
  const std::string s(step);
  const Deadline whole(*this, call_deadline());  // BEGIN .. COMMIT, a rerun included
  auto rollback = [&] {
    if (broken()) return;
    try {
      run_once(s + ": ROLLBACK", "ROLLBACK", {}, std::max(*deadline_, Clock::now() + std::chrono::seconds(1)),
               false, Format::Text);
    } catch (const DbError&) {  // the connection is dropped; the server rolls back
    }
  };
  for (int attempt = 0;; ++attempt) {
    try {
      exec(s + ": BEGIN", "BEGIN", {}, Retry::Idempotent);
      in_tx_ = true;
      body(*this);
    } catch (const DbError& e) {
      in_tx_ = false;
      if (e.connection_lost() && attempt == 0 && Clock::now() < *deadline_) {
        drop();
        continue;  // rolled back by the server: run the whole body again
      }
      rollback();
      throw;
    } catch (...) {
      in_tx_ = false;
      rollback();
      throw;
    }
    try {
      exec(s + ": COMMIT", "COMMIT");
      in_tx_ = false;
      return;
    } catch (const DbError& e) {
      in_tx_ = false;
      if (e.connection_lost())
        throw DbError(
            s + ": COMMIT",
            std::string("connection lost during COMMIT; the transaction's outcome is unknown: ") + e.what(),
            e.sqlstate(), true);
      rollback();
      throw;
    }
  }
}

}  // namespace cuzk::fleet
