#pragma once
// bellperson file formats (docs/FILECOIN.md §5): the 192-byte proof, `.vk` and
// `.params`. Points use the ZCash encodings of ec/encoding.hpp (proofs
// compressed, keys uncompressed); lengths are u32 big-endian.
//
// Readers validate everything and throw FormatError naming the source and the
// byte offset, e.g. "x.params: offset 1060: l[3]: G1 uncompressed: point is
// not on the curve". Identity points are rejected where bellperson rejects
// them (proof points, vk.ic, every query of .params).
#include <array>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "ec/encoding.hpp"
#include "groth16/params.hpp"

namespace cuzk::groth16 {

struct FormatError : std::runtime_error {
  FormatError(std::string_view source, size_t offset, const std::string& what)
      : std::runtime_error(std::string(source) + ": offset " + std::to_string(offset) + ": " + what),
        offset(offset) {}
  size_t offset;
};

inline constexpr size_t kProofBytes = 192;

std::array<uint8_t, kProofBytes> encode_proof(const Proof& p);
Proof decode_proof(std::span<const uint8_t> bytes, std::string_view source = "proof");
// Multi-partition proofs are plain concatenations.
std::vector<uint8_t> encode_proofs(std::span<const Proof> proofs);
std::vector<Proof> decode_proofs(std::span<const uint8_t> bytes, std::string_view source = "proofs");

// .vk: 868 + 96·ic bytes.
std::vector<uint8_t> encode_verifying_key(const VerifyingKey& vk);
VerifyingKey decode_verifying_key(std::span<const uint8_t> bytes, std::string_view source = "vk",
                                  ec::Check check = ec::Check::Full);

// .params: vk, then h, l, a, b_g1, b_g2, each a u32 count and the points.
// Check::SkipSubgroup is for trusted files (bellperson maps them unchecked);
// points are decoded in parallel.
size_t encoded_parameters_size(const Parameters& p);
std::vector<uint8_t> encode_parameters(const Parameters& p);
Parameters decode_parameters(std::span<const uint8_t> bytes, std::string_view source = "params",
                             ec::Check check = ec::Check::Full);

// Files: writers replace the file; readers map it.
void write_file(const std::string& path, std::span<const uint8_t> bytes);
VerifyingKey read_verifying_key_file(const std::string& path, ec::Check check = ec::Check::Full);
Parameters read_parameters_file(const std::string& path, ec::Check check = ec::Check::Full);

}  // namespace cuzk::groth16
