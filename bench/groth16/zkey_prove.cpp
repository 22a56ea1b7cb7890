// bench_zkey_prove: `cuzk prove --zkey` as a timed process, with the key
// validation level as a choice, for the side-by-side with
// `snarkjs groth16 prove` (scripts/bench-vs-snarkjs.sh).
//
//   bench_zkey_prove ZKEY WTNS PROOF.json PUBLIC.json [--check full|curve|none] [--repeat N]
//                    [--stages overlap|sequential]
//
// `cuzk prove` checks every key point for curve and subgroup membership
// (--check full, the default here too). snarkjs checks none; --check curve
// (on-curve only, as bellperson treats its trusted .params) gives the
// like-for-like prove time. Stage times go to stderr; --repeat proves N times
// with the key loaded once (the last proof is written). The stages overlap
// by default, as in `cuzk prove` (A and B2 beside h and C+H); --stages
// sequential runs them one after the other, so their times add up. Like the
// CLI, the process first reserves its heap in huge pages.
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "formats/circom.hpp"
#include "formats/snarkjs_json.hpp"
#include "formats/zkey.hpp"
#include "groth16/rng.hpp"
#include "platform/process_heap.hpp"

// CPU time of the process (all threads), ms: steadier than wall time on a shared machine.
static double cpu_ms() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return (u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1e3 + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e3;
}

int main(int argc, char** argv) {
  using Clock = std::chrono::steady_clock;
  auto usage = [] {
    std::fprintf(
        stderr,
        "usage: bench_zkey_prove ZKEY WTNS PROOF.json PUBLIC.json [--check full|curve|none] [--repeat N]\n"
        "                        [--stages overlap|sequential]\n");
    return 2;
  };
  if (argc < 5) return usage();
  cuzk::platform::reserve_huge_page_heap();
  cuzk::formats::ZkeyReadOptions ro;
  int repeat = 1;
  bool overlap = true;
  for (int i = 5; i < argc; i += 2) {
    std::string opt = argv[i];
    if (i + 1 >= argc) return usage();
    std::string v = argv[i + 1];
    if (opt == "--check") {
      if (v == "curve") ro.check = cuzk::ec::Check::SkipSubgroup;
      else if (v == "none") ro.check = cuzk::ec::Check::None;
      else if (v != "full") {
        std::fprintf(stderr, "bench_zkey_prove: --check must be full, curve or none (got %s)\n", v.c_str());
        return 2;
      }
    } else if (opt == "--repeat") {
      repeat = std::atoi(v.c_str());
      if (repeat < 1 || repeat > 100) {
        std::fprintf(stderr, "bench_zkey_prove: --repeat must be 1..100 (got %s)\n", v.c_str());
        return 2;
      }
    } else if (opt == "--stages" && (v == "overlap" || v == "sequential")) {
      overlap = v == "overlap";
    } else {
      return usage();
    }
  }
  try {
    auto ms = [](auto a, auto b) { return std::chrono::duration<double, std::milli>(b - a).count(); };
    auto t0 = Clock::now();
    auto zk = cuzk::formats::read_zkey_file(argv[1], ro);
    auto t1 = Clock::now();
    auto w = cuzk::formats::read_any_witness_file(argv[2]);
    auto t2 = Clock::now();
    std::fprintf(stderr, "read zkey %.0f ms, read wtns %.0f ms (nVars %u, domain %u)\n", ms(t0, t1),
                 ms(t1, t2), zk.n_vars, zk.domain_size);
    cuzk::groth16::SecureRng rng;
    for (int rep = 0; rep < repeat; rep++) {
      cuzk::formats::ZkeyProveTimes tm;
      cuzk::formats::ZkeyProveOptions po;
      po.times = &tm;
      po.overlap_stages = overlap;
      auto t3 = Clock::now();
      double c3 = cpu_ms();
      auto proof = cuzk::formats::prove_zkey(zk, w, rng, po);
      auto t4 = Clock::now();
      // Overlapping stages' times do not add up to the wall time.
      const double rest =
          tm.total_ms - tm.h_scalars_ms - tm.msm_a_ms - tm.msm_b2_ms - tm.msm_b1_ms - tm.msm_ch_ms;
      const std::string tail = overlap ? "stages overlapped" : "rest " + std::to_string(int(rest));
      std::fprintf(
          stderr,
          "prove %.0f ms (cpu %.0f ms): h scalars %.0f, msm A %.0f, msm B2 %.0f, msm B1 %s, msm C+H%s %.0f, "
          "%s\n",
          ms(t3, t4), cpu_ms() - c3, tm.h_scalars_ms, tm.msm_a_ms, tm.msm_b2_ms,
          tm.b1_merged ? "(folded)" : std::to_string(int(tm.msm_b1_ms)).c_str(), tm.b1_merged ? "+r.B1" : "",
          tm.msm_ch_ms, tail.c_str());
      if (rep + 1 == repeat) {
        cuzk::formats::write_text_file(argv[3], cuzk::formats::proof_to_snarkjs_json(proof));
        cuzk::formats::write_text_file(
            argv[4], cuzk::formats::public_to_snarkjs_json(cuzk::formats::zkey_public_signals(zk, w)));
      }
    }
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_zkey_prove: %s\n", e.what());
    return 1;
  }
}
