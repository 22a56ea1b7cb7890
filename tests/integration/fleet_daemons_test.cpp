// A fleet of three real cuzk-daemon processes on 127.0.0.1 sharing one job
// queue on a real PostgreSQL server (started in a temporary directory by
// tests/unit/fleet/pg_server.hpp), proving small generic-R1CS jobs:
//
// - clients submit to different daemons and await through any of them;
// - one daemon is killed with SIGKILL while it holds a job: its lease (3 s)
//   runs out and the others prove its jobs;
// - every job completes exactly once (one done row, one result), every proof
//   verifies with the circuit's .vk and none is lost or duplicated;
// - a CRITICAL job submitted behind a queue of NORMAL jobs overtakes them;
// - and (second test) the network to the database stops forwarding for a
//   while: bounded RPC failures, a bounded shutdown, nothing lost.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <grpcpp/grpcpp.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include "circuits/install.hpp"
#include "cuzk/v1/proving.grpc.pb.h"
#include "fleet/database.hpp"
#include "fleet/queue.hpp"
#include "grpc/health/v1/health.grpc.pb.h"
#include "groth16/io.hpp"
#include "groth16/verifier.hpp"
#include "temp_dir.hpp"
#include "integration/daemon_process.hpp"
#include "integration/tcp_proxy.hpp"
#include "unit/fleet/pg_server.hpp"

namespace fs = std::filesystem;
namespace pb = cuzk::v1;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

