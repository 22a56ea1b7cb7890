// Synthetic PoRep and NI-PoRep C2 end to end, as Curio sends PoRep C2 to the
// daemon (curio lib/ffi/cuzk_funcs.go, PoRepSnarkCuzk): `cuzk-bench
// gen-vanilla porep --registered-proof 10|15` writes the C1 wrapper of a
// sealed 2 KiB sector, a real cuzk-daemon proves it through the Prove RPC
// (request_id porep-<miner>-<sector>, registered_proof = the synthetic / NI
// id, vanilla_proof = the wrapper) with its self-check on, and `cuzk
// verify-seal` accepts the proof, from the c1 or from public data with the
// replica_id derived, and with an explicit --porep-id / --api-version. Tampered
// synthetic C1s are refused at admission naming where; random byte mutations
// are refused or harmless, never a FAILED proof.
//
// The daemon maps the development parameters every 2 KiB PoRep test shares
// (tests/porep_dev_params.hpp; generated once per build tree) under their
// published file name: synthetic and NI-PoRep use the interactive file.
#include <gtest/gtest.h>
#include <grpcpp/grpcpp.h>
#include <sys/wait.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <thread>

#include "cuzk/v1/proving.grpc.pb.h"
#include "filecoin/common/param_names.hpp"
#include "filecoin/porep/c1_json.hpp"
#include "filecoin/porep/c2.hpp"
#include "filecoin/porep/seal.hpp"
#include "groth16/io.hpp"
#include "integration/daemon_process.hpp"
#include "platform/hex.hpp"
#include "porep_dev_params.hpp"
#include "temp_dir.hpp"

namespace fs = std::filesystem;
namespace fc = cuzk::filecoin;
namespace g16 = cuzk::groth16;
namespace pb = cuzk::v1;
using namespace std::chrono_literals;

