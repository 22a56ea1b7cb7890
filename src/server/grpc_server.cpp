#include "server/grpc_server.hpp"

#include <grpcpp/grpcpp.h>
#include <grpcpp/health_check_service_interface.h>
#include <spdlog/spdlog.h>

#include <sys/stat.h>

#include <algorithm>
#include <condition_variable>
#include <fstream>
#include <new>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "cuzk/v1/proving.grpc.pb.h"
#include "server/address.hpp"
#include "server/auth.hpp"
#include "server/request.hpp"

namespace cuzk::server {

namespace pb = ::cuzk::v1;
using engine::ServiceError;
using Clock = std::chrono::steady_clock;

grpc::StatusCode grpc_code(ServiceError::Code c) {
  switch (c) {
    case ServiceError::Code::InvalidArgument: return grpc::StatusCode::INVALID_ARGUMENT;
    case ServiceError::Code::NotFound: return grpc::StatusCode::NOT_FOUND;
    case ServiceError::Code::AlreadyExists: return grpc::StatusCode::ALREADY_EXISTS;
    case ServiceError::Code::FailedPrecondition: return grpc::StatusCode::FAILED_PRECONDITION;
    case ServiceError::Code::ResourceExhausted: return grpc::StatusCode::RESOURCE_EXHAUSTED;
    case ServiceError::Code::Unavailable: return grpc::StatusCode::UNAVAILABLE;
    case ServiceError::Code::Internal: return grpc::StatusCode::INTERNAL;
  }
  return grpc::StatusCode::UNKNOWN;
}

namespace {

constexpr uint64_t kForeverMs = 10ull * 365 * 24 * 3600 * 1000;
constexpr const char* kBadToken = "missing or invalid bearer token (authorization metadata)";

// A PEM file named by config key `key`, with a BEGIN line containing `what`.
std::string read_pem(const std::string& key, const std::string& path, const char* what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(key + ": cannot read '" + path + "'");
  std::ostringstream ss;
  ss << in.rdbuf();
  std::string pem = ss.str();
  auto begin = pem.find("-----BEGIN ");
  if (begin == std::string::npos || pem.find(what, begin) == std::string::npos)
    throw std::runtime_error(key + ": '" + path + "' is not a PEM file with a " + what);
  return pem;
}

std::shared_ptr<grpc::ServerCredentials> tls_credentials(const TlsOptions& t) {
  if (t.cert_file.empty() || t.key_file.empty())
    throw std::runtime_error(
        "daemon.tls: cert_file and key_file are both required to enable TLS (client_ca_file alone is "
        "not enough)");
  grpc::SslServerCredentialsOptions o(GRPC_SSL_DONT_REQUEST_CLIENT_CERTIFICATE);
  o.pem_key_cert_pairs.push_back({read_pem("daemon.tls.key_file", t.key_file, "PRIVATE KEY"),
                                  read_pem("daemon.tls.cert_file", t.cert_file, "CERTIFICATE")});
  if (!t.client_ca_file.empty()) {
    o.pem_root_certs = read_pem("daemon.tls.client_ca_file", t.client_ca_file, "CERTIFICATE");
    o.client_certificate_request = GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY;
  }
  return grpc::SslServerCredentials(o);
}

grpc::Status invalid(const std::string& msg) { return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, msg); }

// A job id is a request id (at most 256 bytes) and "#<n>"; a circuit id is
// shorter still. Anything longer is refused before it is looked up (or
// copied into an error message).
constexpr size_t kMaxIdBytes = 512;
// Requests other than SubmitProof/Prove carry an id and a few numbers.
constexpr size_t kMaxSmallRequestBytes = 64 * 1024;
grpc::Status check_id(const char* field, const std::string& id) {
  if (id.empty()) return invalid(std::string(field) + " is required");
  if (id.size() > kMaxIdBytes)
    return invalid(std::string(field) + " is " + std::to_string(id.size()) + " bytes, at most " +
                   std::to_string(kMaxIdBytes) + " are allowed");
  return grpc::Status::OK;
}

void to_proto(const engine::ProofResult& r, const std::string& job_id, pb::AwaitProofResponse* out) {
  out->set_job_id(r.job_id.empty() ? job_id : r.job_id);
  int st = static_cast<int>(r.status);
  if (st < 0 || st > pb::AwaitProofResponse::TIMEOUT) st = pb::AwaitProofResponse::UNKNOWN;
  out->set_status(static_cast<pb::AwaitProofResponse::Status>(st));
  out->set_proof(r.proof);
  out->set_error_message(r.error_message);
  out->set_queue_wait_ms(r.queue_wait_ms);
  out->set_srs_load_ms(r.srs_load_ms);
  out->set_synthesis_ms(r.synthesis_ms);
  out->set_gpu_compute_ms(r.gpu_compute_ms);
  out->set_total_ms(r.total_ms);
}

}  // namespace

