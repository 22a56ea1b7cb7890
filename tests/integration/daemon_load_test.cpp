// The real cuzk-daemon under load: started as a process on a unix socket,
// ≥100 small generic-R1CS jobs from 8 concurrent gRPC clients with mixed
// priorities and random cancels. Checks: every job reaches exactly one final
// state, every COMPLETED proof verifies (independently, with the .vk file),
// no proof is lost or duplicated, CRITICAL jobs overtake NORMAL jobs queued
// before them, and the daemon's peak budget use stays within the budget.
// Also: PoRep C2 jobs with bad input fail cleanly while the daemon serves on.
#include <gtest/gtest.h>
#include <grpcpp/grpcpp.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <barrier>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <mutex>
#include <random>
#include <set>
#include <thread>

#include "circuits/install.hpp"
#include "cuzk/v1/proving.grpc.pb.h"
#include "filecoin/common/param_names.hpp"
#include "filecoin/porep/c1_json.hpp"
#include "filecoin/porep/seal.hpp"
#include "groth16/io.hpp"
#include "groth16/verifier.hpp"
#include "integration/daemon_process.hpp"
#include "platform/tsan.hpp"

namespace fs = std::filesystem;
namespace pb = cuzk::v1;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

namespace {

const cuzk::circuits::CubeChain::Shape kShape{60, 2, 5};

// Built with ThreadSanitizer (scripts/test-sanitizers.sh), the daemon proves
// 5-15 times slower: the multi-partition test keeps its clients, evictor and
// cancels but runs fewer rounds (100 s under TSan with ten).
#ifdef CUZK_TSAN  // platform/tsan.hpp
constexpr bool kUnderTsan = true;
#else
constexpr bool kUnderTsan = false;
#endif

struct Daemon {
  fs::path dir;
  std::string sock;
  fs::path log;
  cuzk::test::DaemonProcess proc;

