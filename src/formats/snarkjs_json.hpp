#pragma once
// snarkjs's JSON files for Groth16 over BLS12-381 ("curve": "bls12381"):
//   proof.json   {"pi_a": [x, y, "1"], "pi_b": [[x.c0, x.c1], [y.c0, y.c1], ["1", "0"]],
//                 "pi_c": [x, y, "1"], "protocol": "groth16", "curve": "bls12381"}
//   vk.json      {"protocol", "curve", "nPublic", "vk_alpha_1", "vk_beta_2", "vk_gamma_2",
//                 "vk_delta_2", "vk_alphabeta_12" (ignored on read), "IC": [[x, y, "1"], ...]}
//   public.json  ["decimal", ...]
// Numbers are decimal strings of canonical (non-Montgomery) values. Points
// are projective in Jacobian form [X, Y, Z] (x = X/Z², y = Y/Z³; snarkjs
// writes Z = 1, and Z = 0 is the identity).
//
// Readers check every number (< modulus), every point (on the curve, in the
// subgroup) and the shapes, and throw FormatError naming the file and the
// JSON path, e.g. "proof.json: pi_b[1][0]: not a decimal number".
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "formats/binfile.hpp"
#include "groth16/params.hpp"

namespace cuzk::formats {

// Decimal strings <-> canonical integers (helpers, exposed for tests).
template <size_t N>
std::string to_decimal(const arith::Limbs<N>& x);
template <size_t N>
std::optional<arith::Limbs<N>> parse_decimal(std::string_view s);

std::string proof_to_snarkjs_json(const groth16::Proof& p);
groth16::Proof proof_from_snarkjs_json(std::string_view text, std::string_view source = "proof.json");

// vk_alphabeta_12 is not written (snarkjs's verifier does not read it).
// beta_g1 and delta_g1 are not part of the JSON: a key read back has them
// as the identity (enough to verify; not enough to write a bellperson .vk).
std::string vk_to_snarkjs_json(const groth16::VerifyingKey& vk);
groth16::VerifyingKey vk_from_snarkjs_json(std::string_view text,
                                           std::string_view source = "verification_key.json");

std::string public_to_snarkjs_json(std::span<const ff::Fr> inputs);
std::vector<ff::Fr> public_from_snarkjs_json(std::string_view text, std::string_view source = "public.json");

// Whether a file's first bytes are a JSON document's rather than a binary
// key's or proof's: after optional whitespace a '{' or '[', and every byte
// given printable ASCII or whitespace. The first byte alone is not enough: a
// binary key of random points starts with "\n[" now and then (one in about
// a thousand); 4 KiB of random bytes all printable never happens.
bool looks_like_json_text(std::span<const uint8_t> head);
// The same for a file's first 4 KiB (throws if it cannot be opened).
bool file_looks_like_json(const std::string& path);

std::string read_text_file(const std::string& path);
void write_text_file(const std::string& path, const std::string& text);

}  // namespace cuzk::formats