// Request messages being read at once (and large ones until admitted): at
// most `slots`; a call waits for a slot at most `wait` (and not past its
// cancellation), else it is refused without reading.
class ReceiveGate {
 public:
  ReceiveGate(int slots, std::chrono::milliseconds wait) : free_(std::max(slots, 1)), wait_(wait) {}
  class Slot {
   public:
    explicit Slot(ReceiveGate* g = nullptr) : g_(g) {}  // null: holds nothing
    Slot(Slot&& o) noexcept : g_(o.g_) { o.g_ = nullptr; }
    Slot& operator=(Slot&& o) noexcept {
      if (this != &o) {
        release();
        g_ = o.g_;
        o.g_ = nullptr;
      }
      return *this;
    }
    ~Slot() { release(); }
    void release() {
      if (g_) g_->give_back();
      g_ = nullptr;
    }

   private:
    ReceiveGate* g_;
  };
  // A slot, or none (nullopt) once the wait is over or the call cancelled.
  std::optional<Slot> take(grpc::ServerContext* ctx) {
    const auto until = Clock::now() + wait_;
    std::unique_lock lk(mu_);
    while (free_ == 0) {
      if (ctx->IsCancelled() || Clock::now() >= until) return std::nullopt;
      cv_.wait_for(lk, std::chrono::milliseconds(100));  // a cancelled caller is noticed
    }
    free_--;
    return Slot(this);
  }

 private:
  void give_back() {
    {
      std::lock_guard lk(mu_);
      free_++;
    }
    cv_.notify_one();
  }
  std::mutex mu_;
  std::condition_variable cv_;
  int free_;
  std::chrono::milliseconds wait_;
};

// Every method in grpc++'s "streamed unary" form: the handler runs when the
// call's metadata has arrived and reads the request message itself, so the
// token is checked before a byte of the body is held, on every listener.
class ProvingEngineService final : public pb::ProvingEngine::StreamedUnaryService {
 public:
  template <class Req, class Resp>
  using Stream = grpc::ServerUnaryStreamer<Req, Resp>;

  ProvingEngineService(engine::ProvingService& svc, std::chrono::milliseconds slice,
                       std::shared_ptr<const TokenSet> tokens, int receive_slots,
                       std::chrono::milliseconds receive_wait)
      : svc_(svc),
        slice_(std::max(slice, std::chrono::milliseconds(1))),
        tokens_(std::move(tokens)),
        reading_(receive_slots, receive_wait),
        admitting_(receive_slots, receive_wait) {}

  void stop_accepting() { accepting_.store(false); }

  grpc::Status StreamedSubmitProof(grpc::ServerContext* ctx,
                                   Stream<pb::SubmitProofRequest, pb::SubmitProofResponse>* s) override {
    return unary("SubmitProof", ctx, s, true,
                 [&](pb::SubmitProofRequest& req, pb::SubmitProofResponse& resp, auto& slot) {
                   engine::ProofRequest r;
                   if (auto st = admit(req, r); !st.ok()) return st;
                   auto res = svc_.submit(std::move(r));
                   slot.release();
                   resp.set_job_id(res.job_id);
                   resp.set_queue_position(res.queue_position);
                   resp.set_assigned_gpu(res.assigned_gpu);
                   return grpc::Status::OK;
                 });
  }

  grpc::Status StreamedAwaitProof(grpc::ServerContext* ctx,
                                  Stream<pb::AwaitProofRequest, pb::AwaitProofResponse>* s) override {
    return unary("AwaitProof", ctx, s, false,
                 [&](pb::AwaitProofRequest& req, pb::AwaitProofResponse& resp, auto&) {
                   if (auto st = check_id("job_id", req.job_id()); !st.ok()) return st;
                   std::optional<std::chrono::milliseconds> timeout;
                   // Any uint64 works: beyond ten years means "until the job ends".
                   if (req.timeout_ms() > 0 && req.timeout_ms() < kForeverMs)
                     timeout = std::chrono::milliseconds(int64_t(req.timeout_ms()));
                   engine::ProofResult r;
                   if (auto st = wait_for(ctx, req.job_id(), timeout, r); !st.ok()) return st;
                   to_proto(r, req.job_id(), &resp);
                   return grpc::Status::OK;
                 });
  }

