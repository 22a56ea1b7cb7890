#pragma once
// Bytes from the kernel's CSPRNG (getrandom(2)): the source OpenSSL's DRBG
// seeds itself from, without the 3-4 ms that RAND_bytes spends on its first
// call setting up the library (a tenth of a one-shot 2^13-constraint proof).
#include <cstdint>
#include <span>

namespace cuzk::platform {

// Fills `out` entirely; blocks only until the kernel pool is first seeded
// (early boot). Throws std::system_error if the kernel refuses.
void os_random(std::span<uint8_t> out);

}  // namespace cuzk::platform
