// The gRPC layer against a fake ProvingService: every RPC through a real
// client stub over a unix socket (and TCP), status-code mapping, idempotent
// request ids, AwaitProof timeouts, large messages, shutdown behaviour.
#include <gtest/gtest.h>
#include <grpcpp/grpcpp.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <future>
#include <thread>

#include "cuzk/v1/proving.grpc.pb.h"
#include "server/grpc_server.hpp"
#include "temp_dir.hpp"
#include "unit/server/fake_service.hpp"

namespace {

namespace pb = cuzk::v1;
namespace fs = std::filesystem;
using namespace std::chrono_literals;
using cuzk::server::GrpcServer;
using cuzk::server::GrpcServerOptions;
using cuzk::test::FakeService;

std::unique_ptr<pb::ProvingEngine::Stub> make_stub(const std::string& target) {
  grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(256 << 20);
  args.SetMaxSendMessageSize(256 << 20);
  auto ch = grpc::CreateCustomChannel(target, grpc::InsecureChannelCredentials(), args);
  return pb::ProvingEngine::NewStub(ch);
}

class GrpcServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    sock = (dir.path / "run" / "cuzk.sock").string();  // parent dir does not exist yet
    GrpcServerOptions o;
    o.listen = "unix://" + sock;
    o.await_slice = 50ms;
    server = std::make_unique<GrpcServer>(fake, o);
    server->start();
    stub = make_stub("unix:" + sock);
  }
  void TearDown() override {
    fake.cancel_all();
    server.reset();
  }

  pb::SubmitProofRequest r1cs_request(const std::string& circuit, const std::string& id = "",
                                      const std::string& vanilla = "") {
    pb::SubmitProofRequest r;
    r.set_request_id(id);
    r.set_proof_kind(pb::GENERIC_R1CS);
    r.set_circuit_id(circuit);
    r.set_vanilla_proof(vanilla);
    r.add_vanilla_proofs("w0");
    r.add_vanilla_proofs("w1");
    return r;
  }

  // The deadline only catches a hang: the 64 MiB request takes 7 s on a
  // loaded 2-core machine and over 10 s at load 6.
  grpc::Status submit(const pb::SubmitProofRequest& r, pb::SubmitProofResponse* out) {
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + 60s);
    return stub->SubmitProof(&ctx, r, out);
  }
  grpc::Status await(const std::string& id, uint64_t timeout_ms, pb::AwaitProofResponse* out,
                     std::chrono::milliseconds client_deadline = 20s) {
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + client_deadline);
    pb::AwaitProofRequest r;
    r.set_job_id(id);
    r.set_timeout_ms(timeout_ms);
    return stub->AwaitProof(&ctx, r, out);
  }

  cuzk::test::TempDir dir{"cuzk-srv"};
  std::string sock;
  FakeService fake;
  std::unique_ptr<GrpcServer> server;
  std::unique_ptr<pb::ProvingEngine::Stub> stub;
};

TEST_F(GrpcServerTest, CreatesSocketAndParentDirectory) {
  struct stat st {};
  ASSERT_EQ(lstat(sock.c_str(), &st), 0);
  EXPECT_TRUE(S_ISSOCK(st.st_mode));
  EXPECT_EQ(server->bound_address(), "unix://" + sock);
}

