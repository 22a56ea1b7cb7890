// cuzk-bench micro synth: PoRep partition synthesis, the gadget path against
// pre-compiled constraints (r1cs/pce.hpp), on a oneTBB arena of --threads
// threads. A test sector is sealed in memory first (2 KiB: instant; 8 MiB:
// about a minute). With --mode both (the default) the two paths alternate,
// so the ratio compares them under the same machine load.
//   rate_per_core = constraints / (median seconds x threads)
// Larger circuits (porep-512m, porep-32g, porep-64g) take --mode pce from a
// random C1 in the real layout, the PCE from a file (extracted into it when
// absent), a/b/c evaluated by chunks: micro_synth_large.cpp.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <oneapi/tbb/task_arena.h>

#include "commands.hpp"
#include "engine/pce_store.hpp"
#include "filecoin/common/registered_proof.hpp"
#include "filecoin/porep/c2.hpp"
#include "filecoin/porep/seal.hpp"
#include "filecoin/tree/fr32.hpp"
#include "micro_common.hpp"
#include "micro_synth_large.hpp"
#include "platform/large_vector.hpp"
#include "r1cs/pce.hpp"
#include "r1cs/pce_extract.hpp"
#include "r1cs/pce_file.hpp"
#include "r1cs/proving_assignment.hpp"