  explicit Daemon(const std::string& extra_toml) {
    dir = fs::temp_directory_path() / ("cuzk-load-" + std::to_string(::getpid()));
    fs::create_directories(dir / "params");
    cuzk::circuits::install_cube_chain((dir / "params").string(), kShape);
    sock = (dir / "cuzk.sock").string();
    log = dir / "daemon.log";
    std::ofstream(dir / "cuzk.toml") << "[daemon]\nlisten = \"unix://" << sock << "\"\n"
                                     << "[srs]\nparam_cache = \"" << (dir / "params").string() << "\"\n"
                                     << extra_toml;
    proc.start(dir / "cuzk.toml", log, "warn");
    for (int i = 0; i < 200 && !fs::exists(sock); i++) std::this_thread::sleep_for(50ms);
  }
  // Peak resident set (VmHWM) of the daemon process, bytes.
  uint64_t peak_rss() const {
    std::ifstream in("/proc/" + std::to_string(proc.pid()) + "/status");
    std::string key;
    while (in >> key) {
      if (key == "VmHWM:") {
        uint64_t kb = 0;
        in >> kb;
        return kb * 1024;
      }
      std::getline(in, key);
    }
    return 0;
  }
  int stop() { return proc.stop(); }
  ~Daemon() {
    stop();
    fs::remove_all(dir);
  }
  std::unique_ptr<pb::ProvingEngine::Stub> stub() const {
    grpc::ChannelArguments args;
    args.SetMaxReceiveMessageSize(256 << 20);
    args.SetMaxSendMessageSize(256 << 20);
    return pb::ProvingEngine::NewStub(
        grpc::CreateCustomChannel("unix://" + sock, grpc::InsecureChannelCredentials(), args));
  }
};

struct Outcome {
  pb::AwaitProofResponse::Status status = pb::AwaitProofResponse::UNKNOWN;
  std::string proof, error;  // error: the daemon's message for a failed job
  std::vector<uint64_t> xs;
  pb::Priority priority = pb::NORMAL;
  Clock::time_point submitted, finished;
  int finals = 0;
};

pb::SubmitProofRequest make_request(const std::string& id, const std::vector<uint64_t>& xs, pb::Priority pr) {
  pb::SubmitProofRequest r;
  r.set_request_id(id);
  r.set_proof_kind(pb::GENERIC_R1CS);
  r.set_circuit_id(cuzk::circuits::cube_chain_id(kShape));
  r.set_priority(pr);
  for (uint64_t x : xs) r.add_vanilla_proofs(cuzk::circuits::cube_chain_witness(kShape, x));
  return r;
}

// Checks every COMPLETED outcome: one proof per partition, each verifying
// with the circuit's .vk and none seen twice. Returns how many completed.
int verify_completed(const Daemon& d, const std::map<std::string, Outcome>& out) {
  auto vk = cuzk::groth16::read_verifying_key_file(
      (d.dir / "params" / (cuzk::circuits::cube_chain_id(kShape) + ".vk")).string());
  auto pvk = cuzk::groth16::prepare_verifying_key(vk);
  int completed = 0;
  std::set<std::string> all_proofs;
  for (auto& [id, o] : out) {
    if (o.status != pb::AwaitProofResponse::COMPLETED) continue;
    completed++;
    EXPECT_EQ(o.proof.size(), 192 * o.xs.size()) << id;
    if (o.proof.size() != 192 * o.xs.size()) continue;
    auto proofs = cuzk::groth16::decode_proofs(
        std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(o.proof.data()), o.proof.size()));
    for (size_t p = 0; p < proofs.size(); p++) {
      auto pub = cuzk::circuits::CubeChain::public_inputs(kShape, cuzk::ff::Fr::from_u64(o.xs[p]));
      EXPECT_TRUE(cuzk::groth16::verify_proof(pvk, proofs[p], pub)) << id << " partition " << p;
      EXPECT_TRUE(all_proofs.insert(o.proof.substr(192 * p, 192)).second) << "duplicated proof in " << id;
    }
  }
  return completed;
}

}  // namespace

