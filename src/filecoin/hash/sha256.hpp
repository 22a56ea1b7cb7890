#pragma once
// Native SHA-256 (OpenSSL, platform/digest.hpp) and Filecoin's 254-bit trim
// (docs/FILECOIN.md §4.3): a Sha256Domain is the digest with the top two bits
// of byte 31 cleared, so that its little-endian value is < 2^254 and always a
// valid Fr.
#include <array>
#include <cstdint>
#include <span>

#include "platform/digest.hpp"

namespace cuzk::filecoin {

using Digest32 = platform::Digest32;
using platform::Sha256;  // incremental; starts over after finish()
using platform::sha256;

// bytes[31] &= 0x3f (rust-fil-proofs trim_to_fr32).
inline void trim_to_fr32(Digest32& d) { d[31] &= 0x3f; }

// trim(SHA256(data)): Sha256Hasher's node/label digests.
inline Digest32 sha256_trimmed(std::span<const uint8_t> data) {
  Digest32 d = sha256(data);
  trim_to_fr32(d);
  return d;
}

}  // namespace cuzk::filecoin