  grpc::Status StreamedProve(grpc::ServerContext* ctx,
                             Stream<pb::ProveRequest, pb::ProveResponse>* s) override {
    return unary("Prove", ctx, s, true, [&](pb::ProveRequest& req, pb::ProveResponse& resp, auto& slot) {
      if (!req.has_submit()) return invalid("submit is required");
      engine::ProofRequest r;
      if (auto st = admit(*req.mutable_submit(), r); !st.ok()) return st;
      auto sub = svc_.submit(std::move(r));
      slot.release();  // the message is admitted: the next one may be read
      req.Clear();
      engine::ProofResult res;
      if (auto st = wait_for(ctx, sub.job_id, std::nullopt, res); !st.ok()) return st;
      to_proto(res, sub.job_id, resp.mutable_result());
      return grpc::Status::OK;
    });
  }

  grpc::Status StreamedCancelProof(grpc::ServerContext* ctx,
                                   Stream<pb::CancelProofRequest, pb::CancelProofResponse>* s) override {
    return unary("CancelProof", ctx, s, false,
                 [&](pb::CancelProofRequest& req, pb::CancelProofResponse& resp, auto&) {
                   if (auto st = check_id("job_id", req.job_id()); !st.ok()) return st;
                   resp.set_was_running(svc_.cancel(req.job_id()));
                   return grpc::Status::OK;
                 });
  }

  grpc::Status StreamedGetStatus(grpc::ServerContext* ctx,
                                 Stream<pb::GetStatusRequest, pb::GetStatusResponse>* s) override {
    return unary("GetStatus", ctx, s, false, [&](pb::GetStatusRequest&, pb::GetStatusResponse& resp, auto&) {
      auto st = svc_.status();
      for (const auto& g : st.devices) {
        auto* o = resp.add_gpus();
        o->set_ordinal(g.ordinal);
        o->set_name(g.name);
        o->set_vram_total_bytes(g.memory_total_bytes);
        o->set_vram_free_bytes(g.memory_free_bytes);
        o->set_current_job_id(g.current_job_id);
        o->set_current_proof_kind(g.current_proof_kind);
        o->set_host_memory(g.host_memory);
        o->set_workers(g.workers);
        o->set_busy_workers(g.busy_workers);
      }
      for (const auto& e : st.loaded_srs) {
        auto* o = resp.add_loaded_srs();
        o->set_circuit_id(e.circuit_id);
        int tier = static_cast<int>(e.tier);
        if (tier < pb::SRSStatus::HOT || tier > pb::SRSStatus::COLD) tier = pb::SRSStatus::COLD;
        o->set_tier(static_cast<pb::SRSStatus::Tier>(tier));
        o->set_size_bytes(e.size_bytes);
        o->set_ref_count(e.ref_count);
      }
      for (const auto& q : st.queues) {
        auto* o = resp.add_queues();
        o->set_proof_kind(q.proof_kind);
        o->set_pending(q.pending);
        o->set_in_progress(q.in_progress);
      }
      resp.set_total_proofs_completed(st.total_proofs_completed);
      resp.set_total_proofs_failed(st.total_proofs_failed);
      resp.set_uptime_seconds(st.uptime_seconds);
      resp.set_pinned_memory_bytes(st.pinned_used_bytes);
      resp.set_pinned_memory_limit_bytes(st.pinned_limit_bytes);
      resp.set_memory_budget_used_bytes(st.budget_used_bytes);
      resp.set_memory_budget_limit_bytes(st.budget_limit_bytes);
      return grpc::Status::OK;
    });
  }

  grpc::Status StreamedGetMetrics(grpc::ServerContext* ctx,
                                  Stream<pb::GetMetricsRequest, pb::GetMetricsResponse>* s) override {
    return unary("GetMetrics", ctx, s, false,
                 [&](pb::GetMetricsRequest&, pb::GetMetricsResponse& resp, auto&) {
                   resp.set_prometheus_text(svc_.metrics_text());
                   return grpc::Status::OK;
                 });
  }