namespace {

// About 8k constraints: a partition proves in a few hundred ms on one core.
const cuzk::circuits::CubeChain::Shape kShape{4000, 2, 7};

struct PgEnvironment : ::testing::Environment {
  void TearDown() override { cuzk::test::PgServer::stop_shared(); }
};
[[maybe_unused]] auto* const pg_env = ::testing::AddGlobalTestEnvironment(new PgEnvironment);

int free_port() {
  int s = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = 0;
  socklen_t len = sizeof a;
  if (::bind(s, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 ||
      ::getsockname(s, reinterpret_cast<sockaddr*>(&a), &len) != 0) {
    ::close(s);
    return 0;
  }
  ::close(s);
  return ntohs(a.sin_port);
}

struct Daemon {
  std::string id;
  std::string target;  // 127.0.0.1:port
  fs::path log;
  cuzk::test::DaemonProcess proc;

  // `fleet_extra`: more [fleet] lines; `args`: more command-line arguments.
  Daemon(const fs::path& dir, const std::string& daemon_id, const std::string& db_uri, const fs::path& params,
         const std::string& fleet_extra = "", const std::vector<std::string>& args = {}) {
    id = daemon_id;
    target = "127.0.0.1:" + std::to_string(free_port());
    log = dir / (id + ".log");
    const fs::path cfg = dir / (id + ".toml");
    std::ofstream(cfg) << "[daemon]\nlisten = \"" << target << "\"\nallow_insecure_tcp = true\n"
                       << "[srs]\nparam_cache = \"" << params.string() << "\"\n"
                       << "[memory]\ntotal_budget = \"1GiB\"\n"
                       << "[gpus]\ngpu_workers_per_device = 1\ngpu_threads = 1\n"
                       << "[synthesis]\nthreads = 1\n"
                       << "[pipeline]\nmax_parallel_synthesis = 1\n"
                       << "[fleet]\ndatabase = \"" << db_uri << "\"\ndaemon_id = \"" << id << "\"\n"
                       << "lease = \"3s\"\npoll_interval = \"100ms\"\nslots = 2\nreserved_slots = 1\n"
                       << fleet_extra;
    proc.start(cfg, log, "info", args);
  }
  bool wait_ready() const {
    for (int i = 0; i < 300; i++) {
      // A fresh channel each time: one that failed to connect waits out its
      // reconnect backoff (seconds) before trying again.
      auto health =
          grpc::health::v1::Health::NewStub(grpc::CreateChannel(target, grpc::InsecureChannelCredentials()));
      grpc::ClientContext ctx;
      ctx.set_deadline(std::chrono::system_clock::now() + 1s);
      grpc::health::v1::HealthCheckRequest req;
      grpc::health::v1::HealthCheckResponse res;
      if (health->Check(&ctx, req, &res).ok() &&
          res.status() == grpc::health::v1::HealthCheckResponse::SERVING)
        return true;
      std::this_thread::sleep_for(100ms);
    }
    return false;
  }
  void kill9() { proc.kill9(); }
  void freeze() { proc.freeze(); }
  void thaw() { proc.thaw(); }
  int stop() { return proc.stop(); }
  std::unique_ptr<pb::ProvingEngine::Stub> stub() const {
    return pb::ProvingEngine::NewStub(grpc::CreateChannel(target, grpc::InsecureChannelCredentials()));
  }
  std::string metrics() const {
    grpc::ClientContext ctx;
    pb::GetMetricsRequest req;
    pb::GetMetricsResponse res;
    if (!stub()->GetMetrics(&ctx, req, &res).ok()) return "";
    return res.prometheus_text();
  }
};

uint64_t metric(const std::string& text, const std::string& name) {
  const auto at = text.find("\n" + name + " ");
  return at == std::string::npos ? 0 : std::stoull(text.substr(at + name.size() + 2));
}

pb::SubmitProofRequest make_request(const std::string& id, const std::vector<uint64_t>& xs, pb::Priority pr) {
  pb::SubmitProofRequest r;
  r.set_request_id(id);
  r.set_proof_kind(pb::GENERIC_R1CS);
  r.set_circuit_id(cuzk::circuits::cube_chain_id(kShape));
  r.set_priority(pr);
  for (uint64_t x : xs) r.add_vanilla_proofs(cuzk::circuits::cube_chain_witness(kShape, x));
  return r;
}

struct Job {
  std::vector<uint64_t> xs;
  std::string submitted_to;
  pb::AwaitProofResponse::Status status = pb::AwaitProofResponse::UNKNOWN;
  std::string proof, error;
};

// Submits `n` NORMAL jobs of one or two partitions to the daemons in turn;
// `jobs` gets them by the job id the daemon answered.
void submit_round_robin(const std::vector<std::unique_ptr<Daemon>>& d, int n,
                        std::map<std::string, Job>* jobs) {
  for (int j = 0; j < n; j++) {
    Job job;
    job.xs = {uint64_t(1000 + j)};
    if (j % 3 == 0) job.xs.push_back(uint64_t(5000 + j));
    const size_t to = size_t(j) % d.size();
    job.submitted_to = d[to]->id;
    const std::string id = "job-" + std::to_string(j);
    grpc::ClientContext ctx;
    pb::SubmitProofResponse res;
    auto st = d[to]->stub()->SubmitProof(&ctx, make_request(id, job.xs, pb::NORMAL), &res);
    ASSERT_TRUE(st.ok()) << st.error_message();
    EXPECT_EQ(res.job_id().rfind(id + "#", 0), 0u) << res.job_id();  // "<request_id>#<n>"
    (*jobs)[res.job_id()] = job;
  }
}

// Every awaited job completed, each partition's proof verifies against the
// circuit's .vk and appears once across all jobs, and the queue holds the
// job as done with that very result.
void expect_each_proved_once(const std::map<std::string, Job>& jobs, const fs::path& params,
                             cuzk::fleet::Queue& q) {
  auto vk = cuzk::groth16::read_verifying_key_file(
      (params / (cuzk::circuits::cube_chain_id(kShape) + ".vk")).string());
  auto pvk = cuzk::groth16::prepare_verifying_key(vk);
  std::set<std::string> proofs;
  for (auto& [id, j] : jobs) {
    ASSERT_EQ(j.status, pb::AwaitProofResponse::COMPLETED) << id << ": " << j.error;
    ASSERT_EQ(j.proof.size(), 192 * j.xs.size()) << id;
    auto decoded = cuzk::groth16::decode_proofs(
        std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(j.proof.data()), j.proof.size()));
    for (size_t p = 0; p < decoded.size(); p++) {
      auto pub = cuzk::circuits::CubeChain::public_inputs(kShape, cuzk::ff::Fr::from_u64(j.xs[p]));
      EXPECT_TRUE(cuzk::groth16::verify_proof(pvk, decoded[p], pub)) << id << " partition " << p;
      EXPECT_TRUE(proofs.insert(j.proof.substr(192 * p, 192)).second) << "duplicated proof in " << id;
    }
    auto info = q.get(id);
    ASSERT_TRUE(info) << id;
    EXPECT_EQ(info->state, cuzk::fleet::JobState::Done) << id;
    EXPECT_EQ(info->result.value_or(""), j.proof) << id;
  }
}

}  // namespace