TEST(DaemonLoad, HundredJobsEightClientsMixedPrioritiesAndCancels) {
  Daemon d(
      "[memory]\ntotal_budget = \"512MiB\"\n[gpus]\ngpu_workers_per_device = 2\n"
      "[pipeline]\nmax_parallel_synthesis = 2\nsynthesis_concurrency = 2\n");
  ASSERT_TRUE(fs::exists(d.sock)) << "daemon did not start";
  constexpr int kClients = 8, kJobsPerClient = 14;  // 112 jobs
  std::mutex mu;
  std::map<std::string, Outcome> out;
  std::atomic<int> rpc_errors{0};
  std::vector<std::thread> clients;
  for (int c = 0; c < kClients; c++) {
    clients.emplace_back([&, c] {
      auto stub = d.stub();
      std::mt19937_64 rng(1000 + c);
      for (int j = 0; j < kJobsPerClient; j++) {
        std::string id = "c" + std::to_string(c) + "-j" + std::to_string(j);
        std::vector<uint64_t> xs;
        int parts = 1 + int(rng() % 3);
        for (int p = 0; p < parts; p++) xs.push_back(rng() % 1000000);
        pb::Priority pr = (rng() % 4 == 0) ? pb::HIGH : (rng() % 3 == 0 ? pb::LOW : pb::NORMAL);
        Outcome o;
        o.xs = xs;
        o.priority = pr;
        o.submitted = Clock::now();
        grpc::ClientContext sctx;
        pb::SubmitProofResponse sres;
        auto st = stub->SubmitProof(&sctx, make_request(id, xs, pr), &sres);
        if (!st.ok()) {
          rpc_errors++;
          continue;
        }
        bool cancel = rng() % 6 == 0;
        if (cancel) {
          std::this_thread::sleep_for(std::chrono::milliseconds(rng() % 40));
          grpc::ClientContext cctx;
          pb::CancelProofRequest creq;
          creq.set_job_id(sres.job_id());
          pb::CancelProofResponse cres;
          if (!stub->CancelProof(&cctx, creq, &cres).ok()) rpc_errors++;
        }
        grpc::ClientContext actx;
        pb::AwaitProofRequest areq;
        areq.set_job_id(sres.job_id());
        pb::AwaitProofResponse ares;
        if (!stub->AwaitProof(&actx, areq, &ares).ok()) {
          rpc_errors++;
          continue;
        }
        o.status = ares.status();
        o.error = ares.error_message();
        o.proof = ares.proof();
        o.finished = Clock::now();
        // A second await returns the same final state (kept results).
        grpc::ClientContext actx2;
        pb::AwaitProofResponse ares2;
        if (stub->AwaitProof(&actx2, areq, &ares2).ok() && ares2.status() == ares.status() &&
            ares2.proof() == ares.proof())
          o.finals = 1;
        std::lock_guard lk(mu);
        out[id] = o;
      }
    });
  }
  for (auto& t : clients) t.join();
  EXPECT_EQ(rpc_errors.load(), 0);
  ASSERT_EQ(out.size(), size_t(kClients * kJobsPerClient));

  const int completed = verify_completed(d, out);
  int cancelled = 0;
  for (auto& [id, o] : out) {
    EXPECT_EQ(o.finals, 1) << id;
    if (o.status == pb::AwaitProofResponse::COMPLETED) continue;
    EXPECT_EQ(o.status, pb::AwaitProofResponse::CANCELLED) << id << ": " << o.error;
    cancelled++;
  }
  EXPECT_GT(completed, 80);
  EXPECT_GT(cancelled, 0);

  // Status agrees with what the clients saw.
  auto stub = d.stub();
  grpc::ClientContext sctx;
  pb::GetStatusResponse st;
  ASSERT_TRUE(stub->GetStatus(&sctx, pb::GetStatusRequest(), &st).ok());
  EXPECT_EQ(st.total_proofs_completed(), uint64_t(completed));
  EXPECT_EQ(st.total_proofs_failed(), 0u);
  EXPECT_LE(st.pinned_memory_bytes(), st.pinned_memory_limit_bytes());
  // Peak RSS within the 512 MiB budget plus a stated overhead of 256 MiB
  // (binary, thread stacks, gRPC buffers, allocator slack).
  const uint64_t rss = d.peak_rss();
  std::printf("daemon peak RSS: %.1f MiB (budget 512 MiB)\n", rss / 1048576.0);
  EXPECT_GT(rss, 0u);
  EXPECT_LE(rss, (512ull + 256ull) << 20);
  EXPECT_EQ(d.stop(), 0);
}

TEST(DaemonLoad, CriticalOvertakesQueuedNormalJobs) {
  Daemon d(
      "[pipeline]\nmax_parallel_synthesis = 1\nsynthesis_concurrency = 1\n[gpus]\ngpu_workers_per_device = "
      "1\n");
  ASSERT_TRUE(fs::exists(d.sock));
  auto stub = d.stub();
  std::vector<std::string> normal;
  for (int i = 0; i < 16; i++) {
    grpc::ClientContext ctx;
    pb::SubmitProofResponse res;
    std::string id = "n" + std::to_string(i);
    ASSERT_TRUE(
        stub->SubmitProof(&ctx, make_request(id, {uint64_t(i + 1), uint64_t(i + 100)}, pb::NORMAL), &res)
            .ok());
    normal.push_back(id);
  }
  {
    grpc::ClientContext ctx;
    pb::SubmitProofResponse res;
    ASSERT_TRUE(stub->SubmitProof(&ctx, make_request("crit", {7}, pb::CRITICAL), &res).ok());
  }
  std::mutex mu;
  std::vector<std::string> order;
  std::vector<std::thread> ws;
  auto ids = normal;
  ids.push_back("crit");
  for (auto& id : ids)
    ws.emplace_back([&, id] {
      auto s = d.stub();
      grpc::ClientContext ctx;
      pb::AwaitProofRequest req;
      req.set_job_id(id);
      pb::AwaitProofResponse res;
      s->AwaitProof(&ctx, req, &res);
      std::lock_guard lk(mu);
      order.push_back(id);
    });
  for (auto& t : ws) t.join();
  size_t crit_pos = std::find(order.begin(), order.end(), "crit") - order.begin();
  // At most the few NORMAL jobs already in flight may finish before it.
  EXPECT_LE(crit_pos, 4u) << "CRITICAL finished at position " << crit_pos;
  EXPECT_EQ(d.stop(), 0);
}

