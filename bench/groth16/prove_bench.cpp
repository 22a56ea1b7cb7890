// Groth16 setup and prove time per phase for cube-chain circuits filling a
// domain of 2^K rows (2^K - 1 constraints including the input rows), and the
// peak memory of one proof.
//
//   bench_groth16 [--log-n=16,18,20] [google-benchmark flags]
//       setup/log_n:K   development setup (generate_parameters), once
//       prove/log_n:K   synthesis + prove_start + prove_finish; counters in
//                       seconds per phase (ProverOptions::times) and
//                       other_pct = non-MSM/NTT share of the prove time
//                       (synthesis excluded). Use --benchmark_repetitions=N
//                       for medians (setup always runs once). Default
//                       size: 16 only (CI never runs benchmarks).
//   bench_groth16 --peak-mem --log-n=20 [--params-dir=DIR]
//       Installs DIR/cube-*.params once (in a child process, so that setup
//       memory does not count), then in this process: load the parameters,
//       synthesize, prove, verify, while a sampler thread records the peak
//       resident (VmRSS) and anonymous (RssAnon) memory of each phase.
#include <benchmark/benchmark.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "circuits/cube_chain.hpp"
#include "circuits/install.hpp"
#include "groth16/io.hpp"
#include "groth16/prover.hpp"
#include "groth16/rng.hpp"
#include "groth16/setup.hpp"
#include "groth16/verifier.hpp"