TEST(FleetDaemons, KilledDaemonsWorkIsProvedElsewhereExactlyOnce) {
  auto& pg = cuzk::test::PgServer::shared();
  if (!pg.running()) GTEST_SKIP() << pg.skip_reason();
  cuzk::test::TempDir dir("cuzk-fleet");
  const fs::path params = dir.path / "params";
  fs::create_directories(params);
  cuzk::circuits::install_cube_chain(params.string(), kShape);
  const std::string uri = pg.fresh_database("fleet_daemons");

  std::vector<std::unique_ptr<Daemon>> d;
  for (int i = 0; i < 3; i++)
    d.push_back(std::make_unique<Daemon>(dir.path, "d" + std::to_string(i), uri, params));
  for (auto& x : d) ASSERT_TRUE(x->wait_ready()) << x->id << " did not start; log " << x->log;

  // 30 NORMAL jobs of 1-2 partitions, submitted round-robin to the daemons.
  constexpr int kJobs = 30;
  std::map<std::string, Job> jobs;
  ASSERT_NO_FATAL_FAILURE(submit_round_robin(d, kJobs, &jobs));

  // Kill d1 while it holds a job (a claimed row with its name). d1 is
  // frozen before the rows are read, so that it cannot finish the job
  // between the read and the kill (a short job sometimes did); what it had
  // already sent gets a moment to land first. Thawed and tried again when it
  // held nothing.
  cuzk::fleet::Database db(uri);
  cuzk::fleet::Queue q(db);
  std::string held;
  for (int i = 0; i < 400 && held.empty(); i++) {
    d[1]->freeze();
    std::this_thread::sleep_for(20ms);
    auto r = db.exec("test: held by d1",
                     "SELECT job_id FROM cuzk_jobs WHERE state = 'claimed' AND claimed_by = 'd1' "
                     "ORDER BY job_id LIMIT 1");
    if (r.rows() == 1) {
      held = r.text(0, 0);
    } else {
      d[1]->thaw();
      std::this_thread::sleep_for(10ms);
    }
  }
  ASSERT_FALSE(held.empty()) << "d1 never held a job";
  const auto killed_at = Clock::now();
  d[1]->kill9();
  {  // what it held when it died
    auto r = db.exec("test: held at death",
                     "SELECT job_id FROM cuzk_jobs WHERE state = 'claimed' AND "
                     "claimed_by = 'd1' ORDER BY job_id LIMIT 1");
    ASSERT_EQ(r.rows(), 1) << "d1 held no job when it was killed";
    held = r.text(0, 0);
  }

  // A CRITICAL job behind the NORMAL queue, submitted to a survivor.
  int normal_queued = 0;
  {
    auto r = db.exec("test: queued", "SELECT count(*) FROM cuzk_jobs WHERE state = 'queued'");
    normal_queued = int(r.integer(0, 0));
  }
  const auto crit_submitted = Clock::now();
  {
    Job job;
    job.xs = {42};
    job.submitted_to = d[2]->id;
    grpc::ClientContext ctx;
    pb::SubmitProofResponse res;
    ASSERT_TRUE(d[2]->stub()->SubmitProof(&ctx, make_request("critical", job.xs, pb::CRITICAL), &res).ok());
    jobs["critical"] = job;
  }

  // Clients await every job through a survivor (not necessarily the daemon
  // they submitted to), three at a time.
  std::mutex mu;
  std::atomic<int> rpc_errors{0};
  int normal_left_at_critical = -1;
  double critical_s = 0;
  std::vector<std::string> ids;
  for (auto& [id, j] : jobs) ids.push_back(id);
  std::atomic<size_t> next{0};
  std::vector<std::thread> clients;
  for (int c = 0; c < 3; c++) {
    clients.emplace_back([&, c] {
      auto stub = d[c % 2 == 0 ? 0 : 2]->stub();
      for (size_t i = next++; i < ids.size(); i = next++) {
        const std::string& id = ids[i];
        grpc::ClientContext ctx;
        ctx.set_deadline(std::chrono::system_clock::now() + 120s);
        pb::AwaitProofRequest req;
        req.set_job_id(id);
        pb::AwaitProofResponse res;
        if (!stub->AwaitProof(&ctx, req, &res).ok()) {
          rpc_errors++;
          continue;
        }
        std::lock_guard lk(mu);
        if (id == "critical") {
          critical_s = std::chrono::duration<double>(Clock::now() - crit_submitted).count();
          cuzk::fleet::Database db2(uri);
          auto r = db2.exec("test: left", "SELECT count(*) FROM cuzk_jobs WHERE state <> 'done'");
          normal_left_at_critical = int(r.integer(0, 0));
        }
        jobs[id].status = res.status();
        jobs[id].proof = res.proof();
        jobs[id].error = res.error_message();
      }
    });
  }
  // "critical" sorts first among the ids, so it is awaited at once.
  for (auto& t : clients) t.join();
  const double recovered_s = std::chrono::duration<double>(Clock::now() - killed_at).count();
  EXPECT_EQ(rpc_errors.load(), 0);

  // Every job completed exactly once, with a proof that verifies.
  ASSERT_NO_FATAL_FAILURE(expect_each_proved_once(jobs, params, q));
  {
    auto r = db.exec("test: rows", "SELECT count(*), count(*) FILTER (WHERE state = 'done') FROM cuzk_jobs");
    EXPECT_EQ(r.integer(0, 0), kJobs + 1);  // nothing lost, nothing added
    EXPECT_EQ(r.integer(0, 1), kJobs + 1);
  }
  // The job d1 held was reclaimed after its lease and proved by a survivor.
  auto h = q.get(held);
  ASSERT_TRUE(h);
  EXPECT_NE(h->claimed_by, "d1");
  EXPECT_GE(h->attempts, 2);  // d1's claim, then a survivor's (complete() clears last_error)
  // No job proved by two daemons into one result: the survivors stored one
  // result per job they completed and discarded none.
  const std::string m0 = d[0]->metrics(), m2 = d[2]->metrics();
  int by_d1 = 0;
  {
    auto r = db.exec("test: by d1", "SELECT count(*) FROM cuzk_jobs WHERE claimed_by = 'd1'");
    by_d1 = int(r.integer(0, 0));
  }
  EXPECT_EQ(metric(m0, "cuzk_fleet_completed_total") + metric(m2, "cuzk_fleet_completed_total") + by_d1,
            uint64_t(kJobs + 1))
      << m0 << m2;
  EXPECT_EQ(
      metric(m0, "cuzk_fleet_results_discarded_total") + metric(m2, "cuzk_fleet_results_discarded_total"),
      0u);
  EXPECT_GE(metric(m0, "cuzk_fleet_lease_expiries_total") + metric(m2, "cuzk_fleet_lease_expiries_total"),
            1u);
  // CRITICAL honoured: it finished while most NORMAL jobs queued before it
  // were still waiting.
  EXPECT_GE(normal_left_at_critical, normal_queued / 2)
      << "critical took " << critical_s << " s; " << normal_queued << " queued when it was submitted";
  std::printf(
      "fleet: %d jobs, d1 killed holding %s, all done %.1f s after the kill; critical in %.2f s "
      "(%d of %d queued NORMAL jobs still waiting)\n",
      kJobs + 1, held.c_str(), recovered_s, critical_s, normal_left_at_critical, normal_queued);
  for (int i : {0, 2}) EXPECT_EQ(d[i]->stop(), 0) << d[i]->id << " log " << d[i]->log;
}

