#pragma once
// A request as bytes, and the identity of its payload, both over the one
// field list (engine/request_fields.hpp) and filecoin's bincode reader and
// writer. The bytes are the fleet queue's payload: "CZKR", version 1, then
// every field in the list's order in bincode's default encoding (integers 8
// bytes little-endian, a string as its 8-byte length and its bytes, the
// vanilla proofs as their 8-byte count and each proof).
#include <array>
#include <cstdint>
#include <string>

#include "engine/service.hpp"

namespace cuzk::engine {

std::string encode_request(const ProofRequest& req);
// Throws std::runtime_error (wrong magic or version, truncation, a value out
// of range, trailing bytes), naming the field.
ProofRequest decode_request(const std::string& bytes);

// SHA-256 over the encoding with the priority left out (a retry may raise
// it): two submissions under one request id with equal digests are one job
// (docs/PROTOCOL.md §1 "Job ids"). The fleet queue stores it in hex.
using PayloadDigest = std::array<uint8_t, 32>;
PayloadDigest payload_digest(const ProofRequest& req);
std::string request_digest(const ProofRequest& req);  // hex of payload_digest

// The bytes of the payload fields (FieldInfo::payload): what
// limits.max_payload bounds.
uint64_t payload_size(const ProofRequest& req);

}  // namespace cuzk::engine
