#include "filecoin/porep/circuit.hpp"

#include <stdexcept>
#include <string>

#include "filecoin/circuit/merkle.hpp"
#include "filecoin/common/domain.hpp"
#include "filecoin/hash/poseidon_constants.hpp"
#include "filecoin/porep/create_label.hpp"
#include "gadgets/constraint.hpp"
#include "gadgets/poseidon.hpp"
#include "gadgets/sha256_domain.hpp"
#include "gadgets/uint64.hpp"

namespace cuzk::filecoin::circuit {

using gadgets::AllocatedNum;
using gadgets::Boolean;
using gadgets::in_ns;
using gadgets::MerkleAuthPath;
using gadgets::PorValue;
using r1cs::ConstraintSystem;
using r1cs::Namespace;

namespace {

bool is_pow2(uint64_t n) { return n && !(n & (n - 1)); }

std::string str(size_t i) { return std::to_string(i); }

[[noreturn]] void bad(const std::string& what) { throw std::invalid_argument("stacked circuit: " + what); }

MerkleAuthPath to_auth_path(const MerkleProof& p, const MerkleAuthPath& expected, const std::string& what) {
  return merkle_auth_path(p, expected, "stacked circuit: " + what);
}

std::vector<std::optional<Fr>> to_column(const ColumnProof& cp, size_t layers, const std::string& what) {
  if (cp.column.rows.size() != layers)
    bad(what + ": column has " + str(cp.column.rows.size()) + " rows, expected " + str(layers));
  std::vector<std::optional<Fr>> col;
  for (const Domain& d : cp.column.rows) col.push_back(domain_to_fr(d, what.c_str()));
  return col;
}

StackedCircuit::Challenge blank_challenge(const StackedCircuitParams& p) {
  StackedCircuit::Challenge c;
  const TreeShape& s = p.shape;
  c.comm_d_path = MerkleAuthPath::blank(2, 0, 0, p.nodes);
  c.comm_r_last_path = MerkleAuthPath::blank(s.base_arity, s.sub_arity, s.top_arity, p.nodes);
  c.comm_c_path = c.comm_r_last_path;
  c.drg_columns.assign(kDrgParents, std::vector<std::optional<Fr>>(p.layers));
  c.exp_columns.assign(kExpParents, std::vector<std::optional<Fr>>(p.layers));
  c.drg_paths.assign(kDrgParents, c.comm_c_path);
  c.exp_paths.assign(kExpParents, c.comm_c_path);
  return c;
}

StackedCircuit::Challenge witness_challenge(const StackedCircuitParams& p, const StackedProof& v,
                                            const StackedCircuit::Challenge& blank, size_t i) {
  const std::string at = "challenge " + str(i);
  StackedCircuit::Challenge c;
  if (v.labeling_proofs.size() != p.layers)
    bad(at + ": " + str(v.labeling_proofs.size()) + " labeling proofs, expected " + str(p.layers));
  c.node = v.labeling_proofs[0].node;
  if (*c.node >= p.nodes) bad(at + ": challenged node " + str(*c.node) + " >= nodes");
  c.data_leaf = domain_to_fr(v.comm_d_proofs.leaf, (at + " data leaf").c_str());
  c.comm_d_path = to_auth_path(v.comm_d_proofs, blank.comm_d_path, at + " comm_d proof");
  c.comm_r_last_path = to_auth_path(v.comm_r_last_proof, blank.comm_r_last_path, at + " comm_r_last proof");
  const ReplicaColumnProof& rc = v.replica_column_proofs;
  c.comm_c_path = to_auth_path(rc.c_x.inclusion_proof, blank.comm_c_path, at + " c_x column proof");
  if (rc.drg_parents.size() != kDrgParents)
    bad(at + ": " + str(rc.drg_parents.size()) + " DRG parent columns, expected 6");
  if (rc.exp_parents.size() != kExpParents)
    bad(at + ": " + str(rc.exp_parents.size()) + " expander parent columns, expected 8");
  for (size_t k = 0; k < kDrgParents; k++) {
    std::string w = at + " drg parent " + str(k);
    c.drg_columns.push_back(to_column(rc.drg_parents[k], p.layers, w));
    c.drg_paths.push_back(to_auth_path(rc.drg_parents[k].inclusion_proof, blank.comm_c_path, w));
  }
  for (size_t k = 0; k < kExpParents; k++) {
    std::string w = at + " exp parent " + str(k);
    c.exp_columns.push_back(to_column(rc.exp_parents[k], p.layers, w));
    c.exp_paths.push_back(to_auth_path(rc.exp_parents[k].inclusion_proof, blank.comm_c_path, w));
  }
  return c;
}

// Column::alloc: rows in "column/column_num_row_{j}".
std::vector<AllocatedNum> alloc_column(ConstraintSystem& cs, const std::vector<std::optional<Fr>>& rows) {
  Namespace ns(cs, "column");
  std::vector<AllocatedNum> out;
  out.reserve(rows.size());
  for (size_t j = 0; j < rows.size(); j++)
    out.push_back(in_ns(
        cs, [&] { return "column_num_row_" + str(j); }, [&] { return AllocatedNum::alloc(cs, rows[j]); }));
  return out;
}

AllocatedNum column_hash(ConstraintSystem& cs, const std::vector<AllocatedNum>& col) {
  return gadgets::poseidon_hash(cs, col, constants_for(col.size()), merkle_tag(col.size()));
}

// Proof::synthesize of params.rs for one challenge.
void synthesize_challenge(ConstraintSystem& cs, const StackedCircuit::Challenge& ch, size_t layers,
                          const AllocatedNum& comm_d, const AllocatedNum& comm_c,
                          const AllocatedNum& comm_r_last, const std::vector<Boolean>& replica_id_bits) {
  AllocatedNum data_leaf = in_ns(cs, "data_leaf", [&] { return AllocatedNum::alloc(cs, ch.data_leaf); });
  in_ns(cs, "comm_d_inclusion", [&] {
    gadgets::por_sha256(cs, PorValue{data_leaf, std::nullopt}, ch.comm_d_path, PorValue{comm_d, std::nullopt},
                        true);
  });

  // Parent columns: allocate, hash, prove the hash in TreeC.
  auto parent_columns = [&](const char* kind, const std::vector<std::vector<std::optional<Fr>>>& cols,
                            const std::vector<MerkleAuthPath>& paths) {
    std::vector<std::vector<AllocatedNum>> out;
    for (size_t i = 0; i < cols.size(); i++) {
      auto col = in_ns(
          cs, [&] { return std::string(kind) + "_parent_" + str(i) + "_num"; },
          [&] { return alloc_column(cs, cols[i]); });
      AllocatedNum h = in_ns(
          cs, [&] { return std::string(kind) + "_parent_" + str(i) + "_constraint"; },
          [&] { return column_hash(cs, col); });
      in_ns(
          cs, [&] { return std::string(kind) + "_parent_" + str(i) + "_inclusion"; },
          [&] { inclusion_poseidon(cs, paths[i], comm_c, h); });
      out.push_back(std::move(col));
    }
    return out;
  };
  auto drg = parent_columns("drg", ch.drg_columns, ch.drg_paths);
  auto exp = parent_columns("exp", ch.exp_columns, ch.exp_paths);

  gadgets::UInt64 challenge = in_ns(cs, "challenge", [&] { return gadgets::UInt64::alloc(cs, ch.node); });
  in_ns(cs, "challenge input", [&] { challenge.pack_into_input(cs); });

  std::vector<AllocatedNum> labels;
  for (size_t layer = 1; layer <= layers; layer++) {
    Namespace ns(cs, [&] { return "labeling_" + str(layer); });
    std::vector<std::vector<Boolean>> parents;
    auto add_parent = [&](const char* kind, const AllocatedNum& v) {
      size_t n = parents.size();
      auto bits = in_ns(
          cs, [&] { return std::string(kind) + "_parent_" + str(n) + "_bits"; },
          [&] { return v.to_bits_le(cs); });
      parents.push_back(gadgets::reverse_bit_numbering(bits));
    };
    for (const auto& col : drg) add_parent("drg", col[layer - 1]);
    // Expander parents point into the previous layer, so layer 1 has none.
    if (layer > 1)
      for (const auto& col : exp) add_parent("exp", col[layer - 2]);
    // Repeat to 37 parents as the label hash does: 6×6 + 1, or 14 + 14 + 9.
    std::vector<std::vector<Boolean>> expanded;
    expanded.reserve(kTotalParents);
    for (size_t k = 0; k < kTotalParents; k++) expanded.push_back(parents[k % parents.size()]);
    labels.push_back(in_ns(cs, "create_label", [&] {
      return create_label_circuit(cs, replica_id_bits, expanded, uint32_t(layer), challenge);
    }));
  }

  {
    // encode: replica node = last label + data.
    AllocatedNum encoded = in_ns(cs, "encode_node", [&] {
      return in_ns(cs, "encode_add", [&] { return gadgets::add(cs, labels.back(), data_leaf); });
    });
    in_ns(cs, "comm_r_last_data_inclusion",
          [&] { inclusion_poseidon(cs, ch.comm_r_last_path, comm_r_last, encoded); });
  }
  {
    AllocatedNum h = in_ns(cs, "c_x_column_hash", [&] { return column_hash(cs, labels); });
    in_ns(cs, "c_x_inclusion", [&] { inclusion_poseidon(cs, ch.comm_c_path, comm_c, h); });
  }
}

}  // namespace

StackedCircuitParams StackedCircuitParams::from_config(const PorepConfig& c) {
  StackedCircuitParams p;
  p.nodes = c.nodes;
  p.layers = c.layers;
  p.challenges = c.challenges_per_partition;
  p.shape = c.shape;
  p.api = c.api;
  return p;
}

size_t StackedCircuitParams::tree_d_depth() const { return size_t(__builtin_ctzll(nodes)); }

void StackedCircuitParams::validate() const {
  if (!is_pow2(nodes) || nodes < 2) bad("nodes must be a power of two >= 2, got " + str(nodes));
  if (layers == 0) bad("layers must be at least 1");
  if (challenges == 0) bad("a partition needs at least one challenge");
  for (size_t a : {shape.base_arity, shape.sub_arity, shape.top_arity})
    if (a && (!is_pow2(a) || a < 2)) bad("tree arities must be powers of two >= 2");
  if (!shape.base_arity) bad("base arity must be set");
  if (shape.top_arity && !shape.sub_arity) bad("a top tree needs a sub tree");
  uint64_t count = shape.base_tree_count();
  if (nodes % count) bad("nodes not divisible by the number of base trees");
  uint64_t base_leaves = nodes / count, n = 1;
  while (n < base_leaves) n *= shape.base_arity;
  if (n != base_leaves) bad("base tree leaves are not a power of the base arity");
}

StackedWitness StackedWitness::from_proofs(const Domain& replica_id, const Domain& comm_d,
                                           const Domain& comm_r, std::vector<StackedProof> proofs) {
  if (proofs.empty()) bad("cannot build a witness from no vanilla proofs");
  StackedWitness w;
  w.replica_id = replica_id;
  w.comm_d = comm_d;
  w.comm_r = comm_r;
  w.comm_r_last = proofs[0].comm_r_last_proof.root;
  w.comm_c = proofs[0].replica_column_proofs.c_x.inclusion_proof.root;
  for (const StackedProof& p : proofs) {
    if (p.comm_r_last_proof.root != w.comm_r_last) bad("inconsistent comm_r_last roots across proofs");
    if (p.replica_column_proofs.c_x.inclusion_proof.root != w.comm_c)
      bad("inconsistent comm_c roots across proofs");
  }
  w.proofs = std::move(proofs);
  return w;
}

StackedCircuit::StackedCircuit(const StackedCircuitParams& params) : params_(params) {
  params_.validate();
  challenges_.assign(params_.challenges, blank_challenge(params_));
}

StackedCircuit::StackedCircuit(const StackedCircuitParams& params, const StackedWitness& w)
    : params_(params) {
  params_.validate();
  if (w.proofs.size() != params_.challenges)
    bad(str(w.proofs.size()) + " vanilla proofs for " + str(params_.challenges) + " challenges");
  replica_id_ = domain_to_fr(w.replica_id, "replica_id");
  comm_d_ = domain_to_fr(w.comm_d, "comm_d");
  comm_r_ = domain_to_fr(w.comm_r, "comm_r");
  comm_r_last_ = domain_to_fr(w.comm_r_last, "comm_r_last");
  comm_c_ = domain_to_fr(w.comm_c, "comm_c");
  Challenge blank = blank_challenge(params_);
  for (size_t i = 0; i < w.proofs.size(); i++)
    challenges_.push_back(witness_challenge(params_, w.proofs[i], blank, i));
}

void StackedCircuit::synthesize(ConstraintSystem& cs) const {
  AllocatedNum replica_id = in_ns(cs, "replica_id", [&] { return AllocatedNum::alloc(cs, replica_id_); });
  in_ns(cs, "replica_id_input", [&] { replica_id.inputize(cs); });
  std::vector<Boolean> replica_id_bits =
      gadgets::reverse_bit_numbering(in_ns(cs, "replica_id_bits", [&] { return replica_id.to_bits_le(cs); }));

  AllocatedNum comm_d = in_ns(cs, "comm_d", [&] { return AllocatedNum::alloc(cs, comm_d_); });
  in_ns(cs, "comm_d_input", [&] { comm_d.inputize(cs); });
  AllocatedNum comm_r = in_ns(cs, "comm_r", [&] { return AllocatedNum::alloc(cs, comm_r_); });
  in_ns(cs, "comm_r_input", [&] { comm_r.inputize(cs); });
  AllocatedNum comm_r_last = in_ns(cs, "comm_r_last", [&] { return AllocatedNum::alloc(cs, comm_r_last_); });
  AllocatedNum comm_c = in_ns(cs, "comm_c", [&] { return AllocatedNum::alloc(cs, comm_c_); });

  enforce_comm_r(cs, comm_r, comm_c, comm_r_last);

  // The challenges are independent: a witness-only synthesis with recorded
  // part counts runs them in parallel.
  cs.run_parts(challenges_.size(), [&](size_t i, ConstraintSystem& part_cs) {
    Namespace ns(part_cs, [&] { return "challenge_" + str(i); });
    synthesize_challenge(part_cs, challenges_[i], params_.layers, comm_d, comm_c, comm_r_last,
                         replica_id_bits);
  });
}

std::vector<Fr> stacked_public_inputs(const StackedCircuitParams& params, const Domain& replica_id,
                                      const Domain& comm_d, const Domain& comm_r,
                                      std::span<const ChallengeParents> challenges) {
  params.validate();
  if (challenges.size() != params.challenges)
    bad(str(challenges.size()) + " challenges given for a partition of " + str(params.challenges));
  std::vector<Fr> in = {domain_to_fr(replica_id, "replica_id"), domain_to_fr(comm_d, "comm_d"),
                        domain_to_fr(comm_r, "comm_r")};
  auto index = [&](uint64_t n, const char* what) {
    if (n >= params.nodes)
      bad(std::string(what) + " " + str(n) + " out of range (nodes " + str(params.nodes) + ")");
    // Every path's packed index bits (TreeD, and TreeR/TreeC for power-of-two
    // arities, base then sub then top) are the binary digits of the leaf index.
    return Fr::from_u64(n);
  };
  for (const ChallengeParents& c : challenges) {
    if (c.drg.size() != kDrgParents) bad("a challenge needs 6 DRG parents, got " + str(c.drg.size()));
    if (c.exp.size() != kExpParents) bad("a challenge needs 8 expander parents, got " + str(c.exp.size()));
    in.push_back(index(c.node, "challenge"));  // TreeD path
    for (uint64_t p : c.drg) in.push_back(index(p, "DRG parent"));
    for (uint64_t p : c.exp) in.push_back(index(p, "expander parent"));
    in.push_back(Fr::from_u64(c.node));  // the UInt64 challenge
    in.push_back(Fr::from_u64(c.node));  // TreeR path
    in.push_back(Fr::from_u64(c.node));  // TreeC path
  }
  return in;
}

}  // namespace cuzk::filecoin::circuit
