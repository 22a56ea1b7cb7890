// snarkjs .zkey files (the binary section format with Groth16 key points),
// read with full point checks as `cuzk prove --zkey` does by default.
#include "formats/zkey.hpp"
#include "fuzz_common.hpp"

using namespace cuzk;

CUZK_FUZZ_TARGET {
  if (size == 0) return 0;
  formats::ZkeyReadOptions opt;
  opt.vk_only = data[0] & 1;  // `cuzk info` and verification read the key this way
  fuzz::refusals_expected([&] { formats::parse_zkey(fuzz::bytes(data + 1, size - 1), "fuzz", opt); });
  return 0;
}
