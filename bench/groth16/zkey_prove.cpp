// bench_zkey_prove: `cuzk prove --zkey` as a timed process, with the key
// validation level as a choice, for the side-by-side with
// `snarkjs groth16 prove` (scripts/bench-vs-snarkjs.sh).
//
//   bench_zkey_prove ZKEY WTNS PROOF.json PUBLIC.json [--check full|curve|none]
//
// `cuzk prove` checks every key point for curve and subgroup membership
// (--check full, the default here too). snarkjs checks none; --check curve
// (on-curve only, as bellperson treats its trusted .params) gives the
// like-for-like prove time. Stage times go to stderr.
#include <chrono>
#include <cstdio>
#include <string>

#include "formats/circom.hpp"
#include "formats/snarkjs_json.hpp"
#include "formats/zkey.hpp"
#include "groth16/rng.hpp"

int main(int argc, char** argv) {
  using Clock = std::chrono::steady_clock;
  if (argc != 5 && !(argc == 7 && std::string(argv[5]) == "--check")) {
    std::fprintf(stderr, "usage: bench_zkey_prove ZKEY WTNS PROOF.json PUBLIC.json [--check full|curve|none]\n");
    return 2;
  }
  cuzk::formats::ZkeyReadOptions ro;
  if (argc == 7) {
    std::string c = argv[6];
    if (c == "curve")
      ro.check = cuzk::ec::Check::SkipSubgroup;
    else if (c == "none")
      ro.check = cuzk::ec::Check::None;
    else if (c != "full") {
      std::fprintf(stderr, "bench_zkey_prove: --check must be full, curve or none (got %s)\n", c.c_str());
      return 2;
    }
  }
  try {
    auto t0 = Clock::now();
    auto zk = cuzk::formats::read_zkey_file(argv[1], ro);
    auto t1 = Clock::now();
    auto w = cuzk::formats::read_any_witness_file(argv[2]);
    auto t2 = Clock::now();
    cuzk::groth16::SecureRng rng;
    auto proof = cuzk::formats::prove_zkey(zk, w, rng);
    auto t3 = Clock::now();
    cuzk::formats::write_text_file(argv[3], cuzk::formats::proof_to_snarkjs_json(proof));
    cuzk::formats::write_text_file(argv[4],
                                   cuzk::formats::public_to_snarkjs_json(cuzk::formats::zkey_public_signals(zk, w)));
    auto ms = [](auto a, auto b) { return std::chrono::duration<double, std::milli>(b - a).count(); };
    std::fprintf(stderr, "read zkey %.0f ms, read wtns %.0f ms, prove %.0f ms (domain %u)\n", ms(t0, t1), ms(t1, t2),
                 ms(t2, t3), zk.domain_size);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_zkey_prove: %s\n", e.what());
    return 1;
  }
}
