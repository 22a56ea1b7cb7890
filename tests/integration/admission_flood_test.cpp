// Memory before authentication, against a real cuzk-daemon (1 GiB memory
// budget) on each listener kind that takes tokens: TLS on TCP, plain TCP with
// a token, a unix socket with a token. Concurrent clients send
//
//   - large SubmitProof messages without a token (refused UNAUTHENTICATED
//     before their bodies are read),
//   - messages over the 256 MiB limit with a valid token (RESOURCE_EXHAUSTED),
//   - large messages with a valid token to a method that is not a submission
//     (AwaitProof with a huge job id: read in turn, then INVALID_ARGUMENT),
//
// and the daemon's peak resident memory (VmHWM) must stay within the budget
// plus the margin docs/PROTOCOL.md states; afterwards the daemon proves a
// generic-R1CS job as usual. The figures are printed (docs/FLEET.md quotes
// them).
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <grpcpp/grpcpp.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "circuits/install.hpp"
#include "cuzk/v1/proving.grpc.pb.h"
#include "grpc/health/v1/health.grpc.pb.h"
#include "integration/daemon_process.hpp"
#include "temp_dir.hpp"
#include "unit/server/test_pki.hpp"

namespace fs = std::filesystem;
namespace pb = cuzk::v1;
using namespace std::chrono_literals;

namespace {

const cuzk::circuits::CubeChain::Shape kShape{500, 1, 3};
constexpr uint64_t kBudget = 1ull << 30;  // memory.total_budget
// What the budget leaves outside (docs/PROTOCOL.md §1 Transport): per turn
// (one here: the receive budget is the 128 MiB payload budget, under one
// 256 MiB message) five times the message limit (a submission being admitted
// holds three copies, a message being read two), and gRPC's quota headroom.
constexpr uint64_t kMargin = 5 * (256ull << 20) + (64ull << 20);
constexpr const char* kToken = "tok-flood-0123456789";

int free_port() {
  int s = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  int port = 0;
  if (::bind(s, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 &&
      ::getsockname(s, reinterpret_cast<sockaddr*>(&a), &len) == 0)
    port = ntohs(a.sin_port);
  ::close(s);
  return port;
}

// kB of a /proc/<pid>/status line ("VmHWM:", "VmRSS:").
uint64_t proc_kb(pid_t pid, const std::string& key) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind(key, 0) == 0) return std::stoull(line.substr(key.size()));
  return 0;
}

enum class Kind { Tls, TcpToken, UnixToken };
const char* name(Kind k) { return k == Kind::Tls ? "TLS" : k == Kind::TcpToken ? "TCP+token" : "unix+token"; }

struct Daemon {
  cuzk::test::TempDir dir{"cuzk-flood"};
  std::string target;
  std::shared_ptr<grpc::ChannelCredentials> creds;
  cuzk::test::DaemonProcess proc;

