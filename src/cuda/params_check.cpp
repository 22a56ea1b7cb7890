// Compile-time proof that the device constants of cuda/fp_device.cuh are
// those ff::Fr / ff::Fp derive from src/ff/bls12_381.hpp, limb for limb
// (a u64 limb k is u32 limbs 2k, 2k+1), and that ff::Fr's bytes are a DevFr's.
#include <bit>
#include <type_traits>

#include "cuda/fp_device.cuh"
#include "ff/bls12_381.hpp"

CUZK_CUDA_NAMESPACE_BEGIN
namespace {

template <class Dev, class Host>
constexpr bool same_limbs() {
  for (int i = 0; i < Dev::N; i++) {
    const uint64_t w = i % 2 ? 32 : 0;
    if (Dev::p(i) != uint32_t(Host::MODULUS[i / 2] >> w)) return false;
    if (Dev::r1(i) != uint32_t(Host::R1[i / 2] >> w)) return false;
    if (Dev::r2(i) != uint32_t(Host::R2[i / 2] >> w)) return false;
  }
  // -p^-1 mod 2^32 is the low word of -p^-1 mod 2^64.
  return Dev::inv == uint32_t(Host::INV);
}

static_assert(same_limbs<FrParams, ff::Fr>());
static_assert(same_limbs<FpParams, ff::Fp>());
static_assert(FrParams::N == 2 * ff::Fr::N && FpParams::N == 2 * ff::Fp::N);
static_assert(sizeof(ff::Fr) == sizeof(DevFr) && std::is_trivially_copyable_v<ff::Fr>);
static_assert(sizeof(ff::Fp) == sizeof(DevFp) && std::is_trivially_copyable_v<ff::Fp>);
static_assert(std::endian::native == std::endian::little, "ff::Fr bytes == DevFr bytes needs little-endian");

}  // namespace
CUZK_CUDA_NAMESPACE_END
