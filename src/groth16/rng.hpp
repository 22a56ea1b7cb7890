#pragma once
// The operating system's CSPRNG (platform::os_random) with the
// uint64_t-returning call interface Fr::random expects; for the prover's r
// and s.
#include <cstdint>
#include <span>

#include "platform/os_random.hpp"

namespace cuzk::groth16 {

class SecureRng {
 public:
  using result_type = uint64_t;
  static constexpr uint64_t min() { return 0; }
  static constexpr uint64_t max() { return ~uint64_t(0); }
  uint64_t operator()() {
    uint64_t x;
    platform::os_random(std::span(reinterpret_cast<uint8_t*>(&x), sizeof x));
    return x;
  }
};

}  // namespace cuzk::groth16
