#include "platform/digest.hpp"

#include <stdexcept>

#include "platform/libcrypto.hpp"

namespace cuzk::platform {

Hasher::Hasher(HashKind kind) : c_(libcrypto()) {
  md_ = c_.EVP_MD_fetch(nullptr, kind == HashKind::Sha256 ? "SHA256" : "BLAKE2S-256", nullptr);
  ctx_ = c_.EVP_MD_CTX_new();
  if (!md_ || !ctx_) {
    c_.EVP_MD_CTX_free(ctx_);
    c_.EVP_MD_free(md_);
    throw std::runtime_error(kind == HashKind::Sha256 ? "OpenSSL SHA-256 is unavailable"
                                                      : "OpenSSL BLAKE2s-256 is unavailable");
  }
  reset();
}

Hasher::~Hasher() {
  c_.EVP_MD_CTX_free(ctx_);
  c_.EVP_MD_free(md_);
}

void Hasher::reset() {
  if (c_.EVP_DigestInit_ex2(ctx_, md_, nullptr) != 1) throw std::runtime_error("digest init failed");
  pending_ = false;
}

Hasher& Hasher::update(std::span<const uint8_t> data) {
  if (!data.empty() && c_.EVP_DigestUpdate(ctx_, data.data(), data.size()) != 1)
    throw std::runtime_error("digest update failed");
  pending_ = true;
  return *this;
}

Digest32 Hasher::finish() {
  Digest32 d{};
  unsigned len = 0;
  if (c_.EVP_DigestFinal_ex(ctx_, d.data(), &len) != 1 || len != d.size())
    throw std::runtime_error("digest final failed");
  reset();
  return d;
}

Digest32 Hasher::hash(std::span<const uint8_t> data) {
  if (pending_) reset();  // otherwise the context is freshly initialised already
  return update(data).finish();
}

Digest32 sha256(std::span<const uint8_t> data) {
  // One hasher per thread: the fetch and the context are made once.
  thread_local Sha256 h;
  return h.hash(data);
}

}  // namespace cuzk::platform
