#pragma once
// Element-wise Fr / Fp arithmetic on a CUDA device, for tests of the device
// field code against ff:: and for throughput runs. Synchronous: copy in,
// one kernel, copy out. Sizes of a, b and out must match
// (std::invalid_argument otherwise); device errors throw cuda::Error.
#include <cstdint>
#include <span>

#include "cuda/namespace.hpp"
#include "ff/bls12_381.hpp"

CUZK_CUDA_NAMESPACE_BEGIN

void fr_add_batch(std::span<const ff::Fr> a, std::span<const ff::Fr> b, std::span<ff::Fr> out,
                  int device = 0);
void fr_sub_batch(std::span<const ff::Fr> a, std::span<const ff::Fr> b, std::span<ff::Fr> out,
                  int device = 0);
void fr_mul_batch(std::span<const ff::Fr> a, std::span<const ff::Fr> b, std::span<ff::Fr> out,
                  int device = 0);
void fp_add_batch(std::span<const ff::Fp> a, std::span<const ff::Fp> b, std::span<ff::Fp> out,
                  int device = 0);
void fp_sub_batch(std::span<const ff::Fp> a, std::span<const ff::Fp> b, std::span<ff::Fp> out,
                  int device = 0);
void fp_mul_batch(std::span<const ff::Fp> a, std::span<const ff::Fp> b, std::span<ff::Fp> out,
                  int device = 0);

// x[i] <- x[i]^2 * y[i], `rounds` times, on the device (host data in and out):
// the same chain a host loop computes, so it doubles as a test.
void fr_mul_chain(std::span<ff::Fr> x, std::span<const ff::Fr> y, unsigned rounds, int device = 0);

// Fr products per second on the device: n elements, `rounds` rounds of the
// chain above (2 products each), timed with CUDA events, data resident.
double fr_mul_throughput(uint64_t n, unsigned rounds, int device = 0);

CUZK_CUDA_NAMESPACE_END