// The network to the database stops forwarding (a TCP proxy of the test in
// front of PostgreSQL, paused): RPCs that need the database answer
// UNAVAILABLE within fleet.db_timeout, RPCs that do not are not held up, a
// daemon told to stop exits within its grace period; when forwarding
// resumes, the survivor goes on and every job completes, once.
TEST(FleetDaemons, APartitionFromTheDatabaseIsBoundedAndNothingIsLost) {
  auto& pg = cuzk::test::PgServer::shared();
  if (!pg.running()) GTEST_SKIP() << pg.skip_reason();
  cuzk::test::TempDir dir("cuzk-fleet-partition");
  const fs::path params = dir.path / "params";
  fs::create_directories(params);
  cuzk::circuits::install_cube_chain(params.string(), kShape);
  const std::string direct = pg.fresh_database("fleet_partition");
  cuzk::test::TcpProxy proxy(pg.socket_path());
  const std::string via_proxy = "postgresql://cuzk@127.0.0.1:" + std::to_string(proxy.port()) + "/" +
                                cuzk::test::PgServer::database_of(direct);
  constexpr auto kDbTimeout = 2s, kGrace = 5s;
  const std::string extra = "db_timeout = \"2s\"\n";
  std::vector<std::unique_ptr<Daemon>> d;
  for (int i = 0; i < 2; i++)
    d.push_back(std::make_unique<Daemon>(dir.path, "p" + std::to_string(i), via_proxy, params, extra,
                                         std::vector<std::string>{"--shutdown-grace", "5s"}));
  for (auto& x : d) ASSERT_TRUE(x->wait_ready()) << x->id << " did not start; log " << x->log;

  constexpr int kJobs = 8;
  std::map<std::string, std::vector<uint64_t>> jobs;
  for (int j = 0; j < kJobs; j++) {
    grpc::ClientContext ctx;
    pb::SubmitProofResponse res;
    const std::vector<uint64_t> xs = {uint64_t(3000 + j)};
    ASSERT_TRUE(d[0]->stub()
                    ->SubmitProof(&ctx, make_request("part-" + std::to_string(j), xs, pb::NORMAL), &res)
                    .ok());
    jobs[res.job_id()] = xs;
  }
  cuzk::fleet::Database db(direct);  // the test's own view, past the proxy
  for (int i = 0; i < 500; i++) {
    auto r = db.exec("test: p1 holds",
                     "SELECT count(*) FROM cuzk_jobs WHERE claimed_by = 'p1' AND state = 'claimed'");
    if (r.integer(0, 0) > 0) break;
    std::this_thread::sleep_for(10ms);
  }

  proxy.pause();
  auto stub = d[0]->stub();
  auto timed = [](auto&& call) {
    const auto t0 = Clock::now();
    const grpc::Status st = call();
    return std::make_pair(st, std::chrono::duration<double>(Clock::now() - t0).count());
  };
  std::pair<grpc::Status, double> submit, await;
  std::thread submitter([&] {
    submit = timed([&] {
      grpc::ClientContext ctx;
      ctx.set_deadline(std::chrono::system_clock::now() + 30s);
      pb::SubmitProofResponse res;
      return stub->SubmitProof(&ctx, make_request("during-partition", {77}, pb::NORMAL), &res);
    });
  });
  std::thread awaiter([&] {
    await = timed([&] {
      grpc::ClientContext ctx;
      ctx.set_deadline(std::chrono::system_clock::now() + 30s);
      pb::AwaitProofRequest req;
      req.set_job_id(jobs.begin()->first);
      pb::AwaitProofResponse res;
      return stub->AwaitProof(&ctx, req, &res);
    });
  });
  // Meanwhile an RPC without the database answers at once.
  double slowest_status = 0;
  for (int i = 0; i < 5; i++) {
    auto [st, s] = timed([&] {
      grpc::ClientContext ctx;
      ctx.set_deadline(std::chrono::system_clock::now() + 10s);
      pb::GetStatusResponse res;
      return stub->GetStatus(&ctx, {}, &res);
    });
    EXPECT_TRUE(st.ok()) << st.error_message();
    slowest_status = std::max(slowest_status, s);
    std::this_thread::sleep_for(200ms);
  }
  submitter.join();
  awaiter.join();
  const double bound = std::chrono::duration<double>(kDbTimeout).count() + 1.0;
  EXPECT_EQ(submit.first.error_code(), grpc::StatusCode::UNAVAILABLE) << submit.first.error_message();
  EXPECT_LE(submit.second, bound);
  EXPECT_EQ(await.first.error_code(), grpc::StatusCode::UNAVAILABLE) << await.first.error_message();
  EXPECT_LE(await.second, bound);
  EXPECT_LT(slowest_status, 1.0);

  // A daemon stopped while the database is out of reach exits within its grace.
  const auto stop_at = Clock::now();
  EXPECT_EQ(d[1]->stop(), 0);
  const double stop_s = std::chrono::duration<double>(Clock::now() - stop_at).count();
  EXPECT_LE(stop_s, std::chrono::duration<double>(kGrace).count() + 1.0);

  proxy.resume();
  const auto resumed = Clock::now();
  std::string bad;
  for (const auto& [id, xs] : jobs) {
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + 120s);
    pb::AwaitProofRequest req;
    req.set_job_id(id);
    pb::AwaitProofResponse res;
    auto st = stub->AwaitProof(&ctx, req, &res);
    if (!st.ok() || res.status() != pb::AwaitProofResponse::COMPLETED || res.proof().size() != 192)
      bad += id + " (" + st.error_message() + res.error_message() + ") ";
  }
  const double recovery_s = std::chrono::duration<double>(Clock::now() - resumed).count();
  EXPECT_EQ(bad, "");
  auto r = db.exec("test: rows",
                   "SELECT count(*) FILTER (WHERE state = 'done'), count(*) FILTER (WHERE state <> 'done') "
                   "FROM cuzk_jobs WHERE request_id LIKE 'part-%'");
  EXPECT_EQ(r.integer(0, 0), kJobs);  // one done row per job, nothing else
  EXPECT_EQ(r.integer(0, 1), 0);
  std::printf(
      "partition: SubmitProof UNAVAILABLE after %.2f s, AwaitProof after %.2f s (db_timeout 2 s), GetStatus "
      "at "
      "most %.3f s; p1 stopped in %.2f s (grace 5 s); all %d jobs done %.1f s after the network came back\n",
      submit.second, await.second, slowest_status, stop_s, kJobs, recovery_s);
  EXPECT_EQ(d[0]->stop(), 0) << d[0]->log;
}

