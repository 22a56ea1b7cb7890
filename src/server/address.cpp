#include "server/address.hpp"

#include <grp.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <system_error>
#include <vector>

namespace cuzk::server {

std::string Address::grpc_target() const {
  if (is_unix) return "unix:" + path;
  if (host.find(':') != std::string::npos) return "[" + host + "]:" + std::to_string(port);
  return host + ":" + std::to_string(port);
}

std::string Address::to_string() const {
  if (is_unix) return "unix://" + path;
  return grpc_target();
}

Address parse_address(const std::string& input) {
  auto bad = [&](const std::string& why) {
    return std::invalid_argument("invalid address \"" + input + "\": " + why);
  };
  std::string s = input;
  Address a;
  if (s.rfind("unix://", 0) == 0 || s.rfind("unix:", 0) == 0) {
    a.is_unix = true;
    a.path = s.rfind("unix://", 0) == 0 ? s.substr(7) : s.substr(5);
    if (a.path.empty()) throw bad("empty socket path");
    if (a.path.size() >= sizeof(sockaddr_un{}.sun_path))
      throw bad("socket path longer than " + std::to_string(sizeof(sockaddr_un{}.sun_path) - 1) + " bytes");
    return a;
  }
  if (s.rfind("http://", 0) == 0) s = s.substr(7);
  if (s.rfind("https://", 0) == 0)
    throw bad(
        "write host:port without https:// (TLS is set by [daemon.tls] on the daemon and by "
        "--tls-ca/--tls-cert/--tls-key on clients)");
  if (s.rfind("tcp://", 0) == 0) s = s.substr(6);
  while (!s.empty() && s.back() == '/') s.pop_back();
  std::string port_str;
  if (!s.empty() && s[0] == '[') {
    auto close = s.find(']');
    if (close == std::string::npos) throw bad("missing ']'");
    a.host = s.substr(1, close - 1);
    if (close + 1 >= s.size() || s[close + 1] != ':') throw bad("missing port");
    port_str = s.substr(close + 2);
  } else {
    auto colon = s.rfind(':');
    if (colon == std::string::npos) throw bad("expected host:port or unix:///path");
    a.host = s.substr(0, colon);
    port_str = s.substr(colon + 1);
  }
  if (a.host.empty()) a.host = "0.0.0.0";
  if (port_str.empty() || port_str.size() > 5 ||
      port_str.find_first_not_of("0123456789") != std::string::npos)
    throw bad("bad port \"" + port_str + "\"");
  a.port = std::stoi(port_str);
  if (a.port > 65535) throw bad("port out of range");
  return a;
}

void prepare_unix_socket_path(const std::string& path) {
  namespace fs = std::filesystem;
  fs::path p(path);
  if (p.has_parent_path()) {
    std::error_code ec;
    fs::create_directories(p.parent_path(), ec);
    if (ec)
      throw std::runtime_error("cannot create directory '" + p.parent_path().string() +
                               "' for socket: " + ec.message());
  }
  struct stat st {};
  if (lstat(path.c_str(), &st) != 0) return;  // nothing there
  if (!S_ISSOCK(st.st_mode))
    throw std::runtime_error("'" + path + "' exists and is not a socket; refusing to remove it");
  // Is somebody listening? A live daemon must not lose its socket.
  int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd >= 0) {
    sockaddr_un sa{};
    sa.sun_family = AF_UNIX;
    std::strncpy(sa.sun_path, path.c_str(), sizeof(sa.sun_path) - 1);
    int rc = ::connect(fd, reinterpret_cast<sockaddr*>(&sa), sizeof(sa));
    ::close(fd);
    if (rc == 0)
      throw std::runtime_error("another server is already listening on unix socket '" + path + "'");
  }
  if (::unlink(path.c_str()) != 0 && errno != ENOENT)
    throw std::runtime_error("cannot remove stale socket '" + path + "': " + std::strerror(errno));
}

void remove_unix_socket(const std::string& path) {
  struct stat st {};
  if (lstat(path.c_str(), &st) == 0 && S_ISSOCK(st.st_mode)) ::unlink(path.c_str());
}

gid_t lookup_group(const std::string& name) {
  std::vector<char> buf(16384);
  group g{};
  group* found = nullptr;
  for (;;) {
    int rc = ::getgrnam_r(name.c_str(), &g, buf.data(), buf.size(), &found);
    if (rc == ERANGE && buf.size() < (1u << 24)) {
      buf.resize(buf.size() * 4);
      continue;
    }
    if (rc != 0)
      throw std::runtime_error("daemon.socket_group: cannot look up group '" + name +
                               "': " + std::strerror(rc));
    break;
  }
  if (!found) throw std::runtime_error("daemon.socket_group: group '" + name + "' does not exist");
  return g.gr_gid;
}

void set_socket_permissions(const std::string& path, unsigned mode, std::optional<gid_t> group) {
  if (group && ::chown(path.c_str(), static_cast<uid_t>(-1), *group) != 0)
    throw std::runtime_error("cannot set the group of socket '" + path +
                             "' (daemon.socket_group): " + std::strerror(errno));
  if (::chmod(path.c_str(), static_cast<mode_t>(mode)) != 0)
    throw std::runtime_error("cannot set the mode of socket '" + path +
                             "' (daemon.socket_mode): " + std::strerror(errno));
}

UmaskGuard::UmaskGuard(mode_t mask) : old_(::umask(mask)) {}
UmaskGuard::~UmaskGuard() { ::umask(old_); }

}  // namespace cuzk::server
