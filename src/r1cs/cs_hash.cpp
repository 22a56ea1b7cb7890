#include "r1cs/cs_hash.hpp"

#include <openssl/evp.h>

#include <array>
#include <stdexcept>

namespace cuzk::r1cs {

namespace {
void put_u64be(uint8_t* out, uint64_t x) {
  for (int i = 7; i >= 0; i--, x >>= 8) out[i] = uint8_t(x);
}
}  // namespace

struct CsHasher::Impl {
  EVP_MD_CTX* ctx = nullptr;
  void update(const uint8_t* p, size_t n) {
    if (EVP_DigestUpdate(ctx, p, n) != 1) throw std::runtime_error("BLAKE2s update failed");
  }
};

CsHasher::CsHasher(uint64_t num_inputs, uint64_t num_aux, uint64_t num_constraints)
    : impl_(std::make_unique<Impl>()) {
  impl_->ctx = EVP_MD_CTX_new();
  if (!impl_->ctx || EVP_DigestInit_ex(impl_->ctx, EVP_blake2s256(), nullptr) != 1)
    throw std::runtime_error("OpenSSL BLAKE2s-256 is unavailable");
  uint8_t hdr[24];
  put_u64be(hdr, num_inputs);
  put_u64be(hdr + 8, num_aux);
  put_u64be(hdr + 16, num_constraints);
  impl_->update(hdr, sizeof hdr);
}

CsHasher::~CsHasher() {
  if (impl_ && impl_->ctx) EVP_MD_CTX_free(impl_->ctx);
}

void CsHasher::begin_lc(uint64_t num_terms) {
  uint8_t b[8];
  put_u64be(b, num_terms);
  impl_->update(b, 8);
}

void CsHasher::term(bool is_input, uint64_t index, const ff::Fr& coeff) {
  uint8_t b[41];
  b[0] = is_input ? 'I' : 'A';
  put_u64be(b + 1, index);
  coeff.to_bytes_be(std::span<uint8_t, 32>(b + 9, 32));
  impl_->update(b, sizeof b);
}

std::string CsHasher::finish() {
  std::array<uint8_t, 32> d{};
  unsigned len = 0;
  if (EVP_DigestFinal_ex(impl_->ctx, d.data(), &len) != 1 || len != 32)
    throw std::runtime_error("BLAKE2s final failed");
  static const char* hex = "0123456789abcdef";
  std::string s;
  for (uint8_t x : d) {
    s += hex[x >> 4];
    s += hex[x & 15];
  }
  return s;
}

}  // namespace cuzk::r1cs