// A daemon whose parameter directory is empty never claims the jobs it
// cannot prove: they all go to the daemon that has the circuit, each on its
// first attempt.
TEST(FleetDaemons, ADaemonWithoutParametersLeavesTheJobsToOneThatHasThem) {
  auto& pg = cuzk::test::PgServer::shared();
  if (!pg.running()) GTEST_SKIP() << pg.skip_reason();
  cuzk::test::TempDir dir("cuzk-fleet-capable");
  const fs::path params = dir.path / "params", empty = dir.path / "empty";
  fs::create_directories(params);
  fs::create_directories(empty);
  cuzk::circuits::install_cube_chain(params.string(), kShape);
  const std::string uri = pg.fresh_database("fleet_capable");
  Daemon without(dir.path, "without", uri, empty), with(dir.path, "with", uri, params);
  ASSERT_TRUE(without.wait_ready()) << without.log;
  ASSERT_TRUE(with.wait_ready()) << with.log;
  std::vector<std::string> ids;
  for (int j = 0; j < 5; j++) {
    grpc::ClientContext ctx;
    pb::SubmitProofResponse res;
    auto st = with.stub()->SubmitProof(
        &ctx, make_request("cap-" + std::to_string(j), {uint64_t(j + 1)}, pb::NORMAL), &res);
    ASSERT_TRUE(st.ok()) << st.error_message();
    ids.push_back(res.job_id());
  }
  cuzk::fleet::Database db(uri);
  cuzk::fleet::Queue q(db);
  for (const auto& id : ids) {  // answered by either daemon
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + 60s);
    pb::AwaitProofRequest req;
    req.set_job_id(id);
    pb::AwaitProofResponse res;
    ASSERT_TRUE(without.stub()->AwaitProof(&ctx, req, &res).ok());
    EXPECT_EQ(res.status(), pb::AwaitProofResponse::COMPLETED) << id << ": " << res.error_message();
    auto info = q.get(id);
    ASSERT_TRUE(info);
    EXPECT_EQ(info->claimed_by, "with") << id;
    EXPECT_EQ(info->attempts, 1) << id;
  }
  EXPECT_EQ(metric(without.metrics(), "cuzk_fleet_claims_total"), 0u);
  EXPECT_EQ(metric(with.metrics(), "cuzk_fleet_released_total"), 0u);
  EXPECT_EQ(without.stop(), 0);
  EXPECT_EQ(with.stop(), 0);
}
