#pragma once
// Listen/connect addresses of the daemon: "unix:///abs/path.sock",
// "unix:relative.sock", "host:port", "[v6]:port", optionally prefixed with
// "http://" (as Curio and cuzk-bench write TCP addresses).
#include <sys/types.h>

#include <optional>
#include <string>

namespace cuzk::server {

struct Address {
  bool is_unix = false;
  std::string path;  // unix: filesystem path
  std::string host;  // tcp: host name or literal (without brackets)
  int port = 0;      // tcp
  // The form gRPC understands: "unix:PATH" or "host:port" ("[v6]:port").
  std::string grpc_target() const;
  // Human-readable form for logs.
  std::string to_string() const;
};

// Throws std::invalid_argument with a message naming the address.
Address parse_address(const std::string& addr);

// Prepares a unix socket path for bind(): creates the parent directory and
// removes a stale socket file. Throws std::runtime_error when a live server
// already listens there or when the path exists and is not a socket.
void prepare_unix_socket_path(const std::string& path);

// Removes the socket file if it is (still) a socket. Never throws.
void remove_unix_socket(const std::string& path);

// The id of group `name` (daemon.socket_group); throws std::runtime_error
// naming the key when there is no such group.
gid_t lookup_group(const std::string& name);

// chmod(path, mode) and, when `group` is set, chown to that group (the
// owner is kept). Throws std::runtime_error naming the path.
void set_socket_permissions(const std::string& path, unsigned mode, std::optional<gid_t> group);

// Sets the process umask for its lifetime (process-wide: only around the
// bind() of a socket, while no other thread creates files).
class UmaskGuard {
 public:
  explicit UmaskGuard(mode_t mask);
  ~UmaskGuard();
  UmaskGuard(const UmaskGuard&) = delete;
  UmaskGuard& operator=(const UmaskGuard&) = delete;

 private:
  mode_t old_;
};

}  // namespace cuzk::server
