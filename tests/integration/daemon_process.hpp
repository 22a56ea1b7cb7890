#pragma once
// A cuzk-daemon child process for the integration tests: started from a
// config file with its stderr in a log file, stopped with SIGTERM (its exit
// status returned) or killed with SIGKILL. The tests write the config; this
// only owns the process. CUZK_DAEMON_PATH is the daemon binary (tests/CMakeLists.txt).
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace cuzk::test {

class DaemonProcess {
 public:
  DaemonProcess() = default;
  DaemonProcess(const DaemonProcess&) = delete;
  DaemonProcess& operator=(const DaemonProcess&) = delete;
  ~DaemonProcess() { stop(); }

  // `extra`: more command-line arguments (e.g. {"--shutdown-grace", "5s"}).
  void start(const std::filesystem::path& config, const std::filesystem::path& log, const char* log_level,
             const std::vector<std::string>& extra = {}) {
    log_ = log;
    std::vector<std::string> args = {CUZK_DAEMON_PATH, "--config", config.string(), "--log-level", log_level};
    args.insert(args.end(), extra.begin(), extra.end());
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    pid_ = ::fork();
    if (pid_ == 0) {
      FILE* f = std::freopen(log.c_str(), "w", stderr);
      (void)f;
      ::execv(CUZK_DAEMON_PATH, argv.data());
      ::_exit(127);
    }
  }

  // SIGTERM and wait: the daemon's exit status, or -1 when it was not
  // running or did not exit normally. A non-zero status prints the log (a
  // sanitizer's report ends in exit code 66, its text in the log), since the
  // tests remove their directories.
  int stop() {
    if (pid_ <= 0) return -1;
    ::kill(pid_, SIGTERM);
    ::kill(pid_, SIGCONT);  // a frozen daemon (freeze()) takes the SIGTERM only once it runs
    int status = 0;
    ::waitpid(pid_, &status, 0);
    pid_ = -1;
    const int rc = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    if (rc != 0) {
      std::ifstream in(log_);
      std::fprintf(stderr, "daemon exited with %d; %s:\n%s\n", rc, log_.c_str(),
                   std::string(std::istreambuf_iterator<char>(in), {}).c_str());
    }
    return rc;
  }

  // SIGKILL: the daemon gets no chance to clean up (a lost machine).
  void kill9() {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
    pid_ = -1;
  }

  // SIGSTOP / SIGCONT: a frozen daemon changes nothing (a test reads the
  // queue's rows in the meantime, then kills or thaws it).
  void freeze() {
    if (pid_ > 0) ::kill(pid_, SIGSTOP);
  }
  void thaw() {
    if (pid_ > 0) ::kill(pid_, SIGCONT);
  }

  pid_t pid() const { return pid_; }
  const std::filesystem::path& log() const { return log_; }

 private:
  pid_t pid_ = -1;
  std::filesystem::path log_;
};

}  // namespace cuzk::test
