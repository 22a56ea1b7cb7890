#include "server/grpc_server.hpp"

#include <grpcpp/grpcpp.h>
#include <grpcpp/health_check_service_interface.h>
#include <spdlog/spdlog.h>

#include <sys/stat.h>

#include <algorithm>
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

// The token check of a TLS listener, run by gRPC on each call's metadata
// before the request message is read, so an unauthenticated client cannot
// make the daemon receive a large payload. The metadata stays on the call;
// the handlers check it again (guarded()).
class TokenAuthProcessor final : public grpc::AuthMetadataProcessor {
 public:
  explicit TokenAuthProcessor(std::shared_ptr<const TokenSet> tokens) : tokens_(std::move(tokens)) {}
  bool IsBlocking() const override { return false; }  // a few string compares
  grpc::Status Process(const InputMetadata& md, grpc::AuthContext*, OutputMetadata*,
                       OutputMetadata*) override {
    if (tokens_->accepts_metadata(md)) return grpc::Status::OK;
    return grpc::Status(grpc::StatusCode::UNAUTHENTICATED, kBadToken);
  }

 private:
  std::shared_ptr<const TokenSet> tokens_;
};

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

class ProvingEngineService final : public pb::ProvingEngine::Service {
 public:
  ProvingEngineService(engine::ProvingService& svc, std::chrono::milliseconds slice,
                       std::shared_ptr<const TokenSet> tokens)
      : svc_(svc), slice_(std::max(slice, std::chrono::milliseconds(1))), tokens_(std::move(tokens)) {}

  void stop_accepting() { accepting_.store(false); }

  grpc::Status SubmitProof(grpc::ServerContext* ctx, const pb::SubmitProofRequest* req,
                           pb::SubmitProofResponse* resp) override {
    return guarded("SubmitProof", ctx, [&] {
      engine::ProofRequest r;
      if (auto st = admit(*req, r); !st.ok()) return st;
      auto res = svc_.submit(std::move(r));
      resp->set_job_id(res.job_id);
      resp->set_queue_position(res.queue_position);
      resp->set_assigned_gpu(res.assigned_gpu);
      return grpc::Status::OK;
    });
  }

  grpc::Status AwaitProof(grpc::ServerContext* ctx, const pb::AwaitProofRequest* req,
                          pb::AwaitProofResponse* resp) override {
    return guarded("AwaitProof", ctx, [&] {
      if (req->job_id().empty()) return invalid("job_id is required");
      std::optional<std::chrono::milliseconds> timeout;
      // Any uint64 works: beyond ten years means "until the job ends".
      if (req->timeout_ms() > 0 && req->timeout_ms() < kForeverMs)
        timeout = std::chrono::milliseconds(int64_t(req->timeout_ms()));
      engine::ProofResult r;
      if (auto st = wait_for(ctx, req->job_id(), timeout, r); !st.ok()) return st;
      to_proto(r, req->job_id(), resp);
      return grpc::Status::OK;
    });
  }

  grpc::Status Prove(grpc::ServerContext* ctx, const pb::ProveRequest* req,
                     pb::ProveResponse* resp) override {
    return guarded("Prove", ctx, [&] {
      if (!req->has_submit()) return invalid("submit is required");
      engine::ProofRequest r;
      if (auto st = admit(req->submit(), r); !st.ok()) return st;
      auto sub = svc_.submit(std::move(r));
      engine::ProofResult res;
      if (auto st = wait_for(ctx, sub.job_id, std::nullopt, res); !st.ok()) return st;
      to_proto(res, sub.job_id, resp->mutable_result());
      return grpc::Status::OK;
    });
  }

  grpc::Status CancelProof(grpc::ServerContext* ctx, const pb::CancelProofRequest* req,
                           pb::CancelProofResponse* resp) override {
    return guarded("CancelProof", ctx, [&] {
      if (req->job_id().empty()) return invalid("job_id is required");
      resp->set_was_running(svc_.cancel(req->job_id()));
      return grpc::Status::OK;
    });
  }