namespace {

constexpr uint64_t kMiner = 1000;

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// A command's exit status and its stdout + stderr.
struct CmdResult {
  int rc = -1;
  std::string out;
};

CmdResult run(const std::string& cmd) {
  CmdResult r;
  FILE* p = ::popen((cmd + " 2>&1").c_str(), "r");
  if (!p) return r;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  const int status = ::pclose(p);
  r.rc = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

std::string hex(const fc::Domain& d) { return cuzk::platform::to_hex(d); }

// A daemon on a unix socket whose parameter directory holds the 2 KiB
// PoRep parameters (a link to the shared development file) and their .vk.
struct PorepDaemon {
  cuzk::test::TempDir dir{"cuzk-porep-daemon"};
  fs::path params = dir.path / "params", sock = dir.path / "cuzk.sock";
  cuzk::test::DaemonProcess proc;
  g16::PreparedVerifyingKey pvk;

  PorepDaemon() {
    fs::create_directories(params);
    const fc::PorepConfig cfg = *fc::porep_config(5);
    const fs::path dev = cuzk_test_params::porep_dev_parameters_file(cfg);
    const std::string stem = fc::porep_parameter_stem(cfg);
    fs::create_symlink(fs::absolute(dev), params / (stem + ".params"));
    // The .params file starts with the verifying key: 864 bytes of points, a
    // big-endian u32 count of IC points, 96 bytes each (docs/FILECOIN.md §5).
    std::ifstream in(dev, std::ios::binary);
    std::vector<uint8_t> head(868);
    in.read(reinterpret_cast<char*>(head.data()), std::streamsize(head.size()));
    const uint32_t ic =
        uint32_t(head[864]) << 24 | uint32_t(head[865]) << 16 | uint32_t(head[866]) << 8 | head[867];
    head.resize(868 + 96 * size_t(ic));
    in.read(reinterpret_cast<char*>(head.data() + 868), std::streamsize(96 * size_t(ic)));
    auto vk = g16::decode_verifying_key(head, "dev params");
    g16::write_file((params / (stem + ".vk")).string(), g16::encode_verifying_key(vk));
    pvk = g16::prepare_verifying_key(vk);

    std::ofstream(dir.path / "cuzk.toml") << "[daemon]\nlisten = \"unix://" << sock.string() << "\"\n"
                                          << "[srs]\nparam_cache = \"" << params.string() << "\"\n"
                                          << "[memory]\ntotal_budget = \"4GiB\"\n"
                                          << "[gpus]\ngpu_workers_per_device = 1\n"
                                          << "[synthesis]\nthreads = 1\n"
                                          << "[pipeline]\nmax_parallel_synthesis = 2\n";
    proc.start(dir.path / "cuzk.toml", dir.path / "daemon.log", "warn");
    for (int i = 0; i < 400 && !fs::exists(sock); i++) std::this_thread::sleep_for(50ms);
  }
  ~PorepDaemon() { proc.stop(); }

  std::unique_ptr<pb::ProvingEngine::Stub> stub() const {
    grpc::ChannelArguments args;
    args.SetMaxReceiveMessageSize(256 << 20);
    args.SetMaxSendMessageSize(256 << 20);
    return pb::ProvingEngine::NewStub(
        grpc::CreateCustomChannel("unix://" + sock.string(), grpc::InsecureChannelCredentials(), args));
  }

  // Curio's PoRepSnarkCuzk request, through the Prove RPC it uses.
  grpc::Status prove(const std::string& request_id, uint64_t registered_proof, uint64_t sector,
                     const std::string& wrapper, pb::AwaitProofResponse& out) const {
    pb::ProveRequest req;
    pb::SubmitProofRequest& r = *req.mutable_submit();
    r.set_request_id(request_id);
    r.set_proof_kind(pb::POREP_SEAL_COMMIT);
    r.set_sector_size(2048);
    r.set_registered_proof(registered_proof);
    r.set_priority(pb::NORMAL);
    r.set_vanilla_proof(wrapper);
    r.set_sector_number(sector);
    r.set_miner_id(kMiner);
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + 900s);
    pb::ProveResponse res;
    grpc::Status s = stub()->Prove(&ctx, req, &res);
    out = res.result();
    return s;
  }

  std::string cli(const std::string& args) const {
    return std::string(CUZK_CLI_PATH) + " verify-seal --param-dir " + params.string() + " " + args;
  }
};

// `cuzk-bench gen-vanilla porep` for a registered proof, as a C1 wrapper file.
fc::C1Wrapper gen_vanilla(const fs::path& out, uint64_t registered_proof, uint64_t sector) {
  CmdResult g = run(std::string(CUZK_BENCH_PATH) + " gen-vanilla porep --registered-proof " +
                    std::to_string(registered_proof) + " --sector-num " + std::to_string(sector) +
                    " --miner-id " + std::to_string(kMiner) + " -o " + out.string());
  EXPECT_EQ(g.rc, 0) << g.out;
  return fc::load_c1_file(out.string());
}

// Proves the C1 of `registered_proof` through the daemon and checks the
// proof with `cuzk verify-seal`; returns the proof file.
fs::path prove_and_verify(const PorepDaemon& d, uint64_t registered_proof, uint64_t sector,
                          size_t partitions) {
  const fs::path c1 = d.dir.path / ("c1-" + std::to_string(registered_proof) + ".json");
  fc::C1Wrapper w = gen_vanilla(c1, registered_proof, sector);
  EXPECT_EQ(uint64_t(w.phase1.registered_proof), registered_proof);
  EXPECT_EQ(w.phase1.vanilla_proofs.size(), partitions);
  pb::AwaitProofResponse res;
  const std::string id = "porep-" + std::to_string(kMiner) + "-" + std::to_string(sector);
  grpc::Status s = d.prove(id, registered_proof, sector, read_file(c1), res);
  EXPECT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(res.status(), pb::AwaitProofResponse::COMPLETED) << res.error_message();
  EXPECT_EQ(res.proof().size(), 192 * partitions);
  const fs::path proof = d.dir.path / ("proof-" + std::to_string(registered_proof) + ".bin");
  std::ofstream(proof, std::ios::binary) << res.proof();

  // From the c1, and from public data alone (replica_id derived from the
  // miner, sector, ticket, comm_d and the registered proof's porep_id).
  CmdResult v = run(d.cli("--c1 " + c1.string() + " --proof " + proof.string()));
  EXPECT_EQ(v.rc, 0) << v.out;
  EXPECT_NE(v.out.find("OK: seal proof verifies"), std::string::npos) << v.out;
  const fc::SealCommitPhase1Output& p = w.phase1;
  auto pub = [&](uint64_t miner, const fc::Domain& seed) {
    return "--registered-proof " + std::to_string(registered_proof) + " --comm-r " + hex(p.comm_r) +
           " --comm-d " + hex(p.comm_d) + " --seed " + hex(seed) + " --ticket " + hex(p.ticket) +
           " --miner-id " + std::to_string(miner) + " --sector-num " + std::to_string(sector) + " --proof " +
           proof.string();
  };
  v = run(d.cli(pub(kMiner, p.seed)));
  EXPECT_EQ(v.rc, 0) << v.out;
  v = run(d.cli(pub(kMiner + 1, p.seed)));  // another miner: another replica_id
  EXPECT_EQ(v.rc, 1) << v.out;
  // Another seed: other synthetic challenges; NI-PoRep's do not read it.
  fc::Domain other_seed;
  other_seed.fill(0x99);
  const bool non_interactive = fc::porep_config(registered_proof)->mode == fc::ChallengeMode::NonInteractive;
  v = run(d.cli(pub(kMiner, other_seed)));
  EXPECT_EQ(v.rc, non_interactive ? 0 : 1) << v.out;
  return proof;
}

std::string porep_id_hex(uint64_t registered_proof) {
  return hex(fc::porep_config(registered_proof)->porep_id());
}

}  // namespace

