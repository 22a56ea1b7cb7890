// cuzk-bench gen-circuit / gen-witness: test inputs for GENERIC_R1CS jobs.
// gen-circuit installs a cube-chain circuit (R1CS + development parameters,
// NOT from a ceremony) into a parameter directory; gen-witness writes a
// witness file for it. gen-random-c1: a PoRep C1 output with random values
// in the real layout of any sector size (filecoin/porep/random_c1.hpp), for
// timing C2 synthesis of sizes that cannot be sealed here (32 GiB).
#include <chrono>
#include <cstdio>
#include <fstream>

#include "circuits/install.hpp"
#include "commands.hpp"
#include "filecoin/porep/c1_json.hpp"
#include "filecoin/porep/random_c1.hpp"
#include "filecoin/porep/seal.hpp"
#include "r1cs/r1cs_file.hpp"

namespace cuzk::bench_cli {
namespace {

struct GenOpts {
  std::string param_cache = "params";
  uint32_t rounds = 8192;
  uint32_t extra_inputs = 2;
  uint64_t x = 1;
  std::string out;
  unsigned threads = 0;
};

void run_gen_circuit(const GenOpts& o) {
  circuits::CubeChain::Shape s{o.rounds, o.extra_inputs, 1};
  circuits::InstallOptions io;
  io.threads = o.threads;
  std::string last_stage;
  auto t0 = std::chrono::steady_clock::now();
  io.progress = [&](std::string_view stage, size_t done, size_t total) {
    if (stage != last_stage || done == total) {
      std::fprintf(stderr, "  setup %-8s %zu/%zu\n", std::string(stage).c_str(), done, total);
      last_stage = stage;
    }
  };
  auto inst = circuits::install_cube_chain(o.param_cache, s, io);
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf(
      "circuit: %s\nconstraints: %llu (+%llu input constraints)\ninputs: %llu (with ONE)\naux: %llu\n%s in "
      "%.1f s\n",
      inst.id.c_str(), (unsigned long long)inst.constraints, (unsigned long long)inst.inputs,
      (unsigned long long)inst.inputs, (unsigned long long)inst.aux,
      inst.generated ? "generated" : "already present", secs);
}

void run_gen_witness(const GenOpts& o) {
  circuits::CubeChain::Shape s{o.rounds, o.extra_inputs, 1};
  r1cs::write_file(o.out, circuits::cube_chain_witness(s, o.x));
  std::printf("witness for %s (x=%llu) written to %s\n", circuits::cube_chain_id(s).c_str(),
              (unsigned long long)o.x, o.out.c_str());
}

struct RandomC1Opts {
  std::string sector_size = "32GiB", out;
  uint64_t seed = 1;
  size_t partitions = 0;
  bool raw = false;
};

void run_gen_random_c1(const RandomC1Opts& o) {
  const auto size = filecoin::parse_sector_size(o.sector_size);
  if (!size)
    throw std::runtime_error("--sector-size: '" + o.sector_size + "' is not a size (2KiB, 32GiB, ...)");
  const auto cfg = filecoin::porep_config_for_size(*size);
  if (!cfg) throw std::runtime_error("no registered PoRep proof for sector size " + o.sector_size);
  const auto t0 = std::chrono::steady_clock::now();
  filecoin::C1Wrapper w;
  w.sector_num = 1;
  w.sector_size = cfg->sector_size;
  w.phase1 = filecoin::random_c1(*cfg, o.seed, o.partitions);
  const std::string text = o.raw ? filecoin::write_c1(w.phase1) : filecoin::write_c1_wrapper(w);
  std::ofstream f(o.out, std::ios::binary);
  if (!f.write(text.data(), std::streamsize(text.size()))) throw std::runtime_error("cannot write " + o.out);
  std::printf(
      "%s: %zu partition(s) of %zu random vanilla proofs (not a sealed sector: for timing only)\n"
      "wrote %s (%zu bytes, %s) in %.1f s\n",
      std::string(cfg->name).c_str(), w.phase1.vanilla_proofs.size(), cfg->challenges_per_partition,
      o.out.c_str(), text.size(), o.raw ? "c1.json" : "C1 wrapper",
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
}

void register_gen(CLI::App& app) {
  auto o = std::make_shared<GenOpts>();
  auto* gc =
      app.add_subcommand("gen-circuit", "install a cube-chain test circuit with development parameters");
  gc->add_option("--param-cache", o->param_cache, "parameter directory")->capture_default_str();
  gc->add_option("--rounds", o->rounds, "rounds (2 constraints each)")->capture_default_str();
  gc->add_option("--extra-inputs", o->extra_inputs, "extra public inputs")->capture_default_str();
  gc->add_option("--threads", o->threads, "setup threads (0 = all)");
  gc->callback([o] { run_gen_circuit(*o); });

  auto* gw = app.add_subcommand("gen-witness", "write a witness file for a cube-chain circuit");
  gw->add_option("--rounds", o->rounds, "rounds")->capture_default_str();
  gw->add_option("--extra-inputs", o->extra_inputs, "extra public inputs")->capture_default_str();
  gw->add_option("--x", o->x, "start value (one per partition)")->capture_default_str();
  gw->add_option("-o,--out", o->out, "output file")->required();
  gw->callback([o] { run_gen_witness(*o); });

  auto r = std::make_shared<RandomC1Opts>();
  auto* gr = app.add_subcommand(
      "gen-random-c1",
      "write a PoRep C1 output of random values in the real layout (timing only; proofs fail)");
  gr->add_option("--sector-size", r->sector_size, "sector size (2KiB, 8MiB, 512MiB, 32GiB, 64GiB)")
      ->capture_default_str();
  gr->add_option("--seed", r->seed, "random seed")->capture_default_str();
  gr->add_option("--partitions", r->partitions, "partitions to fill (0 = the proof's count)")
      ->capture_default_str();
  gr->add_flag("--raw", r->raw, "write the bare c1.json instead of Curio's wrapper");
  gr->add_option("-o,--out", r->out, "output file")->required();
  gr->callback([r] { run_gen_random_c1(*r); });
}

RegisterCommand reg_gen_cmds(60, register_gen);

}  // namespace
}  // namespace cuzk::bench_cli
