#pragma once
// Operating-system CSPRNG (OpenSSL RAND_bytes) with the uint64_t-returning
// call interface Fr::random expects; for the prover's r and s.
#include <openssl/rand.h>

#include <cstdint>
#include <stdexcept>

namespace cuzk::groth16 {

class SecureRng {
 public:
  using result_type = uint64_t;
  static constexpr uint64_t min() { return 0; }
  static constexpr uint64_t max() { return ~uint64_t(0); }
  uint64_t operator()() {
    uint64_t x;
    if (RAND_bytes(reinterpret_cast<unsigned char*>(&x), sizeof x) != 1)
      throw std::runtime_error("RAND_bytes failed");
    return x;
  }
};

}  // namespace cuzk::groth16
