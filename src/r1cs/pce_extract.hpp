#pragma once
// Streaming extraction of pre-compiled constraints: a blank circuit recorded
// straight into a .pce file (the format of r1cs/pce_file.hpp, byte for byte
// what write_pce_file writes for PrecompiledCircuit::record) in bounded
// memory, for circuits whose matrices do not fit beside their recording (the
// 32 GiB PoRep partition: 130 M constraints, 722 M terms, a 6.9 GiB file).
//
// Two passes over the circuit: the first counts rows, terms and distinct
// coefficients (keeping nothing but the coefficient tables), which fixes
// every section's offset; the second records again and writes each matrix's
// row offsets, columns and coefficient indices at their places, a buffer of
// `buffer_terms` entries per array at a time (nine arrays: 36 MiB at the
// default). Then the header and tables, and the checksum over the written
// file (read back once). The file appears at `path` only when complete
// (written to a temporary name, then renamed); read_pce_file maps it.
#include <cstddef>
#include <cstdint>
#include <string>

#include "r1cs/constraint_system.hpp"
#include "r1cs/pce_file.hpp"

namespace cuzk::r1cs {

struct PceExtractOptions {
  size_t buffer_terms = size_t(1) << 20;  // entries per array buffered before a write (>= 1)
};

struct PceExtractReport {
  uint64_t rows = 0, num_aux = 0, num_inputs = 0;
  uint64_t nnz[3] = {0, 0, 0};
  uint64_t file_bytes = 0;
  double count_s = 0, record_s = 0, checksum_s = 0;  // the three passes
};

// Throws std::runtime_error on I/O errors (no file is left at `path`), and
// SynthesisError when the second pass disagrees with the first (a circuit
// whose shape is not deterministic).
PceExtractReport extract_pce_file(const std::string& path, const Circuit& blank,
                                  const PceDigest& circuit_digest, const PceExtractOptions& opt = {});

}  // namespace cuzk::r1cs
