// cuzk-bench circuit-info: synthesizes a blank Filecoin circuit into a
// CountingCS and prints its size: constraints, inputs, aux, Groth16 rows and
// FFT domain, non-zeros of A/B/C, A/B densities, optionally the
// constraint-system hash (docs/FILECOIN.md §1.4, a second pass), with the time and
// peak memory the synthesis took.
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "commands.hpp"
#include "filecoin/circuit/hashing_cs.hpp"
#include "filecoin/common/registered_proof.hpp"
#include "filecoin/porep/circuit.hpp"
#include "filecoin/post/circuit.hpp"
#include "filecoin/snap/circuit.hpp"
#include "r1cs/counting_cs.hpp"

namespace cuzk::bench_cli {

// The blank circuit of a PoRep, PoSt or SnapDeals circuit id, and its proof's
// name (also used by micro device-phase).
std::pair<std::unique_ptr<r1cs::Circuit>, std::string> blank_filecoin_circuit(const std::string& id);

namespace {

struct InfoOpts {
  std::string circuit;
  bool json = false;
  bool hash = false;
};

const std::map<std::string, filecoin::RegisteredSealProof>& porep_circuits() {
  using R = filecoin::RegisteredSealProof;
  static const std::map<std::string, R> m = {{"porep-2k", R::StackedDrg2KiBV1_1},
                                             {"porep-8m", R::StackedDrg8MiBV1_1},
                                             {"porep-512m", R::StackedDrg512MiBV1_1},
                                             {"porep-32g", R::StackedDrg32GiBV1_1},
                                             {"porep-64g", R::StackedDrg64GiBV1_1}};
  return m;
}

double peak_rss_mib() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return double(ru.ru_maxrss) / 1024.0;  // Linux reports KiB
}

void run_info(const InfoOpts& o) {
  auto t0 = std::chrono::steady_clock::now();
  auto [circuit_ptr, proof_name] = blank_filecoin_circuit(o.circuit);
  const r1cs::Circuit& circuit = *circuit_ptr;
  r1cs::CountingCS cs;
  circuit.synthesize(cs);
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::string hash;
  double hash_secs = 0;
  if (o.hash) {
    auto t1 = std::chrono::steady_clock::now();
    filecoin::circuit::HashingCS h(cs.num_inputs(), cs.num_aux(), cs.num_constraints());
    circuit.synthesize(h);
    hash = h.finish();
    hash_secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();
  }

  size_t rows = cs.num_constraints() + cs.num_inputs();  // + one input·0 = 0 row per input (§1.5)
  size_t domain = 1;
  while (domain < rows) domain <<= 1;
  nlohmann::json j = {{"circuit", o.circuit},
                      {"proof", proof_name},
                      {"constraints", cs.num_constraints()},
                      {"inputs", cs.num_inputs()},
                      {"aux", cs.num_aux()},
                      {"groth16_rows", rows},
                      {"domain", domain},
                      {"nnz_a", cs.nnz_a},
                      {"nnz_b", cs.nnz_b},
                      {"nnz_c", cs.nnz_c},
                      {"a_input_density", cs.a_input_density.total()},
                      {"a_aux_density", cs.a_aux_density.total()},
                      {"b_input_density", cs.b_input_density.total()},
                      {"b_aux_density", cs.b_aux_density.total()},
                      {"synthesis_s", secs},
                      {"peak_rss_mib", peak_rss_mib()}};
  if (o.hash) {
    j["cs_hash"] = hash;
    j["hash_s"] = hash_secs;
  }
  if (o.json) {
    std::printf("%s\n", j.dump().c_str());
    return;
  }
  std::printf("%s (%s)\n", o.circuit.c_str(), proof_name.c_str());
  std::printf("  constraints      %zu\n  inputs           %zu (with ONE)\n  aux              %zu\n",
              cs.num_constraints(), cs.num_inputs(), cs.num_aux());
  std::printf("  groth16 rows     %zu (constraints + inputs), domain 2^%d\n", rows, __builtin_ctzll(domain));
  std::printf("  non-zeros        A %zu   B %zu   C %zu\n", cs.nnz_a, cs.nnz_b, cs.nnz_c);
  std::printf("  A density        inputs %zu   aux %zu\n", cs.a_input_density.total(),
              cs.a_aux_density.total());
  std::printf("  B density        inputs %zu   aux %zu\n", cs.b_input_density.total(),
              cs.b_aux_density.total());
  if (o.hash) std::printf("  cs hash          %s (%.2f s)\n", hash.c_str(), hash_secs);
  std::printf("  synthesis        %.2f s, peak RSS %.1f MiB\n", secs, peak_rss_mib());
}

void register_circuit_info(CLI::App& app) {
  auto o = std::make_shared<InfoOpts>();
  auto* cmd = app.add_subcommand("circuit-info", "size of a blank Filecoin circuit (CountingCS)");
  std::vector<std::string> names;
  for (const auto& [k, v] : porep_circuits()) names.push_back(k);
  for (uint64_t p = 0; p < 10; p++) names.push_back(filecoin::post_circuit_id(*filecoin::post_config(p)));
  for (uint64_t p = 0; p < 5; p++) names.push_back(filecoin::snap_circuit_id(*filecoin::snap_config(p)));
  cmd->add_option("--circuit", o->circuit,
                  "porep-, winning-post-, window-post- or snap- with 2k, 8m, 512m, 32g, 64g")
      ->required()
      ->check(CLI::IsMember(names));
  cmd->add_flag("--json", o->json, "one JSON object");
  cmd->add_flag("--hash", o->hash, "also compute the constraint-system hash (a second synthesis pass)");
  cmd->callback([o] {
    try {
      run_info(*o);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "circuit-info: %s\n", e.what());
      set_exit_code(1);
    }
  });
}

RegisterCommand reg_circuit_info(70, register_circuit_info);

}  // namespace

// The blank circuit of a PoRep, PoSt or SnapDeals circuit id, and its proof's name.
std::pair<std::unique_ptr<r1cs::Circuit>, std::string> blank_filecoin_circuit(const std::string& id) {
  if (auto it = porep_circuits().find(id); it != porep_circuits().end()) {
    auto cfg = filecoin::porep_config(uint64_t(it->second));
    auto params = filecoin::circuit::StackedCircuitParams::from_config(*cfg);
    return {std::make_unique<filecoin::circuit::StackedCircuit>(params), std::string(cfg->name)};
  }
  if (auto post = filecoin::post_config_for_circuit_id(id))
    return {std::make_unique<filecoin::FallbackPostCircuit>(*post), std::string(post->name)};
  if (auto snap = filecoin::snap_config_for_circuit_id(id))
    return {std::make_unique<filecoin::EmptySectorUpdateCircuit>(*snap),
            "EmptySectorUpdate " + std::string(snap->name)};
  throw std::invalid_argument("unknown circuit: " + id +
                              " (porep-, winning-post-, window-post-, snap- with 2k, 8m, 512m, 32g, 64g)");
}

}  // namespace cuzk::bench_cli