// The daemon on the emulated CUDA device (gpus.backend = "cuda-emulated"):
// every partition's device phase runs the CUDA backend's kernels under the
// SIMT emulator; the proofs pass the daemon's self-check and verify here
// with the circuit's .vk.
TEST(DaemonLoad, ProvesOnTheEmulatedCudaDevice) {
#if !defined(CUZK_HAVE_CUDA_EMU)
  GTEST_SKIP() << "this build has no SIMT emulator (CUZK_CUDA_EMU=OFF)";
#endif
  Daemon d("[gpus]\nbackend = \"cuda-emulated\"\n");
  ASSERT_TRUE(fs::exists(d.sock));
  auto stub = d.stub();
  {
    grpc::ClientContext ctx;
    pb::GetStatusResponse st;
    ASSERT_TRUE(stub->GetStatus(&ctx, pb::GetStatusRequest(), &st).ok());
    ASSERT_EQ(st.gpus_size(), 1);
    EXPECT_EQ(st.gpus(0).name().rfind("cuda-emulated", 0), 0u) << st.gpus(0).name();
  }
  std::map<std::string, Outcome> out;
  for (uint64_t j = 0; j < 3; j++) {
    const std::string id = "emu-" + std::to_string(j);
    Outcome& o = out[id];
    o.xs = {j + 1, j + 40};
    pb::ProveRequest req;
    *req.mutable_submit() = make_request(id, o.xs, pb::NORMAL);
    pb::ProveResponse res;
    grpc::ClientContext ctx;
    ASSERT_TRUE(stub->Prove(&ctx, req, &res).ok());
    o.status = res.result().status();
    o.proof = res.result().proof();
    EXPECT_EQ(o.status, pb::AwaitProofResponse::COMPLETED) << res.result().error_message();
  }
  EXPECT_EQ(verify_completed(d, out), 3);
  EXPECT_EQ(d.stop(), 0);
}

