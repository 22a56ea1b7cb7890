// bellperson's Groth16 files: a .params or .vk file (header, counts and
// points, every point checked on the curve and in its subgroup) and 192-byte
// proofs (one or a concatenation of partitions).
#include <algorithm>

#include "fuzz_common.hpp"
#include "groth16/io.hpp"

using namespace cuzk;

namespace {

bool same(std::span<const uint8_t> a, std::span<const uint8_t> b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
}

}  // namespace

CUZK_FUZZ_TARGET {
  // The first byte picks the reader, so one corpus covers all three.
  if (size == 0) return 0;
  auto in = fuzz::bytes(data + 1, size - 1);
  fuzz::refusals_expected([&] {
    switch (data[0] % 3) {
      case 0: {
        auto params = groth16::decode_parameters(in, "fuzz");
        // A decoded point has one encoding: re-encoding gives the input back.
        fuzz::check(same(groth16::encode_parameters(params), in), ".params decode/encode is the identity");
        break;
      }
      case 1: {
        auto vk = groth16::decode_verifying_key(in, "fuzz");
        fuzz::check(same(groth16::encode_verifying_key(vk), in), ".vk decode/encode is the identity");
        break;
      }
      default: {
        auto proofs = groth16::decode_proofs(in, "fuzz");
        fuzz::check(same(groth16::encode_proofs(proofs), in), "proof decode/encode is the identity");
        if (in.size() == groth16::kProofBytes) {
          auto one = groth16::encode_proof(groth16::decode_proof(in, "fuzz"));
          fuzz::check(same(one, in), "single proof decode/encode is the identity");
        }
        break;
      }
    }
  });
  return 0;
}
