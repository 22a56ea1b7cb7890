// cuzk-fuzz-seeds OUT_DIR REPO_ROOT: writes the seed corpus of every fuzz
// target (OUT_DIR/<target>/<name>), reproducibly (fixed seeds, no clock), so
// the committed tests/fuzz/corpus can be checked against a fresh run. Most
// seeds are written by our own writers from small real objects (a sealed
// 2 KiB sector, a tiny Groth16 circuit); the circom/snarkjs binaries are the
// committed interop fixtures (tests/interop/fixtures, made by circom/snarkjs).
// Targets that read several formats take a selector byte first (see each
// *_fuzz.cpp).
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "circuits/cube_chain.hpp"
#include "cuzk/v1/proving.pb.h"
#include "filecoin/porep/c1_json.hpp"
#include "filecoin/porep/seal.hpp"
#include "filecoin/post/post_config.hpp"
#include "filecoin/post/prove.hpp"
#include "filecoin/post/vanilla.hpp"
#include "filecoin/snap/update.hpp"
#include "filecoin/snap/vanilla.hpp"
#include "filecoin/tree/fr32.hpp"
#include "formats/circom.hpp"
#include "formats/snarkjs_json.hpp"
#include "groth16/io.hpp"
#include "groth16/prover.hpp"
#include "groth16/setup.hpp"
#include "timeline/synthetic.hpp"

using namespace cuzk;
namespace fs = std::filesystem;
namespace fc = cuzk::filecoin;