// Generic multi-partition jobs on 2 synthesis threads and 2 synthesis
// workers, with cancels, parameter evictions racing the running partitions,
// and resubmissions of ended request ids (as Curio retries): every id ends
// COMPLETED exactly once in the end, nothing is lost or duplicated, every
// proof verifies, and the daemon stays within its budget.
TEST(DaemonLoad, RetriesCancelsAndEvictionsOnMultiPartitionJobs) {
  Daemon d(
      "[memory]\ntotal_budget = \"512MiB\"\neviction_min_idle = \"0s\"\n[synthesis]\nthreads = 2\n"
      "[gpus]\ngpu_workers_per_device = 2\n[pipeline]\nmax_parallel_synthesis = 2\nsynthesis_concurrency = "
      "2\n");
  ASSERT_TRUE(fs::exists(d.sock)) << "daemon did not start";
  const std::string circuit = cuzk::circuits::cube_chain_id(kShape);
  constexpr int kClients = 4, kJobsPerClient = kUnderTsan ? 4 : 10;
  std::mutex mu;
  std::map<std::string, Outcome> out;
  std::atomic<int> rpc_errors{0}, retries{0}, evictions{0};
  std::atomic<bool> done{false};
  std::barrier round_end(kClients);
  // An operator evicting the parameters over and over: refused while jobs
  // hold them, done whenever they are idle.
  std::thread evictor([&] {
    auto stub = d.stub();
    while (!done) {
      grpc::ClientContext ctx;
      pb::EvictSrsRequest req;
      req.set_circuit_id(circuit);
      pb::EvictSrsResponse res;
      if (stub->EvictSRS(&ctx, req, &res).ok() && res.was_loaded()) evictions++;
      std::this_thread::sleep_for(2ms);
    }
  });
  std::vector<std::thread> clients;
  for (int c = 0; c < kClients; c++) {
    clients.emplace_back([&, c] {
      auto stub = d.stub();
      std::mt19937_64 rng(77 + c);
      for (int j = 0; j < kJobsPerClient; j++) {
        const std::string id = "porep-" + std::to_string(c) + "-" + std::to_string(j);
        std::vector<uint64_t> xs;
        for (int p = 0, n = 2 + int(rng() % 3); p < n; p++) xs.push_back(rng() % 1000000);
        Outcome o;
        o.xs = xs;
        bool cancel_first = rng() % 3 == 0;
        for (int attempt = 0; attempt < 4; attempt++) {
          grpc::ClientContext sctx;
          pb::SubmitProofResponse sres;
          if (!stub->SubmitProof(&sctx, make_request(id, xs, pb::NORMAL), &sres).ok()) {
            rpc_errors++;
            break;
          }
          if (cancel_first && attempt == 0) {
            std::this_thread::sleep_for(std::chrono::milliseconds(rng() % 30));
            grpc::ClientContext cctx;
            pb::CancelProofRequest creq;
            creq.set_job_id(id);
            pb::CancelProofResponse cres;
            stub->CancelProof(&cctx, creq, &cres);
          }
          grpc::ClientContext actx;
          pb::AwaitProofRequest areq;
          areq.set_job_id(id);
          pb::AwaitProofResponse ares;
          if (!stub->AwaitProof(&actx, areq, &ares).ok()) {
            rpc_errors++;
            break;
          }
          o.status = ares.status();
          o.error = ares.error_message();
          o.proof = ares.proof();
          if (o.status == pb::AwaitProofResponse::COMPLETED) break;
          retries++;  // FAILED or CANCELLED: retried under the same id
        }
        {
          std::lock_guard lk(mu);
          out[id] = o;
        }
        // Rounds: all clients pause together, so the evictor finds the
        // parameters idle and the next round reloads them under load.
        round_end.arrive_and_wait();
        std::this_thread::sleep_for(40ms);
      }
    });
  }
  for (auto& t : clients) t.join();
  done = true;
  evictor.join();
  EXPECT_EQ(rpc_errors.load(), 0);
  ASSERT_EQ(out.size(), size_t(kClients * kJobsPerClient));
  for (auto& [id, o] : out) EXPECT_EQ(o.status, pb::AwaitProofResponse::COMPLETED) << id << ": " << o.error;
  EXPECT_EQ(verify_completed(d, out), kClients * kJobsPerClient);
  auto stub = d.stub();
  grpc::ClientContext sctx;
  pb::GetStatusResponse st;
  ASSERT_TRUE(stub->GetStatus(&sctx, pb::GetStatusRequest(), &st).ok());
  EXPECT_EQ(st.total_proofs_completed(), uint64_t(kClients * kJobsPerClient));
  EXPECT_EQ(st.total_proofs_failed(), 0u);
  EXPECT_EQ(st.gpus_size(), 1);  // one device, listed once
  const uint64_t rss = d.peak_rss();
  std::printf("retries %d, evictions %d, daemon peak RSS %.1f MiB (budget 512 MiB)\n", retries.load(),
              evictions.load(), rss / 1048576.0);
  EXPECT_GT(retries.load(), 0);
  EXPECT_GT(evictions.load(), 0);  // the parameters went and came back while clients worked
  EXPECT_LE(rss, (512ull + 256ull) << 20);
  EXPECT_EQ(d.stop(), 0);
}

