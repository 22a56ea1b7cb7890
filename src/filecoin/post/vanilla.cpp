#include "filecoin/post/vanilla.hpp"

#include "filecoin/bincode/bincode.hpp"

namespace cuzk::filecoin {

FallbackPoStSectorProof read_post_sector_proof(std::span<const uint8_t> bytes, const std::string& what) {
  BincodeReader r(bytes, what);
  FallbackPoStSectorProof p;
  p.sector_id = r.u64("sector_id");
  p.comm_r = r.domain("comm_r");
  uint64_t n = r.len("vanilla_proof.sectors", 8 + 64);
  p.sectors.resize(n);
  for (auto& s : p.sectors) {
    uint64_t k = r.len("inclusion_proofs", 4 + 64);
    s.inclusion_proofs.reserve(k);
    for (uint64_t i = 0; i < k; i++) s.inclusion_proofs.push_back(r.merkle_proof("inclusion_proofs[]"));
    s.comm_c = r.domain("comm_c");
    s.comm_r_last = r.domain("comm_r_last");
  }
  r.expect_end();
  return p;
}

std::string write_post_sector_proof(const FallbackPoStSectorProof& p) {
  BincodeWriter w;
  w.u64(p.sector_id);
  w.domain(p.comm_r);
  w.u64(p.sectors.size());
  for (const auto& s : p.sectors) {
    w.u64(s.inclusion_proofs.size());
    for (const auto& m : s.inclusion_proofs) w.merkle_proof(m);
    w.domain(s.comm_c);
    w.domain(s.comm_r_last);
  }
  return w.take();
}

}  // namespace cuzk::filecoin
