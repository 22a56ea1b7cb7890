// cuzk-bench micro synth for PoRep partitions too large to seal or to hold
// whole here (porep-512m, porep-32g, porep-64g): the PCE path only, from a
// random C1 in the real layout (filecoin/porep/random_c1.hpp).
//
//   cuzk-bench micro synth --circuit porep-32g --mode pce [--pce-file F] [--chunk-rows N] [--threads T]
//                          [--stores auto|plain|streaming] [--recycle budget|off]
//
// 1. The machine's streaming bandwidth on T threads (micro stream's kernels),
//    measured before the synthesis and again after it (the best counts).
// 2. The PCE: F (default <circuit>.pce here) mapped if it is current, else
//    extracted into it first by the streaming extractor (r1cs/pce_extract.hpp),
//    with the extraction's time and peak RSS.
// 3. Per repetition: witness-only synthesis (w, 32 bytes per variable, and
//    its bit tags, one byte per variable: r1cs/witness_cs.hpp), then
//    a, b and c = a∘b evaluated N rows at a time into buffers reused from
//    chunk to chunk (the 32 GiB partition's whole a/b/c, 12 GB, would not fit
//    beside the PCE and w in 24 GiB), as a prover streaming them to a device
//    would. w's buffer is recycled as the daemon recycles it: a memory budget
//    sized as the daemon's default here, the mapped PCE reserved from it,
//    each repetition reserving w's bytes as a partition that reuses pooled
//    buffers (engine/memory_budget.hpp); --recycle off takes fresh pages.
// Reported: witness and evaluation seconds, constraints/s per core, peak RSS
// (VmHWM; the mapped PCE counts, as page cache), and the bandwidth bound:
// the bytes synthesis must move (the matrix arrays, w's tags and the values
// that are not bits, read once; w, its tags and a, b, c written once) over
// the measured read, write and streaming write bandwidths.
#include <oneapi/tbb/info.h>
#include <oneapi/tbb/task_arena.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/engine.hpp"
#include "engine/memory_budget.hpp"
#include "engine/pce_store.hpp"
#include "filecoin/porep/c2.hpp"
#include "filecoin/porep/random_c1.hpp"
#include "micro_common.hpp"
#include "micro_stream.hpp"
#include "micro_synth_large.hpp"
#include "platform/large_vector.hpp"
#include "platform/raw_array.hpp"
#include "r1cs/pce_extract.hpp"
#include "r1cs/pce_file.hpp"