TEST(PorepDaemon, SyntheticC1ProvedAsCurioSendsItAndVerifiedWithExplicitPorepId) {
  PorepDaemon d;
  ASSERT_TRUE(fs::exists(d.sock)) << read_file(d.proc.log());
  const fs::path proof = prove_and_verify(d, 10, 1, 1);
  const fc::C1Wrapper w = fc::load_c1_file((d.dir.path / "c1-10.json").string());
  const fc::SealCommitPhase1Output& p = w.phase1;
  const std::string pub = "--registered-proof 10 --comm-r " + hex(p.comm_r) + " --comm-d " + hex(p.comm_d) +
                          " --seed " + hex(p.seed) + " --ticket " + hex(p.ticket) +
                          " --miner-id 1000 --sector-num 1 --proof " + proof.string();
  // The registered proof's own porep_id and version, given explicitly: accepted.
  CmdResult v = run(d.cli(pub + " --porep-id " + porep_id_hex(10) + " --api-version 1.2"));
  EXPECT_EQ(v.rc, 0) << v.out;
  EXPECT_NE(v.out.find("porep_id 0a00000000000000"), std::string::npos) << v.out;
  // Another porep_id of the size (15, or a test network's [127; 32]): another
  // replica_id and graph, refused, with or without the c1's replica_id.
  std::string test_network;
  for (int i = 0; i < 32; i++) test_network += "7f";
  for (const std::string& other : {porep_id_hex(15), test_network}) {
    v = run(d.cli(pub + " --porep-id " + other + " --api-version 1.2"));
    EXPECT_EQ(v.rc, 1) << other << ": " << v.out;
    EXPECT_NE(v.out.find("INVALID"), std::string::npos) << v.out;
  }
  v = run(d.cli("--c1 " + (d.dir.path / "c1-10.json").string() + " --proof " + proof.string() +
                " --porep-id " + porep_id_hex(15)));
  EXPECT_EQ(v.rc, 1) << v.out;
  // The synthetic porep_id under the interactive proof type: interactive
  // challenges from the seed, not the synthetic selection: refused.
  v = run(d.cli("--registered-proof 5" + pub.substr(pub.find(" --comm-r")) + " --porep-id " +
                porep_id_hex(10) + " --api-version 1.2"));
  EXPECT_EQ(v.rc, 1) << v.out;
  // Errors (exit status 2) that name the problem.
  struct Bad {
    std::string args, expect;
  } bad[] = {
      {" --porep-id 0a00", "2 bytes, a porep_id has 32"},
      {" --porep-id " + std::string(63, '0'), "is not hex"},
      {" --porep-id " + std::string(62, '0') + "zz", "is not hex"},
      {" --api-version 1.3", "'1.3' is not an API version"},
      {" --api-version 1.1", "needs API version 1.2.0"},
      {" --porep-id " + porep_id_hex(8), "names registered proof 8 (StackedDrg32GiBV1_1, 32GiB)"},
  };
  for (const auto& b : bad) {
    v = run(d.cli(pub + b.args));
    EXPECT_EQ(v.rc, 2) << b.args << ": " << v.out;
    EXPECT_NE(v.out.find(b.expect), std::string::npos) << b.args << ": " << v.out;
  }
  EXPECT_EQ(d.proc.stop(), 0);
}

TEST(PorepDaemon, NonInteractiveC1ProvedAsCurioSendsIt) {
  PorepDaemon d;
  ASSERT_TRUE(fs::exists(d.sock)) << read_file(d.proc.log());
  // 13 partitions of 2 challenges: the 13 partition proofs upstream's
  // seal_commit_phase2_circuit_proofs returns (not the SnarkPack aggregate).
  prove_and_verify(d, 15, 2, 13);
  EXPECT_EQ(d.proc.stop(), 0);
}

