#pragma once
// A deliberately small HTTP/1.1 server (POSIX sockets, one thread) for
// daemon.status_listen:
//   GET /status   -> 200 application/json   (ProvingService::status_json)
//   GET /metrics  -> 200 text/plain (Prometheus exposition, metrics_text)
//   anything else -> 404 (405 for methods other than GET/HEAD, 400 if malformed)
// Each connection carries one request and is closed after the response.
#include <atomic>
#include <string>
#include <thread>

#include "engine/service.hpp"

namespace cuzk::server {

class HttpStatusServer {
 public:
  // `listen`: "host:port" (port 0 = any), "http://host:port" or "unix:///path".
  HttpStatusServer(const engine::ProvingService& service, std::string listen);
  ~HttpStatusServer();  // stop()
  HttpStatusServer(const HttpStatusServer&) = delete;
  HttpStatusServer& operator=(const HttpStatusServer&) = delete;

  void start();                       // binds and starts the thread; throws std::runtime_error on failure
  void stop();                        // closes the listener, joins the thread; idempotent
  int port() const { return port_; }  // bound TCP port
  std::string bound_address() const { return bound_; }

 private:
  void loop();
  void serve(int fd);

  const engine::ProvingService& service_;
  std::string listen_;
  std::string unix_path_;
  std::string bound_;
  int listen_fd_ = -1;
  int wake_pipe_[2] = {-1, -1};
  int port_ = 0;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

// One parsed request line (exposed for tests).
struct HttpRequestLine {
  std::string method, target, version;
};
// Parses "GET /status HTTP/1.1"; false when malformed.
bool parse_request_line(const std::string& line, HttpRequestLine& out);

}  // namespace cuzk::server
