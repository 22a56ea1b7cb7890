#pragma once
// The snarkjs/circom interop fixtures (tests/interop/fixtures) the formats
// tests read: the circuit names and a loader.
#include <cstdint>
#include <string>
#include <vector>

#include "formats/binfile.hpp"

namespace cuzk::formats::test {

inline const std::string kDir = CUZK_INTEROP_FIXTURES;
inline const char* const kCircuits[] = {"cubic", "many_public", "chain"};

inline std::vector<uint8_t> load(const std::string& name) { return read_binary_file(kDir + "/" + name); }

}  // namespace cuzk::formats::test