// Tampered synthetic C1s are refused at admission with INVALID_ARGUMENT
// naming the partition, challenge and field; then 100 random single-byte
// mutations of the c1 JSON (fixed seed), each sent in Curio's wrapper: each is
// refused at admission, or admitted and harmless (COMPLETED, and the proof
// verifies against the original C1's public data). None may be admitted and
// then fail.
TEST(PorepDaemon, MutatedSyntheticC1IsRefusedOrHarmless) {
  PorepDaemon d;
  ASSERT_TRUE(fs::exists(d.sock)) << read_file(d.proc.log());
  fc::SealInputs in;
  in.config = *fc::porep_config(10);
  in.miner_id = kMiner;
  in.sector_num = 3;
  in.ticket.fill(0x33);
  fc::SealedSector sealed = fc::seal_precommit(in);
  fc::Domain seed;
  seed.fill(0x44);
  const fc::SealCommitPhase1Output c1 = fc::seal_commit_phase1(sealed, seed);
  auto wrap = [](const std::string& raw) {
    return "{\"SectorNum\":3,\"Phase1Out\":\"" +
           fc::base64_encode({reinterpret_cast<const uint8_t*>(raw.data()), raw.size()}) +
           "\",\"SectorSize\":2048}";
  };

  struct Tamper {
    const char* expect;
    void (*apply)(fc::SealCommitPhase1Output&);
  } tampers[] = {
      {"vanilla_proofs[0][1].labeling_proofs[1]",
       [](fc::SealCommitPhase1Output& t) { t.vanilla_proofs[0][1].labeling_proofs[1].parents[3][5] ^= 1; }},
      {"vanilla_proofs[0][0].replica_column_proofs.exp_parents[2]",
       [](fc::SealCommitPhase1Output& t) {
         t.vanilla_proofs[0][0].replica_column_proofs.exp_parents[2].column.rows[0][0] ^= 4;
       }},
      {"partition 0 challenge", [](fc::SealCommitPhase1Output& t) { t.seed[0] ^= 0x80; }},
  };
  int n = 0;
  for (const auto& t : tampers) {
    fc::SealCommitPhase1Output bad = c1;
    t.apply(bad);
    pb::AwaitProofResponse res;
    grpc::Status s =
        d.prove("porep-1000-3-tamper-" + std::to_string(n++), 10, 3, wrap(fc::write_c1(bad)), res);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << t.expect << ": " << s.error_message();
    EXPECT_NE(s.error_message().find(t.expect), std::string::npos) << s.error_message();
  }

  // Refused at admission (true), or admitted, proved and valid for the original C1 (false).
  auto submit = [&](const std::string& id, const std::string& raw, const std::string& what) {
    pb::AwaitProofResponse res;
    grpc::Status s = d.prove(id, 10, 3, wrap(raw), res);
    if (!s.ok()) {
      EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << what << ": " << s.error_message();
      EXPECT_NE(s.error_message().find("C1 input"), std::string::npos) << s.error_message();
      return true;
    }
    EXPECT_EQ(res.status(), pb::AwaitProofResponse::COMPLETED)
        << what << " admitted, then: " << res.error_message();
    const auto& proof = res.proof();
    EXPECT_TRUE(fc::verify_seal(in.config, d.pvk, c1.comm_r, c1.comm_d, c1.replica_id, c1.seed,
                                {reinterpret_cast<const uint8_t*>(proof.data()), proof.size()}))
        << what << ": the proof does not verify against the original C1";
    return false;
  };
  const std::string text = fc::write_c1(c1);
  // A change C2 does not read (a ticket byte, 51 -> 52): admitted and harmless.
  {
    std::string m = text;
    const size_t at = m.find("\"ticket\":[51") + 11;
    ASSERT_EQ(m.substr(at - 1, 3), "51,");
    m[at] = '2';
    EXPECT_FALSE(submit("porep-1000-3-ticket", m, "ticket byte 0 changed to 52"));
  }
  std::mt19937_64 rng(10);
  int refused = 0, harmless = 0;
  for (int i = 0; i < 100; i++) {
    std::string m = text;
    const size_t at = rng() % m.size();
    const char was = m[at];
    do m[at] = char(rng() & 0xff);
    while (m[at] == was);
    const std::string what =
        "byte " + std::to_string(at) + " ('" + std::string(1, was) + "' -> '" + std::string(1, m[at]) + "')";
    (submit("porep-1000-3-mutant-" + std::to_string(i), m, what) ? refused : harmless)++;
  }
  std::printf("100 mutants of a synthetic C1: %d refused at admission, %d admitted and proved\n", refused,
              harmless);
  EXPECT_EQ(refused + harmless, 100);
  EXPECT_GT(refused, 80);
  EXPECT_EQ(d.proc.stop(), 0);
}
