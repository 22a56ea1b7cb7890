#pragma once
// A real PostgreSQL server for the fleet tests, started once per test
// process in a temporary directory and stopped (and removed) when the
// process's tests end.
//
// - Binaries: $CUZK_PG_BIN, else /usr/lib/postgresql/{17,16,15}/bin (Debian's
//   postgresql packages). Missing binaries make every fleet test skip with
//   the reason (PgServer::shared().skip_reason()).
// - As root (initdb refuses it) every server command runs as `nobody` through
//   runuser (or setpriv), in directories owned by nobody.
// - initdb runs once per build tree: the cluster is kept as a template in
//   CUZK_TEST_CACHE/pg-template-v2* (under a lock, for ctest -j) and copied for
//   each process, so a test process starts a server in well under a second.
// - The server listens only on a unix socket in its own directory
//   (listen_addresses = '', -k <dir>), so no TCP port can clash; fsync off;
//   the directory is in /dev/shm when writable, else /tmp.
// - Each test gets its own database (fresh_database()).
#include <pwd.h>
#include <unistd.h>

#include <atomic>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>

#include "cache_lock.hpp"
#include "fleet/database.hpp"

namespace cuzk::test {

class PgServer {
 public:
  static PgServer& shared() {
    static PgServer* s = new PgServer();  // stopped by stop_shared() (gtest environment)
    return *s;
  }
  static void stop_shared() { shared().stop(); }

  const std::string& skip_reason() const { return skip_; }
  bool running() const { return running_; }

  // postgresql:// URI of database `db` (over the unix socket).
  std::string uri(const std::string& db) const {
    return "postgresql://cuzk@/" + db + "?host=" + dir_.string() + "&port=" + std::to_string(kPort);
  }

  // The server's unix socket (a TCP proxy in front of it stands for a network).
  std::string socket_path() const { return (dir_ / (".s.PGSQL." + std::to_string(kPort))).string(); }
  // The database name of a URI of uri().
  static std::string database_of(const std::string& uri) {
    const auto at = uri.find("@/") + 2;
    return uri.substr(at, uri.find('?') - at);
  }

  // Creates an empty database for one test; returns its URI.
  std::string fresh_database(const std::string& hint) {
    static std::atomic<int> n{0};
    std::string name = "t" + std::to_string(n++) + "_";
    for (char c : hint) name += std::isalnum(static_cast<unsigned char>(c)) ? char(std::tolower(c)) : '_';
    name = name.substr(0, 60);
    fleet::Database admin(uri("postgres"));
    admin.exec("test: create database", "CREATE DATABASE " + name + " STRATEGY = FILE_COPY");
    return uri(name);
  }

  // pg_ctl restart: every open connection breaks.
  void restart() {
    run_pg("pg_ctl -D " + data() + " -m fast -w -t 30 restart -l " + log() + " -o " + options());
  }
  void stop_server() { run_pg("pg_ctl -D " + data() + " -m fast -w -t 30 stop"); }
  void start_server() { run_pg("pg_ctl -D " + data() + " -w -t 30 start -l " + log() + " -o " + options()); }

  void stop() {
    if (running_) {
      std::system(
          as_owner(bin_ + "/pg_ctl -D " + data() + " -m immediate -w -t 30 stop >/dev/null 2>&1").c_str());
      running_ = false;
    }
    if (!dir_.empty()) {
      std::error_code ec;
      std::filesystem::remove_all(dir_, ec);
      dir_.clear();
    }
  }

 private:
  static constexpr int kPort = 5432;  // names the socket file in our own directory only

