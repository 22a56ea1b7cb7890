#pragma once
// A minimal HTTP/1.1 client for the status listener's tests: one request per
// connection, the whole response (status line, headers, body) as a string.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <string>

namespace cuzk::test::http {

// Sends `raw` and returns everything the server writes before closing.
inline std::string exchange_fd(int fd, const std::string& raw) {
  size_t off = 0;
  while (off < raw.size()) {
    ssize_t n = ::send(fd, raw.data() + off, raw.size() - off, MSG_NOSIGNAL);
    if (n <= 0) break;
    off += size_t(n);
  }
  ::shutdown(fd, SHUT_WR);
  std::string out;
  char buf[4096];
  ssize_t n;
  while ((n = ::recv(fd, buf, sizeof(buf), 0)) > 0) out.append(buf, size_t(n));
  ::close(fd);
  return out;
}

inline std::string exchange_tcp(int port, const std::string& raw) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in sa{};
  sa.sin_family = AF_INET;
  sa.sin_port = htons(uint16_t(port));
  sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&sa), sizeof(sa)) != 0) {
    ::close(fd);
    return "connect failed";
  }
  return exchange_fd(fd, raw);
}

inline std::string get(int port, const std::string& path) {
  return exchange_tcp(port, "GET " + path + " HTTP/1.1\r\nHost: localhost\r\nAccept: */*\r\n\r\n");
}

inline int status_code(const std::string& resp) {
  if (resp.rfind("HTTP/1.1 ", 0) != 0) return -1;
  return std::stoi(resp.substr(9, 3));
}
inline std::string body(const std::string& resp) {
  auto p = resp.find("\r\n\r\n");
  return p == std::string::npos ? "" : resp.substr(p + 4);
}

// The value of header `name` (case as sent), "" when absent.
inline std::string header(const std::string& resp, const std::string& name) {
  const std::string key = "\r\n" + name + ": ";
  const auto p = resp.find(key);
  if (p == std::string::npos || p > resp.find("\r\n\r\n")) return "";
  const auto start = p + key.size();
  return resp.substr(start, resp.find("\r\n", start) - start);
}

}  // namespace cuzk::test::http