namespace cuzk::bench_cli {
namespace {

namespace fc = cuzk::filecoin;

struct SynthOpts {
  std::string circuit = "porep-2k";
  std::string mode = "both";
  unsigned threads = 1;
  int reps = 5;
  bool json = false;
  bool first = false;    // the process's first synthesis only (run_first_synthesis)
  LargeSynthOpts large;  // --pce-file, --chunk-rows, --stream-mib, --seed
};

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::optional<fc::PorepConfig> config_of(const std::string& circuit) {
  for (uint64_t id = 5; id < 10; id++)  // the V1_1 proofs
    if (auto cfg = fc::porep_config(id); cfg && fc::porep_circuit_id(*cfg) == circuit) return cfg;
  return std::nullopt;
}

// The first synthesis of a one-shot process (nothing recycled, every buffer
// in fresh pages), by the gadgets or, as a daemon restarted with the
// circuit's .pce file does (engine/pce_store.hpp), by the PCE mapped from
// --pce-file first (mapping included in the time; the file is extracted
// beforehand when absent or stale, untimed). One measurement per process:
// scripts/bench-first-synth.sh runs several.
void run_first_synthesis(const SynthOpts& o, const fc::PorepConfig& cfg,
                         const fc::SealCommitPhase1Output& c1) {
  if (o.mode != "gadgets" && o.mode != "pce") {
    std::fprintf(stderr, "micro synth: --first takes --mode gadgets or pce\n");
    set_exit_code(2);
    return;
  }
  tbb::task_arena arena(int(o.threads == 0 ? tbb::info::default_concurrency() : o.threads));
  const std::string path = o.large.pce_file.empty() ? o.circuit + ".pce" : o.large.pce_file;
  const r1cs::PceDigest digest = engine::PceStore::circuit_digest(o.circuit);
  const bool use_pce = o.mode == "pce";
  // A missing or stale file is extracted first (not timed); a current one
  // is only looked at when timed.
  if (use_pce && (!std::filesystem::exists(path) || !r1cs::pce_file_is_current(path, digest))) {
    std::fprintf(stderr, "micro synth: extracting into %s (not timed)\n", path.c_str());
    r1cs::extract_pce_file(path, fc::porep_blank_circuit(cfg), digest);
  }
  auto circuit = fc::porep_partition_circuit(c1, cfg, 0);
  double load_s = 0, s = 0;
  size_t rows = 0;
  const auto start = std::chrono::steady_clock::now();
  arena.execute([&] {
    r1cs::ProvingAssignment a;
    if (use_pce) {
      const r1cs::PrecompiledCircuit pre =
          r1cs::read_pce_file(path, digest);  // a stale file throws: remove it
      load_s = seconds_since(start);
      a = pre.synthesize(circuit);
    } else {
      circuit.synthesize(a);
    }
    s = seconds_since(start);  // before the assignment is freed
    rows = a.num_constraints();
    do_not_optimize(a.c[0]);
  });
  const double rate = double(rows) / s;
  if (o.json) {
    nlohmann::json j = {{"bench", "synth_first"},
                        {"circuit", o.circuit},
                        {"mode", o.mode},
                        {"threads", unsigned(arena.max_concurrency())},
                        {"constraints", rows},
                        {"ms", s * 1e3},
                        {"pce_map_ms", load_s * 1e3},
                        {"constraints_per_s", rate}};
    std::printf("%s\n", j.dump().c_str());
  } else {
    std::printf("synth %-9s %-7s first in process  %8.1f ms (PCE mapped in %.1f ms)  %6.2f M constraints/s\n",
                o.circuit.c_str(), o.mode.c_str(), s * 1e3, load_s * 1e3, rate / 1e6);
  }
  std::fflush(stdout);
}

void run_synth(const SynthOpts& o) {
  const auto cfg = config_of(o.circuit);
  if (!cfg) {
    std::fprintf(
        stderr,
        "micro synth: --circuit must be a PoRep circuit (porep-2k, porep-8m, porep-32g, ...; got %s)\n",
        o.circuit.c_str());
    set_exit_code(2);
    return;
  }
  if (cfg->sector_size > (uint64_t(8) << 20)) {
    if (o.mode != "pce") {
      std::fprintf(stderr, "micro synth: %s runs with --mode pce only (got %s)\n", o.circuit.c_str(),
                   o.mode.c_str());
      set_exit_code(2);
      return;
    }
    LargeSynthOpts lo = o.large;
    lo.circuit = o.circuit;
    lo.threads = o.threads;
    lo.reps = o.reps;
    lo.json = o.json;
    run_synth_large(lo, *cfg);
    return;
  }
  const bool gadgets = o.mode != "pce", pce = o.mode != "gadgets";
  if (o.mode != "both" && o.mode != "gadgets" && o.mode != "pce") {
    std::fprintf(stderr, "micro synth: --mode is gadgets, pce or both (got %s)\n", o.mode.c_str());
    set_exit_code(2);
    return;
  }
  auto t0 = std::chrono::steady_clock::now();
  fc::SealInputs in;
  in.config = *cfg;
  std::mt19937_64 g(7);
  std::vector<uint8_t> raw(cfg->sector_size / 128 * 127);
  for (auto& b : raw) b = uint8_t(g());
  in.padded_data = fc::fr32_pad(raw);
  fc::Domain seed;
  seed.fill(5);
  const auto c1 = fc::seal_commit_phase1(fc::seal_precommit(in), seed);
  std::fprintf(stderr, "micro synth: sealed a %s test sector in %.1f s\n", o.circuit.c_str(),
               seconds_since(t0));

  if (o.first) {
    run_first_synthesis(o, *cfg, c1);
    return;
  }
  // As the daemon does (engine.cpp): spent buffers are reused, for both paths.
  platform::set_recycle_limit(size_t(1) << 30);
  tbb::task_arena arena(int(o.threads == 0 ? tbb::info::default_concurrency() : o.threads));
  const unsigned threads = unsigned(arena.max_concurrency());
  std::optional<r1cs::PrecompiledCircuit> pre;
  double record_s = 0;
  if (pce) {
    t0 = std::chrono::steady_clock::now();
    arena.execute([&] { pre.emplace(r1cs::PrecompiledCircuit::record(fc::porep_blank_circuit(*cfg))); });
    record_s = seconds_since(t0);
    std::fprintf(stderr, "micro synth: recorded the PCE in %.2f s (%.1f MiB)\n", record_s,
                 double(pre->bytes()) / (1 << 20));
  }
  size_t rows = 0;
  auto timed = [&](bool use_pce) {
    auto circuit = fc::porep_partition_circuit(c1, *cfg, 0);
    const auto start = std::chrono::steady_clock::now();
    double s = 0;
    arena.execute([&] {
      r1cs::ProvingAssignment a;
      if (use_pce) a = pre->synthesize(circuit);
      else circuit.synthesize(a);
      s = seconds_since(start);  // before the assignment is freed
      rows = a.num_constraints();
      do_not_optimize(a.c[0]);
    });
    return s * 1e3;
  };
  if (gadgets) timed(false);  // warm-up: size hints, page cache, TBB start-up
  if (pce) timed(true);
  std::vector<double> g_ms, p_ms;
  for (int r = 0; r < o.reps; r++) {
    if (gadgets) g_ms.push_back(timed(false));
    if (pce) p_ms.push_back(timed(true));
  }
  auto report = [&](const char* mode, const std::vector<double>& ms) {
    const Stats s = stats_of(ms);
    const double rate = double(rows) / (s.median / 1e3) / double(threads);
    if (o.json) {
      nlohmann::json j = {{"bench", "synth"},   {"circuit", o.circuit}, {"mode", mode},
                          {"threads", threads}, {"reps", o.reps},       {"constraints", rows},
                          {"ms", s.median},     {"ms_min", s.min},      {"constraints_per_s_per_core", rate}};
      if (std::string(mode) == "pce") {
        j["pce_record_s"] = record_s;
        j["pce_mib"] = double(pre->bytes()) / (1 << 20);
      }
      std::printf("%s\n", j.dump().c_str());
    } else {
      std::printf(
          "synth %-9s %-7s threads=%u constraints=%zu  median %8.1f ms  min %8.1f ms  %6.2f M/s per core\n",
          o.circuit.c_str(), mode, threads, rows, s.median, s.min, rate / 1e6);
    }
    return s.median;
  };
  double gm = 0, pm = 0;
  if (gadgets) gm = report("gadgets", g_ms);
  if (pce) pm = report("pce", p_ms);
  if (gadgets && pce) {
    if (o.json)
      std::printf("%s\n", nlohmann::json({{"bench", "synth_ratio"},
                                          {"circuit", o.circuit},
                                          {"threads", threads},
                                          {"what", "pce_speedup"},
                                          {"ratio", gm / pm}})
                              .dump()
                              .c_str());
    else std::printf("synth %-9s pce_speedup %.2fx (gadgets / pce, medians)\n", o.circuit.c_str(), gm / pm);
  }
  std::fflush(stdout);
}

void register_micro_synth(CLI::App& app) {
  auto* micro = micro_command(app);
  auto o = std::make_shared<SynthOpts>();
  auto* cmd =
      micro->add_subcommand("synth", "PoRep partition synthesis: gadgets vs pre-compiled constraints");
  cmd->add_option("--circuit", o->circuit,
                  "porep-2k | porep-8m (sealed here) | porep-512m | porep-32g | porep-64g")
      ->capture_default_str();
  cmd->add_option("--mode", o->mode, "gadgets | pce | both (alternating, with their ratio)")
      ->capture_default_str();
  cmd->add_option("--threads", o->threads, "arena threads (0 = all)")->capture_default_str();
  cmd->add_option("--reps", o->reps, "timed repetitions per mode (median reported)")->capture_default_str();
  cmd->add_flag("--json", o->json, "one JSON object per line");
  cmd->add_option("--pce-file", o->large.pce_file,
                  "large circuits: the .pce file, mapped or extracted into (default <circuit>.pce)");
  cmd->add_option("--chunk-rows", o->large.chunk_rows, "large circuits: rows of a/b/c evaluated at a time")
      ->capture_default_str();
  cmd->add_option("--stream-mib", o->large.stream_mib,
                  "large circuits: MiB per array of the bandwidth measurement")
      ->capture_default_str();
  cmd->add_option("--seed", o->large.seed, "large circuits: seed of the random C1")->capture_default_str();
  cmd->add_option("--stores", o->large.stores,
                  "large circuits: a/b/c written with plain or streaming stores (auto: the library's choice)")
      ->check(CLI::IsMember({"auto", "plain", "streaming"}))
      ->capture_default_str();
  cmd->add_option("--recycle", o->large.recycle,
                  "large circuits: w's buffer recycled through a memory budget sized as the daemon's here "
                  "(budget), or fresh pages every partition (off)")
      ->check(CLI::IsMember({"budget", "off"}))
      ->capture_default_str();
  cmd->add_flag(
      "--first", o->first,
      "time only the process's first synthesis (--mode gadgets, or pce: mapping --pce-file included)");
  cmd->callback([o] { run_synth(*o); });
}

RegisterCommand reg_micro_synth(35, register_micro_synth);

}  // namespace
}  // namespace cuzk::bench_cli
