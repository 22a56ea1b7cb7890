#pragma once
// Shared pieces of the cuzk-bench gRPC client commands (single, batch,
// status, preload, evict, metrics, stress): connection, job inputs, output
// helpers.
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <grpcpp/grpcpp.h>

#include "cuzk/v1/proving.grpc.pb.h"

namespace cuzk::bench_cli {

namespace pb = ::cuzk::v1;

// The global -a/--addr value (default http://127.0.0.1:9820).
std::string& daemon_address();

// How the client proves itself to a daemon and checks the daemon (global,
// like the address): TLS when any --tls-* file is given, a bearer token from
// --token-file (its first token) or else the CUZK_TOKEN environment variable.
struct ClientSecurity {
  std::string tls_ca;           // --tls-ca: CA of the daemon's certificate ("" + TLS: system roots)
  std::string tls_cert;         // --tls-cert: client certificate (PEM)
  std::string tls_key;          // --tls-key: its private key (PEM)
  std::string tls_server_name;  // --tls-server-name: name to verify instead of the address's host
  std::string token_file;       // --token-file
  bool tls() const {
    return !tls_ca.empty() || !tls_cert.empty() || !tls_key.empty() || !tls_server_name.empty();
  }
};
ClientSecurity& client_security();
// The token to send: --token-file's first token, else $CUZK_TOKEN, else "".
// Throws when the file cannot be read or holds no token.
std::string client_token();

// Adds -a/--addr and the TLS/token flags to a subcommand as well, so they
// work on either side of the subcommand name.
void add_addr_option(CLI::App* sub);
// Adds the TLS/token flags alone (the top-level app; -a is added there by
// the client commands).
void add_security_options(CLI::App* app);

// A channel to the daemon (unix:///path or [http://]host:port), 256 MiB
// messages, with client_security() applied (TLS credentials; the token as
// "authorization: Bearer ..." metadata on every call). Throws
// std::runtime_error when it cannot connect within `wait`.
std::shared_ptr<grpc::Channel> connect_daemon(const std::string& addr,
                                              std::chrono::seconds wait = std::chrono::seconds(10));
std::unique_ptr<pb::ProvingEngine::Stub> make_stub(const std::shared_ptr<grpc::Channel>& ch);

// What a proof request is made of, as given on the command line.
struct JobOptions {
  std::string type;                  // porep|snap|wpost|winning|r1cs
  std::string c1;                    // PoRep C1 wrapper JSON
  std::string vanilla;               // JSON array of base64 proofs, or one raw proof
  std::string circuit;               // r1cs: circuit id
  std::vector<std::string> witness;  // r1cs: one file per partition
  std::string priority;              // ""|low|normal|high|critical
  uint64_t registered_proof = 0;
  uint64_t sector_num = 1;
  uint64_t miner_id = 1000;
  uint64_t sector_size = 0;  // 0: unspecified (PoRep takes it from the C1 input)
  uint32_t partition = 0;
  std::string randomness, comm_r_old, comm_r_new, comm_d_new;  // hex
};
// Registers -t/--type and the input flags on `sub`. `with_partition` adds --partition.
void add_job_options(CLI::App* sub, JobOptions& o, bool with_partition);

// Parses a kind name (aliases as the Rust tool, plus r1cs/generic).
pb::ProofKind parse_kind(const std::string& s);
const char* kind_label(pb::ProofKind k);  // KindSpec::label: porep, snap, wpost, winning, r1cs
pb::Priority parse_priority(const std::string& s);

// Loads the files and builds the request (request_id left empty).
pb::SubmitProofRequest build_request(const JobOptions& o);

// A fresh random UUID (version 4).
std::string new_uuid();

const char* status_label(int status);  // COMPLETED, FAILED, ...
std::string code_name(grpc::StatusCode c);
std::string describe(const grpc::Status& st);  // "NOT_FOUND: unknown job"

std::string to_hex(const std::string& bytes);
std::string from_hex(const std::string& hex, const std::string& what);  // throws
std::string base64_decode(const std::string& s);                        // throws
std::string read_file(const std::string& path);                         // throws

// Outcome of one proof as the client saw it.
struct ProofOutcome {
  bool rpc_ok = false;
  std::string rpc_error;  // when !rpc_ok
  pb::AwaitProofResponse resp;
  std::chrono::steady_clock::duration wall{};
};

// SubmitProof + AwaitProof (in `slice` waits, calling on_wait(elapsed) between
// them), for one request. Never throws.
ProofOutcome submit_and_await(pb::ProvingEngine::Stub& stub, const pb::SubmitProofRequest& req);

// "12.3" seconds with one decimal.
std::string secs1(double s);

// A steady-clock duration in seconds.
inline double secs(std::chrono::steady_clock::duration d) { return std::chrono::duration<double>(d).count(); }

template <class OnWait>
ProofOutcome submit_and_await(pb::ProvingEngine::Stub& stub, const pb::SubmitProofRequest& req,
                              std::chrono::milliseconds slice, OnWait&& on_wait) {
  ProofOutcome out;
  const auto start = std::chrono::steady_clock::now();
  pb::SubmitProofResponse sr;
  {
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::minutes(5));
    auto st = stub.SubmitProof(&ctx, req, &sr);
    if (!st.ok()) {
      out.rpc_error = "SubmitProof: " + describe(st);
      out.wall = std::chrono::steady_clock::now() - start;
      return out;
    }
  }
  for (;;) {
    grpc::ClientContext ctx;
    // The server honours timeout_ms; the client deadline is only a backstop.
    ctx.set_deadline(std::chrono::system_clock::now() + slice + std::chrono::minutes(1));
    pb::AwaitProofRequest ar;
    ar.set_job_id(sr.job_id());
    ar.set_timeout_ms(uint64_t(slice.count()));
    pb::AwaitProofResponse resp;
    auto st = stub.AwaitProof(&ctx, ar, &resp);
    if (!st.ok()) {
      out.rpc_error = "AwaitProof(" + sr.job_id() + "): " + describe(st);
      out.wall = std::chrono::steady_clock::now() - start;
      return out;
    }
    if (resp.status() != pb::AwaitProofResponse::TIMEOUT) {
      out.rpc_ok = true;
      out.resp = std::move(resp);
      out.wall = std::chrono::steady_clock::now() - start;
      return out;
    }
    on_wait(std::chrono::steady_clock::now() - start, sr.job_id());
  }
}

}  // namespace cuzk::bench_cli