TEST_F(GrpcServerTest, SubmitForwardsAllFieldsAndAwaitReturnsResult) {
  pb::SubmitProofRequest r;
  r.set_request_id("req-1");
  r.set_proof_kind(pb::SNAP_DEALS_UPDATE);
  r.set_sector_size(1ull << 35);
  r.set_registered_proof(3);
  r.set_priority(pb::HIGH);
  r.set_vanilla_proof("vp");
  r.add_vanilla_proofs("p0");
  r.add_vanilla_proofs(
      std::string("p\0"
                  "1",
                  3));
  r.set_sector_number(17);
  r.set_miner_id(1000);
  r.set_randomness(std::string(32, '\x07'));
  r.set_partition_index(5);
  r.set_comm_r_old(std::string(32, 'a'));
  r.set_comm_r_new(std::string(32, 'b'));
  r.set_comm_d_new(std::string(32, 'c'));
  pb::SubmitProofResponse sr;
  ASSERT_TRUE(submit(r, &sr).ok());
  EXPECT_EQ(sr.job_id(), "req-1");
  EXPECT_EQ(sr.queue_position(), 1u);
  EXPECT_EQ(sr.assigned_gpu(), "cpu:0");

  auto reqs = fake.snapshot_requests();
  ASSERT_EQ(reqs.size(), 1u);
  const auto& q = reqs[0];
  EXPECT_EQ(q.request_id, "req-1");
  EXPECT_EQ(q.kind, cuzk::engine::ProofKind::SnapDealsUpdate);
  EXPECT_EQ(q.sector_size, 1ull << 35);
  EXPECT_EQ(q.registered_proof, 3u);
  EXPECT_EQ(q.priority, cuzk::engine::Priority::High);
  EXPECT_EQ(q.vanilla_proof, "vp");
  ASSERT_EQ(q.vanilla_proofs.size(), 2u);
  EXPECT_EQ(q.vanilla_proofs[1], std::string("p\0"
                                             "1",
                                             3));
  EXPECT_EQ(q.sector_number, 17u);
  EXPECT_EQ(q.miner_id, 1000u);
  EXPECT_EQ(q.randomness, std::string(32, '\x07'));
  EXPECT_EQ(q.partition_index, 5u);
  EXPECT_EQ(q.comm_r_old, std::string(32, 'a'));
  EXPECT_EQ(q.comm_r_new, std::string(32, 'b'));
  EXPECT_EQ(q.comm_d_new, std::string(32, 'c'));

  std::thread t([&] {
    std::this_thread::sleep_for(150ms);
    fake.complete("req-1", std::string(384, '\x5a'));
  });
  pb::AwaitProofResponse ar;
  ASSERT_TRUE(await("req-1", 0, &ar).ok());
  t.join();
  EXPECT_EQ(ar.job_id(), "req-1");
  EXPECT_EQ(ar.status(), pb::AwaitProofResponse::COMPLETED);
  EXPECT_EQ(ar.proof(), std::string(384, '\x5a'));
  EXPECT_EQ(ar.total_ms(), 42u);
}

TEST_F(GrpcServerTest, GenericR1csCircuitIdIsForwarded) {
  pb::SubmitProofResponse sr;
  ASSERT_TRUE(submit(r1cs_request("toy-circuit", "", "instant:P"), &sr).ok());
  EXPECT_FALSE(sr.job_id().empty());
  auto reqs = fake.snapshot_requests();
  ASSERT_EQ(reqs.size(), 1u);
  EXPECT_EQ(reqs[0].kind, cuzk::engine::ProofKind::GenericR1cs);
  EXPECT_EQ(reqs[0].circuit_id, "toy-circuit");
  ASSERT_EQ(reqs[0].vanilla_proofs.size(), 2u);
  pb::AwaitProofResponse ar;
  ASSERT_TRUE(await(sr.job_id(), 0, &ar).ok());
  EXPECT_EQ(ar.status(), pb::AwaitProofResponse::COMPLETED);
  EXPECT_EQ(ar.proof(), "P");
  EXPECT_EQ(ar.queue_wait_ms(), 1u);
  EXPECT_EQ(ar.srs_load_ms(), 4u);
  EXPECT_EQ(ar.synthesis_ms(), 3u);
  EXPECT_EQ(ar.gpu_compute_ms(), 2u);
  EXPECT_EQ(ar.total_ms(), 7u);
}

TEST_F(GrpcServerTest, ServiceErrorsMapToGrpcCodes) {
  const std::pair<const char*, grpc::StatusCode> cases[] = {
      {"invalid", grpc::StatusCode::INVALID_ARGUMENT},
      {"missing", grpc::StatusCode::NOT_FOUND},
      {"busy", grpc::StatusCode::RESOURCE_EXHAUSTED},
      {"precondition", grpc::StatusCode::FAILED_PRECONDITION},
      {"unavailable", grpc::StatusCode::UNAVAILABLE},
      {"internal", grpc::StatusCode::INTERNAL},
      {"throw", grpc::StatusCode::INTERNAL},
  };
  for (auto [circuit, code] : cases) {
    pb::SubmitProofResponse sr;
    auto st = submit(r1cs_request(circuit), &sr);
    EXPECT_EQ(st.error_code(), code) << circuit << ": " << st.error_message();
  }
  // The message travels too.
  pb::SubmitProofResponse sr;
  auto st = submit(r1cs_request("invalid"), &sr);
  EXPECT_NE(st.error_message().find("partition 1"), std::string::npos);
}

