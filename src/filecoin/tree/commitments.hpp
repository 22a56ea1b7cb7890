#pragma once
// Replica commitments (docs/FILECOIN.md §7.8): TreeC over column hashes of the
// SDR labels, TreeR over the replica (last layer + data in Fr), and
// comm_r = Poseidon2_MerkleTag(comm_c, comm_r_last). Inputs are plain
// vectors so the SDR labeller's output can be fed in directly.
#include <span>
#include <vector>

#include "filecoin/common/domain.hpp"
#include "filecoin/tree/poseidon_tree.hpp"

namespace cuzk::filecoin {

// Poseidon MerkleTree hash of one column (arity = column.size(), layer 1 first).
Fr column_hash(std::span<const Fr> column);

// TreeC leaves: leaf i = column_hash(layers[0][i], ..., layers[L-1][i]),
// where layers[l] holds the labels of layer l+1. Multi-threaded. Throws
// std::invalid_argument for no layers or layers of different lengths.
std::vector<Fr> tree_c_leaves(std::span<const std::vector<Fr>> layers);
std::vector<Fr> tree_c_leaves(std::span<const std::vector<Domain>> layers);

// TreeR leaves (the replica): last_layer[i] + data[i] in Fr, data being the
// fr32-padded TreeD leaves. Throws std::invalid_argument on a length
// mismatch or a data node that is not a canonical Fr.
std::vector<Fr> tree_r_leaves(std::span<const Fr> last_layer, std::span<const Domain> data);

// comm_r = Poseidon2_MerkleTag(comm_c, comm_r_last).
Fr comm_r(const Fr& comm_c, const Fr& comm_r_last);
Domain comm_r(const Domain& comm_c, const Domain& comm_r_last);

// Everything sealing keeps after the labels: both trees and the commitments.
struct ReplicaTrees {
  PoseidonTree tree_c, tree_r;
  Fr comm_c() const { return tree_c.root(); }
  Fr comm_r_last() const { return tree_r.root(); }
  Fr comm_r() const { return filecoin::comm_r(comm_c(), comm_r_last()); }
};
ReplicaTrees build_replica_trees(std::span<const std::vector<Fr>> layers, std::span<const Domain> data,
                                 const TreeShape& shape);

}  // namespace cuzk::filecoin