  grpc::Status StreamedPreloadSRS(grpc::ServerContext* ctx,
                                  Stream<pb::PreloadSrsRequest, pb::PreloadSrsResponse>* s) override {
    return unary("PreloadSRS", ctx, s, false,
                 [&](pb::PreloadSrsRequest& req, pb::PreloadSrsResponse& resp, auto&) {
                   if (auto st = check_id("circuit_id", req.circuit_id()); !st.ok()) return st;
                   auto r = svc_.preload(req.circuit_id());
                   resp.set_already_loaded(r.already_loaded);
                   resp.set_load_time_ms(r.load_time_ms);
                   return grpc::Status::OK;
                 });
  }

  grpc::Status StreamedEvictSRS(grpc::ServerContext* ctx,
                                Stream<pb::EvictSrsRequest, pb::EvictSrsResponse>* s) override {
    return unary("EvictSRS", ctx, s, false, [&](pb::EvictSrsRequest& req, pb::EvictSrsResponse& resp, auto&) {
      if (auto st = check_id("circuit_id", req.circuit_id()); !st.ok()) return st;
      auto r = svc_.evict(req.circuit_id());
      resp.set_was_loaded(r.was_loaded);
      resp.set_freed_bytes(r.freed_bytes);
      return grpc::Status::OK;
    });
  }

 private:
  // The token, then the turns, then the message, then `f` with the service's
  // errors mapped to gRPC codes, then the response. Every message is read in
  // a turn of its own (any method's message may be large: its size is known
  // only once it is in); a large request (SubmitProof, Prove) also holds an
  // admission turn until the service has admitted it, so that a submission
  // waiting for the database never holds up the reading of other calls.
  template <class Req, class Resp, class F>
  grpc::Status unary(const char* rpc, grpc::ServerContext* ctx, Stream<Req, Resp>* s, bool large, F&& f) {
    if (tokens_ && !tokens_->accepts_metadata(ctx->client_metadata())) {
      spdlog::debug("{}: refused a call without a valid token from {}", rpc, ctx->peer());
      return grpc::Status(grpc::StatusCode::UNAUTHENTICATED, kBadToken);
    }
    auto busy = [&] {
      return grpc::Status(grpc::StatusCode::RESOURCE_EXHAUSTED,
                          std::string(rpc) + ": too many requests being received; retry later");
    };
    ReceiveGate::Slot admitting;
    if (large) {
      auto taken = admitting_.take(ctx);
      if (!taken) return busy();
      admitting = std::move(*taken);
    }
    Req req;
    {
      auto taken = reading_.take(ctx);
      if (!taken) return busy();
      ReceiveGate::Slot reading = std::move(*taken);
      if (!s->Read(&req)) {
        if (ctx->IsCancelled()) return grpc::Status(grpc::StatusCode::CANCELLED, "call cancelled");
        return grpc::Status(grpc::StatusCode::RESOURCE_EXHAUSTED,
                            std::string(rpc) + ": request message not received (over the size limit?)");
      }
      if (!large && req.ByteSizeLong() > kMaxSmallRequestBytes) {  // refused while it still holds its turn
        const auto n = req.ByteSizeLong();
        req.Clear();
        return invalid(std::string(rpc) + " request of " + std::to_string(n) + " bytes; at most " +
                       std::to_string(kMaxSmallRequestBytes) + " are expected");
      }
    }
    Resp resp;
    grpc::Status st = guarded(rpc, [&] { return f(req, resp, admitting); });
    admitting.release();
    if (st.ok()) s->Write(resp);
    return st;
  }

  template <class F>
  grpc::Status guarded(const char* rpc, F&& f) {
    try {
      grpc::Status st = f();
      if (!st.ok()) spdlog::debug("{}: {} ({})", rpc, st.error_message(), int(st.error_code()));
      return st;
    } catch (const ServiceError& e) {
      spdlog::debug("{}: {}", rpc, e.what());
      return grpc::Status(grpc_code(e.code()), e.what());
    } catch (const std::bad_alloc&) {
      spdlog::error("{}: out of memory", rpc);
      return grpc::Status(grpc::StatusCode::RESOURCE_EXHAUSTED, "out of memory");
    } catch (const std::exception& e) {
      spdlog::error("{}: internal error: {}", rpc, e.what());
      return grpc::Status(grpc::StatusCode::INTERNAL, e.what());
    } catch (...) {
      spdlog::error("{}: unknown internal error", rpc);
      return grpc::Status(grpc::StatusCode::UNKNOWN, "unknown error");
    }
  }

