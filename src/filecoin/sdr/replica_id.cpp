#include "filecoin/sdr/replica_id.hpp"

namespace cuzk::filecoin {

Domain prover_id_from_actor_id(uint64_t actor_id) {
  Domain p{};
  size_t i = 0;
  do {
    uint8_t b = actor_id & 0x7f;
    actor_id >>= 7;
    p[i++] = actor_id ? (b | 0x80) : b;
  } while (actor_id);  // at most 10 bytes for a u64
  return p;
}

Domain replica_id(const Domain& prover_id, uint64_t sector_id, const Domain& ticket, const Domain& comm_d,
                  const PorepId& porep_id) {
  uint8_t sector_be[8];
  for (int i = 0; i < 8; i++) sector_be[i] = uint8_t(sector_id >> (56 - 8 * i));
  Sha256 h;
  h.update(prover_id).update(sector_be).update(ticket).update(comm_d).update(porep_id);
  Domain d = h.finish();
  trim_to_fr32(d);
  return d;
}

}  // namespace cuzk::filecoin