// Requests the daemon must refuse, each with its gRPC status and a message
// naming the problem; the daemon proves the next job after every one.
TEST(DaemonLoad, BadRequestsAreRefusedAndTheDaemonKeepsServing) {
  Daemon d("[limits]\nmax_partitions_per_request = 4\nmax_payload = \"64KiB\"\n");
  ASSERT_TRUE(fs::exists(d.sock));
  auto stub = d.stub();
  auto submit = [&](const pb::SubmitProofRequest& r) {
    grpc::ClientContext ctx;
    pb::SubmitProofResponse res;
    return stub->SubmitProof(&ctx, r, &res);
  };
  auto proves = [&](const std::string& id) {
    ASSERT_TRUE(submit(make_request(id, {5, 6}, pb::NORMAL)).ok()) << id;
    grpc::ClientContext ctx;
    pb::AwaitProofRequest req;
    req.set_job_id(id);
    req.set_timeout_ms(UINT64_MAX);  // any value works
    pb::AwaitProofResponse res;
    ASSERT_TRUE(stub->AwaitProof(&ctx, req, &res).ok());
    EXPECT_EQ(res.status(), pb::AwaitProofResponse::COMPLETED) << id << ": " << res.error_message();
  };
  struct Case {
    std::string name;
    pb::SubmitProofRequest req;
    grpc::StatusCode code;
    std::string expect;
  };
  std::vector<Case> cases;
  cases.push_back({"comma in id", make_request("porep-1,2", {1}, pb::NORMAL),
                   grpc::StatusCode::INVALID_ARGUMENT, "request_id"});
  cases.push_back({"newline in id", make_request("porep-1\n", {1}, pb::NORMAL),
                   grpc::StatusCode::INVALID_ARGUMENT, "request_id"});
  cases.push_back({"long id", make_request(std::string(300, 'a'), {1}, pb::NORMAL),
                   grpc::StatusCode::INVALID_ARGUMENT, "at most 256"});
  cases.push_back({"partitions", make_request("parts", {1, 2, 3, 4, 5}, pb::NORMAL),
                   grpc::StatusCode::RESOURCE_EXHAUSTED, "max_partitions_per_request"});
  auto big = make_request("big", {1}, pb::NORMAL);
  big.set_vanilla_proof(std::string(70 << 10, 'x'));
  cases.push_back({"payload", big, grpc::StatusCode::RESOURCE_EXHAUSTED, "limits.max_payload"});
  auto bad_witness = make_request("short-witness", {1}, pb::NORMAL);
  bad_witness.set_vanilla_proofs(0, bad_witness.vanilla_proofs(0).substr(0, 100));
  cases.push_back({"witness", bad_witness, grpc::StatusCode::INVALID_ARGUMENT, "partition 0"});
  for (size_t i = 0; i < cases.size(); i++) {
    auto st = submit(cases[i].req);
    EXPECT_EQ(st.error_code(), cases[i].code) << cases[i].name << ": " << st.error_message();
    EXPECT_NE(st.error_message().find(cases[i].expect), std::string::npos)
        << cases[i].name << ": " << st.error_message();
    proves("after-" + std::to_string(i));
  }
  EXPECT_EQ(d.stop(), 0);
}

