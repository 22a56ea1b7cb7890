#pragma once
// The cuzk.v1.ProvingEngine gRPC service over a ProvingService.
//
// Lifecycle:
//   GrpcServer srv(service, {.listen = "unix:///run/cuzk/cuzk.sock"});
//   srv.start();                 // binds (removes a stale socket, creates its dir)
//   ...
//   srv.stop_accepting();        // SubmitProof/Prove -> UNAVAILABLE, the rest keeps working
//   engine.shutdown(grace);      // answers every waiter (COMPLETED / CANCELLED)
//   srv.shutdown(1s);            // stops listening, waits for in-flight RPCs, removes the socket
//
// Blocking RPCs (AwaitProof, Prove) wait on the service in short slices so
// that a client that goes away, or a server shutdown past its deadline,
// releases the handler thread; the job itself keeps running.
//
// Health: the standard grpc.health.v1.Health service answers SERVING for ""
// and "cuzk.v1.ProvingEngine" from start() until stop_accepting(), then
// NOT_SERVING (a load balancer stops sending work to a draining daemon). It
// needs no token on any listener (load balancers probe without one); it
// tells nothing but whether the daemon takes work.
//
// Security (GrpcServerOptions): TLS from PEM files, optional client
// certificates, bearer tokens checked on every cuzk.v1 RPC (UNAUTHENTICATED),
// plain TCP refused unless explicitly allowed, unix socket mode and group.
//
// Admission before allocation: every cuzk.v1 method reads its request
// message itself (grpc++'s "streamed unary" form), after the token check, so
// a call without a valid token is refused before its body is read, on every
// listener kind. Messages are read a few at a time (receive_budget_bytes /
// max_message_bytes turns, at least one), and as many SubmitProof/Prove
// requests at a time are between their reading and their admission by the
// service; gRPC's memory quota (that budget and kQuotaHeadroom) cancels
// streams that would go past it; flow-control windows of streams not being
// read stay at 64 KiB. So what requests hold before admission is bounded
// (docs/PROTOCOL.md §1 Transport: about five max-size messages per turn).
#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <string>

#include <grpcpp/support/status_code_enum.h>

#include "engine/service.hpp"

namespace grpc {
class Server;
}  // namespace grpc

namespace cuzk::server {

// TLS for the listener ([daemon.tls]): PEM files. cert_file and key_file
// turn TLS on; client_ca_file additionally requires every client to present
// a certificate signed by that CA.
struct TlsOptions {
  std::string cert_file{};       // server certificate chain
  std::string key_file{};        // its private key
  std::string client_ca_file{};  // "" = no client certificates asked for
  bool enabled() const { return !cert_file.empty() || !key_file.empty() || !client_ca_file.empty(); }
};

// Designated initializers must follow this order; every member has a
// default initializer, so any may be left out.
struct GrpcServerOptions {
  std::string listen = "unix:///run/cuzk/cuzk.sock";  // see address.hpp
  // TCP without TLS and without tokens is refused by start() unless this is
  // set (daemon.allow_insecure_tcp); unix sockets are not concerned.
  bool allow_insecure_tcp = false;
  TlsOptions tls{};
  // daemon.token_file: when set, every RPC needs "authorization: Bearer <token>"
  // with a token of the file (auth.hpp), on any listener; else UNAUTHENTICATED.
  std::string token_file{};
  // Unix socket: permission bits (daemon.socket_mode) and group
  // (daemon.socket_group, "" = the daemon's own) of the socket file.
  unsigned socket_mode = 0660;
  std::string socket_group{};
  int max_message_bytes = 256 * 1024 * 1024;
  // Bytes that request messages being received may hold at once: that many
  // max-size messages are read at a time (at least one), and gRPC's resource
  // quota is this plus kQuotaHeadroom. 0 = one message.
  uint64_t receive_budget_bytes = 0;
  // How long a call waits for its turn to be read before it is refused with
  // RESOURCE_EXHAUSTED (retry later).
  std::chrono::milliseconds receive_wait{30000};
  // Slice length of blocking waits (checks for client cancellation in between).
  std::chrono::milliseconds await_slice{250};
};

// ServiceError::Code -> gRPC status code.
grpc::StatusCode grpc_code(engine::ServiceError::Code c);

class ProvingEngineService;  // the generated-service implementation (grpc_server.cpp)
class TokenSet;              // auth.hpp

class GrpcServer {
 public:
  GrpcServer(engine::ProvingService& service, GrpcServerOptions opts);
  ~GrpcServer();  // shutdown(0) if still running
  GrpcServer(const GrpcServer&) = delete;
  GrpcServer& operator=(const GrpcServer&) = delete;

  // Binds and starts serving; throws std::runtime_error on failure: a bad
  // address, unreadable TLS or token files, plain TCP without TLS or tokens
  // (unless allow_insecure_tcp), an unknown socket group.
  void start();
  // New SubmitProof/Prove calls fail with UNAVAILABLE; other RPCs still work.
  void stop_accepting();
  // Stops listening; in-flight RPCs get until `deadline` to finish, then are
  // cancelled. Removes the unix socket file. Idempotent.
  void shutdown(std::chrono::milliseconds deadline);
  // Blocks until shutdown() has completed.
  void wait();

  bool running() const { return running_.load(); }
  // The address as bound ("unix:///path" or "host:port" with the real port).
  std::string bound_address() const;
  int port() const { return port_; }  // TCP: bound port (also for ":0"); unix: 0

  static constexpr const char* kHealthServiceName = "cuzk.v1.ProvingEngine";
  // gRPC's memory quota beyond the receive budget (small requests, responses,
  // the transport's own buffers).
  static constexpr uint64_t kQuotaHeadroom = 64ull << 20;

 private:
  void set_health(bool serving);

  engine::ProvingService& service_;
  GrpcServerOptions opts_;
  std::shared_ptr<const TokenSet> tokens_;  // null = no token required
  std::unique_ptr<ProvingEngineService> impl_;
  std::unique_ptr<grpc::Server> server_;
  std::string unix_path_;
  std::string bound_;
  int port_ = 0;
  std::atomic<bool> running_{false};
  std::mutex shutdown_mu_;
};

}  // namespace cuzk::server