namespace {

using namespace cuzk;
using Clock = std::chrono::steady_clock;

double secs(Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double>(b - a).count(); }

// Rows = 2·rounds + 3 (the chain, then x, y and ONE as input rows) = 2^K - 1.
circuits::CubeChain::Shape shape_for(unsigned log_n) {
  circuits::CubeChain::Shape s;
  s.rounds = (uint32_t(1) << (log_n - 1)) - 2;
  return s;
}

constexpr uint64_t kX = 3;  // start value of the witness

struct Setup {
  groth16::Parameters params;
  groth16::PreparedVerifyingKey pvk;
  double seconds = 0;
};

std::map<unsigned, std::unique_ptr<Setup>>& setups() {
  static std::map<unsigned, std::unique_ptr<Setup>> m;
  return m;
}

Setup& setup_for(unsigned log_n) {
  auto& slot = setups()[log_n];
  if (!slot) {
    slot = std::make_unique<Setup>();
    std::mt19937_64 rng(0x6375'7a6b + log_n);
    auto t0 = Clock::now();
    slot->params =
        groth16::generate_parameters(circuits::CubeChain(shape_for(log_n)), groth16::ToxicWaste::random(rng));
    slot->seconds = secs(t0, Clock::now());
    slot->pvk = groth16::prepare_verifying_key(slot->params.vk);
  }
  return *slot;
}

void BM_Setup(benchmark::State& state) {
  const unsigned log_n = unsigned(state.range(0));
  for (auto _ : state) {
    setups().erase(log_n);
    state.SetIterationTime(setup_for(log_n).seconds);
  }
}

void BM_Prove(benchmark::State& state) {
  const unsigned log_n = unsigned(state.range(0));
  Setup& su = setup_for(log_n);
  const auto shape = shape_for(log_n);
  const circuits::CubeChain circuit(shape, r1cs::Fr::from_u64(kX));
  groth16::SecureRng rng;
  groth16::PhaseTimes t;
  double synth = 0, prove = 0;
  groth16::Proof proof;
  for (auto _ : state) {
    t = {};
    groth16::ProverOptions o;
    o.times = &t;
    auto t0 = Clock::now();
    auto pa = groth16::synthesize(circuit);
    auto t1 = Clock::now();
    proof = groth16::prove_finish(groth16::prove_start(std::move(pa), su.params, rng, o), o);
    auto t2 = Clock::now();
    synth = secs(t0, t1);
    prove = secs(t1, t2);  // wall time; what no phase covers counts as overhead
    state.SetIterationTime(secs(t0, t2));
  }
  if (!groth16::verify_proof(su.pvk, proof,
                             circuits::CubeChain::public_inputs(shape, r1cs::Fr::from_u64(kX))))
    state.SkipWithError("proof does not verify");
  const double other = prove - t.ntt() - t.msm();
  auto& c = state.counters;
  c["synth_s"] = synth;
  c["prove_s"] = prove;
  c["ntt_s"] = t.ntt();
  c["msm_h_s"] = t.msm_h;
  c["msm_l_s"] = t.msm_l;
  c["msm_a_s"] = t.msm_a;
  c["msm_b1_s"] = t.msm_b_g1;
  c["g2_tail_s"] = t.msm_b_g2 + t.assemble_g2;
  c["other_s"] = other;
  c["other_pct"] = 100 * other / prove;
  c["combine_s"] = t.ntt_combine;
  c["scalars_s"] = t.scalars + t.h_scalars;
}

// ---- peak memory ----

struct Mem {
  long rss_kb = 0, anon_kb = 0, hwm_kb = 0;
};

Mem read_mem() {
  Mem m;
  std::ifstream f("/proc/self/status");
  std::string line;
  while (std::getline(f, line)) {
    long v = 0;
    if (std::sscanf(line.c_str(), "VmRSS: %ld", &v) == 1) m.rss_kb = v;
    if (std::sscanf(line.c_str(), "RssAnon: %ld", &v) == 1) m.anon_kb = v;
    if (std::sscanf(line.c_str(), "VmHWM: %ld", &v) == 1) m.hwm_kb = v;
  }
  return m;
}

class Sampler {
 public:
  Sampler()
      : th_([this] {
          while (!stop_) {
            sample();
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
          }
        }) {}
  ~Sampler() {
    stop_ = true;
    th_.join();
  }
  // Peak since the previous call (includes a final sample now).
  Mem phase() {
    sample();
    Mem m{rss_.exchange(0), anon_.exchange(0), 0};
    sample();
    return m;
  }

 private:
  void sample() {
    Mem m = read_mem();
    for (long cur = rss_; m.rss_kb > cur && !rss_.compare_exchange_weak(cur, m.rss_kb);) {
    }
    for (long cur = anon_; m.anon_kb > cur && !anon_.compare_exchange_weak(cur, m.anon_kb);) {
    }
  }
  std::atomic<long> rss_{0}, anon_{0};
  std::atomic<bool> stop_{false};
  std::thread th_;
};

double mib(double bytes) { return bytes / (1024.0 * 1024.0); }

int peak_mem(unsigned log_n, const std::string& dir) {
  const auto shape = shape_for(log_n);
  const std::string params_path = dir + "/" + circuits::cube_chain_id(shape) + ".params";
  if (!std::filesystem::exists(params_path)) {
    std::printf("installing %s (development setup, in a child process) ...\n", params_path.c_str());
    std::fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
      try {
        circuits::install_cube_chain(dir, shape);
        _exit(0);
      } catch (const std::exception& e) {
        std::fprintf(stderr, "install failed: %s\n", e.what());
        _exit(1);
      }
    }
    int st = 0;
    if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
      std::fprintf(stderr, "bench_groth16: installing the parameters failed\n");
      return 1;
    }
  }
  Sampler s;
  Mem base = s.phase();
  auto t0 = Clock::now();
  groth16::Parameters params = groth16::read_parameters_file(params_path, ec::Check::SkipSubgroup);
  Mem load = s.phase();
  auto t1 = Clock::now();
  const circuits::CubeChain circuit(shape, r1cs::Fr::from_u64(kX));
  auto pa = groth16::synthesize(circuit);
  const size_t witness_bytes = 32 * (pa.num_inputs() + pa.num_aux());
  Mem synth = s.phase();
  auto t2 = Clock::now();
  groth16::SecureRng rng;
  auto pending = groth16::prove_start(std::move(pa), params, rng);
  Mem start = s.phase();
  auto proof = groth16::prove_finish(std::move(pending));
  Mem finish = s.phase();
  auto t3 = Clock::now();
  const bool ok = groth16::verify_proof(groth16::prepare_verifying_key(params.vk), proof,
                                        circuits::CubeChain::public_inputs(shape, r1cs::Fr::from_u64(kX)));
  const Mem end = read_mem();
  const double params_bytes = double(std::filesystem::file_size(params_path));
  const double sum = params_bytes + double(witness_bytes);
  std::printf("circuit %s: domain 2^%u, params file %.1f MiB, witness %.1f MiB (32 B x %zu values)\n",
              circuits::cube_chain_id(shape).c_str(), log_n, mib(params_bytes), mib(double(witness_bytes)),
              witness_bytes / 32);
  std::printf("load %.2f s, synthesis %.2f s, prove %.2f s, proof %s\n", secs(t0, t1), secs(t1, t2),
              secs(t2, t3), ok ? "verifies" : "DOES NOT VERIFY");
  std::printf("%-14s %12s %12s\n", "phase", "peak VmRSS", "peak RssAnon");
  auto row = [](const char* n, const Mem& m) {
    std::printf("%-14s %8.1f MiB %8.1f MiB\n", n, m.rss_kb / 1024.0, m.anon_kb / 1024.0);
  };
  row("start", base);
  row("load params", load);
  row("synthesize", synth);
  row("prove_start", start);
  row("prove_finish", finish);
  const double prove_peak = double(std::max({synth.rss_kb, start.rss_kb, finish.rss_kb})) * 1024;
  std::printf("VmHWM (whole process): %.1f MiB = %.2fx (params + witness = %.1f MiB)\n", end.hwm_kb / 1024.0,
              end.hwm_kb * 1024.0 / sum, mib(sum));
  std::printf("peak VmRSS from synthesis to proof: %.1f MiB = %.2fx (params + witness)\n", mib(prove_peak),
              prove_peak / sum);
  return ok ? 0 : 1;
}

