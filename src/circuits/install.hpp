#pragma once
// Installs a built-in circuit into a parameter directory as a generic-R1CS
// circuit (<id>.cuzk-r1cs, <id>.params, <id>.vk), with development
// parameters from seeded toxic waste (NOT a ceremony), and makes witnesses
// for it. Used by `cuzk-bench gen-circuit` (the main job's generic-R1CS
// kind runs it) and tests.
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "circuits/cube_chain.hpp"

namespace cuzk::circuits {

struct InstallOptions {
  uint64_t toxic_seed = 0x6375'7a6b;  // fixed: reproducible files
  unsigned threads = 0;
  std::function<void(std::string_view stage, size_t done, size_t total)> progress;
};

struct Installed {
  std::string id;
  uint64_t constraints = 0;  // before the per-input constraints
  uint64_t inputs = 0;       // including ONE
  uint64_t aux = 0;
  bool generated = false;  // false: the files were already there
};

// "cube-<rounds>r-<extra>i": the id naming a CubeChain shape.
std::string cube_chain_id(const CubeChain::Shape& s);

// Writes the files unless all three exist already (then reuses them).
Installed install_cube_chain(const std::string& dir, const CubeChain::Shape& s, const InstallOptions& o = {});

// A witness file (.cuzk-wtns bytes) for start value x.
std::string cube_chain_witness(const CubeChain::Shape& s, uint64_t x);

}  // namespace cuzk::circuits
