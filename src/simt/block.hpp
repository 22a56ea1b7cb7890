#pragma once
// Runs one block of a launch on the calling host thread (simt/block.cpp):
// its threads as fibers, switched only at barriers, shuffles and votes.
// Internal to the emulator (simt/launch.cpp calls it).
#include <cstddef>
#include <string>

#include "simt/builtins.hpp"
#include "simt/launch.hpp"

namespace cuzk::simt::detail {

struct BlockLaunch {
  const char* name;
  KernelBody body;
  cuda_api::dim3 grid, block;
  size_t dynamic_shared_bytes;
};

// False (with the reason in *failure) when the block failed: an exception or
// __trap in a thread, a deadlock at a barrier or warp operation, a bad mask.
bool run_block(const BlockLaunch& launch, cuda_api::uint3 block_idx, std::string* failure);

// True while this host thread runs a block (a launch from a kernel is refused).
bool in_block();

}  // namespace cuzk::simt::detail
