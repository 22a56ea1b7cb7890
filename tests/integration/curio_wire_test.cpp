// The daemon driven as Curio drives it: only the Prove RPC, request ids in
// Curio's formats, retries and re-proofs under the same id.
//   - WindowPoSt: every partition of a deadline arrives under one id
//     ("wdpost-<miner>-0-[b0 ... b7]", Go's %d of the randomness bytes, so
//     with spaces and brackets); two partitions at once, then one after the
//     other, then a re-proof with a sector removed. Each proof must verify
//     with `cuzk verify-post` for its own sectors (and not for the others');
//     the same payload again returns the stored proof without proving.
//   - A job cancelled while running and sent again under the same id: two
//     jobs in the daemon's TIMELINE analysis, the first cancelled, the
//     second COMPLETED.
// Real 2 KiB WindowPoSt proofs with development parameters (made once by
// `cuzk setup`, cached in the build's test cache), vanilla proofs of sealed
// test sectors from `cuzk-bench gen-vanilla`.
#include <gtest/gtest.h>
#include <grpcpp/grpcpp.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "circuits/install.hpp"
#include "cuzk/v1/proving.grpc.pb.h"
#include "filecoin/post/vanilla.hpp"
#include "integration/daemon_process.hpp"
#include "timeline/analyze.hpp"
#include "timeline/parse.hpp"

namespace fs = std::filesystem;
namespace pb = cuzk::v1;
using namespace std::chrono_literals;

namespace {

// randomness[31] masked with 0x3f; its first 8 bytes in Go's %d form.
constexpr char kRandomness[] = "cc6e2cd998db97225a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a1a";
constexpr char kDeadlineId[] = "wdpost-1000-0-[204 110 44 217 152 219 151 34]";
constexpr uint64_t kWindowV1_1_2KiB = 10;

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// Runs a command line; its exit status (output in `out` when given).
int run(const std::string& cmd, std::string* out = nullptr) {
  FILE* f = ::popen((cmd + " 2>&1").c_str(), "r");
  if (!f) return -1;
  std::string text;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) text.append(buf, n);
  const int st = ::pclose(f);
  if (out) *out = text;
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

std::string bytes_of_hex(const std::string& hex) {
  std::string out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2)
    out.push_back(char(std::stoi(hex.substr(i, 2), nullptr, 16)));
  return out;
}

// Parameters and vanilla proofs, made once per build tree.
struct Inputs {
  fs::path params = fs::path(CUZK_TEST_CACHE) / "curio-wire" / "params";
  fs::path vanilla = fs::path(CUZK_TEST_CACHE) / "curio-wire" / "vanilla";
  std::string error;

  Inputs() {
    fs::create_directories(params);
    fs::create_directories(vanilla);
    std::string out;
    if (run(std::string(CUZK_CLI_PATH) + " setup --circuit window-post-2k --param-dir " + params.string(),
            &out) != 0) {
      error = "cuzk setup failed: " + out;
      return;
    }
    // Deadline partitions: sectors 1-2, 3-4, 5-6; the re-proof: sector 1 alone.
    for (auto [name, first, count] : {std::tuple{"p0", 1, 2}, std::tuple{"p1", 3, 2}, std::tuple{"p2", 5, 2},
                                      std::tuple{"reproof", 1, 1}}) {
      const fs::path f = vanilla / (std::string(name) + ".json");
      if (fs::exists(f)) continue;
      const std::string cmd =
          std::string(CUZK_BENCH_PATH) +
          " gen-vanilla window-post --sector-size 2KiB --registered-proof 10 --randomness " + kRandomness +
          " --first-sector " + std::to_string(first) + " --sectors " + std::to_string(count) + " -o " +
          f.string() + ".tmp";
      if (run(cmd, &out) != 0) {
        error = "gen-vanilla failed: " + out;
        return;
      }
      fs::rename(f.string() + ".tmp", f);
    }
  }
  fs::path file(const std::string& name) const { return vanilla / (name + ".json"); }
};

const Inputs& inputs() {
  static const Inputs in;
  return in;
}

struct Daemon {
  fs::path dir = fs::temp_directory_path() / ("cuzk-curio-" + std::to_string(::getpid()));
  std::string sock = (dir / "cuzk.sock").string();
  cuzk::test::DaemonProcess proc;

