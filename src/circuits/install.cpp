#include "circuits/install.hpp"

#include <filesystem>
#include <random>

#include "groth16/io.hpp"
#include "groth16/setup.hpp"
#include "r1cs/proving_assignment.hpp"
#include "r1cs/r1cs_file.hpp"
#include "r1cs/shape.hpp"

namespace cuzk::circuits {

namespace fs = std::filesystem;

std::string cube_chain_id(const CubeChain::Shape& s) {
  return "cube-" + std::to_string(s.rounds) + "r-" + std::to_string(s.extra_inputs) + "i";
}

Installed install_cube_chain(const std::string& dir, const CubeChain::Shape& s, const InstallOptions& o) {
  Installed out;
  out.id = cube_chain_id(s);
  fs::create_directories(dir);
  const fs::path base = fs::path(dir) / out.id;
  const std::string r1cs_path = base.string() + ".cuzk-r1cs", params_path = base.string() + ".params",
                    vk_path = base.string() + ".vk";
  r1cs::ShapeRecorder rec;
  CubeChain(s).synthesize(rec);
  out.inputs = rec.num_inputs();
  out.aux = rec.num_aux();
  out.constraints = rec.num_constraints();
  if (fs::exists(r1cs_path) && fs::exists(params_path) && fs::exists(vk_path)) return out;

  r1cs::R1cs shape = rec.finish();
  std::mt19937_64 rng(o.toxic_seed);
  auto tw = groth16::ToxicWaste::random(rng);
  groth16::SetupOptions so;
  so.threads = o.threads;
  so.progress = o.progress;
  r1cs::write_file(r1cs_path, r1cs::serialize_r1cs(shape));
  groth16::Parameters params = groth16::generate_parameters(std::move(shape), tw, so);
  groth16::write_file(vk_path, groth16::encode_verifying_key(params.vk));
  groth16::write_file(params_path, groth16::encode_parameters(params));  // last: marks completion
  out.generated = true;
  return out;
}

std::string cube_chain_witness(const CubeChain::Shape& s, uint64_t x) {
  r1cs::ProvingAssignment pa;
  CubeChain(s, r1cs::Fr::from_u64(x)).synthesize(pa);
  std::vector<r1cs::Fr> z = pa.input_assignment;
  z.insert(z.end(), pa.aux_assignment.begin(), pa.aux_assignment.end());
  return r1cs::serialize_witness(z);
}

}  // namespace cuzk::circuits
