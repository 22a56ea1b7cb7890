#pragma once
// Binary files for pre-compiled circuits and their witnesses, the inputs of
// generic R1CS proof jobs.
//
// Circuit file (".cuzk-r1cs"), little-endian:
//   "CUZKR1CS" u32 version=1 u32 0
//   u64 num_inputs (with ONE) u64 num_aux u64 num_constraints
//   for A, B, C: u64 nnz, u64 row_ptr[num_constraints+1], u32 col[nnz],
//                32-byte canonical Fr val[nnz]
// Witness file (".cuzk-wtns"): "CUZKWTNS" u32 version=1 u32 0 u64 n, then n
//   32-byte canonical Fr values: the full assignment z = (1, inputs, aux).
//
// Readers validate every size, index and field element and throw
// FormatError naming the file and byte offset.
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "r1cs/shape.hpp"

namespace cuzk::r1cs {

struct FormatError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string serialize_r1cs(const R1cs& r);
R1cs parse_r1cs(std::span<const uint8_t> bytes, const std::string& origin);

std::string serialize_witness(std::span<const Fr> z);
std::vector<Fr> parse_witness(std::span<const uint8_t> bytes, const std::string& origin);

void write_file(const std::string& path, const std::string& bytes);  // atomic (temp + rename)
std::string read_file(const std::string& path);

}  // namespace cuzk::r1cs
