#pragma once
// circom's binary files (iden3 r1csfile / witness formats):
//
// .r1cs  magic "r1cs", version 1. Section 1 (header): u32 n8, prime (n8 bytes
//        LE), u32 nWires, u32 nPubOut, u32 nPubIn, u32 nPrvIn, u64 nLabels,
//        u32 nConstraints. Section 2 (constraints): per constraint, for A, B,
//        C: u32 nTerms, then (u32 wire, n8-byte coefficient LE, canonical).
//        Section 3 (wire -> label, u64 each) is optional; sections 4/5
//        (PLONK custom gates) are refused.
// .wtns  magic "wtns", version 2. Section 1: u32 n8, prime, u32 nWitness;
//        section 2: nWitness values (n8 bytes LE, canonical).
//
// Wire 0 is the constant ONE, then the public outputs, the public inputs,
// the private inputs and the internal signals: the Groth16 public inputs are
// wires 1 ..= nPubOut + nPubIn, so a circom circuit maps onto an R1cs with
// num_inputs = 1 + nPubOut + nPubIn and the same column numbering.
//
// Both readers require the prime to be BLS12-381's scalar field r
// (compile with `circom --prime bls12381`).
#include <span>
#include <string>
#include <vector>

#include "formats/binfile.hpp"
#include "r1cs/shape.hpp"

namespace cuzk::formats {

using ff::Fr;

struct CircomR1cs {
  uint32_t n_wires = 0, n_pub_out = 0, n_pub_in = 0, n_prv_in = 0, n_constraints = 0;
  uint64_t n_labels = 0;
  // Rows as in the file (terms merged per wire, sorted, zeros dropped),
  // without Groth16's input constraints.
  r1cs::R1cs r1cs;
  size_t num_public() const { return size_t(n_pub_out) + n_pub_in; }
};

CircomR1cs parse_circom_r1cs(std::span<const uint8_t> bytes, std::string_view source = "r1cs");
CircomR1cs read_circom_r1cs_file(const std::string& path);

std::vector<Fr> parse_wtns(std::span<const uint8_t> bytes, std::string_view source = "wtns");
std::vector<Fr> read_wtns_file(const std::string& path);
std::vector<uint8_t> encode_wtns(std::span<const Fr> witness);
std::vector<uint8_t> encode_circom_r1cs(const CircomR1cs& c);

// Checks that an n8-byte LE prime is BLS12-381's r (n8 must be 32).
void check_prime_is_bls12_381_r(Cursor& c, std::string_view what);
// A canonical n8 = 32 byte LE field element (< r), else throws.
Fr read_fr_canonical(Cursor& c, std::string_view what);

// The circuit file kinds `cuzk` accepts: circom ".r1cs" (detected by its
// magic) or cuzk's own ".cuzk-r1cs". `num_public` excludes ONE.
struct LoadedCircuit {
  r1cs::R1cs r1cs;
  std::string kind;  // "circom r1cs" or "cuzk-r1cs"
};
LoadedCircuit read_any_r1cs_file(const std::string& path);
// Witness: circom ".wtns" or ".cuzk-wtns", detected by magic.
std::vector<Fr> read_any_witness_file(const std::string& path);

}  // namespace cuzk::formats