namespace cuzk::bench_cli {

namespace {

namespace fc = cuzk::filecoin;

double large_seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// CPU seconds of the whole process (every thread): on a machine shared with
// other work, less disturbed than wall time by the cores others take.
double process_cpu_s() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}

// A field of /proc/self/status (VmHWM, VmRSS, RssAnon, RssFile) or of
// another such file (smaps_rollup's FilePmdMapped) in MiB.
double status_mib(const char* field, const char* file = "/proc/self/status") {
  std::ifstream in(file);
  std::string line;
  const std::string key = std::string(field) + ":";
  while (std::getline(in, line))
    if (line.rfind(key, 0) == 0) return std::stod(line.substr(key.size())) / 1024.0;  // kB
  return 0;
}
// Starts a new peak-RSS window (Linux: VmHWM := VmRSS).
void reset_peak_rss() { std::ofstream("/proc/self/clear_refs") << "5"; }

struct Bandwidth {
  double read = 0, write = 0, write_nt = 0, copy = 0;  // GB/s
  double write_nt_bits = 0;  // streaming stores of elements 0 or ONE (micro stream's write_nt_bits)
};

// The best read, write, streaming-write and copy bandwidths of micro
// stream's kernels on `threads` threads (best of 3), printed.
Bandwidth measure_bandwidth(size_t stream_mib, unsigned threads, const char* when) {
  Bandwidth b;
  for (const StreamResult& r : measure_stream(stream_mib, threads, 3)) {
    if (r.kernel == "read") b.read = r.best_gbs;
    if (r.kernel == "write") b.write = r.best_gbs;
    if (r.kernel == "write_nt") b.write_nt = r.best_gbs;
    if (r.kernel == "copy") b.copy = r.best_gbs;
    if (r.kernel == "write_nt_bits") b.write_nt_bits = r.best_gbs;
  }
  std::fprintf(
      stderr,
      "micro synth: bandwidth on %u thread(s), %s: read %.2f, write %.2f, streaming write %.2f (elements 0 "
      "or ONE %.2f), copy %.2f GB/s\n",
      threads, when, b.read, b.write, b.write_nt, b.write_nt_bits, b.copy);
  return b;
}

// The best of two measurements, each kind apart, recorded in `j` with both.
Bandwidth best_bandwidth(const Bandwidth& before, const Bandwidth& after, nlohmann::json& j) {
  const Bandwidth b{std::max(before.read, after.read), std::max(before.write, after.write),
                    std::max(before.write_nt, after.write_nt), std::max(before.copy, after.copy),
                    std::max(before.write_nt_bits, after.write_nt_bits)};
  j["read_gb_s"] = b.read;
  j["write_gb_s"] = b.write;
  j["write_nt_gb_s"] = b.write_nt;
  j["copy_gb_s"] = b.copy;
  j["write_nt_bits_gb_s"] = b.write_nt_bits;
  j["bandwidth_before_gb_s"] = {before.read, before.write, before.write_nt};
  j["bandwidth_after_gb_s"] = {after.read, after.write, after.write_nt};
  return b;
}

// The PCE file mapped into `pce` when current, else extracted into first
// (the extraction's time and peak RSS, and the mapping's, go into j).
void map_or_extract(const std::string& path, const std::string& circuit, const fc::PorepConfig& cfg,
                    tbb::task_arena& arena, std::optional<r1cs::PrecompiledCircuit>& pce, nlohmann::json& j) {
  const r1cs::PceDigest digest = engine::PceStore::circuit_digest(circuit);
  const auto load = [&] {
    reset_peak_rss();
    const auto t0 = std::chrono::steady_clock::now();
    arena.execute([&] { pce.emplace(r1cs::read_pce_file(path, digest)); });
    j["pce_load_s"] = large_seconds_since(t0);
    j["pce_load_peak_rss_mib"] = status_mib("VmHWM");
  };
  try {
    load();
  } catch (const r1cs::PceFileError& e) {
    std::fprintf(stderr, "micro synth: %s; extracting into %s\n", e.what(), path.c_str());
    reset_peak_rss();
    const auto t0 = std::chrono::steady_clock::now();
    const r1cs::PceExtractReport rep = r1cs::extract_pce_file(path, fc::porep_blank_circuit(cfg), digest);
    j["extract_s"] = large_seconds_since(t0);
    j["extract_count_s"] = rep.count_s;
    j["extract_record_s"] = rep.record_s;
    j["extract_checksum_s"] = rep.checksum_s;
    j["extract_peak_rss_mib"] = status_mib("VmHWM");
    std::fprintf(stderr,
                 "micro synth: extracted %llu constraints into %s (%.2f GiB) in %.1f s, peak RSS %.0f MiB\n",
                 (unsigned long long)rep.rows, path.c_str(), double(rep.file_bytes) / (1 << 30),
                 j["extract_s"].get<double>(), j["extract_peak_rss_mib"].get<double>());
    load();
  }
}

// The bytes synthesis must move per partition, each once (the least any
// order of the work can do): the matrix arrays, w's bit tags and the values
// that are not bits (`nonbit` of them), read; w and its tags (plain stores)
// and a, b, c (streaming stores, large circuits), written; and the time that
// takes at the bandwidths the machine streams each with. (Before the tags,
// every value was read: `bytes_per_constraint_values_read` keeps that count.)
struct MovedBytes {
  double read = 0, written = 0, bound_s = 0;
  double bound_bits_s = 0;  // the same with a/b/c at the streaming rate of elements 0 or ONE
};
MovedBytes bytes_moved(const r1cs::PrecompiledCircuit& pce, uint64_t nonbit, const Bandwidth& best,
                       nlohmann::json& j) {
  const double rows = double(pce.num_constraints()), vars = double(pce.num_aux() + pce.num_inputs());
  const double matrix_bytes = double(pce.matrix_bytes_read()), w_bytes = 33.0 * vars, abc_bytes = 96.0 * rows;
  MovedBytes m;
  m.read = matrix_bytes + vars + 32.0 * double(nonbit);
  m.written = w_bytes + abc_bytes;
  j["nonbit_values"] = nonbit;
  j["bytes_per_constraint_values_read"] = (matrix_bytes + 32.0 * vars + m.written) / rows;
  // Where a/b/c take streaming stores (the library's threshold, or --stores).
  const bool streaming = rows >= double(r1cs::PrecompiledCircuit::streaming_rows);
  const double abc_gbs = streaming ? std::max(best.write, best.write_nt) : best.write;
  const auto bound_at = [&](double abc_rate) {
    return m.read / (best.read * 1e9) + w_bytes / (best.write * 1e9) + abc_bytes / (abc_rate * 1e9);
  };
  m.bound_s = bound_at(abc_gbs);
  // a/b/c hold mostly 0 and ONE, which some machines write faster than the
  // word kernels' data: the bound for that rate beside the one above.
  m.bound_bits_s = bound_at(streaming ? std::max(abc_gbs, best.write_nt_bits) : abc_gbs);
  return m;
}

}  // namespace