  Daemon(Kind kind, const fs::path& params) {
    const fs::path tokens = dir.path / "tokens";
    std::ofstream(tokens) << kToken << "\n";
    fs::permissions(tokens, fs::perms::owner_read | fs::perms::owner_write);
    std::string listen, tls;
    if (kind == Kind::UnixToken) {
      listen = "unix://" + (dir.path / "cuzk.sock").string();
      target = "unix:" + (dir.path / "cuzk.sock").string();
    } else {
      target = "127.0.0.1:" + std::to_string(free_port());
      listen = target;
    }
    creds = grpc::InsecureChannelCredentials();
    if (kind == Kind::Tls) {
      cuzk::test::Pki pki(dir.path);
      tls = "[daemon.tls]\ncert_file = \"" + pki.path("server.pem") + "\"\nkey_file = \"" +
            pki.path("server.key") + "\"\n";
      grpc::SslCredentialsOptions o;
      o.pem_root_certs = pki.pem("ca.pem");
      creds = grpc::SslCredentials(o);
    }
    const fs::path cfg = dir.path / "cuzk.toml";
    std::ofstream(cfg) << "[daemon]\nlisten = \"" << listen << "\"\ntoken_file = \"" << tokens.string()
                       << "\"\n"
                       << tls << "[srs]\nparam_cache = \"" << params.string() << "\"\n"
                       << "[memory]\ntotal_budget = \"1GiB\"\n"
                       << "[gpus]\ngpu_workers_per_device = 1\ngpu_threads = 1\n"
                       << "[synthesis]\nthreads = 1\n";
    proc.start(cfg, dir.path / "daemon.log", "warn");
  }
  std::shared_ptr<grpc::Channel> channel() const {
    grpc::ChannelArguments args;
    args.SetMaxSendMessageSize(-1);
    args.SetMaxReceiveMessageSize(-1);
    return grpc::CreateCustomChannel(target, creds, args);
  }
  // The health service answers without a token (as load balancers probe).
  bool wait_ready() const {
    for (int i = 0; i < 300; i++) {
      // A fresh channel each time: a channel that failed to connect waits out
      // its reconnect backoff (seconds) before trying again.
      auto health = grpc::health::v1::Health::NewStub(channel());
      grpc::ClientContext ctx;
      ctx.set_deadline(std::chrono::system_clock::now() + 1s);
      grpc::health::v1::HealthCheckResponse res;
      if (health->Check(&ctx, {}, &res).ok() &&
          res.status() == grpc::health::v1::HealthCheckResponse::SERVING)
        return true;
      std::this_thread::sleep_for(100ms);
    }
    return false;
  }
};

pb::SubmitProofRequest big_submit(size_t bytes) {
  pb::SubmitProofRequest r;
  r.set_proof_kind(pb::GENERIC_R1CS);
  r.set_circuit_id(cuzk::circuits::cube_chain_id(kShape));
  r.add_vanilla_proofs(std::string(bytes, 'w'));
  return r;
}

// `n` concurrent calls of `call` (returning its status); the codes seen.
template <class Call>
std::vector<grpc::StatusCode> flood(int n, Call call) {
  std::vector<grpc::StatusCode> codes(size_t(n), grpc::StatusCode::OK);
  std::vector<std::thread> ts;
  for (int i = 0; i < n; i++)
    ts.emplace_back([&, i] {
      const auto st = call();
      codes[size_t(i)] = st.error_code();
      std::fprintf(stderr, "  call %d: %d %s\n", i, int(st.error_code()),
                   st.error_message().substr(0, 120).c_str());
    });
  for (auto& t : ts) t.join();
  return codes;
}

}  // namespace

class AdmissionFlood : public ::testing::TestWithParam<Kind> {};

