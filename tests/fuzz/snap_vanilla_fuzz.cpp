// SnapDeals vanilla partition proofs as Curio sends them (one bincode
// PartitionProof per partition), then the complete check admission runs
// against the update's public commitments. Input: 96 bytes of commitments
// (comm_r_old, comm_d_new, comm_r_new), then the bincode buffer; the
// registered proof is 2 KiB (id 0), the partition 0.
#include <algorithm>
#include <cstring>

#include "filecoin/snap/vanilla.hpp"
#include "fuzz_common.hpp"

using namespace cuzk;

CUZK_FUZZ_TARGET {
  if (size < 96) return 0;
  filecoin::SnapPublic pub;
  std::memcpy(pub.comm_r_old.data(), data, 32);
  std::memcpy(pub.comm_d_new.data(), data + 32, 32);
  std::memcpy(pub.comm_r_new.data(), data + 64, 32);
  auto in = fuzz::bytes(data + 96, size - 96);
  fuzz::refusals_expected([&] {
    auto p = filecoin::read_snap_partition_proof(in, "fuzz");
    // Exactly one value and nothing after it: writing it back gives the input.
    std::string out = filecoin::write_snap_partition_proof(p);
    fuzz::check(out.size() == in.size() &&
                    std::equal(in.begin(), in.end(), reinterpret_cast<const uint8_t*>(out.data())),
                "bincode read/write is the identity");
    filecoin::verify_snap_vanilla(*filecoin::snap_config(0), pub, p, 0);
  });
  return 0;
}
