#pragma once
// A deliberately small HTTP/1.1 server (POSIX sockets) for
// daemon.status_listen:
//   GET /status   -> 200 application/json   (ProvingService::status_json)
//   GET /metrics  -> 200 text/plain (Prometheus exposition, metrics_text,
//                    plus the live gauges of server/dashboard.hpp)
//   GET /, /dashboard.js, /dashboard.css, /live, /timeline -> the live
//                    dashboard (server/dashboard.hpp)
//   anything else -> 404 (405 for methods other than GET/HEAD, 400 if malformed)
// Each connection carries one request and is closed after the response. Each
// is served by a thread of its own (at most kMaxConnections at once; more are
// closed at once), and a request must arrive whole within kRequestDeadline,
// so a slow or silent client never holds up /metrics for the others.
// Like /status, every path is served without TLS or token (docs/PROTOCOL.md §6).
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

#include "engine/service.hpp"
#include "server/dashboard.hpp"
#include "server/timeline_ring.hpp"

namespace cuzk::server {

class HttpStatusServer {
 public:
  // `listen`: "host:port" (port 0 = any), "http://host:port" or "unix:///path".
  // `ring`: the daemon's recent TIMELINE lines for the live views (may be null).
  HttpStatusServer(const engine::ProvingService& service, std::string listen,
                   const TimelineRing* ring = nullptr);
  ~HttpStatusServer();  // stop()
  HttpStatusServer(const HttpStatusServer&) = delete;
  HttpStatusServer& operator=(const HttpStatusServer&) = delete;

  void start();                       // binds and starts the thread; throws std::runtime_error on failure
  void stop();                        // closes the listener, joins the thread; idempotent
  int port() const { return port_; }  // bound TCP port
  std::string bound_address() const { return bound_; }

  static constexpr int kMaxConnections = 32;
  static constexpr std::chrono::milliseconds kRequestDeadline{5000};

 private:
  void loop();
  void serve(int fd);
  // Reads until the end of the request head, the deadline or stop(); false
  // when nothing usable arrived.
  bool read_head(int fd, std::string& buf);

  const engine::ProvingService& service_;
  Dashboard dashboard_;
  std::string listen_;
  std::string unix_path_;
  std::string bound_;
  int listen_fd_ = -1;
  int wake_pipe_[2] = {-1, -1};
  int port_ = 0;
  std::atomic<bool> stop_{false};
  std::thread thread_;
  std::mutex workers_mu_;
  std::condition_variable workers_cv_;
  int workers_ = 0;  // connections being served
};

// One parsed request line (exposed for tests).
struct HttpRequestLine {
  std::string method, target, version;
};
// Parses "GET /status HTTP/1.1"; false when malformed.
bool parse_request_line(const std::string& line, HttpRequestLine& out);

}  // namespace cuzk::server
