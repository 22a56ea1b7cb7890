#pragma once
// Process-wide heap policy for one-shot commands.
//
// glibc serves every allocation above its mmap threshold (at most 32 MiB)
// with a fresh mapping and unmaps it on free, so each of a prover's large
// scratch arrays (MSM entries and buckets, NTT vectors, tens of MiB each)
// is paid in first-touch page faults again, MSM after MSM. On the 2-core VM
// of docs/PERFORMANCE.md a fresh MiB costs about 0.7 ms of CPU. After
// keep_freed_memory(), large blocks come from the heap and freed ones are
// reused by the next stage; the process keeps its peak heap until it exits.
// Meant for short-lived commands (the `cuzk` CLI, benchmarks), not for the
// daemon, whose memory budget must come back between proofs.
namespace cuzk::platform {

void keep_freed_memory();

}  // namespace cuzk::platform
