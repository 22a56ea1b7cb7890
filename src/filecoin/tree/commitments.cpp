#include "filecoin/tree/commitments.hpp"

#include <tbb/parallel_for.h>

#include <stdexcept>
#include <string>

#include "filecoin/hash/poseidon.hpp"

namespace cuzk::filecoin {

Fr column_hash(std::span<const Fr> column) { return poseidon_hash(column); }

std::vector<Fr> tree_c_leaves(std::span<const std::vector<Fr>> layers) {
  if (layers.empty()) throw std::invalid_argument("tree_c_leaves: no layers");
  const size_t n = layers[0].size(), L = layers.size();
  for (size_t l = 1; l < L; l++)
    if (layers[l].size() != n)
      throw std::invalid_argument("tree_c_leaves: layer " + std::to_string(l + 1) + " has " +
                                  std::to_string(layers[l].size()) + " labels, layer 1 has " +
                                  std::to_string(n));
  const auto& c = poseidon_constants(L);  // also rejects arities Poseidon lacks
  const Fr tag = poseidon_tag_merkle_tree(L);
  std::vector<Fr> out(n);
  tbb::parallel_for(tbb::blocked_range<size_t>(0, n, 256), [&](const tbb::blocked_range<size_t>& r) {
    std::vector<Fr> column(L);
    for (size_t i = r.begin(); i != r.end(); i++) {
      for (size_t l = 0; l < L; l++) column[l] = layers[l][i];
      out[i] = poseidon_hash(c, column, tag);
    }
  });
  return out;
}

std::vector<Fr> tree_c_leaves(std::span<const std::vector<Domain>> layers) {
  std::vector<std::vector<Fr>> frs;
  frs.reserve(layers.size());
  for (const auto& layer : layers) frs.push_back(domains_to_frs(layer));
  return tree_c_leaves(std::span<const std::vector<Fr>>(frs));
}

std::vector<Fr> tree_r_leaves(std::span<const Fr> last_layer, std::span<const Domain> data) {
  if (last_layer.size() != data.size())
    throw std::invalid_argument("tree_r_leaves: " + std::to_string(last_layer.size()) + " labels but " +
                                std::to_string(data.size()) + " data nodes");
  std::vector<Fr> out(data.size());
  for (size_t i = 0; i < data.size(); i++) out[i] = last_layer[i] + domain_to_fr(data[i]);
  return out;
}

Fr comm_r(const Fr& comm_c, const Fr& comm_r_last) {
  const Fr pair[2] = {comm_c, comm_r_last};
  return poseidon_hash(std::span<const Fr>(pair, 2));
}

Domain comm_r(const Domain& comm_c, const Domain& comm_r_last) {
  return fr_to_domain(comm_r(domain_to_fr(comm_c), domain_to_fr(comm_r_last)));
}

ReplicaTrees build_replica_trees(std::span<const std::vector<Fr>> layers, std::span<const Domain> data,
                                 const TreeShape& shape) {
  if (layers.empty()) throw std::invalid_argument("build_replica_trees: no layers");
  std::vector<Fr> r_leaves = tree_r_leaves(layers.back(), data);
  return ReplicaTrees{PoseidonTree(tree_c_leaves(layers), shape), PoseidonTree(std::move(r_leaves), shape)};
}

}  // namespace cuzk::filecoin
