// Writing c1.json byte-identical to serde_json::to_vec: members in Rust
// declaration order, no whitespace, integers in plain decimal, [u8; 32] as
// arrays of numbers, enums externally tagged ({"Variant": value}), the
// Column's PhantomData as "_h":null. Plus the wrapper and base64.
#include <array>
#include <charconv>

#include "filecoin/porep/c1_json.hpp"

namespace cuzk::filecoin {
namespace {

class Writer {
 public:
  std::string out;

  void raw(std::string_view s) { out.append(s); }
  void u64(uint64_t v) {
    char buf[24];
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, r.ptr);
  }
  void i64(int64_t v) {
    char buf[24];
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, r.ptr);
  }
  void domain(const Domain& d) {
    static const auto kBytes = [] {  // "0".."255", the hot path of the writer
      std::array<std::string, 256> t;
      for (int i = 0; i < 256; i++) t[i] = std::to_string(i);
      return t;
    }();
    out += '[';
    for (size_t i = 0; i < 32; i++) {
      if (i) out += ',';
      out.append(kBytes[d[i]]);
    }
    out += ']';
  }
  void domains(const std::vector<Domain>& v) {
    out += '[';
    for (size_t i = 0; i < v.size(); i++) {
      if (i) out += ',';
      domain(v[i]);
    }
    out += ']';
  }

  // InclusionPath { path: Vec<PathElement { hashes, index }> }.
  void inclusion_path(const std::vector<MerklePathElement>& path) {
    raw("{\"path\":[");
    for (size_t i = 0; i < path.size(); i++) {
      if (i) out += ',';
      raw("{\"hashes\":");
      domains(path[i].hashes);
      raw(",\"index\":");
      u64(path[i].index);
      out += '}';
    }
    raw("]}");
  }

  void merkle_proof(const MerkleProof& p) {
    switch (p.shape) {
      case MerkleProofShape::Single:
        raw("{\"data\":{\"Single\":{\"root\":");
        domain(p.root);
        raw(",\"leaf\":");
        domain(p.leaf);
        raw(",\"path\":");
        inclusion_path(p.base);
        break;
      case MerkleProofShape::Sub:
      case MerkleProofShape::Top:
        raw(p.shape == MerkleProofShape::Sub ? "{\"data\":{\"Sub\":{\"base_proof\":"
                                             : "{\"data\":{\"Top\":{\"base_proof\":");
        inclusion_path(p.base);
        raw(",\"sub_proof\":");
        inclusion_path(p.sub);
        if (p.shape == MerkleProofShape::Top) {
          raw(",\"top_proof\":");
          inclusion_path(p.top);
        }
        raw(",\"root\":");
        domain(p.root);
        raw(",\"leaf\":");
        domain(p.leaf);
        break;
    }
    raw("}}}");
  }

  void column_proof(const ColumnProof& cp) {
    raw("{\"column\":{\"index\":");
    u64(cp.column.index);
    raw(",\"rows\":");
    domains(cp.column.rows);
    raw(",\"_h\":null},\"inclusion_proof\":");
    merkle_proof(cp.inclusion_proof);
    out += '}';
  }
  void column_proofs(const std::vector<ColumnProof>& v) {
    out += '[';
    for (size_t i = 0; i < v.size(); i++) {
      if (i) out += ',';
      column_proof(v[i]);
    }
    out += ']';
  }

  // LabelingProof and EncodingProof serialise alike (their _h is skipped).
  void labeling_proof(const LabelingProof& lp) {
    raw("{\"parents\":");
    domains(lp.parents);
    raw(",\"layer_index\":");
    u64(lp.layer_index);
    raw(",\"node\":");
    u64(lp.node);
    out += '}';
  }

  void stacked_proof(const StackedProof& p) {
    raw("{\"comm_d_proofs\":");
    merkle_proof(p.comm_d_proofs);
    raw(",\"comm_r_last_proof\":");
    merkle_proof(p.comm_r_last_proof);
    raw(",\"replica_column_proofs\":{\"c_x\":");
    column_proof(p.replica_column_proofs.c_x);
    raw(",\"drg_parents\":");
    column_proofs(p.replica_column_proofs.drg_parents);
    raw(",\"exp_parents\":");
    column_proofs(p.replica_column_proofs.exp_parents);
    raw("},\"labeling_proofs\":[");
    for (size_t i = 0; i < p.labeling_proofs.size(); i++) {
      if (i) out += ',';
      labeling_proof(p.labeling_proofs[i]);
    }
    raw("],\"encoding_proof\":");
    labeling_proof(p.encoding_proof);
    out += '}';
  }
};

// Rough output size, so the string grows once: ~3.6 characters per byte value.
size_t estimate_size(const SealCommitPhase1Output& c1) {
  size_t domains = 5;
  auto path_domains = [](const MerkleProof& p) {
    size_t n = 2;
    for (auto* v : {&p.base, &p.sub, &p.top})
      for (const auto& e : *v) n += e.hashes.size();
    return n;
  };
  for (const auto& part : c1.vanilla_proofs)
    for (const auto& p : part) {
      domains += path_domains(p.comm_d_proofs) + path_domains(p.comm_r_last_proof);
      const ReplicaColumnProof& r = p.replica_column_proofs;
      domains += r.c_x.column.rows.size() + path_domains(r.c_x.inclusion_proof);
      for (auto* v : {&r.drg_parents, &r.exp_parents})
        for (const auto& cp : *v) domains += cp.column.rows.size() + path_domains(cp.inclusion_proof);
      for (const auto& lp : p.labeling_proofs) domains += lp.parents.size();
      domains += p.encoding_proof.parents.size();
    }
  return domains * 32 * 4 + 4096;
}

