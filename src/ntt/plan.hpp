#pragma once
// How a transform of size 2^L is cut for the cache (internal; shared by the
// Domain, which sizes its short twiddle tables from it, and the transforms).
#include <cstddef>

namespace cuzk::ntt::detail {

struct Plan {
  // Transforms of at most 2^block_log elements run as one in-cache block
  // (2^12 Fr = 128 KiB, well inside L2).
  unsigned block_log = 12;
  // Longest column transform: 2^10 rows x 16 columns = 512 KiB of buffer.
  unsigned max_column_log = 10;
  // Columns copied together into the column buffer: 16 Fr = 512 bytes per row.
  size_t column_group = 16;
};

// The plan in force. Tests shrink it to exercise the multi-level recursion on
// small sizes; set it only while no transform runs, and construct domains
// after changing it.
Plan& plan();

// Number of leading stages done on columns (L1; rows then have 2^(L - L1)
// elements). Only meaningful for L > plan().block_log.
inline unsigned column_bits(unsigned L) {
  unsigned l1 = L / 2;
  return l1 < plan().max_column_log ? l1 : plan().max_column_log;
}

}  // namespace cuzk::ntt::detail