  grpc::Status GetStatus(grpc::ServerContext* ctx, const pb::GetStatusRequest*,
                         pb::GetStatusResponse* resp) override {
    return guarded("GetStatus", ctx, [&] {
      auto s = svc_.status();
      for (const auto& g : s.devices) {
        auto* o = resp->add_gpus();
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
      for (const auto& e : s.loaded_srs) {
        auto* o = resp->add_loaded_srs();
        o->set_circuit_id(e.circuit_id);
        int tier = static_cast<int>(e.tier);
        if (tier < pb::SRSStatus::HOT || tier > pb::SRSStatus::COLD) tier = pb::SRSStatus::COLD;
        o->set_tier(static_cast<pb::SRSStatus::Tier>(tier));
        o->set_size_bytes(e.size_bytes);
        o->set_ref_count(e.ref_count);
      }
      for (const auto& q : s.queues) {
        auto* o = resp->add_queues();
        o->set_proof_kind(q.proof_kind);
        o->set_pending(q.pending);
        o->set_in_progress(q.in_progress);
      }
      resp->set_total_proofs_completed(s.total_proofs_completed);
      resp->set_total_proofs_failed(s.total_proofs_failed);
      resp->set_uptime_seconds(s.uptime_seconds);
      resp->set_pinned_memory_bytes(s.pinned_used_bytes);
      resp->set_pinned_memory_limit_bytes(s.pinned_limit_bytes);
      resp->set_memory_budget_used_bytes(s.budget_used_bytes);
      resp->set_memory_budget_limit_bytes(s.budget_limit_bytes);
      return grpc::Status::OK;
    });
  }

  grpc::Status GetMetrics(grpc::ServerContext* ctx, const pb::GetMetricsRequest*,
                          pb::GetMetricsResponse* resp) override {
    return guarded("GetMetrics", ctx, [&] {
      resp->set_prometheus_text(svc_.metrics_text());
      return grpc::Status::OK;
    });
  }

  grpc::Status PreloadSRS(grpc::ServerContext* ctx, const pb::PreloadSrsRequest* req,
                          pb::PreloadSrsResponse* resp) override {
    return guarded("PreloadSRS", ctx, [&] {
      if (req->circuit_id().empty()) return invalid("circuit_id is required");
      auto r = svc_.preload(req->circuit_id());
      resp->set_already_loaded(r.already_loaded);
      resp->set_load_time_ms(r.load_time_ms);
      return grpc::Status::OK;
    });
  }

  grpc::Status EvictSRS(grpc::ServerContext* ctx, const pb::EvictSrsRequest* req,
                        pb::EvictSrsResponse* resp) override {
    return guarded("EvictSRS", ctx, [&] {
      if (req->circuit_id().empty()) return invalid("circuit_id is required");
      auto r = svc_.evict(req->circuit_id());
      resp->set_was_loaded(r.was_loaded);
      resp->set_freed_bytes(r.freed_bytes);
      return grpc::Status::OK;
    });
  }

 private:
  template <class F>
  grpc::Status guarded(const char* rpc, grpc::ServerContext* ctx, F&& f) {
    // Every RPC, on every listener: a TLS listener has already refused a bad
    // token in its AuthMetadataProcessor (before reading the request); this
    // check also covers unix sockets and plain TCP.
    if (tokens_ && !tokens_->accepts_metadata(ctx->client_metadata())) {
      spdlog::debug("{}: refused a call without a valid token from {}", rpc, ctx->peer());
      return grpc::Status(grpc::StatusCode::UNAUTHENTICATED, kBadToken);
    }
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

  grpc::Status admit(const pb::SubmitProofRequest& in, engine::ProofRequest& out) {
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
  if (tls && tokens_) creds->SetAuthMetadataProcessor(std::make_shared<TokenAuthProcessor>(tokens_));
  std::optional<gid_t> group;
  if (addr.is_unix) {
    if (opts_.socket_mode > 07777)
      throw std::runtime_error("daemon.socket_mode: " + std::to_string(opts_.socket_mode) +
                               " is not a permission mode (at most 07777)");
    if (!opts_.socket_group.empty()) group = lookup_group(opts_.socket_group);
    prepare_unix_socket_path(addr.path);
  }

  impl_ = std::make_unique<ProvingEngineService>(service_, opts_.await_slice, tokens_);
  // grpc.health.v1.Health (grpc++'s own implementation): SERVING while the
  // daemon accepts work, NOT_SERVING once it drains (stop_accepting). Read
  // by the builder, so set before it is made.
  grpc::EnableDefaultHealthCheckService(true);
  grpc::ServerBuilder b;
  b.SetMaxReceiveMessageSize(opts_.max_message_bytes);
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
