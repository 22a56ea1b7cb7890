#pragma once
// c1.json (docs/FILECOIN.md §6): the serde_json form of rust-filecoin-proofs-api's
// SealCommitPhase1Output, and the Curio / lotus-bench wrapper around it
// ({"SectorNum", "Phase1Out": base64 of the c1 JSON bytes, "SectorSize"}).
//
// write_c1 produces exactly the bytes serde_json::to_vec produces (fields in
// Rust declaration order, no whitespace, every 32-byte domain as an array of
// 32 numbers). parse_c1 accepts any valid JSON of that schema (any member
// order, whitespace, unknown members skipped as serde does). Parsing checks
// types and 32-byte arrays only; validate_c1 checks the shape against the
// proof's geometry. Every error names the JSON path it concerns.
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "filecoin/porep/vanilla.hpp"

namespace cuzk::filecoin {

// Malformed input: bad JSON, wrong types, missing members, bad base64.
class C1FormatError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Well-formed JSON whose content does not fit the registered proof.
class C1ValidationError : public C1FormatError {
 public:
  using C1FormatError::C1FormatError;
};

// Raw c1 JSON <-> SealCommitPhase1Output. The vanilla_proofs tag
// ("StackedDrg2KiBV1", size only) must agree with registered_proof.
SealCommitPhase1Output parse_c1(std::string_view json);
std::string write_c1(const SealCommitPhase1Output& c1);

// The wrapper. write_c1_wrapper emits Go encoding/json's form
// {"SectorNum":N,"Phase1Out":"<padded std base64>","SectorSize":N}.
C1Wrapper parse_c1_wrapper(std::string_view json);
std::string write_c1_wrapper(const C1Wrapper& w);

// Either form, told apart by its top-level members. A raw c1 gives
// sector_num 0 and the sector size of its registered proof.
C1Wrapper parse_c1_any(std::string_view json);
// parse_c1_any of a file's contents; errors name the file.
C1Wrapper load_c1_file(const std::string& path);

// Shape checks against a config (docs/FILECOIN.md §2, §6, §7.3): partition and
// challenge counts, Merkle path lengths and arities per tree, column and
// labeling-proof sizes, index and root consistency, the labeling parents'
// repetition pattern, and comm_r = Poseidon2(comm_c, comm_r_last).
// Throws C1ValidationError naming the first offending path.
void validate_c1(const SealCommitPhase1Output& c1, const PorepConfig& config);
// With the config of c1.registered_proof.
void validate_c1(const SealCommitPhase1Output& c1);
// validate_c1, then the cryptography it leaves out: every Merkle path hashed
// to its root, parent columns against the SDR graph, labels recomputed.
// What passes proves (given the challenges check of c2.hpp). Throws
// C1ValidationError naming partition, challenge and field.
void verify_c1_vanilla(const SealCommitPhase1Output& c1, const PorepConfig& config);
// validate_c1 plus the wrapper's SectorSize against the proof's.
void validate_c1_wrapper(const C1Wrapper& w);

// Standard base64 (RFC 4648 alphabet, '=' padding). decode skips ASCII
// whitespace, accepts missing padding and throws C1FormatError otherwise.
std::string base64_encode(std::span<const uint8_t> data);
std::vector<uint8_t> base64_decode(std::string_view text);

}  // namespace cuzk::filecoin
