// WinningPoSt/WindowPoSt vanilla proofs as Curio sends them: one bincode
// FallbackPoStSectorProof per sector, and Curio's JSON file of them.
#include <algorithm>

#include "filecoin/post/vanilla.hpp"
#include "fuzz_common.hpp"

using namespace cuzk;

CUZK_FUZZ_TARGET {
  // The first byte picks the reader, so one corpus covers both.
  if (size == 0) return 0;
  const bool json = data[0] & 1;
  fuzz::refusals_expected([&] {
    if (json) {
      auto blobs = filecoin::vanilla_proofs_from_json(fuzz::text(data + 1, size - 1));
      fuzz::must_succeed(
          [&] {
            fuzz::check(filecoin::vanilla_proofs_from_json(filecoin::vanilla_proofs_to_json(blobs)) == blobs,
                        "vanilla JSON write/read");
          },
          "vanilla JSON round trip");
      return;
    }
    auto in = fuzz::bytes(data + 1, size - 1);
    auto p = filecoin::read_post_sector_proof(in, "fuzz");
    // The reader takes exactly one value and nothing after it, so writing it
    // back gives the input.
    std::string out = filecoin::write_post_sector_proof(p);
    fuzz::check(out.size() == in.size() &&
                    std::equal(in.begin(), in.end(), reinterpret_cast<const uint8_t*>(out.data())),
                "bincode read/write is the identity");
  });
  return 0;
}
