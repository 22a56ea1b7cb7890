#pragma once
// Settings of the emulated device, for tests and tools. Each has an
// environment variable, read once at the first use of the emulator; a setter
// called later wins.
//
//   CUZK_SIMT_DEVICE_MEMORY  device memory per emulated device, bytes with an
//                            optional K/M/G/T suffix (default 4G); cudaMalloc
//                            beyond it fails with cudaErrorMemoryAllocation
//   CUZK_SIMT_DEVICES        number of emulated devices (default 1)
//   CUZK_SIMT_THREADS        host threads that run blocks (default: oneTBB's
//                            default concurrency)
//   CUZK_SIMT_STACK_KIB      stack of each emulated GPU thread (default 128)
//   CUZK_SIMT_SWITCH         fiber switch: asm (default on x86-64) | ucontext
#include <cstddef>
#include <cstdint>
#include <string>

namespace cuzk::simt {

void set_device_memory_limit(uint64_t bytes);
uint64_t device_memory_limit();
// Bytes of cudaMalloc'ed memory live on `device`.
uint64_t device_memory_used(int device = 0);

void set_device_count(int n);  // 1..16; takes effect for later calls
int device_count();

// Host threads of the arena that runs blocks (0: oneTBB's default).
void set_host_threads(unsigned n);
unsigned host_threads();

// Stack bytes per emulated GPU thread (rounded up to pages; at least 16 KiB).
// A host thread picks the new size up at its next block.
void set_thread_stack_bytes(size_t bytes);
size_t thread_stack_bytes();

enum class FiberSwitch { assembly, ucontext };
// assembly is refused (returns false) where it is not built (not x86-64).
bool set_fiber_switch(FiberSwitch s);
FiberSwitch fiber_switch();

// Fiber switches made by all blocks so far (a block whose threads never wait
// makes two: into its one fiber and back).
uint64_t fiber_switch_count();

// The reason of the latest kernel failure ("kernel 'k' block (1,0,0) thread
// (5,0,0): ..."), "" if none since the start or the last cudaDeviceReset.
std::string last_failure();

}  // namespace cuzk::simt