  grpc::Status admit(pb::SubmitProofRequest& in, engine::ProofRequest& out) {
    if (!accepting_.load()) return grpc::Status(grpc::StatusCode::UNAVAILABLE, "daemon is shutting down");
    return to_request(in, out);
  }

  // Waits for the job in slices, so a gone client (or a shutdown past its
  // deadline) frees this thread. `timeout` empty = until the job ends.
  grpc::Status wait_for(grpc::ServerContext* ctx, const std::string& job_id,
                        std::optional<std::chrono::milliseconds> timeout, engine::ProofResult& out) {
    const auto start = Clock::now();
    for (;;) {
      if (ctx->IsCancelled())
        return grpc::Status(grpc::StatusCode::CANCELLED, "call cancelled while waiting for " + job_id);
      auto slice = slice_;
      if (timeout) {
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(*timeout - (Clock::now() - start));
        slice = std::clamp(left, std::chrono::milliseconds(0), slice_);
      }
      out = svc_.await(job_id, slice);
      if (out.status != engine::JobStatus::Timeout) return grpc::Status::OK;
      if (timeout && Clock::now() - start >= *timeout) return grpc::Status::OK;
    }
  }

  engine::ProvingService& svc_;
  std::chrono::milliseconds slice_;
  std::shared_ptr<const TokenSet> tokens_;
  ReceiveGate reading_;    // messages being read
  ReceiveGate admitting_;  // large requests from their reading until admitted
  std::atomic<bool> accepting_{true};
};

GrpcServer::GrpcServer(engine::ProvingService& service, GrpcServerOptions opts)
    : service_(service), opts_(std::move(opts)) {}

GrpcServer::~GrpcServer() { shutdown(std::chrono::milliseconds(0)); }

