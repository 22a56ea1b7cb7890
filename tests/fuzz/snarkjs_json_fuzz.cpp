// snarkjs JSON files: proof.json, verification_key.json, public.json.
#include "formats/snarkjs_json.hpp"
#include "fuzz_common.hpp"

using namespace cuzk;

CUZK_FUZZ_TARGET {
  if (size == 0) return 0;
  auto in = fuzz::text(data + 1, size - 1);
  fuzz::refusals_expected([&] {
    switch (data[0] % 3) {
      case 0: {
        auto p = formats::proof_from_snarkjs_json(in, "fuzz");
        auto once = formats::proof_to_snarkjs_json(p);
        fuzz::must_succeed(
            [&] {
              fuzz::check(formats::proof_to_snarkjs_json(formats::proof_from_snarkjs_json(once)) == once,
                          "proof.json write/read/write");
            },
            "proof.json round trip");
        break;
      }
      case 1: {
        auto vk = formats::vk_from_snarkjs_json(in, "fuzz");
        auto once = formats::vk_to_snarkjs_json(vk);
        fuzz::must_succeed(
            [&] {
              fuzz::check(formats::vk_to_snarkjs_json(formats::vk_from_snarkjs_json(once)) == once,
                          "verification_key.json write/read/write");
            },
            "verification_key.json round trip");
        break;
      }
      default: {
        auto pub = formats::public_from_snarkjs_json(in, "fuzz");
        fuzz::must_succeed(
            [&] {
              fuzz::check(formats::public_from_snarkjs_json(formats::public_to_snarkjs_json(pub)) == pub,
                          "public.json write/read");
            },
            "public.json round trip");
        break;
      }
    }
  });
  return 0;
}
