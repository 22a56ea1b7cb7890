#pragma once
// SHA-256 and BLAKE2s-256 (32-byte digests) by OpenSSL, through the libcrypto
// opened on first use (platform/libcrypto.hpp). A Hasher fetches its
// algorithm once and reuses one context: OpenSSL 3 otherwise looks the
// implementation up on every init, which costs as much as the 20 compression
// blocks of an SDR label (1,248 bytes, hashed hundreds of millions of times
// per sector).
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

struct evp_md_st;
struct evp_md_ctx_st;

namespace cuzk::platform {

struct Libcrypto;

using Digest32 = std::array<uint8_t, 32>;

enum class HashKind { Sha256, Blake2s256 };

class Hasher {
 public:
  explicit Hasher(HashKind kind);
  ~Hasher();
  Hasher(const Hasher&) = delete;
  Hasher& operator=(const Hasher&) = delete;

  Hasher& update(std::span<const uint8_t> data);
  Hasher& update(const void* data, size_t n) { return update({static_cast<const uint8_t*>(data), n}); }
  // The digest of everything since construction or the last finish()/reset();
  // the hasher then starts over.
  Digest32 finish();
  void reset();
  // reset(), update(data), finish().
  Digest32 hash(std::span<const uint8_t> data);

 private:
  const Libcrypto& c_;  // looked up once: labels call update/finish per 1,248 bytes
  evp_md_st* md_;
  evp_md_ctx_st* ctx_;
  bool pending_ = false;  // update() since the last init
};

struct Sha256 : Hasher {
  Sha256() : Hasher(HashKind::Sha256) {}
};

// One-shot SHA-256.
Digest32 sha256(std::span<const uint8_t> data);

}  // namespace cuzk::platform
