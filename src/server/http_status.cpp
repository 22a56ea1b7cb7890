#include "server/http_status.hpp"

#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <spdlog/spdlog.h>

#include <cerrno>
#include <cstring>
#include <optional>
#include <stdexcept>

#include "server/address.hpp"

namespace cuzk::server {

namespace {

constexpr size_t kMaxHeaderBytes = 16 * 1024;
constexpr int kSendTimeoutMs = 5000;  // per send() of the response

void set_send_timeout(int fd) {
  timeval tv{};
  tv.tv_sec = kSendTimeoutMs / 1000;
  tv.tv_usec = (kSendTimeoutMs % 1000) * 1000;
  ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
}

bool send_all(int fd, const std::string& data) {
  size_t off = 0;
  while (off < data.size()) {
    ssize_t n = ::send(fd, data.data() + off, data.size() - off, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    off += size_t(n);
  }
  return true;
}

const char* reason(int code) {
  switch (code) {
    case 200: return "OK";
    case 400: return "Bad Request";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 431: return "Request Header Fields Too Large";
    case 500: return "Internal Server Error";
    default: return "Error";
  }
}

std::string response(int code, const std::string& content_type, const std::string& body, bool head_only,
                     const std::string& extra_headers = {}) {
  std::string r = "HTTP/1.1 " + std::to_string(code) + " " + reason(code) + "\r\n";
  r += "Content-Type: " + content_type + "\r\n";
  r += "Content-Length: " + std::to_string(body.size()) + "\r\n";
  r += "Cache-Control: no-store\r\n";
  r += "Connection: close\r\n";
  r += extra_headers;
  r += "\r\n";
  if (!head_only) r += body;
  return r;
}

// Closing with unread input makes the kernel send RST, which can destroy the
// response before the client reads it; half-close and drain briefly first.
void linger_close(int fd) {
  ::shutdown(fd, SHUT_WR);
  timeval tv{0, 200 * 1000};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
  char buf[4096];
  size_t drained = 0;
  while (drained < (256u << 10)) {
    ssize_t n = ::recv(fd, buf, sizeof(buf), 0);
    if (n <= 0) break;
    drained += size_t(n);
  }
  ::close(fd);
}

}  // namespace

bool parse_request_line(const std::string& line, HttpRequestLine& out) {
  auto sp1 = line.find(' ');
  if (sp1 == std::string::npos || sp1 == 0) return false;
  auto sp2 = line.find(' ', sp1 + 1);
  if (sp2 == std::string::npos || sp2 == sp1 + 1) return false;
  if (line.find(' ', sp2 + 1) != std::string::npos) return false;
  out.method = line.substr(0, sp1);
  out.target = line.substr(sp1 + 1, sp2 - sp1 - 1);
  out.version = line.substr(sp2 + 1);
  if (out.version.rfind("HTTP/", 0) != 0) return false;
  for (char c : out.method)
    if (c < 'A' || c > 'Z') return false;
  return true;
}

HttpStatusServer::HttpStatusServer(const engine::ProvingService& service, std::string listen,
                                   const TimelineRing* ring)
    : service_(service), dashboard_(service, ring), listen_(std::move(listen)) {}

HttpStatusServer::~HttpStatusServer() { stop(); }

void HttpStatusServer::start() {
  if (thread_.joinable()) throw std::runtime_error("HTTP status server already started");
  Address addr;
  try {
    addr = parse_address(listen_);
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(std::string("status_listen: ") + e.what());
  }
  int fd = -1;
  if (addr.is_unix) {
    prepare_unix_socket_path(addr.path);
    fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) throw std::runtime_error(std::string("socket: ") + std::strerror(errno));
    sockaddr_un sa{};
    sa.sun_family = AF_UNIX;
    std::strncpy(sa.sun_path, addr.path.c_str(), sizeof(sa.sun_path) - 1);
    if (::bind(fd, reinterpret_cast<sockaddr*>(&sa), sizeof(sa)) != 0) {
      int err = errno;
      ::close(fd);
      throw std::runtime_error("cannot bind " + addr.to_string() + ": " + std::strerror(err));
    }
    unix_path_ = addr.path;
    bound_ = addr.to_string();
  } else {
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
    addrinfo* res = nullptr;
    const std::string port = std::to_string(addr.port);
    int gai = ::getaddrinfo(addr.host.c_str(), port.c_str(), &hints, &res);
    if (gai != 0) throw std::runtime_error("cannot resolve " + addr.to_string() + ": " + gai_strerror(gai));
    std::string last_err = "no usable address";
    for (addrinfo* ai = res; ai; ai = ai->ai_next) {
      fd = ::socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
      if (fd < 0) continue;
      int one = 1;
      ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
      if (::bind(fd, ai->ai_addr, ai->ai_addrlen) == 0) break;
      last_err = std::strerror(errno);
      ::close(fd);
      fd = -1;
    }
    ::freeaddrinfo(res);
    if (fd < 0) throw std::runtime_error("cannot bind " + addr.to_string() + ": " + last_err);
    sockaddr_storage ss{};
    socklen_t len = sizeof(ss);
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&ss), &len);
    port_ = ss.ss_family == AF_INET6 ? ntohs(reinterpret_cast<sockaddr_in6*>(&ss)->sin6_port)
                                     : ntohs(reinterpret_cast<sockaddr_in*>(&ss)->sin_port);
    Address a = addr;
    a.port = port_;
    bound_ = a.grpc_target();
  }
  if (::listen(fd, 64) != 0) {
    int err = errno;
    ::close(fd);
    throw std::runtime_error("cannot listen on " + bound_ + ": " + std::strerror(err));
  }
  if (::pipe2(wake_pipe_, O_CLOEXEC | O_NONBLOCK) != 0) {
    ::close(fd);
    throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  }
  listen_fd_ = fd;
  stop_.store(false);
  thread_ = std::thread([this] { loop(); });
  spdlog::info("HTTP status listening on {} (GET / for the dashboard, /status, /metrics)", bound_);
}