void run_synth_large(const LargeSynthOpts& o, const fc::PorepConfig& cfg) {
  tbb::task_arena arena{int(o.threads == 0 ? tbb::info::default_concurrency() : o.threads)};
  const unsigned threads = unsigned(arena.max_concurrency());
  nlohmann::json j = {{"bench", "synth_large"}, {"circuit", o.circuit}, {"threads", threads}};

  // 1. Bandwidth, before anything large is resident (measured again at the
  // end: the best of the two counts, so that a slow spell of a shared
  // machine during one measurement does not loosen the bound).
  const Bandwidth before = measure_bandwidth(o.stream_mib, threads, "before synthesis");

  // 2. The PCE file: mapped when current, else extracted first.
  const std::string path = o.pce_file.empty() ? o.circuit + ".pce" : o.pce_file;
  std::optional<r1cs::PrecompiledCircuit> pce;
  map_or_extract(path, o.circuit, cfg, arena, pce, j);
  const size_t rows = pce->num_constraints(), vars = pce->num_aux() + pce->num_inputs();
  const uint64_t file_bytes = r1cs::pce_file_bytes(*pce);
  j["constraints"] = rows;
  j["pce_file_gib"] = double(file_bytes) / (1 << 30);
  std::fprintf(stderr, "micro synth: mapped %s (%.2f GiB) in %.1f s\n", path.c_str(),
               double(file_bytes) / (1 << 30), j["pce_load_s"].get<double>());

  // 3. Synthesis: w, then a/b/c by chunks.
  if (o.stores == "plain") r1cs::PrecompiledCircuit::streaming_rows = SIZE_MAX;
  if (o.stores == "streaming") r1cs::PrecompiledCircuit::streaming_rows = 0;
  j["stores"] = o.stores;
  const fc::SealCommitPhase1Output c1 = fc::random_c1(cfg, o.seed, 1);
  const size_t chunk = std::max<size_t>(1, std::min(o.chunk_rows, rows));
  platform::RawArray<r1cs::Fr> a(chunk), b(chunk), c(chunk);
  for (auto* v : {&a, &b, &c})  // faulted in before timing: a prover keeps such buffers
    std::fill(v->data(), v->data() + chunk, r1cs::Fr::zero());
  engine::MemoryBudget budget(engine::proving_budget_bytes(engine::EngineConfig{}));
  engine::Reservation pce_bytes;
  if (o.recycle == "budget") {
    engine::charge_recycling_to(budget);
    // The daemon holds the PCE inside its budget; where even that does not
    // fit, the partitions below still run, but not as the daemon's would.
    if (!budget.try_acquire(file_bytes, pce_bytes))
      std::fprintf(
          stderr,
          "micro synth: the PCE (%.2f GiB) does not fit the daemon's default budget here (%.2f GiB): "
          "a daemon on this machine could not keep it loaded; timing on without it reserved\n",
          double(file_bytes) / (1 << 30), double(budget.limit()) / (1 << 30));
    j["pce_reserved"] = pce_bytes.bytes() > 0;
  } else {
    platform::set_recycle_limit(0);
  }
  uint64_t nonbit = 0;  // witness values that are neither 0 nor 1
  int w_reused = 0;     // repetitions whose w took the pooled buffer pledged to them
  std::vector<double> w_s, e_s, total_s, w_cpu, e_cpu;
  double first_s = 0, first_w_s = 0;
  r1cs::Fr check = r1cs::Fr::zero();
  reset_peak_rss();
  // Repetition 0 is the first synthesis of the process (w's 4 GB in fresh
  // pages), reported apart; the others reuse w's buffer.
  for (int r = 0; r <= o.reps; r++) {
    const auto circuit = fc::porep_partition_circuit(c1, cfg, 0);
    const auto t0 = std::chrono::steady_clock::now();
    const double c0 = process_cpu_s();
    engine::Reservation part = budget.acquire(33 * vars, {}, {}, /*reuses_pooled=*/true);  // w and its tags
    std::vector<r1cs::Fr> w;
    std::vector<uint8_t> tags;
    double t_w = 0, c_w = 0;
    arena.execute([&] {
      w = pce->witness(circuit, &tags);
      t_w = large_seconds_since(t0);
      w_reused += part.pledged() > 0 && budget.pledged() == 0;
      part.settle();
      c_w = process_cpu_s();
      for (size_t first = 0; first < rows; first += chunk) {
        const size_t n = std::min(chunk, rows - first);
        pce->evaluate_rows(w, first, n, a.data(), b.data(), c.data(), tags);
        check += c[n - 1];  // every chunk used
      }
    });
    const double t = large_seconds_since(t0), c_e = process_cpu_s() - c_w;
    std::fprintf(stderr, "micro synth: %s: witness %.2f s, a/b/c %.2f s, total %.2f s (CPU %.2f + %.2f s)\n",
                 r ? ("repetition " + std::to_string(r)).c_str() : "first synthesis", t_w, t - t_w, t,
                 c_w - c0, c_e);
    if (r) {
      w_s.push_back(t_w);
      e_s.push_back(t - t_w);
      w_cpu.push_back(c_w - c0);
      e_cpu.push_back(c_e);
      total_s.push_back(t);
    } else {
      first_s = t;
      first_w_s = t_w;
    }
    if (r == o.reps) nonbit = uint64_t(std::count(tags.begin(), tags.end(), uint8_t(2)));
    platform::recycle_large(w);
    platform::recycle_large(tags);
  }
  do_not_optimize(check);
  j["recycle"] = o.recycle;
  j["budget_gib"] = double(budget.limit()) / (1 << 30);
  j["w_reused"] = w_reused;
  std::fprintf(stderr,
               "micro synth: recycling %s (budget %.1f GiB): w's buffer reused in %d of %d repetitions\n",
               o.recycle.c_str(), double(budget.limit()) / (1 << 30), w_reused, o.reps);
  j["peak_rss_mib"] = status_mib("VmHWM");
  j["rss_anon_mib"] = status_mib("RssAnon");
  j["rss_file_mib"] = status_mib("RssFile");
  j["rss_file_huge_mib"] = status_mib("FilePmdMapped", "/proc/self/smaps_rollup");  // in 2 MiB pages
  engine::stop_charging_recycling(budget);  // w's buffer goes: room for the second measurement
  const Bandwidth best =
      best_bandwidth(before, measure_bandwidth(o.stream_mib, threads, "after synthesis"), j);
  const Stats sw = stats_of(w_s), se = stats_of(e_s), st = stats_of(total_s);
  const MovedBytes moved = bytes_moved(*pce, nonbit, best, j);
  const double read_bytes = moved.read, written_bytes = moved.written, bound_s = moved.bound_s;
  j["reps"] = o.reps;
  j["chunk_rows"] = chunk;
  j["witness_s"] = sw.median;
  j["abc_s"] = se.median;
  j["witness_cpu_s"] = stats_of(w_cpu).median;
  j["abc_cpu_s"] = stats_of(e_cpu).median;
  j["synth_s"] = st.median;
  j["synth_s_min"] = st.min;
  j["first_synth_s"] = first_s;
  j["first_witness_s"] = first_w_s;
  j["constraints_per_s_per_core"] = double(rows) / st.median / double(threads);
  j["bytes_per_constraint"] = (read_bytes + written_bytes) / double(rows);
  j["bandwidth_bound_s"] = bound_s;
  j["synth_over_bound"] = st.median / bound_s;
  j["bandwidth_bound_bits_s"] = moved.bound_bits_s;
  j["synth_over_bound_bits"] = st.median / moved.bound_bits_s;
  if (o.json) {
    std::printf("%s\n", j.dump().c_str());
  } else {
    std::printf(
        "synth %s pce threads=%u constraints=%zu  witness %.2f s + a/b/c %.2f s = %.2f s (min %.2f)  "
        "%.2f M/s per core\n"
        "  CPU time (all threads, medians): witness %.2f s, a/b/c %.2f s\n"
        "  first synthesis of the process %.2f s (witness %.2f s)\n"
        "  peak RSS %.0f MiB (mapped PCE %.0f MiB of it at the end, %.0f MiB of that in 2 MiB pages; "
        "anonymous %.0f MiB)\n"
        "  bytes moved per constraint %.1f (read %.1f, written %.1f); bandwidth (best before and after) read "
        "%.2f / write %.2f / streaming write %.2f GB/s: bound %.2f s; synthesis / bound = %.2f\n"
        "  with a/b/c at the streaming rate of elements 0 or ONE (%.2f GB/s): bound %.2f s; synthesis / "
        "bound = %.2f\n",
        o.circuit.c_str(), threads, rows, sw.median, se.median, st.median, st.min,
        j["constraints_per_s_per_core"].get<double>() / 1e6, j["witness_cpu_s"].get<double>(),
        j["abc_cpu_s"].get<double>(), first_s, first_w_s, j["peak_rss_mib"].get<double>(),
        j["rss_file_mib"].get<double>(), j["rss_file_huge_mib"].get<double>(),
        j["rss_anon_mib"].get<double>(), j["bytes_per_constraint"].get<double>(), read_bytes / double(rows),
        written_bytes / double(rows), best.read, best.write, best.write_nt, bound_s, st.median / bound_s,
        best.write_nt_bits, moved.bound_bits_s, st.median / moved.bound_bits_s);
  }
  std::fflush(stdout);
}

}  // namespace cuzk::bench_cli
