#include "filecoin/hash/sha256.hpp"

#include <openssl/evp.h>

#include <stdexcept>

namespace cuzk::filecoin {

struct Sha256::Impl {
  EVP_MD_CTX* ctx = nullptr;
};

Sha256::Sha256() : impl_(std::make_unique<Impl>()) {
  impl_->ctx = EVP_MD_CTX_new();
  if (!impl_->ctx) throw std::runtime_error("SHA-256: EVP_MD_CTX_new failed");
  reset();
}

Sha256::~Sha256() { EVP_MD_CTX_free(impl_->ctx); }

void Sha256::reset() {
  if (EVP_DigestInit_ex(impl_->ctx, EVP_sha256(), nullptr) != 1)
    throw std::runtime_error("SHA-256: init failed");
}

Sha256& Sha256::update(std::span<const uint8_t> data) {
  if (EVP_DigestUpdate(impl_->ctx, data.data(), data.size()) != 1)
    throw std::runtime_error("SHA-256: update failed");
  return *this;
}

Digest32 Sha256::finish() {
  Digest32 d;
  unsigned len = 0;
  if (EVP_DigestFinal_ex(impl_->ctx, d.data(), &len) != 1 || len != 32)
    throw std::runtime_error("SHA-256: final failed");
  return d;
}

Digest32 sha256(std::span<const uint8_t> data) {
  Digest32 d;
  unsigned len = 0;
  if (EVP_Digest(data.data(), data.size(), d.data(), &len, EVP_sha256(), nullptr) != 1 || len != 32)
    throw std::runtime_error("SHA-256 failed");
  return d;
}

}  // namespace cuzk::filecoin