constexpr char kB64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

}  // namespace

std::string write_c1(const SealCommitPhase1Output& c1) {
  auto cfg = porep_config(uint64_t(c1.registered_proof));
  if (!cfg)
    throw C1FormatError("registered_proof: unknown id " + std::to_string(uint64_t(c1.registered_proof)));
  Writer w;
  w.out.reserve(estimate_size(c1));
  w.raw("{\"registered_proof\":\"");
  w.raw(cfg->name);
  w.raw("\",\"vanilla_proofs\":{\"StackedDrg");
  w.raw(cfg->size_tag);  // the VanillaSealProof variant names the size only
  w.raw("V1\":[");
  for (size_t k = 0; k < c1.vanilla_proofs.size(); k++) {
    if (k) w.out += ',';
    w.out += '[';
    for (size_t i = 0; i < c1.vanilla_proofs[k].size(); i++) {
      if (i) w.out += ',';
      w.stacked_proof(c1.vanilla_proofs[k][i]);
    }
    w.out += ']';
  }
  w.raw("]},\"comm_r\":");
  w.domain(c1.comm_r);
  w.raw(",\"comm_d\":");
  w.domain(c1.comm_d);
  w.raw(",\"replica_id\":");
  w.domain(c1.replica_id);
  w.raw(",\"seed\":");
  w.domain(c1.seed);
  w.raw(",\"ticket\":");
  w.domain(c1.ticket);
  w.out += '}';
  return std::move(w.out);
}

std::string write_c1_wrapper(const C1Wrapper& wrapper) {
  std::string inner = write_c1(wrapper.phase1);
  Writer w;
  w.out.reserve(inner.size() / 3 * 4 + 128);
  // Go encoding/json: struct fields in declaration order, []byte as padded std base64.
  w.raw("{\"SectorNum\":");
  w.i64(wrapper.sector_num);
  w.raw(",\"Phase1Out\":\"");
  w.raw(base64_encode({reinterpret_cast<const uint8_t*>(inner.data()), inner.size()}));
  w.raw("\",\"SectorSize\":");
  w.u64(wrapper.sector_size);
  w.out += '}';
  return std::move(w.out);
}

std::string base64_encode(std::span<const uint8_t> data) {
  std::string out;
  out.reserve((data.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 3 <= data.size(); i += 3) {
    uint32_t v = uint32_t(data[i]) << 16 | uint32_t(data[i + 1]) << 8 | data[i + 2];
    out += kB64[v >> 18];
    out += kB64[(v >> 12) & 63];
    out += kB64[(v >> 6) & 63];
    out += kB64[v & 63];
  }
  size_t rest = data.size() - i;
  if (rest) {
    uint32_t v = uint32_t(data[i]) << 16 | (rest == 2 ? uint32_t(data[i + 1]) << 8 : 0);
    out += kB64[v >> 18];
    out += kB64[(v >> 12) & 63];
    out += rest == 2 ? kB64[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

std::vector<uint8_t> base64_decode(std::string_view text) {
  static const auto kValue = [] {
    std::array<int8_t, 256> t;
    t.fill(-1);
    for (int i = 0; i < 64; i++) t[uint8_t(kB64[i])] = int8_t(i);
    return t;
  }();
  std::vector<uint8_t> out;
  out.reserve(text.size() / 4 * 3);
  uint32_t acc = 0;
  size_t n = 0, pad = 0;  // sextets in acc, '=' seen
  for (size_t i = 0; i < text.size(); i++) {
    unsigned char ch = text[i];
    if (ch == ' ' || ch == '\n' || ch == '\r' || ch == '\t') continue;
    if (ch == '=') {
      pad++;
      continue;
    }
    int8_t v = kValue[ch];
    if (v < 0) throw C1FormatError("invalid base64 character at offset " + std::to_string(i));
    if (pad) throw C1FormatError("base64 data after '=' padding at offset " + std::to_string(i));
    acc = acc << 6 | uint32_t(v);
    if (++n == 4) {
      out.push_back(uint8_t(acc >> 16));
      out.push_back(uint8_t(acc >> 8));
      out.push_back(uint8_t(acc));
      acc = 0;
      n = 0;
    }
  }
  // A final group of 2 or 3 sextets carries 1 or 2 bytes; padding, when
  // present, must complete it to 4 characters.
  if (n == 1) throw C1FormatError("truncated base64 (a dangling character)");
  if (pad && (n == 0 || n + pad != 4)) throw C1FormatError("malformed base64 padding");
  if (n == 2) out.push_back(uint8_t(acc >> 4));
  if (n == 3) {
    out.push_back(uint8_t(acc >> 10));
    out.push_back(uint8_t(acc >> 2));
  }
  return out;
}

}  // namespace cuzk::filecoin