  PgServer() {
    bin_ = find_bin();
    if (bin_.empty()) {
      skip_ =
          "PostgreSQL server binaries not found (set CUZK_PG_BIN or install Debian's postgresql and "
          "libpq-dev packages); fleet tests need a real server";
      return;
    }
    if (geteuid() == 0) {
      if (!getpwnam("nobody")) {
        skip_ = "running as root and there is no user 'nobody' to run PostgreSQL as";
        return;
      }
      if (std::system("command -v runuser >/dev/null 2>&1") == 0) runas_ = "runuser -u nobody -- ";
      else if (std::system("command -v setpriv >/dev/null 2>&1") == 0)
        runas_ = "setpriv --reuid=nobody --regid=nogroup --clear-groups -- ";
      else {
        skip_ = "running as root without runuser or setpriv to run PostgreSQL as 'nobody'";
        return;
      }
    }
    // In memory where /dev/shm is writable (the copy and the restarts are faster).
    std::string tmpl = access("/dev/shm", W_OK) == 0 ? "/dev/shm/cuzk-pg-XXXXXX" : "/tmp/cuzk-pg-XXXXXX";
    if (!mkdtemp(tmpl.data())) throw std::runtime_error("pg_server: mkdtemp failed for " + tmpl);
    dir_ = tmpl;
    own(dir_);
    const std::string tpl = template_dir();
    sh("cp -a " + tpl + "/data " + data());
    start_server();
    running_ = true;
  }

  static std::string find_bin() {
    std::vector<std::string> c;
    if (const char* e = std::getenv("CUZK_PG_BIN")) c.push_back(e);
    for (const char* v : {"17", "16", "15"}) c.push_back(std::string("/usr/lib/postgresql/") + v + "/bin");
    for (const auto& d : c)
      if (access((d + "/initdb").c_str(), X_OK) == 0 && access((d + "/pg_ctl").c_str(), X_OK) == 0) return d;
    return "";
  }

  // The initdb'd cluster, made once per build tree.
  std::string template_dir() {
    // Named by the binaries' directory and the initdb options (v2), so a
    // different server version or layout makes a new one.
    std::string tag = bin_;
    for (char& c : tag)
      if (!std::isalnum(static_cast<unsigned char>(c))) c = '-';
    const std::filesystem::path cache = std::filesystem::path(CUZK_TEST_CACHE) / ("pg-template-v2" + tag);
    const cuzk_test::CacheLock lock(cache);
    if (!std::filesystem::exists(cache / "data" / "PG_VERSION")) {
      // initdb as the owner in a /tmp directory it owns, then copied into the cache.
      char tmpl[] = "/tmp/cuzk-pginit-XXXXXX";
      if (!mkdtemp(tmpl)) throw std::runtime_error("pg_server: mkdtemp failed");
      const std::filesystem::path tmp = tmpl;
      own(tmp);
      run_pg("initdb -D " + (tmp / "data").string() +
             " -U cuzk --auth=trust -E UTF8 --no-sync --no-instructions "
             "--wal-segsize=1");  // 1 MiB WAL segments: a small cluster, copied fast
      std::error_code ec;
      std::filesystem::remove_all(cache, ec);
      std::filesystem::create_directories(cache);
      sh("cp -a " + (tmp / "data").string() + " " + cache.string() + "/data");
      std::filesystem::remove_all(tmp, ec);
    }
    return cache.string();
  }

  void own(const std::filesystem::path& p) {
    if (geteuid() == 0) sh("chown nobody: " + p.string());
  }
  std::string data() const { return (dir_ / "data").string(); }
  std::string log() const { return (dir_ / "server.log").string(); }
  std::string options() const {
    return "\"-k " + dir_.string() + " -p " + std::to_string(kPort) +
           " -c listen_addresses='' -c fsync=off -c synchronous_commit=off -c full_page_writes=off\"";
  }
  std::string as_owner(const std::string& cmd) const { return runas_ + cmd; }
  void run_pg(const std::string& cmd) {
    const std::string out = (dir_.empty() ? std::filesystem::path("/tmp") : dir_).string() + "/cmd.out";
    const std::string full = as_owner(bin_ + "/" + cmd) + " >" + out + " 2>&1";
    if (std::system(full.c_str()) != 0) {
      std::ifstream in(out);
      std::stringstream ss;
      ss << in.rdbuf();
      std::ifstream lg(log());
      std::stringstream ls;
      ls << lg.rdbuf();
      throw std::runtime_error("pg_server: '" + full + "' failed:\n" + ss.str() + "\nserver log:\n" +
                               ls.str());
    }
  }
  static void sh(const std::string& cmd) {
    if (std::system(cmd.c_str()) != 0) throw std::runtime_error("pg_server: '" + cmd + "' failed");
  }

  std::string bin_, runas_, skip_;
  std::filesystem::path dir_;
  bool running_ = false;
};

}  // namespace cuzk::test