  Daemon(const fs::path& params, const std::string& extra_toml = "") {
    fs::create_directories(dir);
    std::ofstream(dir / "cuzk.toml") << "[daemon]\nlisten = \"unix://" << sock << "\"\n"
                                     << "[srs]\nparam_cache = \"" << params.string() << "\"\n"
                                     << extra_toml;
    proc.start(dir / "cuzk.toml", dir / "daemon.log", "warn");
    for (int i = 0; i < 200 && !fs::exists(sock); i++) std::this_thread::sleep_for(50ms);
  }
  ~Daemon() {
    proc.stop();
    fs::remove_all(dir);
  }
  std::unique_ptr<pb::ProvingEngine::Stub> stub() const {
    return pb::ProvingEngine::NewStub(
        grpc::CreateChannel("unix://" + sock, grpc::InsecureChannelCredentials()));
  }
  size_t count(const std::string& event) const {
    const std::string log = read_file(proc.log());
    size_t n = 0;
    for (size_t at = 0; (at = log.find("," + event + ",", at)) != std::string::npos; at++) n++;
    return n;
  }
};

// What Curio's Go client sends for one WindowPoSt partition task.
pb::SubmitProofRequest window_post(const fs::path& vanilla_file) {
  pb::SubmitProofRequest r;
  r.set_request_id(kDeadlineId);
  r.set_proof_kind(pb::WINDOW_POST_PARTITION);
  r.set_registered_proof(kWindowV1_1_2KiB);
  r.set_miner_id(1000);
  r.set_partition_index(0);  // one partition per task: always 0
  r.set_randomness(bytes_of_hex(kRandomness));
  for (auto& v : cuzk::filecoin::vanilla_proofs_from_json(read_file(vanilla_file))) r.add_vanilla_proofs(v);
  return r;
}

pb::AwaitProofResponse prove(const Daemon& d, const pb::SubmitProofRequest& submit) {
  pb::ProveRequest req;
  *req.mutable_submit() = submit;
  pb::ProveResponse resp;
  grpc::ClientContext ctx;
  ctx.set_deadline(std::chrono::system_clock::now() + 30min);  // Curio's deadline
  const grpc::Status st = d.stub()->Prove(&ctx, req, &resp);
  EXPECT_TRUE(st.ok()) << st.error_message();
  return resp.result();
}

// `cuzk verify-post` on the proof for the sectors of `vanilla_file`.
bool verifies_for(const std::string& proof, const fs::path& vanilla_file, const fs::path& dir) {
  const fs::path p = dir / "proof.bin";
  std::ofstream(p, std::ios::binary) << proof;
  std::string out;
  const int rc = run(std::string(CUZK_CLI_PATH) + " verify-post --registered-proof 10 --randomness " +
                         kRandomness + " --vanilla " + vanilla_file.string() + " --param-dir " +
                         inputs().params.string() + " --proof " + p.string(),
                     &out);
  return rc == 0;
}

TEST(CurioWire, EveryPartitionOfAWindowPostDeadlineUnderOneRequestId) {
  const Inputs& in = inputs();
  ASSERT_TRUE(in.error.empty()) << in.error;
  Daemon d(in.params);
  // Two partitions of the deadline at once.
  pb::AwaitProofResponse r0, r1;
  std::thread t0([&] { r0 = prove(d, window_post(in.file("p0"))); });
  std::thread t1([&] { r1 = prove(d, window_post(in.file("p1"))); });
  t0.join();
  t1.join();
  ASSERT_EQ(r0.status(), pb::AwaitProofResponse::COMPLETED) << r0.error_message();
  ASSERT_EQ(r1.status(), pb::AwaitProofResponse::COMPLETED) << r1.error_message();
  EXPECT_NE(r0.job_id(), r1.job_id());
  EXPECT_EQ(r0.job_id().rfind(std::string(kDeadlineId) + "#", 0), 0u) << r0.job_id();
  // Then the third, after them.
  const auto r2 = prove(d, window_post(in.file("p2")));
  ASSERT_EQ(r2.status(), pb::AwaitProofResponse::COMPLETED) << r2.error_message();
  // A re-proof of the first partition with its second sector skipped.
  const auto re = prove(d, window_post(in.file("reproof")));
  ASSERT_EQ(re.status(), pb::AwaitProofResponse::COMPLETED) << re.error_message();
  EXPECT_EQ(d.count("GPU_END"), 4u);

  EXPECT_TRUE(verifies_for(r0.proof(), in.file("p0"), d.dir));
  EXPECT_TRUE(verifies_for(r1.proof(), in.file("p1"), d.dir));
  EXPECT_TRUE(verifies_for(r2.proof(), in.file("p2"), d.dir));
  EXPECT_TRUE(verifies_for(re.proof(), in.file("reproof"), d.dir));
  // Each proof is of its own sectors.
  EXPECT_FALSE(verifies_for(r0.proof(), in.file("p1"), d.dir));
  EXPECT_FALSE(verifies_for(r1.proof(), in.file("p0"), d.dir));
  EXPECT_FALSE(verifies_for(re.proof(), in.file("p0"), d.dir));

  // Curio retries a task with the same payload: the stored proof (Groth16
  // proofs are randomized, so equal bytes mean it was not proved again).
  const auto again = prove(d, window_post(in.file("p1")));
  ASSERT_EQ(again.status(), pb::AwaitProofResponse::COMPLETED);
  EXPECT_EQ(again.proof(), r1.proof());
  EXPECT_EQ(again.job_id(), r1.job_id());
  EXPECT_EQ(d.count("GPU_END"), 4u);
}

