// cuzk-bench gen-circuit / gen-witness: test inputs for GENERIC_R1CS jobs.
// gen-circuit installs a cube-chain circuit (R1CS + development parameters,
// NOT from a ceremony) into a parameter directory; gen-witness writes a
// witness file for it.
#include <chrono>
#include <cstdio>

#include "circuits/install.hpp"
#include "commands.hpp"
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
}

RegisterCommand reg_gen_cmds(60, register_gen);

}  // namespace
}  // namespace cuzk::bench_cli