void GrpcServer::start() {
  std::lock_guard<std::mutex> lk(shutdown_mu_);
  if (server_) throw std::runtime_error("gRPC server already started");
  Address addr;
  try {
    addr = parse_address(opts_.listen);
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(e.what());
  }

  // Security: everything is checked before anything is bound.
  const bool tls = opts_.tls.enabled();
  std::shared_ptr<grpc::ServerCredentials> creds =
      tls ? tls_credentials(opts_.tls) : grpc::InsecureServerCredentials();
  tokens_.reset();
  if (!opts_.token_file.empty()) {
    tokens_ = std::make_shared<const TokenSet>(read_token_file(opts_.token_file));
    struct stat st {};
    if (::stat(opts_.token_file.c_str(), &st) == 0 && (st.st_mode & S_IROTH))
      spdlog::warn("token file '{}' is readable by every user (chmod o-r)", opts_.token_file);
  }
  std::string insecure_warning;  // logged once the real port is known
  if (!addr.is_unix && !tls) {
    if (!tokens_ && !opts_.allow_insecure_tcp)
      throw std::runtime_error(
          "refusing to serve gRPC on plain TCP " + addr.to_string() +
          " without TLS or a token: set [daemon.tls] cert_file and key_file and/or daemon.token_file, "
          "or daemon.allow_insecure_tcp = true to accept unauthenticated plaintext clients");
    insecure_warning = tokens_ ? "without TLS: tokens travel in clear text (set [daemon.tls])"
                               : "is plain TCP without TLS or a token (daemon.allow_insecure_tcp = true): "
                                 "anyone who reaches the port can submit and cancel jobs";
  }
  std::optional<gid_t> group;
  if (addr.is_unix) {
    if (opts_.socket_mode > 07777)
      throw std::runtime_error("daemon.socket_mode: " + std::to_string(opts_.socket_mode) +
                               " is not a permission mode (at most 07777)");
    if (!opts_.socket_group.empty()) group = lookup_group(opts_.socket_group);
    prepare_unix_socket_path(addr.path);
  }

  const uint64_t max_message = uint64_t(std::max(opts_.max_message_bytes, 1));
  const uint64_t budget = std::max(opts_.receive_budget_bytes, max_message);
  impl_ = std::make_unique<ProvingEngineService>(service_, opts_.await_slice, tokens_,
                                                 int(std::min<uint64_t>(budget / max_message, 1024)),
                                                 opts_.receive_wait);
  // grpc.health.v1.Health (grpc++'s own implementation): SERVING while the
  // daemon accepts work, NOT_SERVING once it drains (stop_accepting). Read
  // by the builder, so set before it is made.
  grpc::EnableDefaultHealthCheckService(true);
  grpc::ServerBuilder b;
  // What the transport may hold for every call together: the receive budget
  // and some headroom. Under pressure gRPC shrinks its flow-control windows
  // and, past the quota, cancels streams rather than growing.
  grpc::ResourceQuota quota("cuzk-grpc");
  quota.Resize(size_t(budget + kQuotaHeadroom));
  b.SetResourceQuota(quota);
  b.SetMaxReceiveMessageSize(opts_.max_message_bytes);
  // Flow-control windows stay at their initial size unless a message is
  // being read (then they open for that message): a stream waiting for its
  // turn, or one whose client has no valid token, holds 64 KiB at most.
  // (Bandwidth-delay probing would open every stream's window to the
  // estimated BDP, tens of MB on a fast link, read or not.)
  b.AddChannelArgument(GRPC_ARG_HTTP2_BDP_PROBE, 0);
  b.SetMaxSendMessageSize(opts_.max_message_bytes);
  // Two daemons on one TCP port would silently split the traffic.
  b.AddChannelArgument(GRPC_ARG_ALLOW_REUSEPORT, 0);
  int selected = 0;
  b.AddListeningPort(addr.grpc_target(), creds, &selected);
  b.RegisterService(impl_.get());
  {
    // The socket file is created by bind() inside BuildAndStart: owner-only
    // until its mode and group are set below, so that it is never reachable
    // with wider permissions than configured.
    std::optional<UmaskGuard> umask_guard;
    if (addr.is_unix) umask_guard.emplace(0177);
    server_ = b.BuildAndStart();
  }
  if (!server_ || (!addr.is_unix && selected == 0)) {
    server_.reset();
    impl_.reset();
    throw std::runtime_error("cannot listen on " + addr.to_string() +
                             (tls ? " (check the TLS certificate and key files)" : ""));
  }
  if (addr.is_unix) {
    try {
      set_socket_permissions(addr.path, opts_.socket_mode, group);
    } catch (...) {
      server_->Shutdown(std::chrono::system_clock::now());
      server_->Wait();
      server_.reset();
      impl_.reset();
      remove_unix_socket(addr.path);
      throw;
    }
    unix_path_ = addr.path;
    bound_ = addr.to_string();
  } else {
    port_ = selected;
    Address a = addr;
    a.port = selected;
    bound_ = a.grpc_target();
  }
  set_health(true);
  running_.store(true);
  if (!insecure_warning.empty()) spdlog::warn("gRPC on {} {}", bound_, insecure_warning);
  spdlog::info(
      "gRPC listening on {}{}{}", bound_,
      tls ? (opts_.tls.client_ca_file.empty() ? " (TLS)" : " (TLS, client certificates required)") : "",
      tokens_ ? ", " + std::to_string(tokens_->size()) + " token(s) accepted" : std::string());
}

void GrpcServer::set_health(bool serving) {
  if (!server_) return;
  if (auto* h = server_->GetHealthCheckService()) {
    h->SetServingStatus(serving);  // "" (the whole server) and every service name
    h->SetServingStatus(kHealthServiceName, serving);
  }
}

void GrpcServer::stop_accepting() {
  std::lock_guard<std::mutex> lk(shutdown_mu_);
  if (impl_) impl_->stop_accepting();
  set_health(false);
}

void GrpcServer::shutdown(std::chrono::milliseconds deadline) {
  std::lock_guard<std::mutex> lk(shutdown_mu_);
  if (!server_ || !running_.load()) return;
  impl_->stop_accepting();
  server_->Shutdown(std::chrono::system_clock::now() + deadline);
  server_->Wait();
  if (!unix_path_.empty()) remove_unix_socket(unix_path_);
  running_.store(false);
  spdlog::info("gRPC server on {} stopped", bound_);
}

void GrpcServer::wait() {
  grpc::Server* s = nullptr;
  {
    std::lock_guard<std::mutex> lk(shutdown_mu_);
    s = server_.get();
  }
  if (s) s->Wait();
}

std::string GrpcServer::bound_address() const { return bound_; }

}  // namespace cuzk::server
