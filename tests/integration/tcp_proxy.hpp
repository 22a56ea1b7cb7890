#pragma once
// A TCP proxy on 127.0.0.1 in front of a unix socket (the tests' PostgreSQL),
// standing for the network between daemons and their database: pause() stops
// forwarding in both directions (the connections stay open and what is sent
// waits, as in a partition that drops packets), resume() forwards again.
// Threads of the test process; each connection has its own pump thread.
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace cuzk::test {

class TcpProxy {
 public:
  explicit TcpProxy(std::string unix_path) : target_(std::move(unix_path)) {
    listen_fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    if (::bind(listen_fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 ||
        ::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&a), &len) != 0 ||
        ::listen(listen_fd_, 64) != 0)
      throw std::runtime_error("tcp proxy: cannot listen on 127.0.0.1");
    port_ = ntohs(a.sin_port);
    acceptor_ = std::thread([this] { accept_loop(); });
  }
  ~TcpProxy() {
    stop_ = true;
    ::shutdown(listen_fd_, SHUT_RDWR);
    acceptor_.join();
    ::close(listen_fd_);
    std::vector<std::thread> pumps;
    {
      std::lock_guard lk(mu_);
      pumps.swap(pumps_);
    }
    for (auto& t : pumps) t.join();
  }
  TcpProxy(const TcpProxy&) = delete;
  TcpProxy& operator=(const TcpProxy&) = delete;

  int port() const { return port_; }
  void pause() { paused_ = true; }
  void resume() { paused_ = false; }

 private:
  void accept_loop() {
    while (!stop_) {
      const int c = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
      if (c < 0) {
        if (stop_) return;
        continue;
      }
      const int s = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
      sockaddr_un u{};
      u.sun_family = AF_UNIX;
      std::strncpy(u.sun_path, target_.c_str(), sizeof(u.sun_path) - 1);
      if (::connect(s, reinterpret_cast<sockaddr*>(&u), sizeof u) != 0) {
        ::close(s);
        ::close(c);
        continue;
      }
      std::lock_guard lk(mu_);
      pumps_.emplace_back([this, c, s] { pump(c, s); });
    }
  }

  // Copies both ways until either side closes; while paused, reads nothing.
  void pump(int a, int b) {
    char buf[64 * 1024];
    bool open = true;
    while (open && !stop_) {
      if (paused_) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
        continue;
      }
      pollfd p[2] = {{a, POLLIN, 0}, {b, POLLIN, 0}};
      if (::poll(p, 2, 50) <= 0) continue;
      for (int i = 0; i < 2 && open; i++) {
        if (!(p[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
        const int from = i == 0 ? a : b, to = i == 0 ? b : a;
        const ssize_t n = ::recv(from, buf, sizeof buf, 0);
        if (n <= 0) {
          open = false;
          break;
        }
        for (ssize_t off = 0; off < n;) {
          const ssize_t w = ::send(to, buf + off, size_t(n - off), MSG_NOSIGNAL);
          if (w <= 0) {
            open = false;
            break;
          }
          off += w;
        }
      }
    }
    ::close(a);
    ::close(b);
  }

  std::string target_;
  int listen_fd_ = -1;
  int port_ = 0;
  std::atomic<bool> paused_{false}, stop_{false};
  std::thread acceptor_;
  std::mutex mu_;
  std::vector<std::thread> pumps_;
};

}  // namespace cuzk::test