namespace {

fs::path out_root;

void put(const std::string& target, const std::string& name, const void* data, size_t n) {
  fs::create_directories(out_root / target);
  std::ofstream f(out_root / target / name, std::ios::binary | std::ios::trunc);
  f.write(static_cast<const char*>(data), std::streamsize(n));
  if (!f) throw std::runtime_error("cannot write " + (out_root / target / name).string());
}
void put(const std::string& target, const std::string& name, const std::string& s) {
  put(target, name, s.data(), s.size());
}
template <class Bytes>
void put_tagged(const std::string& target, const std::string& name, uint8_t selector, const Bytes& b) {
  std::string s(1, char(selector));
  s.append(reinterpret_cast<const char*>(b.data()), b.size());
  put(target, name, s);
}
std::string file_text(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  if (!f) throw std::runtime_error("cannot read " + p.string());
  return std::string((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

fc::SealedSector sealed_2kib(uint64_t sector, uint64_t data_seed) {
  fc::SealInputs in;
  in.config = *fc::porep_config(5);  // StackedDrg2KiBV1_1
  in.sector_num = sector;
  in.ticket.fill(uint8_t(sector));
  std::mt19937_64 g(data_seed);
  std::vector<uint8_t> raw(2032);
  for (auto& b : raw) b = uint8_t(g());
  in.padded_data = fc::fr32_pad(raw);
  return fc::seal_precommit(in);
}

// A tiny real Groth16 setup and proof (the cube chain, 8 rounds, 2 extra inputs).
struct Tiny {
  groth16::Parameters params;
  groth16::Proof proof, other;
  std::vector<ff::Fr> inputs;
};
Tiny tiny_groth16() {
  std::mt19937_64 rng(2026);
  circuits::CubeChain::Shape shape{8, 2, 1};
  Tiny t;
  t.params = groth16::generate_parameters(circuits::CubeChain(shape), groth16::ToxicWaste::random(rng));
  ff::Fr x = ff::Fr::from_u64(3);
  t.proof = groth16::prove(circuits::CubeChain(shape, x), t.params, rng);
  t.other = groth16::prove(circuits::CubeChain(shape, ff::Fr::from_u64(4)), t.params, rng);
  t.inputs = circuits::CubeChain::public_inputs(shape, x);
  return t;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: cuzk-fuzz-seeds OUT_DIR REPO_ROOT\n");
    return 2;
  }
  out_root = argv[1];
  const fs::path repo = argv[2], fixtures = repo / "tests" / "interop" / "fixtures";
  try {
    // c1.json: Curio's wrapper and the raw form, of a sealed 2 KiB sector.
    fc::SealedSector s = sealed_2kib(1, 1);
    fc::Domain seed;
    seed.fill(7);
    fc::C1Wrapper w;
    w.sector_num = 1;
    w.sector_size = s.config.sector_size;
    w.phase1 = fc::seal_commit_phase1(s, seed);
    const std::string wrapper = fc::write_c1_wrapper(w);
    put("c1_json", "wrapper-2kib.json", wrapper);
    put("c1_json", "raw-2kib.json", fc::write_c1(w.phase1));

    // PoSt vanilla proofs (selector 0: one bincode sector proof; 1: Curio's JSON file).
    fc::Domain rnd;
    for (size_t i = 0; i < rnd.size(); i++) rnd[i] = uint8_t(i * 7);
    rnd[31] &= 0x3f;
    const auto winning = *fc::post_config(0), window = *fc::post_config(5);
    const std::string win_blob = fc::write_post_sector_proof(fc::post_vanilla_proof(winning, s, rnd, 0));
    fc::SealedSector s2 = sealed_2kib(2, 2);
    std::vector<std::string> window_blobs = {
        fc::write_post_sector_proof(fc::post_vanilla_proof(window, s, rnd, 0)),
        fc::write_post_sector_proof(fc::post_vanilla_proof(window, s2, rnd, 1))};
    put_tagged("post_vanilla", "winning-2kib.bin", 0, win_blob);
    put_tagged("post_vanilla", "window-2kib.bin", 0, window_blobs[0]);
    put_tagged("post_vanilla", "window-2kib.json", 1, fc::vanilla_proofs_to_json(window_blobs));

    // SnapDeals: a CC sector updated with random data; the partition proof
    // after the update's three commitments.
    fc::SealInputs cc;
    cc.config = *fc::porep_config(5);
    cc.sector_num = 3;
    const fc::SealedSector cc_sector = fc::seal_precommit(cc);
    std::mt19937_64 g(17);
    std::vector<uint8_t> raw(2032);
    for (auto& b : raw) b = uint8_t(g());
    const fc::SnapUpdate upd = fc::encode_sector_update(*fc::snap_config(0), cc_sector, fc::fr32_pad(raw));
    const fc::SnapPublic sp = upd.public_inputs();
    std::string snap_seed(sp.comm_r_old.begin(), sp.comm_r_old.end());
    snap_seed.append(sp.comm_d_new.begin(), sp.comm_d_new.end());
    snap_seed.append(sp.comm_r_new.begin(), sp.comm_r_new.end());
    const std::string snap_blob = fc::write_snap_partition_proof(fc::snap_partition_proof(upd, 0));
    put("snap_vanilla", "update-2kib.bin", snap_seed + snap_blob);

    // Groth16 files (selector 0: .params, 1: .vk, 2: proofs).
    Tiny t = tiny_groth16();
    put_tagged("groth16_files", "tiny.params", 0, groth16::encode_parameters(t.params));
    put_tagged("groth16_files", "tiny.vk", 1, groth16::encode_verifying_key(t.params.vk));
    put_tagged("groth16_files", "one.proof", 2, groth16::encode_proof(t.proof));
    std::vector<groth16::Proof> two = {t.proof, t.other};
    put_tagged("groth16_files", "two.proofs", 2, groth16::encode_proofs(two));

    // snarkjs JSON (selector 0: proof.json, 1: verification_key.json, 2: public.json).
    put_tagged("snarkjs_json", "tiny.proof.json", 0, formats::proof_to_snarkjs_json(t.proof));
    put_tagged("snarkjs_json", "tiny.vk.json", 1, formats::vk_to_snarkjs_json(t.params.vk));
    put_tagged("snarkjs_json", "tiny.public.json", 2, formats::public_to_snarkjs_json(t.inputs));
    put_tagged("snarkjs_json", "cubic.vk.json", 1, file_text(fixtures / "cubic.vk.json"));

    // circom (selector 0: .r1cs, 1: .wtns) and snarkjs .zkey (selector: vk only).
    put_tagged("circom", "cubic.r1cs", 0, file_text(fixtures / "cubic.r1cs"));
    put_tagged("circom", "many_public.r1cs", 0, file_text(fixtures / "many_public.r1cs"));
    put_tagged("circom", "cubic.wtns", 1, file_text(fixtures / "cubic.wtns"));
    put_tagged("zkey", "cubic.zkey", 0, file_text(fixtures / "cubic.zkey"));
    put_tagged("zkey", "cubic-vk-only.zkey", 1, file_text(fixtures / "cubic.zkey"));

    // The daemon's TOML config: every section with a value of each type.
    put("config", "full.toml",
        "[daemon]\nlisten = \"unix:///run/cuzk/cuzk.sock\"\nstatus_listen = \"127.0.0.1:9821\"\n"
        "[memory]\ntotal_budget = \"64GiB\"\nsafety_margin = \"5GiB\"\neviction_min_idle = \"5m\"\n"
        "[gpus]\ndevices = [0]\ngpu_workers_per_device = 2\ngpu_threads = 0\n"
        "[synthesis]\nthreads = 0\n"
        "[pipeline]\nenabled = true\nmax_parallel_synthesis = 18\nsynthesis_concurrency = 1\n"
        "[srs]\nparam_cache = \"/data/zk/params\"\n"
        "[logging]\nlevel = \"info\"\n"
        "[limits]\nmax_queued_jobs = 1024\nmax_payload = { porep-c2 = \"64MiB\", winning-post = \"1MiB\" "
        "}\n");
    put("config", "demo.toml", file_text(repo / "config" / "cuzk-demo.toml"));

    // TIMELINE logs: a small simulated run with locks and ordinary log noise.
    timeline::SyntheticOptions so;
    so.jobs = 2;
    so.partitions = 3;
    so.seed = 11;
    put("timeline", "two-jobs.log", timeline::generate_synthetic(so));
    so.locks = false;
    so.runs = 2;
    so.noise = 0;
    put("timeline", "two-runs-no-locks.log", timeline::generate_synthetic(so));

    // SubmitProofRequest on the wire, one per proof kind the daemon serves.
    auto req = [](const std::string& name, cuzk::v1::SubmitProofRequest r) {
      put("submit", name, r.SerializeAsString());
    };
    cuzk::v1::SubmitProofRequest porep;
    porep.set_request_id("porep-1000-1");
    porep.set_proof_kind(cuzk::v1::POREP_SEAL_COMMIT);
    porep.set_sector_size(2048);
    porep.set_registered_proof(5);
    porep.set_vanilla_proof(wrapper);
    porep.set_sector_number(1);
    porep.set_miner_id(1000);
    req("porep-2kib.pb", porep);
    cuzk::v1::SubmitProofRequest win;
    win.set_request_id("winning-1000-1");
    win.set_proof_kind(cuzk::v1::WINNING_POST);
    win.set_priority(cuzk::v1::CRITICAL);
    win.set_registered_proof(0);
    win.set_miner_id(1000);
    win.set_randomness(std::string(rnd.begin(), rnd.end()));
    win.add_vanilla_proofs(win_blob);
    req("winning-2kib.pb", win);
    cuzk::v1::SubmitProofRequest wdp = win;
    wdp.set_request_id("window-1000-0");
    wdp.set_proof_kind(cuzk::v1::WINDOW_POST_PARTITION);
    wdp.set_registered_proof(5);
    wdp.clear_vanilla_proofs();
    for (auto& b : window_blobs) wdp.add_vanilla_proofs(b);
    req("window-2kib.pb", wdp);
    cuzk::v1::SubmitProofRequest snap;
    snap.set_request_id("snap-1000-3");
    snap.set_proof_kind(cuzk::v1::SNAP_DEALS_UPDATE);
    snap.set_registered_proof(0);
    snap.set_sector_size(2048);
    snap.set_sector_number(3);
    snap.set_miner_id(1000);
    snap.set_comm_r_old(std::string(sp.comm_r_old.begin(), sp.comm_r_old.end()));
    snap.set_comm_d_new(std::string(sp.comm_d_new.begin(), sp.comm_d_new.end()));
    snap.set_comm_r_new(std::string(sp.comm_r_new.begin(), sp.comm_r_new.end()));
    snap.add_vanilla_proofs(snap_blob);
    req("snap-2kib.pb", snap);
    cuzk::v1::SubmitProofRequest gen;
    gen.set_request_id("generic-1");
    gen.set_proof_kind(cuzk::v1::GENERIC_R1CS);
    gen.set_circuit_id("cube-1024r-0i");
    gen.add_vanilla_proofs(std::string(64, '\x01'));
    req("generic.pb", gen);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cuzk-fuzz-seeds: %s\n", e.what());
    return 1;
  }
  return 0;
}