TEST(CurioWire, ACancelledJobAndItsResubmissionAreTwoJobsInTheTimeline) {
  // A circuit big enough that its partitions run long enough to be cancelled
  // mid-way: 2^16 constraints, about 0.2-0.5 s of device work per partition here.
  const cuzk::circuits::CubeChain::Shape shape{1u << 15, 2, 11};
  const fs::path params = fs::path(CUZK_TEST_CACHE) / "curio-wire" / "cube";
  fs::create_directories(params);
  const auto installed = cuzk::circuits::install_cube_chain(params.string(), shape);
  Daemon d(params, "[pipeline]\nmax_parallel_synthesis = 1\n[gpus]\ngpu_workers_per_device = 1\n");
  pb::SubmitProofRequest req;
  req.set_request_id("porep-1000-42");
  req.set_proof_kind(pb::GENERIC_R1CS);
  req.set_circuit_id(installed.id);
  for (uint64_t x = 1; x <= 6; x++) req.add_vanilla_proofs(cuzk::circuits::cube_chain_witness(shape, x));
  auto stub = d.stub();
  pb::SubmitProofResponse sub;
  {
    grpc::ClientContext ctx;
    ASSERT_TRUE(stub->SubmitProof(&ctx, req, &sub).ok());
  }
  // Cancel once its first partition is on the device.
  for (int i = 0; i < 6000 && d.count("GPU_START") == 0; i++) std::this_thread::sleep_for(5ms);
  ASSERT_GT(d.count("GPU_START"), 0u);
  {
    pb::CancelProofRequest c;
    c.set_job_id("porep-1000-42");  // by the request id, as a client that knows only that
    pb::CancelProofResponse cr;
    grpc::ClientContext ctx;
    ASSERT_TRUE(stub->CancelProof(&ctx, c, &cr).ok());
    EXPECT_TRUE(cr.was_running());
  }
  // Curio retries under the same id.
  const auto second = prove(d, req);
  ASSERT_EQ(second.status(), pb::AwaitProofResponse::COMPLETED) << second.error_message();
  EXPECT_NE(second.job_id(), sub.job_id());
  {
    pb::AwaitProofRequest a;
    a.set_job_id(sub.job_id());
    pb::AwaitProofResponse first;
    grpc::ClientContext ctx;
    ASSERT_TRUE(stub->AwaitProof(&ctx, a, &first).ok());
    EXPECT_EQ(first.status(), pb::AwaitProofResponse::CANCELLED);
  }
  ASSERT_EQ(d.proc.stop(), 0);
  auto log = cuzk::timeline::parse_file(d.proc.log().string());
  auto model = cuzk::timeline::build_model(log);
  auto analysis = cuzk::timeline::analyze(log, model);
  ASSERT_EQ(analysis.jobs.size(), 2u);
  const cuzk::timeline::JobRow *a = nullptr, *b = nullptr;
  for (const auto& r : analysis.jobs) {
    if (log.jobs[r.job].id == sub.job_id()) a = &r;
    if (log.jobs[r.job].id == second.job_id()) b = &r;
  }
  ASSERT_TRUE(a && b);
  EXPECT_TRUE(a->cancelled);
  EXPECT_FALSE(b->cancelled);
  EXPECT_TRUE(b->complete);
  EXPECT_EQ(b->partitions, 6u);
}

}  // namespace
