#pragma once
// The snarkjs/circom interop fixtures (tests/interop/fixtures) the formats
// tests read: the circuit names and a loader.
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "formats/binfile.hpp"

namespace cuzk::test {

inline const std::string kDir = CUZK_INTEROP_FIXTURES;
inline const char* const kCircuits[] = {"cubic", "many_public", "chain"};

inline std::vector<uint8_t> load(const std::string& name) {
  return formats::read_binary_file(kDir + "/" + name);
}

// Byte offset of the data of the .zkey section of `type` (after its header).
inline size_t section_offset(const std::vector<uint8_t>& b, uint32_t type) {
  size_t at = 12;
  for (;;) {
    uint32_t t;
    uint64_t size;
    std::memcpy(&t, &b[at], 4);
    std::memcpy(&size, &b[at + 4], 8);
    if (t == type) return at + 12;
    at += 12 + size;
  }
}

}  // namespace cuzk::test