void HttpStatusServer::stop() {
  if (!thread_.joinable()) return;
  stop_.store(true);
  char c = 1;
  (void)!::write(wake_pipe_[1], &c, 1);
  thread_.join();
  {  // connections still being served see the wake pipe too
    std::unique_lock lk(workers_mu_);
    workers_cv_.wait(lk, [&] { return workers_ == 0; });
  }
  ::close(listen_fd_);
  ::close(wake_pipe_[0]);
  ::close(wake_pipe_[1]);
  listen_fd_ = wake_pipe_[0] = wake_pipe_[1] = -1;
  if (!unix_path_.empty()) remove_unix_socket(unix_path_);
}

void HttpStatusServer::loop() {
  while (!stop_.load()) {
    pollfd fds[2] = {{listen_fd_, POLLIN, 0}, {wake_pipe_[0], POLLIN, 0}};
    int n = ::poll(fds, 2, -1);
    if (n < 0) {
      if (errno == EINTR) continue;
      spdlog::error("HTTP status: poll: {}", std::strerror(errno));
      return;
    }
    if (fds[1].revents) break;
    if (!(fds[0].revents & POLLIN)) continue;
    int c = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (c < 0) continue;
    {
      std::lock_guard lk(workers_mu_);
      if (workers_ >= kMaxConnections) {  // a flood of idle connections: drop the newest
        ::close(c);
        continue;
      }
      workers_++;
    }
    set_send_timeout(c);
    auto done = [this] {
      std::lock_guard lk(workers_mu_);
      workers_--;
      workers_cv_.notify_all();
    };
    try {
      std::thread([this, c, done] {
        try {
          serve(c);
        } catch (const std::exception& e) {
          spdlog::warn("HTTP status: {}", e.what());
        }
        linger_close(c);
        done();
      }).detach();  // stop() waits for the count to reach zero
    } catch (const std::exception& e) {
      spdlog::warn("HTTP status: cannot start a connection thread: {}", e.what());
      ::close(c);
      done();
    }
  }
}

bool HttpStatusServer::read_head(int fd, std::string& buf) {
  const auto deadline = std::chrono::steady_clock::now() + kRequestDeadline;
  char tmp[2048];
  while (buf.find("\r\n\r\n") == std::string::npos && buf.find("\n\n") == std::string::npos) {
    if (buf.size() > kMaxHeaderBytes) return true;  // the caller answers 431
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0 || stop_.load()) return !buf.empty();  // answer what we have
    pollfd fds[2] = {{fd, POLLIN, 0}, {wake_pipe_[0], POLLIN, 0}};
    const int n = ::poll(fds, 2, int(left.count()));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0 || fds[1].revents) return !buf.empty();
    const ssize_t got = ::recv(fd, tmp, sizeof(tmp), 0);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return !buf.empty();  // closed before sending anything, or answer what we have
    buf.append(tmp, size_t(got));
  }
  return true;
}

void HttpStatusServer::serve(int fd) {
  std::string buf;
  if (!read_head(fd, buf)) return;
  if (buf.size() > kMaxHeaderBytes) {
    send_all(fd, response(431, "text/plain", "request header too large\n", false));
    return;
  }
  std::string line = buf.substr(0, buf.find('\n'));
  if (!line.empty() && line.back() == '\r') line.pop_back();
  HttpRequestLine req;
  if (!parse_request_line(line, req)) {
    send_all(fd, response(400, "text/plain", "malformed request\n", false));
    return;
  }
  const size_t q = req.target.find('?');
  std::string path = req.target.substr(0, req.target.find_first_of("?#"));
  std::string query =
      q == std::string::npos ? std::string() : req.target.substr(q + 1, req.target.find('#', q) - q - 1);
  const bool head = req.method == "HEAD";
  const bool own = path == "/status" || path == "/metrics";
  if (!own && !Dashboard::serves(path)) {
    send_all(fd, response(404, "text/plain", "not found; try /, /status or /metrics\n", head));
    return;
  }
  if (req.method != "GET" && !head) {
    send_all(fd, response(405, "text/plain", "method not allowed\n", false, "Allow: GET, HEAD\r\n"));
    return;
  }
  std::string body, type;
  try {
    if (!own) {
      if (auto page = dashboard_.get(path, query))
        send_all(fd, response(page->code, page->content_type, page->body, head, page->extra_headers));
      return;
    }
    if (path == "/status") {
      body = service_.status_json();
      type = "application/json";
    } else {
      body = service_.metrics_text();
      if (!body.empty() && body.back() != '\n') body += '\n';
      body += dashboard_.live_metrics();
      type = "text/plain; version=0.0.4; charset=utf-8";
    }
  } catch (const std::exception& e) {
    send_all(fd, response(500, "text/plain", std::string("error: ") + e.what() + "\n", head));
    return;
  }
  if (!body.empty() && body.back() != '\n' && type[0] == 't') body += '\n';
  send_all(fd, response(200, type, body, head));
}

}  // namespace cuzk::server
