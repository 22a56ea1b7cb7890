// The warp operations of the block scheduler (block.cpp runs the threads):
// __syncwarp, shuffles, votes, reductions, matches and __activemask. A lane
// records its operation in its slot and parks; the group completes when
// every lane named in its mask that has not exited has arrived, and the
// lanes must agree on the operation and the mask (CUDA's rule). Shuffles
// follow PTX's segments of `width` lanes.
#include <bit>
#include <cstdint>
#include <cstdio>
#include <string>

#include "simt/block_state.hpp"

namespace cuzk::simt::detail {

namespace {

// What a shuffle reads from a lane that did not take part (exited, or not in
// the mask): undefined on a GPU, a recognisable pattern here.
constexpr uint64_t kPoison = 0xdeadbeefdeadbeefull;

// Completes the group of lanes `need` (all lanes of `mask` that have not
// exited; every one has arrived with `op` and `mask`).
void complete_group(Block& b, unsigned warp, WarpOp op, uint32_t need) {
  Slot* s = &b.slots[warp * kWarpSize];
  auto each = [need](auto fn) {
    for (uint32_t m = need; m; m &= m - 1) fn(unsigned(std::countr_zero(m)));
  };
  switch (op) {
    case WarpOp::sync: break;
    case WarpOp::shfl_idx:
    case WarpOp::shfl_up:
    case WarpOp::shfl_down:
    case WarpOp::shfl_xor:
      each([&](unsigned i) {
        const int j = s[i].src;
        s[i].result = ((need >> j) & 1u) ? s[j].value : kPoison;
      });
      break;
    case WarpOp::ballot:
    case WarpOp::any:
    case WarpOp::all: {
      uint32_t ballot = 0;
      each([&](unsigned i) { ballot |= s[i].value ? 1u << i : 0u; });
      const uint64_t r = op == WarpOp::ballot ? ballot : op == WarpOp::any ? ballot != 0 : ballot == need;
      each([&](unsigned i) { s[i].result = r; });
      break;
    }
    case WarpOp::match_any:
      each([&](unsigned i) {
        uint32_t same = 0;
        each([&](unsigned j) { same |= s[j].value == s[i].value ? 1u << j : 0u; });
        s[i].result = same;
      });
      break;
    case WarpOp::match_all: {
      bool all_same = true;
      const uint64_t v0 = s[std::countr_zero(need)].value;
      each([&](unsigned i) { all_same = all_same && s[i].value == v0; });
      const uint64_t r = all_same ? (uint64_t(need) | (uint64_t(1) << 32)) : 0;
      each([&](unsigned i) { s[i].result = r; });
      break;
    }
    default: {  // the reductions, on 32-bit values
      bool first = true;
      uint32_t acc = 0;
      each([&](unsigned i) {
        const uint32_t v = uint32_t(s[i].value);
        if (first) {
          acc = v;
          first = false;
          return;
        }
        switch (op) {
          case WarpOp::reduce_add: acc += v; break;
          case WarpOp::reduce_min_u: acc = v < acc ? v : acc; break;
          case WarpOp::reduce_max_u: acc = v > acc ? v : acc; break;
          case WarpOp::reduce_min_s: acc = int32_t(v) < int32_t(acc) ? v : acc; break;
          case WarpOp::reduce_max_s: acc = int32_t(v) > int32_t(acc) ? v : acc; break;
          case WarpOp::reduce_and: acc &= v; break;
          case WarpOp::reduce_or: acc |= v; break;
          case WarpOp::reduce_xor: acc ^= v; break;
          default: break;
        }
      });
      each([&](unsigned i) { s[i].result = acc; });
      break;
    }
  }
}

}  // namespace

std::string hex(uint32_t v) {
  char s[16];
  std::snprintf(s, sizeof s, "0x%08x", v);
  return s;
}

const char* op_name(WarpOp op) {
  switch (op) {
    case WarpOp::sync: return "__syncwarp";
    case WarpOp::shfl_idx: return "__shfl_sync";
    case WarpOp::shfl_up: return "__shfl_up_sync";
    case WarpOp::shfl_down: return "__shfl_down_sync";
    case WarpOp::shfl_xor: return "__shfl_xor_sync";
    case WarpOp::ballot: return "__ballot_sync";
    case WarpOp::any: return "__any_sync";
    case WarpOp::all: return "__all_sync";
    case WarpOp::reduce_add: return "__reduce_add_sync";
    case WarpOp::reduce_min_u:
    case WarpOp::reduce_min_s: return "__reduce_min_sync";
    case WarpOp::reduce_max_u:
    case WarpOp::reduce_max_s: return "__reduce_max_sync";
    case WarpOp::reduce_and: return "__reduce_and_sync";
    case WarpOp::reduce_or: return "__reduce_or_sync";
    case WarpOp::reduce_xor: return "__reduce_xor_sync";
    case WarpOp::match_any: return "__match_any_sync";
    case WarpOp::match_all: return "__match_all_sync";
  }
  return "warp operation";
}

bool try_complete_warp(Block& b, unsigned warp, int self) {
  uint32_t arrived = b.warp_arrived[warp];
  const uint32_t alive = b.warp_alive[warp];
  Slot* s = &b.slots[warp * kWarpSize];
  bool self_done = false;
  for (uint32_t pending = arrived; pending;) {
    const unsigned lead = unsigned(std::countr_zero(pending));
    const uint32_t mask = s[lead].mask;
    const uint32_t need = mask & alive;
    pending &= ~(need | (1u << lead));
    if ((need & arrived) != need) continue;
    for (uint32_t m = need; m; m &= m - 1) {
      const unsigned i = unsigned(std::countr_zero(m));
      if (s[i].mask != mask || s[i].op != s[lead].op) {
        fail(b, int(warp * kWarpSize + i),
             std::string(op_name(s[i].op)) + " with mask " + hex(s[i].mask) + " while lane " +
                 std::to_string(lead) + " of its warp is at " + op_name(s[lead].op) + " with mask " +
                 hex(mask) + " (the lanes of a mask must make the same call with the same mask)");
        return false;
      }
    }
    complete_group(b, warp, s[lead].op, need);
    arrived &= ~need;
    for (uint32_t m = need; m; m &= m - 1) {
      const unsigned t = warp * kWarpSize + unsigned(std::countr_zero(m));
      if (int(t) == self) self_done = true;
      else wake(b, t);
    }
  }
  b.warp_arrived[warp] = arrived;
  return self_done;
}

bool try_resolve_activemask(Block& b, unsigned warp, int self) {
  const uint32_t waiting = b.warp_at_active[warp];
  if (!waiting) return false;
  const uint32_t self_bit = self >= 0 ? 1u << (unsigned(self) % kWarpSize) : 0;
  if (b.warp_alive[warp] & ~(b.warp_parked[warp] | self_bit)) return false;
  Slot* s = &b.slots[warp * kWarpSize];
  for (uint32_t m = waiting; m; m &= m - 1) {
    const unsigned i = unsigned(std::countr_zero(m));
    uint32_t same = 0;
    for (uint32_t k = waiting; k; k &= k - 1) {
      const unsigned j = unsigned(std::countr_zero(k));
      if (s[j].site == s[i].site) same |= 1u << j;
    }
    s[i].result = same;
  }
  b.warp_at_active[warp] = 0;
  for (uint32_t m = waiting & ~self_bit; m; m &= m - 1)
    wake(b, warp * kWarpSize + unsigned(std::countr_zero(m)));
  return (waiting & self_bit) != 0;
}

// ---- what kernels call (simt/builtins.hpp) ----------------------------------------

uint64_t warp_op(WarpOp op, unsigned mask, uint64_t value, unsigned arg, unsigned width) {
  HostThread& h = kernel_host(op_name(op));
  Block& b = h.block;
  const unsigned t = h.current->thread;
  const unsigned lane = t % kWarpSize, warp = t / kWarpSize;
  if (!((mask >> lane) & 1u)) {
    fail(b, int(t),
         std::string(op_name(op)) + " with mask " + hex(mask) + ", which does not name the caller (lane " +
             std::to_string(lane) + ")");
    abandon(h);
  }
  Slot& s = b.slots[t];
  s.op = op;
  s.mask = mask;
  s.value = value;
  s.src = int(lane);
  if (op == WarpOp::shfl_idx || op == WarpOp::shfl_up || op == WarpOp::shfl_down || op == WarpOp::shfl_xor) {
    if (width == 0 || width > kWarpSize || (width & (width - 1)) != 0) {
      fail(b, int(t),
           std::string(op_name(op)) + " with width " + std::to_string(int(width)) +
               " (a power of 2 from 1 to 32)");
      abandon(h);
    }
    // PTX shfl: the lane read within the caller's segment of `width` lanes;
    // out of range (up, down, xor past the segment's end) reads the caller.
    const int first = int(lane & ~(width - 1)), last = first + int(width) - 1;
    const int b5 = int(arg & 31u);
    int j = int(lane);
    switch (op) {
      case WarpOp::shfl_idx: j = first | (b5 & int(width - 1)); break;
      case WarpOp::shfl_up: j = int(lane) - b5 >= first ? int(lane) - b5 : int(lane); break;
      case WarpOp::shfl_down: j = int(lane) + b5 <= last ? int(lane) + b5 : int(lane); break;
      case WarpOp::shfl_xor: j = (int(lane) ^ b5) <= last ? int(lane) ^ b5 : int(lane); break;
      default: break;
    }
    s.src = j;
  }
  b.warp_arrived[warp] |= 1u << lane;
  const bool done = try_complete_warp(b, warp, int(t));
  if (b.failed) abandon(h);
  if (!done) park(h, State::at_warp_op);
  return s.result;
}

unsigned active_mask(uint64_t site) {
  HostThread& h = kernel_host("__activemask");
  Block& b = h.block;
  const unsigned t = h.current->thread;
  b.slots[t].site = site;
  b.warp_at_active[t / kWarpSize] |= 1u << (t % kWarpSize);
  if (!try_resolve_activemask(b, t / kWarpSize, int(t))) park(h, State::at_activemask);
  return unsigned(b.slots[t].result);
}

}  // namespace cuzk::simt::detail
