#include "fleet/database.hpp"

#include <libpq-fe.h>

#include <cerrno>
#include <cstdlib>
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
int64_t Result::integer(int row, int col) const {
  if (is_null(row, col))
    throw DbError("result",
                  std::string("column ") + PQfname(r_, col) + " is NULL where a number was expected");
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
  return std::strtod(text(row, col).c_str(), nullptr);
}
bool Result::boolean(int row, int col) const { return !is_null(row, col) && text(row, col) == "t"; }
std::string Result::bytes(int row, int col) const {
  if (is_null(row, col)) return {};
  size_t n = 0;
  unsigned char* p = PQunescapeBytea(reinterpret_cast<const unsigned char*>(PQgetvalue(r_, row, col)), &n);
  if (!p) throw DbError("result", std::string("column ") + PQfname(r_, col) + ": cannot decode bytea");
  std::string out(reinterpret_cast<const char*>(p), n);
  PQfreemem(p);
  return out;
}

// ---- Database ------------------------------------------------------------------

std::string Database::redact(const std::string& uri) {
  // scheme://user:password@host... -> scheme://user:***@host...
  const auto scheme = uri.find("://");
  if (scheme == std::string::npos) return uri;
  const auto at = uri.find('@', scheme + 3);
  const auto slash = uri.find('/', scheme + 3);
  if (at == std::string::npos || (slash != std::string::npos && slash < at)) return uri;
  const auto colon = uri.find(':', scheme + 3);
  if (colon == std::string::npos || colon > at) return uri;
  return uri.substr(0, colon + 1) + "***" + uri.substr(at);
}

Database::Database(const std::string& uri) : Database(uri, Options{}) {}

Database::Database(const std::string& uri, Options opts) : redacted_(redact(uri)), opts_(opts) {
  if (uri.rfind("postgresql://", 0) != 0 && uri.rfind("postgres://", 0) != 0)
    throw DbError("connect", "database URI must start with postgresql:// (got '" + redacted_ + "')");
  conn_ = PQconnectdb(uri.c_str());
  if (!conn_) throw DbError("connect", "out of memory creating a connection to " + redacted_);
  if (PQstatus(conn_) != CONNECTION_OK) {
    const std::string msg = trim(PQerrorMessage(conn_));
    PQfinish(conn_);
    conn_ = nullptr;
    throw DbError("connect", "cannot connect to " + redacted_ + ": " + msg);
  }
  PQsetNoticeProcessor(conn_, ignore_notice, nullptr);
  if (opts_.statement_timeout.count() > 0)
    exec("connect: statement_timeout", "SELECT set_config('statement_timeout', $1, false)",
         {Param::text(std::to_string(opts_.statement_timeout.count()))});
}

Database::~Database() {
  if (conn_) PQfinish(conn_);
}

bool Database::broken() const { return !conn_ || PQstatus(conn_) == CONNECTION_BAD; }

void Database::reconnect(std::string_view step) {
  const auto deadline = std::chrono::steady_clock::now() + opts_.reconnect_timeout;
  for (;;) {
    PQreset(conn_);
    if (PQstatus(conn_) == CONNECTION_OK) {
      PQsetNoticeProcessor(conn_, ignore_notice, nullptr);
      ++reconnects_;
      if (opts_.statement_timeout.count() > 0) {
        const std::string ms = std::to_string(opts_.statement_timeout.count());
        const char* values[] = {ms.c_str()};
        Result r(PQexecParams(conn_, "SELECT set_config('statement_timeout', $1, false)", 1, nullptr, values,
                              nullptr, nullptr, 0));
      }
      return;
    }
    if (std::chrono::steady_clock::now() >= deadline)
      throw DbError(std::string(step),
                    "connection to " + redacted_ + " lost and not re-established within " +
                        std::to_string(opts_.reconnect_timeout.count()) +
                        " ms: " + trim(PQerrorMessage(conn_)),
                    "", true);
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
}

Result Database::run_once(const std::string& sql, const std::vector<Param>& params, bool script) {
  if (script) return Result(PQexec(conn_, sql.c_str()));
  std::vector<const char*> values(params.size());
  std::vector<int> lengths(params.size()), formats(params.size());
  for (size_t i = 0; i < params.size(); ++i) {
    values[i] = params[i].value ? params[i].value->data() : nullptr;
    lengths[i] = params[i].value ? int(params[i].value->size()) : 0;
    formats[i] = params[i].binary ? 1 : 0;
  }
  Result r(PQexecParams(conn_, sql.c_str(), int(params.size()), nullptr, values.data(), lengths.data(),
                        formats.data(), 0));
  return r;
}

Result Database::exec(std::string_view step, const std::string& sql, const std::vector<Param>& params,
                      Retry retry) {
  for (int attempt = 0;; ++attempt) {
    if (broken()) {
      if (in_tx_) throw DbError(std::string(step), "connection lost inside a transaction", "", true);
      reconnect(step);
    }
    Result r = run_once(sql, params);
    pg_result* raw = r.get();
    const ExecStatusType st = raw ? PQresultStatus(raw) : PGRES_FATAL_ERROR;
    if (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK) return r;

    if (broken() && !in_tx_ && retry == Retry::Idempotent && attempt == 0) {
      reconnect(step);
      continue;  // one retry of an idempotent statement
    }
    fail(step, r);
  }
}

void Database::fail(std::string_view step, const Result& r) {
  const bool lost = broken();
  std::string sqlstate, msg;
  if (pg_result* raw = r.get()) {
    if (const char* s = PQresultErrorField(raw, PG_DIAG_SQLSTATE)) sqlstate = s;
    msg = trim(PQresultErrorMessage(raw));
  }
  if (msg.empty()) msg = trim(PQerrorMessage(conn_));
  if (lost) msg = "connection to " + redacted_ + " lost: " + msg;
  throw DbError(std::string(step), msg, sqlstate, lost);
}

void Database::exec_script(std::string_view step, const std::string& sql) {
  if (broken()) {
    if (in_tx_) throw DbError(std::string(step), "connection lost inside a transaction", "", true);
    reconnect(step);
  }
  Result r = run_once(sql, {}, true);
  const ExecStatusType st = r.get() ? PQresultStatus(r.get()) : PGRES_FATAL_ERROR;
  if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) fail(step, r);
}

void Database::transaction(std::string_view step, const std::function<void(Database&)>& body) {
  if (in_tx_) throw DbError(std::string(step), "nested transaction");
  const std::string s(step);
  for (int attempt = 0;; ++attempt) {
    try {
      exec(s + ": BEGIN", "BEGIN", {}, Retry::Idempotent);
      in_tx_ = true;
      body(*this);
    } catch (const DbError& e) {
      in_tx_ = false;
      if (e.connection_lost() && attempt == 0) {
        reconnect(s);
        continue;  // rolled back by the server: run the whole body again
      }
      if (!broken()) {
        Result rb = run_once("ROLLBACK", {});
        (void)rb;
      }
      throw;
    } catch (...) {
      in_tx_ = false;
      if (!broken()) {
        Result rb = run_once("ROLLBACK", {});
        (void)rb;
      }
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
      if (!broken()) {
        Result rb = run_once("ROLLBACK", {});
        (void)rb;
      }
      throw;
    }
  }
}

}  // namespace cuzk::fleet
