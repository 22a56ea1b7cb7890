#pragma once
// .pce files: a PrecompiledCircuit on disk, kept next to the circuit's
// parameters so that a restarted daemon loads it instead of recording the
// circuit again. Little-endian throughout:
//
//   "CUZKPCE\n" | u32 version (2) | u32 0 | 32-byte circuit digest
//   u64 num_inputs | u64 num_aux | u64 rows
//   u64 part marks | per mark: u64 aux | u64 inputs | u64 constraints
//                    (PrecompiledCircuit::parts(); version 1 had none)
//   per matrix A, B, C: u64 nnz | u64 table_len | u32 row_ptr[rows + 1]
//                       | u32 col[nnz] | u32 coeff[nnz] | table_len x 32-byte Fr (canonical)
//   SHA-256 of every byte before it
//
// The circuit digest names the circuit code that recorded the file (the
// engine derives it from the circuit id and the build's circuit sources); a
// file with another digest or version is stale and must be rebuilt, never
// used. A file whose checksum, bounds or coefficients are wrong is corrupt.
#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "r1cs/pce.hpp"

namespace cuzk::r1cs {

using PceDigest = std::array<uint8_t, 32>;

struct PceFileError : std::runtime_error {
  enum class Kind { Missing, Stale, Corrupt };
  PceFileError(Kind k, const std::string& what) : std::runtime_error(what), kind(k) {}
  Kind kind;
};

// Writes `pce` to `path` through a temporary file renamed into place, so a
// reader never sees a partial file. Throws std::runtime_error on I/O errors.
void write_pce_file(const std::string& path, const PrecompiledCircuit& pce, const PceDigest& circuit_digest);

// Reads and checks a file written by write_pce_file for `expected` digest.
// Throws PceFileError (Missing, Stale or Corrupt) naming the path.
PrecompiledCircuit read_pce_file(const std::string& path, const PceDigest& expected);

// Whether `path` starts like a file of this format version for `expected`
// (magic, version, digest: the header alone, no checksum). A cheap test for
// a file that is certainly stale; read_pce_file checks everything.
bool pce_file_is_current(const std::string& path, const PceDigest& expected);

// Size of the file write_pce_file would produce.
uint64_t pce_file_bytes(const PrecompiledCircuit& pce);

}  // namespace cuzk::r1cs
