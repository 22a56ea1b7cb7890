#pragma once
// Reports a GPU thread that overflows its fiber stack (a fault in a stack's
// guard region) with the kernel, block and thread and the setting to raise,
// then aborts; other faults go to the handler that was there before.
#include <cstddef>

namespace cuzk::simt::detail {

// Once per host thread that runs fibers (before its first fiber runs): the
// process-wide SIGSEGV handler (first call only) and this thread's
// alternate signal stack, on which the handler runs.
void watch_stack_overflows();

// Defined by the block scheduler: whether `addr` lies in the guard region
// of one of this host thread's fiber stacks; if so, the report in buf.
bool describe_overflow(const void* addr, char* buf, size_t n);

}  // namespace cuzk::simt::detail
