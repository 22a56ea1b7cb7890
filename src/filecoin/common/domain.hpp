#pragma once
// Domain, the 32-byte node of every Filecoin tree and proof, and Domain <-> Fr
// (docs/FILECOIN.md §4.3): a domain element is the little-endian canonical
// integer of an Fr (PoseidonDomain), and trimmed SHA-256 digests
// (Sha256Domain, < 2^254) read the same way. Bytes that encode an integer
// >= r are not a field element and are rejected.
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "ff/bls12_381.hpp"
#include "filecoin/hash/sha256.hpp"

namespace cuzk::filecoin {

using ff::Fr;

// A 32-byte domain element: a trimmed SHA-256 digest (TreeD) or the
// canonical little-endian encoding of an Fr (Poseidon trees, labels).
using Domain = Digest32;

// Throws std::invalid_argument ("... is not a canonical Fr") when d >= r.
Fr domain_to_fr(const Domain& d);
// The same for outside input: the error names `what` (a field path such as
// "partition 0 comm_c"): "<what>: not a canonical field element ...".
Fr domain_to_fr(const Domain& d, std::string_view what);
Domain fr_to_domain(const Fr& x);

// 64 hex digits (optional 0x), bytes in order; nullopt otherwise.
std::optional<Domain> domain_from_hex(std::string_view hex);

std::vector<Fr> domains_to_frs(std::span<const Domain> ds);
std::vector<Domain> frs_to_domains(std::span<const Fr> xs);

}  // namespace cuzk::filecoin
