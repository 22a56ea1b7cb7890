#include "r1cs/cs_hash.hpp"

#include <array>

#include "platform/digest.hpp"
#include "platform/hex.hpp"

namespace cuzk::r1cs {

namespace {
void put_u64be(uint8_t* out, uint64_t x) {
  for (int i = 7; i >= 0; i--, x >>= 8) out[i] = uint8_t(x);
}
}  // namespace

struct CsHasher::Impl {
  platform::Hasher h{platform::HashKind::Blake2s256};
  void update(const uint8_t* p, size_t n) { h.update(p, n); }
};

CsHasher::CsHasher(uint64_t num_inputs, uint64_t num_aux, uint64_t num_constraints)
    : impl_(std::make_unique<Impl>()) {
  uint8_t hdr[24];
  put_u64be(hdr, num_inputs);
  put_u64be(hdr + 8, num_aux);
  put_u64be(hdr + 16, num_constraints);
  impl_->update(hdr, sizeof hdr);
}

CsHasher::~CsHasher() = default;

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

std::string CsHasher::finish() { return platform::to_hex(impl_->h.finish()); }

}  // namespace cuzk::r1cs
