// Reading c1.json and its wrapper (docs/FILECOIN.md §6). Field names follow the
// Rust structs: stacked::Proof, ReplicaColumnProof, ColumnProof, Column,
// LabelingProof/EncodingProof, MerkleProof{data: Single|Sub|Top} with
// InclusionPath{path: [PathElement{hashes, index}]}.
#include <array>
#include <fstream>
#include <initializer_list>
#include <sstream>

#include "filecoin/porep/c1_json.hpp"
#include "filecoin/porep/json_cursor.hpp"

namespace cuzk::filecoin {
namespace {

using json::Cursor;

// Reads an object whose members are `names`; field(i) consumes member i's
// value. Unknown members are skipped (serde's default); duplicates and
// missing members (unless bit i of `optional` is set) are errors.
template <class F>
uint32_t read_struct(Cursor& c, std::initializer_list<std::string_view> names, F&& field,
                     uint32_t optional = 0) {
  uint32_t seen = 0;
  c.object([&](std::string_view key) {
    uint32_t i = 0;
    for (std::string_view n : names) {
      if (key == n) {
        if (seen & (1u << i)) c.fail("duplicate field \"" + std::string(key) + "\"");
        seen |= 1u << i;
        field(i);
        return;
      }
      i++;
    }
    c.skip_value();
  });
  uint32_t i = 0;
  for (std::string_view n : names) {
    if (!(seen & (1u << i)) && !(optional & (1u << i))) c.fail("missing field \"" + std::string(n) + "\"");
    i++;
  }
  return seen;
}

void read_domain(Cursor& c, Domain& d) { c.bytes32(d.data()); }

void read_domains(Cursor& c, std::vector<Domain>& out) {
  out.clear();
  c.array([&](size_t) { read_domain(c, out.emplace_back()); });
}

uint32_t read_u32(Cursor& c) { return uint32_t(c.unsigned_int(UINT32_MAX)); }

void read_inclusion_path(Cursor& c, std::vector<MerklePathElement>& out) {
  read_struct(c, {"path"}, [&](uint32_t) {
    out.clear();
    c.array([&](size_t) {
      MerklePathElement& e = out.emplace_back();
      read_struct(c, {"hashes", "index"}, [&](uint32_t f) {
        if (f == 0) read_domains(c, e.hashes);
        else e.index = c.unsigned_int(UINT64_MAX);
      });
    });
  });
}

void read_merkle_proof(Cursor& c, MerkleProof& p) {
  read_struct(c, {"data"}, [&](uint32_t) {
    size_t variants = 0;
    c.object([&](std::string_view tag) {
      if (variants++) c.fail("more than one variant in a MerkleProof's data");
      if (tag == "Single") {
        p.shape = MerkleProofShape::Single;
        read_struct(c, {"root", "leaf", "path"}, [&](uint32_t f) {
          if (f == 0) read_domain(c, p.root);
          else if (f == 1) read_domain(c, p.leaf);
          else read_inclusion_path(c, p.base);
        });
      } else if (tag == "Sub") {
        p.shape = MerkleProofShape::Sub;
        read_struct(c, {"base_proof", "sub_proof", "root", "leaf"}, [&](uint32_t f) {
          if (f == 0) read_inclusion_path(c, p.base);
          else if (f == 1) read_inclusion_path(c, p.sub);
          else if (f == 2) read_domain(c, p.root);
          else read_domain(c, p.leaf);
        });
      } else if (tag == "Top") {
        p.shape = MerkleProofShape::Top;
        read_struct(c, {"base_proof", "sub_proof", "top_proof", "root", "leaf"}, [&](uint32_t f) {
          if (f == 0) read_inclusion_path(c, p.base);
          else if (f == 1) read_inclusion_path(c, p.sub);
          else if (f == 2) read_inclusion_path(c, p.top);
          else if (f == 3) read_domain(c, p.root);
          else read_domain(c, p.leaf);
        });
      } else {
        c.fail("unknown variant \"" + std::string(tag) + "\", expected Single, Sub or Top");
      }
    });
    if (variants == 0) c.fail("empty MerkleProof data, expected one of Single, Sub or Top");
  });
}

void read_column_proof(Cursor& c, ColumnProof& cp) {
  read_struct(c, {"column", "inclusion_proof"}, [&](uint32_t f) {
    if (f == 1) return read_merkle_proof(c, cp.inclusion_proof);
    // Column's `_h` is a serialised PhantomData: always null. Tolerated when absent.
    read_struct(
        c, {"index", "rows", "_h"},
        [&](uint32_t g) {
          if (g == 0) cp.column.index = read_u32(c);
          else if (g == 1) read_domains(c, cp.column.rows);
          else c.null();
        },
        /*optional=*/1u << 2);
  });
}

void read_column_proofs(Cursor& c, std::vector<ColumnProof>& out) {
  out.clear();
  c.array([&](size_t) { read_column_proof(c, out.emplace_back()); });
}

void read_labeling_proof(Cursor& c, LabelingProof& lp) {
  read_struct(c, {"parents", "layer_index", "node"}, [&](uint32_t f) {
    if (f == 0) read_domains(c, lp.parents);
    else if (f == 1) lp.layer_index = read_u32(c);
    else lp.node = c.unsigned_int(UINT64_MAX);
  });
}

void read_stacked_proof(Cursor& c, StackedProof& p) {
  read_struct(
      c, {"comm_d_proofs", "comm_r_last_proof", "replica_column_proofs", "labeling_proofs", "encoding_proof"},
      [&](uint32_t f) {
        switch (f) {
          case 0: return read_merkle_proof(c, p.comm_d_proofs);
          case 1: return read_merkle_proof(c, p.comm_r_last_proof);
          case 2:
            read_struct(c, {"c_x", "drg_parents", "exp_parents"}, [&](uint32_t g) {
              ReplicaColumnProof& r = p.replica_column_proofs;
              if (g == 0) read_column_proof(c, r.c_x);
              else if (g == 1) read_column_proofs(c, r.drg_parents);
              else read_column_proofs(c, r.exp_parents);
            });
            return;
          case 3:
            p.labeling_proofs.clear();
            return c.array([&](size_t) { read_labeling_proof(c, p.labeling_proofs.emplace_back()); });
          default: return read_labeling_proof(c, p.encoding_proof);
        }
      });
}

// The members of both top-level forms; one pass tells them apart.
enum TopField : uint32_t {
  kRegisteredProof,
  kVanillaProofs,
  kCommR,
  kCommD,
  kReplicaId,
  kSeed,
  kTicket,  // c1
  kSectorNum,
  kPhase1Out,
  kSectorSize,  // wrapper
};
constexpr uint32_t kC1Fields = (1u << kSectorNum) - 1;
constexpr uint32_t kWrapperFields = (1u << kPhase1Out) | (1u << kSectorNum) | (1u << kSectorSize);

struct TopLevel {
  uint32_t seen = 0;
  SealCommitPhase1Output c1;
  std::string vanilla_tag;
  C1Wrapper wrapper;
  std::string phase1_b64;
};

TopLevel read_top(Cursor& c) {
  TopLevel t;
  t.seen = read_struct(
      c,
      {"registered_proof", "vanilla_proofs", "comm_r", "comm_d", "replica_id", "seed", "ticket", "SectorNum",
       "Phase1Out", "SectorSize"},
      [&](uint32_t f) {
        switch (f) {
          case kRegisteredProof: {
            std::string name = c.string();
            auto cfg = porep_config(name);
            if (!cfg) c.fail("unknown registered seal proof \"" + name + "\"");
            t.c1.registered_proof = cfg->id;
            break;
          }
          case kVanillaProofs: {
            size_t variants = 0;
            c.object([&](std::string_view tag) {
              if (variants++) c.fail("more than one variant in VanillaSealProof");
              t.vanilla_tag = tag;
              t.c1.vanilla_proofs.clear();
              c.array([&](size_t) {
                auto& partition = t.c1.vanilla_proofs.emplace_back();
                c.array([&](size_t) { read_stacked_proof(c, partition.emplace_back()); });
              });
            });
            if (variants == 0) c.fail("empty VanillaSealProof, expected a StackedDrg<size>V1 variant");
            break;
          }
          case kCommR: return read_domain(c, t.c1.comm_r);
          case kCommD: return read_domain(c, t.c1.comm_d);
          case kReplicaId: return read_domain(c, t.c1.replica_id);
          case kSeed: return read_domain(c, t.c1.seed);
          case kTicket: return read_domain(c, t.c1.ticket);
          case kSectorNum: t.wrapper.sector_num = c.signed_int(); break;
          case kPhase1Out: t.phase1_b64 = c.string(); break;
          case kSectorSize: t.wrapper.sector_size = c.unsigned_int(UINT64_MAX); break;
        }
      },
      /*optional=*/~0u);
  c.finish();
  return t;
}

// Completes a raw c1 read by read_top: every member present, and the
// vanilla tag, which carries the sector size only, agrees with registered_proof.
SealCommitPhase1Output finish_c1(TopLevel& t) {
  static constexpr std::string_view kNames[] = {"registered_proof", "vanilla_proofs", "comm_r", "comm_d",
                                                "replica_id",       "seed",           "ticket"};
  if (t.seen & kWrapperFields)
    throw C1FormatError(
        "(top level): mixes c1 members with wrapper members (SectorNum/Phase1Out/SectorSize)");
  for (uint32_t i = 0; i < 7; i++)
    if (!(t.seen & (1u << i)))
      throw C1FormatError("(top level): missing field \"" + std::string(kNames[i]) + "\"");
  auto cfg = porep_config(uint64_t(t.c1.registered_proof));
  std::string expected = "StackedDrg" + std::string(cfg->size_tag) + "V1";
  if (t.vanilla_tag != expected)
    throw C1FormatError("vanilla_proofs: variant \"" + t.vanilla_tag + "\" does not match registered_proof " +
                        std::string(cfg->name) + " (expected \"" + expected + "\")");
  return std::move(t.c1);
}

C1Wrapper finish_wrapper(TopLevel& t) {
  static constexpr std::string_view kNames[] = {"SectorNum", "Phase1Out", "SectorSize"};
  if (t.seen & kC1Fields)
    throw C1FormatError(
        "(top level): mixes wrapper members with c1 members (registered_proof, vanilla_proofs, ...)");
  for (uint32_t i = 0; i < 3; i++)
    if (!(t.seen & (1u << (kSectorNum + i))))
      throw C1FormatError("(top level): missing field \"" + std::string(kNames[i]) + "\"");
  std::vector<uint8_t> raw;
  try {
    raw = base64_decode(t.phase1_b64);
  } catch (const C1FormatError& e) {
    throw C1FormatError(std::string("Phase1Out: ") + e.what());
  }
  try {
    t.wrapper.phase1 = parse_c1(std::string_view(reinterpret_cast<const char*>(raw.data()), raw.size()));
  } catch (const C1FormatError& e) {
    throw C1FormatError(std::string("Phase1Out (decoded c1 JSON): ") + e.what());
  }
  return std::move(t.wrapper);
}

}  // namespace

SealCommitPhase1Output parse_c1(std::string_view text) {
  Cursor c(text);
  TopLevel t = read_top(c);
  return finish_c1(t);
}

C1Wrapper parse_c1_wrapper(std::string_view text) {
  Cursor c(text);
  TopLevel t = read_top(c);
  return finish_wrapper(t);
}

C1Wrapper parse_c1_any(std::string_view text) {
  Cursor c(text);
  TopLevel t = read_top(c);
  if (t.seen & kWrapperFields) return finish_wrapper(t);
  if (t.seen & kC1Fields) {
    C1Wrapper w;
    w.phase1 = finish_c1(t);
    w.sector_size = porep_config(uint64_t(w.phase1.registered_proof))->sector_size;
    return w;
  }
  throw C1FormatError(
      "(top level): neither a c1 (registered_proof, vanilla_proofs, ...) nor a wrapper "
      "(SectorNum, Phase1Out, SectorSize)");
}

C1Wrapper load_c1_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open c1 file " + path);
  std::ostringstream buf;
  buf << in.rdbuf();
  if (in.bad()) throw std::runtime_error("cannot read c1 file " + path);
  try {
    return parse_c1_any(buf.view());
  } catch (const C1FormatError& e) {
    throw C1FormatError(path + ": " + e.what());
  }
}

}  // namespace cuzk::filecoin
