// c1.json as Curio and lotus-bench send it: the wrapper or the raw
// SealCommitPhase1Output JSON, then the checks admission runs on it.
#include "filecoin/common/registered_proof.hpp"
#include "filecoin/porep/c1_json.hpp"
#include "fuzz_common.hpp"

using namespace cuzk;

CUZK_FUZZ_TARGET {
  fuzz::refusals_expected([&] {
    filecoin::C1Wrapper w = filecoin::parse_c1_any(fuzz::text(data, size));
    // What we write from an accepted input reads back and writes the same.
    fuzz::must_succeed(
        [&] {
          std::string once = filecoin::write_c1_wrapper(w);
          std::string twice = filecoin::write_c1_wrapper(filecoin::parse_c1_wrapper(once));
          fuzz::check(once == twice, "c1 wrapper write/parse/write");
        },
        "c1 round trip");
    filecoin::validate_c1_wrapper(w);
    auto cfg = filecoin::porep_config(uint64_t(w.phase1.registered_proof));
    if (cfg) filecoin::verify_c1_vanilla(w.phase1, *cfg);
  });
  return 0;
}
