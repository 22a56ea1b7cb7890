#pragma once
// Names of the Groth16 parameter files of a PoRep circuit, as
// rust-fil-proofs' parameter cache derives them (docs/FILECOIN.md §5.2):
//   v28-stacked-proof-of-replication-merkletree-poseidon_hasher-<shape>-sha256_hasher-<sha256(identifier)>.{params,vk}
// The identifier depends on the graph size, layers, challenges per partition
// and tree shape only, so every proof version of one size shares the files.
#include <string>

#include "filecoin/common/registered_proof.hpp"

namespace cuzk::filecoin {

constexpr int kParameterVersion = 28;

// "8-8-0": a tree shape as Tree::display() writes it.
std::string tree_shape_text(const TreeShape& s);
// v<version>-<cache_prefix>-<sha256 hex of identifier>: parameter_cache.rs's file stem.
std::string parameter_file_stem(const std::string& cache_prefix, const std::string& identifier);

// layered_drgporep::PublicParams{ ... } exactly as Rust's parameter cache
// formats it.
std::string porep_parameter_identifier(const PorepConfig& cfg);
// File stem without extension: "v28-stacked-proof-of-replication-...-<hex>".
std::string porep_parameter_stem(const PorepConfig& cfg);

}  // namespace cuzk::filecoin