TEST_P(AdmissionFlood, RssStaysWithinTheBudgetAndTheDaemonProvesAfterwards) {
  cuzk::test::TempDir params_dir("cuzk-flood-params");
  cuzk::circuits::install_cube_chain(params_dir.path.string(), kShape);
  Daemon d(GetParam(), params_dir.path);
  ASSERT_TRUE(d.wait_ready()) << "daemon did not start; log " << (d.dir.path / "daemon.log");
  const pid_t pid = d.proc.pid();
  const uint64_t idle_kb = proc_kb(pid, "VmRSS:");
  auto stub = pb::ProvingEngine::NewStub(d.channel());
  auto with_token = [](grpc::ClientContext& ctx) {
    ctx.AddMetadata("authorization", std::string("Bearer ") + kToken);
    ctx.set_deadline(std::chrono::system_clock::now() + 40s);
  };

  const auto t0 = std::chrono::steady_clock::now();
  {  // 4 x 250 MiB without a token
    const auto req = big_submit(250u << 20);
    for (auto c : flood(4, [&] {
           grpc::ClientContext ctx;
           ctx.set_deadline(std::chrono::system_clock::now() + 40s);
           pb::SubmitProofResponse res;
           return stub->SubmitProof(&ctx, req, &res);
         }))
      EXPECT_EQ(c, grpc::StatusCode::UNAUTHENTICATED);
  }
  const uint64_t after_tokenless_kb = proc_kb(pid, "VmHWM:");
  {  // 3 x 300 MiB with a token: over the 256 MiB message limit
    const auto req = big_submit(300u << 20);
    for (auto c : flood(3, [&] {
           grpc::ClientContext ctx;
           with_token(ctx);
           pb::SubmitProofResponse res;
           return stub->SubmitProof(&ctx, req, &res);
         }))
      EXPECT_EQ(c, grpc::StatusCode::RESOURCE_EXHAUSTED);
  }
  const uint64_t after_oversized_kb = proc_kb(pid, "VmHWM:");
  {  // 3 x 100 MiB with a token to AwaitProof (a job id far too long)
    pb::AwaitProofRequest req;
    req.set_job_id(std::string(100u << 20, 'j'));
    for (auto c : flood(3, [&] {
           grpc::ClientContext ctx;
           with_token(ctx);
           pb::AwaitProofResponse res;
           return stub->AwaitProof(&ctx, req, &res);
         }))
      EXPECT_TRUE(c == grpc::StatusCode::INVALID_ARGUMENT || c == grpc::StatusCode::RESOURCE_EXHAUSTED)
          << int(c);
  }
  const uint64_t after_await_kb = proc_kb(pid, "VmHWM:");
  {  // 3 x 100 MiB submissions with a token: read in turn, then refused by admission
    const auto req = big_submit(100u << 20);
    for (auto c : flood(3, [&] {
           grpc::ClientContext ctx;
           with_token(ctx);
           pb::SubmitProofResponse res;
           return stub->SubmitProof(&ctx, req, &res);
         }))
      EXPECT_TRUE(c == grpc::StatusCode::INVALID_ARGUMENT || c == grpc::StatusCode::RESOURCE_EXHAUSTED)
          << int(c);
  }
  const double flood_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const uint64_t peak_kb = proc_kb(pid, "VmHWM:");

  // The daemon proves as usual afterwards.
  pb::SubmitProofRequest ok;
  ok.set_proof_kind(pb::GENERIC_R1CS);
  ok.set_circuit_id(cuzk::circuits::cube_chain_id(kShape));
  ok.add_vanilla_proofs(cuzk::circuits::cube_chain_witness(kShape, 7));
  pb::ProveRequest prove;
  *prove.mutable_submit() = ok;
  pb::ProveResponse res;
  grpc::ClientContext ctx;
  with_token(ctx);
  auto st = stub->Prove(&ctx, prove, &res);
  ASSERT_TRUE(st.ok()) << st.error_message();
  EXPECT_EQ(res.result().status(), pb::AwaitProofResponse::COMPLETED) << res.result().error_message();
  EXPECT_EQ(res.result().proof().size(), 192u);

  std::printf(
      "admission flood on %s: idle RSS %.0f MiB; peak %.0f MiB after 4 x 250 MiB without token, "
      "%.0f MiB after 3 x 300 MiB oversized, %.0f MiB after 3 x 100 MiB AwaitProof, %.0f MiB after "
      "3 x 100 MiB SubmitProof (%.1f s)\n",
      name(GetParam()), idle_kb / 1024.0, after_tokenless_kb / 1024.0, after_oversized_kb / 1024.0,
      after_await_kb / 1024.0, peak_kb / 1024.0, flood_s);
  EXPECT_LE(peak_kb * 1024, kBudget + kMargin);
  EXPECT_EQ(d.proc.stop(), 0);
}

INSTANTIATE_TEST_SUITE_P(Listeners, AdmissionFlood,
                         ::testing::Values(Kind::Tls, Kind::TcpToken, Kind::UnixToken), [](const auto& info) {
                           return std::string(info.param == Kind::Tls        ? "Tls"
                                              : info.param == Kind::TcpToken ? "TcpToken"
                                                                             : "UnixToken");
                         });