// PoRep C2 inputs that cannot be proved: refused at submission with the
// gRPC status naming the problem, or (parameters that fail to load) a FAILED
// job with a message; the daemon keeps serving other work throughout.
TEST(DaemonLoad, BadPorepJobsFailCleanlyAndTheDaemonKeepsServing) {
  Daemon d("");
  ASSERT_TRUE(fs::exists(d.sock));
  auto stub = d.stub();
  namespace fc = cuzk::filecoin;
  fc::SealInputs in;
  in.config = *fc::porep_config(5);
  fc::Domain seed;
  seed.fill(4);
  fc::C1Wrapper w;
  w.sector_num = 1;
  w.sector_size = 2048;
  w.phase1 = fc::seal_commit_phase1(fc::seal_precommit(in), seed);
  auto porep = [&](const std::string& id, std::string vanilla) {
    pb::SubmitProofRequest r;
    r.set_request_id(id);
    r.set_proof_kind(pb::POREP_SEAL_COMMIT);
    r.set_vanilla_proof(std::move(vanilla));
    grpc::ClientContext ctx;
    pb::SubmitProofResponse res;
    return stub->SubmitProof(&ctx, r, &res);
  };
  auto await = [&](const std::string& id) {
    grpc::ClientContext ctx;
    pb::AwaitProofRequest req;
    req.set_job_id(id);
    pb::AwaitProofResponse res;
    EXPECT_TRUE(stub->AwaitProof(&ctx, req, &res).ok());
    return res;
  };

  grpc::Status s = porep("garbage", "{\"SectorNum\": 1, \"Phase1Out\": \"!!\"");
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << s.error_message();
  EXPECT_NE(s.error_message().find("C1 input"), std::string::npos) << s.error_message();

  s = porep("no-params", fc::write_c1_wrapper(w));
  EXPECT_EQ(s.error_code(), grpc::StatusCode::NOT_FOUND) << s.error_message();

  // A 2 KiB C1 sent as registered_proof 8 (32 GiB): refused, naming both.
  {
    pb::SubmitProofRequest r;
    r.set_request_id("wrong-proof");
    r.set_proof_kind(pb::POREP_SEAL_COMMIT);
    r.set_registered_proof(8);
    r.set_vanilla_proof(fc::write_c1_wrapper(w));
    grpc::ClientContext ctx;
    pb::SubmitProofResponse res;
    s = stub->SubmitProof(&ctx, r, &res);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << s.error_message();
    EXPECT_NE(s.error_message().find("StackedDrg32GiBV1_1"), std::string::npos) << s.error_message();
    EXPECT_NE(s.error_message().find("StackedDrg2KiBV1_1"), std::string::npos) << s.error_message();
  }
  // A TreeD sibling flipped: refused at admission, naming where.
  {
    auto bad = w;
    bad.phase1.vanilla_proofs[0][0].comm_d_proofs.base[1].hashes[0][7] ^= 0x10;
    s = porep("bad-path", fc::write_c1_wrapper(bad));
    EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << s.error_message();
    EXPECT_NE(s.error_message().find("vanilla_proofs[0][0].comm_d_proofs"), std::string::npos)
        << s.error_message();
  }

  // A parameter file that is not one: the job is admitted and fails at load.
  const std::string stem = fc::porep_parameter_stem(*fc::porep_config(5));
  std::ofstream(d.dir / "params" / (stem + ".params")) << std::string(4096, 'x');
  ASSERT_TRUE(porep("corrupt-params", fc::write_c1_wrapper(w)).ok());
  auto res = await("corrupt-params");
  EXPECT_EQ(res.status(), pb::AwaitProofResponse::FAILED);
  EXPECT_NE(res.error_message().find(stem), std::string::npos) << res.error_message();

  // Still serving.
  {
    grpc::ClientContext ctx;
    pb::SubmitProofResponse sr;
    ASSERT_TRUE(stub->SubmitProof(&ctx, make_request("after", {3}, pb::NORMAL), &sr).ok());
  }
  res = await("after");
  EXPECT_EQ(res.status(), pb::AwaitProofResponse::COMPLETED) << res.error_message();
  EXPECT_EQ(res.proof().size(), 192u);
  EXPECT_EQ(d.stop(), 0);
}
