#include "filecoin/snap/update.hpp"

#include <tbb/parallel_for.h>

#include <stdexcept>
#include <string>

#include "filecoin/common/domain.hpp"
#include "filecoin/snap/challenges.hpp"
#include "filecoin/tree/commitments.hpp"

namespace cuzk::filecoin {
namespace {

std::string str(uint64_t v) { return std::to_string(v); }

// rho(phi, high) for every high of the sector (2^h of them), inverted for decoding.
std::vector<Fr> rho_table(const SnapConfig& c, const Fr& phi, bool inverse) {
  std::vector<Fr> t(size_t(1) << c.h);
  for (size_t high = 0; high < t.size(); high++) {
    t[high] = snap_rho(phi, high);
    if (inverse) t[high] = t[high].inverse();
  }
  return t;
}

void check_lengths(const SnapConfig& c, size_t a, size_t b, const char* what) {
  if (a != c.nodes || b != c.nodes)
    throw std::invalid_argument(std::string(what) + ": " + str(a) + " and " + str(b) +
                                " nodes, the sector has " + str(c.nodes));
}

}  // namespace

SnapPublic SnapUpdate::public_inputs() const {
  return {fr_to_domain(comm_r_old), tree_d_new.root(), fr_to_domain(comm_r_new)};
}

std::vector<Fr> snap_encode_replica(const SnapConfig& c, std::span<const Fr> old_replica,
                                    std::span<const Domain> data, const Fr& phi) {
  check_lengths(c, old_replica.size(), data.size(), "snap encode");
  const std::vector<Fr> rho = rho_table(c, phi, false);
  std::vector<Fr> out(data.size());
  tbb::parallel_for(
      tbb::blocked_range<size_t>(0, data.size(), 4096), [&](const tbb::blocked_range<size_t>& r) {
        for (size_t i = r.begin(); i != r.end(); i++) {
          auto d = Fr::from_bytes_le(data[i]);
          if (!d) throw std::invalid_argument("snap encode: data node " + str(i) + " is not a canonical Fr");
          out[i] = old_replica[i] + *d * rho[snap_node_high(c, i)];
        }
      });
  return out;
}

std::vector<Domain> snap_decode_replica(const SnapConfig& c, std::span<const Fr> old_replica,
                                        std::span<const Fr> new_replica, const Fr& phi) {
  check_lengths(c, old_replica.size(), new_replica.size(), "snap decode");
  const std::vector<Fr> rho_inv = rho_table(c, phi, true);
  std::vector<Domain> out(new_replica.size());
  tbb::parallel_for(
      tbb::blocked_range<size_t>(0, out.size(), 4096), [&](const tbb::blocked_range<size_t>& r) {
        for (size_t i = r.begin(); i != r.end(); i++)
          out[i] = fr_to_domain((new_replica[i] - old_replica[i]) * rho_inv[snap_node_high(c, i)]);
      });
  return out;
}

SnapUpdate encode_sector_update(const SnapConfig& c, PoseidonTree tree_r_old, const Fr& comm_c,
                                std::span<const Domain> data) {
  if (tree_r_old.leaf_count() != c.nodes)
    throw std::invalid_argument("snap encode: TreeROld has " + str(tree_r_old.leaf_count()) +
                                " leaves, the config " + str(c.nodes));
  TreeD tree_d(std::vector<Domain>(data.begin(), data.end()));
  const Fr comm_r_old = comm_r(comm_c, tree_r_old.root());
  const Fr phi = snap_phi(domain_to_fr(tree_d.root()), comm_r_old);
  std::vector<Fr> replica = snap_encode_replica(c, tree_r_old.level(0), data, phi);
  PoseidonTree tree_r_new(std::move(replica), c.shape);
  const Fr comm_r_new = comm_r(comm_c, tree_r_new.root());
  return SnapUpdate{c,
                    comm_c,
                    comm_r_old,
                    phi,
                    comm_r_new,
                    std::move(tree_d),
                    std::move(tree_r_old),
                    std::move(tree_r_new)};
}

SnapUpdate encode_sector_update(const SnapConfig& c, const SealedSector& s,
                                std::span<const uint8_t> padded_data) {
  if (s.config.sector_size != c.sector_size)
    throw std::invalid_argument("snap encode: the sealed sector has " + str(s.config.sector_size) +
                                " bytes, the update proof is for " + str(c.sector_size));
  const TreeShape& a = s.trees.tree_r.shape();
  if (a.base_arity != c.shape.base_arity || a.sub_arity != c.shape.sub_arity ||
      a.top_arity != c.shape.top_arity)
    throw std::invalid_argument(
        "snap encode: the sealed sector's TreeR shape differs from the update proof's");
  std::vector<Domain> data(c.nodes, Domain{});
  if (!padded_data.empty()) {
    if (padded_data.size() != c.sector_size)
      throw std::invalid_argument("snap encode: " + str(padded_data.size()) + " bytes of data for a " +
                                  str(c.sector_size) + "-byte sector");
    for (uint64_t i = 0; i < c.nodes; i++)
      std::copy_n(padded_data.begin() + std::ptrdiff_t(32 * i), 32, data[i].begin());
  }
  return encode_sector_update(c, s.trees.tree_r, domain_to_fr(s.comm_c), data);
}

SnapPartitionProof snap_partition_proof(const SnapUpdate& u, size_t k) {
  const SnapConfig& c = u.cfg;
  SnapPartitionProof p;
  p.comm_c = fr_to_domain(u.comm_c);
  const auto& apex_row = u.tree_d_new.level(c.apex_level());
  p.apex_leafs.assign(apex_row.begin() + std::ptrdiff_t(k * c.apex_leaf_count),
                      apex_row.begin() + std::ptrdiff_t((k + 1) * c.apex_leaf_count));
  for (uint32_t node : snap_challenges(c, u.comm_r_new, k))
    p.challenge_proofs.push_back(
        {u.tree_r_old.proof(node), u.tree_d_new.proof(node), u.tree_r_new.proof(node)});
  return p;
}

}  // namespace cuzk::filecoin
