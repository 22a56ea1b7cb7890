// circom's binary files: .r1cs (constraints) and .wtns (witness).
#include <algorithm>

#include "formats/circom.hpp"
#include "fuzz_common.hpp"

using namespace cuzk;

CUZK_FUZZ_TARGET {
  if (size == 0) return 0;
  auto in = fuzz::bytes(data + 1, size - 1);
  fuzz::refusals_expected([&] {
    if (data[0] & 1) {
      auto w = formats::parse_wtns(in, "fuzz");
      // What we write from it reads back to the same witness.
      fuzz::must_succeed(
          [&] {
            fuzz::check(formats::parse_wtns(formats::encode_wtns(w), "again") == w, ".wtns encode/parse");
          },
          ".wtns round trip");
    } else {
      auto r = formats::parse_circom_r1cs(in, "fuzz");
      fuzz::must_succeed(
          [&] {
            auto once = formats::encode_circom_r1cs(r);
            auto twice = formats::encode_circom_r1cs(formats::parse_circom_r1cs(once, "again"));
            fuzz::check(once == twice, ".r1cs encode/parse/encode");
          },
          ".r1cs round trip");
    }
  });
  return 0;
}