std::vector<unsigned> parse_sizes(const std::string& v) {
  std::vector<unsigned> out;
  size_t pos = 0;
  while (pos <= v.size()) {
    size_t end = v.find(',', pos);
    if (end == std::string::npos) end = v.size();
    unsigned k = unsigned(std::stoul(v.substr(pos, end - pos)));
    if (k < 4 || k > 26) throw std::invalid_argument("--log-n values must be in [4, 26]");
    out.push_back(k);
    pos = end + 1;
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<unsigned> sizes{16};
  bool peak = false;
  std::string dir = (std::filesystem::temp_directory_path() / "cuzk-bench-groth16").string();
  std::vector<char*> rest{argv[0]};
  try {
    for (int i = 1; i < argc; i++) {
      std::string a = argv[i];
      if (a.rfind("--log-n=", 0) == 0) sizes = parse_sizes(a.substr(8));
      else if (a == "--peak-mem") peak = true;
      else if (a.rfind("--params-dir=", 0) == 0) dir = a.substr(13);
      else rest.push_back(argv[i]);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_groth16: bad --log-n: %s\n", e.what());
    return 2;
  }
  if (peak) {
    if (sizes.size() != 1) {
      std::fprintf(stderr, "bench_groth16: --peak-mem takes exactly one --log-n\n");
      return 2;
    }
    try {
      return peak_mem(sizes[0], dir);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "bench_groth16: %s\n", e.what());
      return 1;
    }
  }
  for (unsigned k : sizes) {
    benchmark::RegisterBenchmark("setup", BM_Setup)
        ->Arg(k)
        ->ArgName("log_n")
        ->Iterations(1)
        ->Repetitions(1)  // minutes at 2^20; prove repetitions reuse it
        ->UseManualTime()
        ->Unit(benchmark::kSecond);
    benchmark::RegisterBenchmark("prove", BM_Prove)
        ->Arg(k)
        ->ArgName("log_n")
        ->Iterations(1)
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);
  }
  int n = int(rest.size());
  benchmark::Initialize(&n, rest.data());
  if (benchmark::ReportUnrecognizedArguments(n, rest.data())) return 2;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
