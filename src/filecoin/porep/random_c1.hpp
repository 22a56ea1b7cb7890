#pragma once
// A random commit-phase-1 output: random values in the real layout of a
// registered proof (not to be confused with Synthetic PoRep, the proof kind
// of porep/seal.hpp), for timing and memory of C2 synthesis at sector sizes
// that cannot be sealed on a test machine (a 32 GiB sector takes hours and
// hundreds of GB). Every vanilla proof has the shape a sealed sector's has:
// challenged nodes (never 0) with path indices that spell them, DRG parents
// below their node, one column of `layers` labels per parent, labeling
// proofs holding those parents' labels repeated to 37, the encoding proof a
// copy of the last, and the TreeR / TreeC roots shared by every proof. The
// values (labels, siblings, leaves, roots) are random field elements, so no
// hash and no constraint holds: a circuit built from it synthesizes like a
// real one (same allocations, same constraints), but its proof would not
// verify.
#include <cstddef>
#include <cstdint>

#include "filecoin/common/registered_proof.hpp"
#include "filecoin/porep/vanilla.hpp"

namespace cuzk::filecoin {

// `partitions` of them (0 = the config's count), reproducible from `seed`.
SealCommitPhase1Output random_c1(const PorepConfig& config, uint64_t seed, size_t partitions = 0);

}  // namespace cuzk::filecoin