TEST_F(GrpcServerTest, RejectsMalformedRequestsBeforeTheService) {
  pb::SubmitProofResponse sr;
  pb::SubmitProofRequest r = r1cs_request("c");
  r.set_proof_kind(pb::PROOF_KIND_UNSPECIFIED);
  EXPECT_EQ(submit(r, &sr).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  r.set_proof_kind(static_cast<pb::ProofKind>(77));  // unknown enum value on the wire
  auto st = submit(r, &sr);
  EXPECT_EQ(st.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(st.error_message().find("77"), std::string::npos);
  r = r1cs_request("c");
  r.set_priority(static_cast<pb::Priority>(9));
  EXPECT_EQ(submit(r, &sr).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  r = r1cs_request("");
  EXPECT_EQ(submit(r, &sr).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_TRUE(fake.snapshot_requests().empty());

  grpc::ClientContext ctx;
  pb::ProveRequest pr;  // no submit
  pb::ProveResponse presp;
  EXPECT_EQ(stub->Prove(&ctx, pr, &presp).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  pb::AwaitProofResponse ar;
  EXPECT_EQ(await("", 0, &ar).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
}

TEST_F(GrpcServerTest, IdempotentRequestIdsAreForwarded) {
  pb::SubmitProofResponse a, b, c;
  ASSERT_TRUE(submit(r1cs_request("c", "same-id", "payload-1"), &a).ok());
  ASSERT_TRUE(submit(r1cs_request("c", "same-id", "payload-1"), &b).ok());
  EXPECT_EQ(a.job_id(), "same-id");
  EXPECT_EQ(b.job_id(), "same-id");
  auto st = submit(r1cs_request("c", "same-id", "payload-2"), &c);
  EXPECT_EQ(st.error_code(), grpc::StatusCode::ALREADY_EXISTS);
  auto reqs = fake.snapshot_requests();
  ASSERT_EQ(reqs.size(), 3u);
  for (const auto& q : reqs) EXPECT_EQ(q.request_id, "same-id");
}

TEST_F(GrpcServerTest, AwaitTimeoutPassesThroughAndJobKeepsRunning) {
  pb::SubmitProofResponse sr;
  ASSERT_TRUE(submit(r1cs_request("c", "slow"), &sr).ok());
  auto t0 = std::chrono::steady_clock::now();
  pb::AwaitProofResponse ar;
  ASSERT_TRUE(await("slow", 300, &ar).ok());
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0);
  EXPECT_EQ(ar.status(), pb::AwaitProofResponse::TIMEOUT);
  EXPECT_EQ(ar.job_id(), "slow");
  EXPECT_GE(ms.count(), 290);
  EXPECT_LT(ms.count(), 3000);
  EXPECT_LE(fake.last_await_timeout_ms.load(), 300);
  EXPECT_EQ(fake.job_status("slow"), cuzk::engine::JobStatus::Unknown);  // still running

  fake.complete("slow", "done");
  ASSERT_TRUE(await("slow", 300, &ar).ok());
  EXPECT_EQ(ar.status(), pb::AwaitProofResponse::COMPLETED);
}

TEST_F(GrpcServerTest, AwaitUnknownJobIsNotFound) {
  pb::AwaitProofResponse ar;
  EXPECT_EQ(await("nope", 0, &ar).error_code(), grpc::StatusCode::NOT_FOUND);
}

TEST_F(GrpcServerTest, ProveIsSubmitPlusAwait) {
  grpc::ClientContext ctx;
  ctx.set_deadline(std::chrono::system_clock::now() + 10s);
  pb::ProveRequest pr;
  *pr.mutable_submit() = r1cs_request("c", "prove-1");
  std::thread t([&] {
    while (fake.waiters.load() == 0) std::this_thread::sleep_for(5ms);
    fake.complete("prove-1", std::string(192, '\x01'));
  });
  pb::ProveResponse resp;
  auto st = stub->Prove(&ctx, pr, &resp);
  t.join();
  ASSERT_TRUE(st.ok()) << st.error_message();
  EXPECT_EQ(resp.result().job_id(), "prove-1");
  EXPECT_EQ(resp.result().status(), pb::AwaitProofResponse::COMPLETED);
  EXPECT_EQ(resp.result().proof().size(), 192u);

  // A job that fails reaches the client as FAILED with its message.
  grpc::ClientContext ctx2;
  *pr.mutable_submit() = r1cs_request("c", "prove-2");
  std::thread t2([&] {
    while (fake.waiters.load() == 0) std::this_thread::sleep_for(5ms);
    fake.fail("prove-2", "partition 3: witness length 9 != 10");
  });
  auto st2 = stub->Prove(&ctx2, pr, &resp);
  t2.join();
  ASSERT_TRUE(st2.ok());
  EXPECT_EQ(resp.result().status(), pb::AwaitProofResponse::FAILED);
  EXPECT_EQ(resp.result().error_message(), "partition 3: witness length 9 != 10");
}

TEST_F(GrpcServerTest, CancelProof) {
  pb::SubmitProofResponse sr;
  ASSERT_TRUE(submit(r1cs_request("c", "pending"), &sr).ok());
  ASSERT_TRUE(submit(r1cs_request("c", "running"), &sr).ok());
  fake.set_running("running");
  auto waiter = std::async(std::launch::async, [&] {
    pb::AwaitProofResponse ar;
    auto st = await("running", 0, &ar);
    return std::make_pair(st.ok(), ar.status());
  });
  while (fake.waiters.load() == 0) std::this_thread::sleep_for(5ms);

  auto cancel = [&](const std::string& id, pb::CancelProofResponse* out) {
    grpc::ClientContext ctx;
    pb::CancelProofRequest r;
    r.set_job_id(id);
    return stub->CancelProof(&ctx, r, out);
  };
  pb::CancelProofResponse cr;
  ASSERT_TRUE(cancel("pending", &cr).ok());
  EXPECT_FALSE(cr.was_running());
  ASSERT_TRUE(cancel("running", &cr).ok());
  EXPECT_TRUE(cr.was_running());
  auto [ok, status] = waiter.get();
  EXPECT_TRUE(ok);
  EXPECT_EQ(status, pb::AwaitProofResponse::CANCELLED);
  EXPECT_EQ(cancel("unknown", &cr).error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(cancel("", &cr).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
}

TEST_F(GrpcServerTest, GetStatusMapsEveryField) {
  grpc::ClientContext ctx;
  pb::GetStatusResponse s;
  ASSERT_TRUE(stub->GetStatus(&ctx, pb::GetStatusRequest(), &s).ok());
  ASSERT_EQ(s.gpus_size(), 1);
  EXPECT_EQ(s.gpus(0).ordinal(), 0u);
  EXPECT_EQ(s.gpus(0).name(), "cpu");
  EXPECT_EQ(s.gpus(0).vram_total_bytes(), 1000u);
  EXPECT_EQ(s.gpus(0).vram_free_bytes(), 400u);
  EXPECT_EQ(s.gpus(0).current_job_id(), "j1");
  EXPECT_EQ(s.gpus(0).current_proof_kind(), "generic-r1cs");
  EXPECT_TRUE(s.gpus(0).host_memory());
  EXPECT_EQ(s.gpus(0).workers(), 2u);
  EXPECT_EQ(s.gpus(0).busy_workers(), 1u);
  ASSERT_EQ(s.loaded_srs_size(), 1);
  EXPECT_EQ(s.loaded_srs(0).circuit_id(), "porep-2k");
  EXPECT_EQ(s.loaded_srs(0).tier(), pb::SRSStatus::WARM);
  EXPECT_EQ(s.loaded_srs(0).size_bytes(), 12345u);
  EXPECT_EQ(s.loaded_srs(0).ref_count(), 2u);
  ASSERT_EQ(s.queues_size(), 1);
  EXPECT_EQ(s.queues(0).proof_kind(), "generic-r1cs");
  EXPECT_EQ(s.queues(0).pending(), 3u);
  EXPECT_EQ(s.queues(0).in_progress(), 1u);
  EXPECT_EQ(s.total_proofs_completed(), 10u);
  EXPECT_EQ(s.total_proofs_failed(), 2u);
  EXPECT_EQ(s.uptime_seconds(), 99u);
  EXPECT_EQ(s.memory_budget_used_bytes(), 777u);
  EXPECT_EQ(s.memory_budget_limit_bytes(), 888u);
  EXPECT_EQ(s.pinned_memory_bytes(), 0u);  // the budget is not pinned memory
  EXPECT_EQ(s.pinned_memory_limit_bytes(), 0u);
}

TEST_F(GrpcServerTest, MetricsPreloadEvict) {
  {
    grpc::ClientContext ctx;
    pb::GetMetricsResponse m;
    ASSERT_TRUE(stub->GetMetrics(&ctx, pb::GetMetricsRequest(), &m).ok());
    EXPECT_NE(m.prometheus_text().find("cuzk_proofs_completed_total 10"), std::string::npos);
  }
  auto preload = [&](const std::string& id, pb::PreloadSrsResponse* out) {
    grpc::ClientContext ctx;
    pb::PreloadSrsRequest r;
    r.set_circuit_id(id);
    return stub->PreloadSRS(&ctx, r, out);
  };
  auto evict = [&](const std::string& id, pb::EvictSrsResponse* out) {
    grpc::ClientContext ctx;
    pb::EvictSrsRequest r;
    r.set_circuit_id(id);
    return stub->EvictSRS(&ctx, r, out);
  };
  pb::PreloadSrsResponse p;
  ASSERT_TRUE(preload("porep-2k", &p).ok());
  EXPECT_FALSE(p.already_loaded());
  EXPECT_EQ(p.load_time_ms(), 12u);
  ASSERT_TRUE(preload("hot", &p).ok());
  EXPECT_TRUE(p.already_loaded());
  EXPECT_EQ(preload("zzz", &p).error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(preload("", &p).error_code(), grpc::StatusCode::INVALID_ARGUMENT);

  pb::EvictSrsResponse e;
  ASSERT_TRUE(evict("porep-2k", &e).ok());
  EXPECT_TRUE(e.was_loaded());
  EXPECT_EQ(e.freed_bytes(), 4096u);
  ASSERT_TRUE(evict("cold", &e).ok());
  EXPECT_FALSE(e.was_loaded());
  EXPECT_EQ(evict("in-use", &e).error_code(), grpc::StatusCode::FAILED_PRECONDITION);
}

TEST_F(GrpcServerTest, LargeMessagesBothWays) {
  // 64 MiB: far above gRPC's 4 MiB default, within the 256 MiB limit.
  std::string big(64 << 20, '\0');
  for (size_t i = 0; i < big.size(); i += 4096) big[i] = char(i >> 12);
  pb::SubmitProofResponse sr;
  auto st = submit(r1cs_request("c", "big", "instant:" + big), &sr);
  ASSERT_TRUE(st.ok()) << st.error_message();
  pb::AwaitProofResponse ar;
  ASSERT_TRUE(await("big", 0, &ar).ok());
  EXPECT_EQ(ar.proof().size(), big.size());
  EXPECT_TRUE(ar.proof() == big);
}

TEST_F(GrpcServerTest, ClientThatGoesAwayReleasesTheHandler) {
  pb::SubmitProofResponse sr;
  ASSERT_TRUE(submit(r1cs_request("c", "forever"), &sr).ok());
  pb::AwaitProofResponse ar;
  auto st = await("forever", 0, &ar, 300ms);
  EXPECT_EQ(st.error_code(), grpc::StatusCode::DEADLINE_EXCEEDED);
  // The handler notices within a slice or two; the job is untouched.
  auto until = std::chrono::steady_clock::now() + 3s;
  while (fake.waiters.load() > 0 && std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(10ms);
  EXPECT_EQ(fake.waiters.load(), 0);
  EXPECT_EQ(fake.job_status("forever"), cuzk::engine::JobStatus::Unknown);
  // Other clients are unaffected.
  grpc::ClientContext ctx;
  pb::GetStatusResponse s;
  EXPECT_TRUE(stub->GetStatus(&ctx, pb::GetStatusRequest(), &s).ok());
}

TEST_F(GrpcServerTest, GracefulShutdownSequence) {
  pb::SubmitProofResponse sr;
  ASSERT_TRUE(submit(r1cs_request("c", "inflight"), &sr).ok());
  auto waiter = std::async(std::launch::async, [&] {
    pb::AwaitProofResponse ar;
    auto st = await("inflight", 0, &ar);
    return std::make_pair(st.ok(), ar.status());
  });
  while (fake.waiters.load() == 0) std::this_thread::sleep_for(5ms);

  server->stop_accepting();
  auto st = submit(r1cs_request("c", "late"), &sr);
  EXPECT_EQ(st.error_code(), grpc::StatusCode::UNAVAILABLE);
  {  // read-only RPCs still work while draining
    grpc::ClientContext ctx;
    pb::GetStatusResponse s;
    EXPECT_TRUE(stub->GetStatus(&ctx, pb::GetStatusRequest(), &s).ok());
  }
  fake.cancel_all();  // what the engine's shutdown does to waiters
  auto [ok, status] = waiter.get();
  EXPECT_TRUE(ok);
  EXPECT_EQ(status, pb::AwaitProofResponse::CANCELLED);

  server->shutdown(1s);
  EXPECT_FALSE(server->running());
  EXPECT_FALSE(fs::exists(sock));
  server->shutdown(1s);  // idempotent
}

TEST_F(GrpcServerTest, ShutdownDeadlineCancelsStuckWaiters) {
  pb::SubmitProofResponse sr;
  ASSERT_TRUE(submit(r1cs_request("c", "stuck"), &sr).ok());
  auto waiter = std::async(std::launch::async, [&] {
    pb::AwaitProofResponse ar;
    return await("stuck", 0, &ar).error_code();
  });
  while (fake.waiters.load() == 0) std::this_thread::sleep_for(5ms);
  auto t0 = std::chrono::steady_clock::now();
  server->shutdown(200ms);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 5s);
  auto code = waiter.get();
  EXPECT_NE(code, grpc::StatusCode::OK);
  EXPECT_FALSE(fs::exists(sock));
}

TEST(GrpcServerSocket, RemovesStaleSocketButNotALiveOneOrAFile) {
  cuzk::test::TempDir dir{"cuzk-srv"};
  const std::string sock = (dir.path / "stale.sock").string();
  {  // a socket file whose server is gone
    int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un sa{};
    sa.sun_family = AF_UNIX;
    std::strncpy(sa.sun_path, sock.c_str(), sizeof(sa.sun_path) - 1);
    ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&sa), sizeof(sa)), 0);
    ::close(fd);
  }
  ASSERT_TRUE(fs::exists(sock));
  FakeService fake;
  GrpcServer a(fake, {.listen = "unix://" + sock});
  ASSERT_NO_THROW(a.start());
  {
    auto stub = make_stub("unix:" + sock);
    grpc::ClientContext ctx;
    pb::GetStatusResponse s;
    EXPECT_TRUE(stub->GetStatus(&ctx, pb::GetStatusRequest(), &s).ok());
  }
  GrpcServer b(fake, {.listen = "unix://" + sock});
  EXPECT_THROW(b.start(), std::runtime_error);  // a live server keeps its socket
  a.shutdown(0ms);

  const std::string file = (dir.path / "regular").string();
  std::ofstream(file) << "not a socket";
  GrpcServer c(fake, {.listen = "unix://" + file});
  EXPECT_THROW(c.start(), std::runtime_error);
  EXPECT_TRUE(fs::exists(file));
}

TEST(GrpcServerTcp, ListensOnAnEphemeralPort) {
  FakeService fake;
  GrpcServer srv(fake, {.listen = "127.0.0.1:0", .allow_insecure_tcp = true});
  srv.start();
  ASSERT_GT(srv.port(), 0);
  EXPECT_EQ(srv.bound_address(), "127.0.0.1:" + std::to_string(srv.port()));
  auto stub = make_stub("127.0.0.1:" + std::to_string(srv.port()));
  grpc::ClientContext ctx;
  ctx.set_deadline(std::chrono::system_clock::now() + 10s);
  pb::GetStatusResponse s;
  ASSERT_TRUE(stub->GetStatus(&ctx, pb::GetStatusRequest(), &s).ok());
  EXPECT_EQ(s.uptime_seconds(), 99u);

  // http:// prefix (as cuzk-bench and Curio write addresses) is accepted.
  GrpcServer srv2(fake, {.listen = "http://127.0.0.1:0", .allow_insecure_tcp = true});
  EXPECT_NO_THROW(srv2.start());
  EXPECT_GT(srv2.port(), 0);
}

TEST(GrpcServerTcp, BadAddressesThrow) {
  FakeService fake;
  for (const char* a : {"nonsense", "127.0.0.1:99999", "unix://", "https://127.0.0.1:1"}) {
    GrpcServer srv(fake, {.listen = a, .allow_insecure_tcp = true});
    EXPECT_THROW(srv.start(), std::runtime_error) << a;
  }
}

TEST(GrpcCodes, EveryServiceErrorCodeHasAMapping) {
  using C = cuzk::engine::ServiceError::Code;
  using cuzk::server::grpc_code;
  EXPECT_EQ(grpc_code(C::InvalidArgument), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(grpc_code(C::NotFound), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(grpc_code(C::AlreadyExists), grpc::StatusCode::ALREADY_EXISTS);
  EXPECT_EQ(grpc_code(C::FailedPrecondition), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_EQ(grpc_code(C::ResourceExhausted), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_EQ(grpc_code(C::Unavailable), grpc::StatusCode::UNAVAILABLE);
  EXPECT_EQ(grpc_code(C::Internal), grpc::StatusCode::INTERNAL);
}

}  // namespace
