// c1.json reader/writer, the Curio wrapper and validation (docs/FILECOIN.md §6).
// No real c1.json is published in the upstream repositories (Curio's
// round-trip test seals a sector at test time), so the byte-exact checks are
// against JSON written out here by hand from the serde rules, and the
// geometry against the §2.1 table (not against registered_proof's numbers).
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>

#include <unistd.h>

#include "filecoin/hash/poseidon.hpp"
#include "filecoin/porep/c1_json.hpp"

using namespace cuzk;
using namespace cuzk::filecoin;

namespace {

// Tree R/C geometry from docs/FILECOIN.md §2.1, written out independently.
struct Geometry {
  MerkleProofShape shape;
  size_t base_levels, sub_arity, top_arity;
};
constexpr Geometry k2KiB{MerkleProofShape::Single, 2, 0, 0};  // 2^6 nodes, 8-0-0
constexpr Geometry k32GiB{MerkleProofShape::Sub, 9, 8, 0};    // 8 trees of 2^27, 8-8-0
constexpr Geometry k64GiB{MerkleProofShape::Top, 9, 8, 2};    // 16 trees of 2^27, 8-8-2

Fr fr(const Domain& d) { return *Fr::from_bytes_le(d); }
Domain dom(const Fr& f) {
  Domain d;
  f.to_bytes_le(d);
  return d;
}

// Builds a c1 that is consistent in every way validate_c1 checks, from a seed.
struct Builder {
  PorepConfig cfg;
  Geometry geo;
  std::mt19937_64 rng;
  Domain comm_c, comm_r_last;

  Builder(RegisteredSealProof id, Geometry g, uint64_t seed)
      : cfg(*porep_config(uint64_t(id))), geo(g), rng(seed) {}

  Domain random_domain() {  // < 2^254, so a canonical Fr
    Domain d;
    for (size_t i = 0; i < 32; i += 8) {
      uint64_t v = rng();
      for (size_t k = 0; k < 8; k++) d[i + k] = uint8_t(v >> (8 * k));
    }
    d[31] &= 0x3f;
    return d;
  }
  // A path whose indices spell `leaf` in mixed radix: levels × arity, then sub, then top.
  std::vector<MerklePathElement> path(uint64_t& leaf, size_t levels, size_t arity) {
    std::vector<MerklePathElement> p(levels);
    for (auto& e : p) {
      for (size_t j = 0; j + 1 < arity; j++) e.hashes.push_back(random_domain());
      e.index = leaf % arity;
      leaf /= arity;
    }
    return p;
  }
  MerkleProof tree_rc_proof(uint64_t leaf, const Domain& value, const Domain& root) {
    MerkleProof p;
    p.shape = geo.shape;
    p.leaf = value;
    p.root = root;
    p.base = path(leaf, geo.base_levels, 8);
    if (geo.sub_arity) p.sub = path(leaf, 1, geo.sub_arity);
    if (geo.top_arity) p.top = path(leaf, 1, geo.top_arity);
    return p;
  }
  ColumnProof column(uint32_t index) {
    ColumnProof cp;
    cp.column.index = index;
    std::vector<Fr> rows;
    for (size_t l = 0; l < cfg.layers; l++) {
      cp.column.rows.push_back(random_domain());
      rows.push_back(fr(cp.column.rows.back()));
    }
    cp.inclusion_proof = tree_rc_proof(index, dom(poseidon_hash(rows)), comm_c);
    return cp;
  }
  StackedProof proof(const Domain& comm_d, uint64_t challenge) {
    StackedProof p;
    ReplicaColumnProof& r = p.replica_column_proofs;
    r.c_x = column(uint32_t(challenge));
    for (int i = 0; i < 6; i++) r.drg_parents.push_back(column(uint32_t(rng() % challenge)));
    for (int i = 0; i < 8; i++) r.exp_parents.push_back(column(uint32_t(rng() % cfg.nodes)));
    p.comm_d_proofs.shape = MerkleProofShape::Single;
    p.comm_d_proofs.root = comm_d;
    p.comm_d_proofs.leaf = random_domain();
    uint64_t leaf = challenge;
    p.comm_d_proofs.base = path(leaf, cfg.tree_d_depth(), 2);
    Fr replica = fr(r.c_x.column.rows.back()) + fr(p.comm_d_proofs.leaf);
    p.comm_r_last_proof = tree_rc_proof(challenge, dom(replica), comm_r_last);
    for (uint32_t l = 1; l <= cfg.layers; l++) {
      // docs/FILECOIN.md §6: layer 1 is P×6 ‖ P[0]; later layers P ‖ P ‖ P[0..9].
      std::vector<Domain> P;
      for (auto& c : r.drg_parents) P.push_back(c.column.rows[l - 1]);
      if (l > 1)
        for (auto& c : r.exp_parents) P.push_back(c.column.rows[l - 2]);
      LabelingProof lp;
      lp.layer_index = l;
      lp.node = challenge;
      while (lp.parents.size() < 37) lp.parents.push_back(P[lp.parents.size() % P.size()]);
      p.labeling_proofs.push_back(lp);
    }
    p.encoding_proof = p.labeling_proofs.back();
    return p;
  }
  SealCommitPhase1Output build() {
    SealCommitPhase1Output c1;
    c1.registered_proof = cfg.id;
    comm_c = random_domain();
    comm_r_last = random_domain();
    Fr pre[2] = {fr(comm_c), fr(comm_r_last)};
    c1.comm_r = dom(poseidon_hash(pre));
    c1.comm_d = random_domain();
    c1.replica_id = random_domain();
    c1.seed = random_domain();
    c1.ticket = random_domain();
    c1.vanilla_proofs.resize(cfg.partitions);
    for (auto& part : c1.vanilla_proofs)
      for (size_t i = 0; i < cfg.challenges_per_partition; i++)
        part.push_back(proof(c1.comm_d, 1 + rng() % (cfg.nodes - 1)));
    return c1;
  }
};

SealCommitPhase1Output make_2k(uint64_t seed = 1) {
  return Builder(RegisteredSealProof::StackedDrg2KiBV1_1, k2KiB, seed).build();
}

// The error message of f(), which must throw E.
template <class E, class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  } catch (const std::exception& e) {
    return std::string("wrong exception type: ") + e.what();
  }
  return "no exception";
}
std::string parse_error(const std::string& json) {
  return error_of<C1FormatError>([&] { parse_c1(json); });
}
std::string validate_error(const SealCommitPhase1Output& c1) {
  return error_of<C1ValidationError>([&] { validate_c1(c1); });
}
#define EXPECT_HAS(haystack, needle) EXPECT_NE((haystack).find(needle), std::string::npos) << (haystack)

std::string replace_once(std::string s, const std::string& from, const std::string& to) {
  size_t at = s.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) s.replace(at, from.size(), to);
  return s;
}

// "[v,v,...,v]": a 32-byte domain of equal bytes as serde writes it.
std::string arr(int v) {
  std::string s = "[";
  for (int i = 0; i < 32; i++) {
    if (i) s += ',';
    s += std::to_string(v);
  }
  return s + "]";
}
Domain filled(uint8_t v) {
  Domain d;
  d.fill(v);
  return d;
}

}  // namespace

// A 2KiB c1 with the §2.1 shape (1 partition × 2 challenges, 2 layers, TreeD
// depth 6, TreeR/C 8-0-0 with 2 levels) validates and round-trips byte for byte.
TEST(C1Json, RoundTrip2KiBByteExact) {
  SealCommitPhase1Output c1 = make_2k();
  ASSERT_NO_THROW(validate_c1(c1));
  std::string json = write_c1(c1);
  EXPECT_EQ(
      json.rfind("{\"registered_proof\":\"StackedDrg2KiBV1_1\",\"vanilla_proofs\":{\"StackedDrg2KiBV1\":[[{"
                 "\"comm_d_proofs\":{\"data\":{\"Single\":{\"root\":[",
                 0),
      0u);
  EXPECT_EQ(json.find_first_of(" \n\t\r"), std::string::npos);
  SealCommitPhase1Output back = parse_c1(json);
  EXPECT_EQ(write_c1(back), json);
  ASSERT_EQ(back.vanilla_proofs.size(), 1u);
  ASSERT_EQ(back.vanilla_proofs[0].size(), 2u);
  EXPECT_EQ(back.comm_r, c1.comm_r);
  EXPECT_EQ(back.vanilla_proofs[0][1].replica_column_proofs.exp_parents[7].inclusion_proof.base[1].hashes[6],
            c1.vanilla_proofs[0][1].replica_column_proofs.exp_parents[7].inclusion_proof.base[1].hashes[6]);
  EXPECT_NO_THROW(validate_c1(back));
}

// The exact bytes of a small (not validly shaped) object, written out by hand
// from the serde rules: declaration order, externally tagged enums, "_h":null
// for Column only, no whitespace. The same content pretty-printed, reordered,
// with an unknown member and an escaped key parses back to those bytes.
TEST(C1Json, HandWrittenSnippetExactBytes) {
  SealCommitPhase1Output c1;
  c1.registered_proof = RegisteredSealProof::StackedDrg32GiBV1_1_Feat_SyntheticPoRep;
  c1.comm_r = filled(1), c1.comm_d = filled(2), c1.replica_id = filled(3), c1.seed = filled(0),
  c1.ticket = filled(255);
  StackedProof p;
  p.comm_d_proofs.shape = MerkleProofShape::Single;
  p.comm_d_proofs.root = filled(10), p.comm_d_proofs.leaf = filled(11);
  p.comm_d_proofs.base = {{{filled(12)}, 1}};
  p.comm_r_last_proof.shape = MerkleProofShape::Sub;
  p.comm_r_last_proof.root = filled(20), p.comm_r_last_proof.leaf = filled(21);
  p.comm_r_last_proof.base = {{{filled(22), filled(23)}, 7}};
  p.comm_r_last_proof.sub = {{{}, 0}};
  ColumnProof cp;
  cp.column.index = 4294967295u;
  cp.column.rows = {filled(30)};
  cp.inclusion_proof.shape = MerkleProofShape::Top;
  cp.inclusion_proof.root = filled(31), cp.inclusion_proof.leaf = filled(32);
  cp.inclusion_proof.base = {{{}, 2}}, cp.inclusion_proof.sub = {{{}, 3}},
  cp.inclusion_proof.top = {{{}, 18446744073709551615u}};
  p.replica_column_proofs.c_x = cp;
  p.replica_column_proofs.exp_parents = {cp};
  p.labeling_proofs = {{{filled(40)}, 1, 1234567890123ull}};
  p.encoding_proof = {{}, 11, 0};
  c1.vanilla_proofs = {{p}, {}};

  const std::string col =
      "{\"column\":{\"index\":4294967295,\"rows\":[" + arr(30) +
      "],\"_h\":null},\"inclusion_proof\":{\"data\":{\"Top\":{\"base_proof\":{\"path\":[{\"hashes\":[]"
      ",\"index\":2}]},\"sub_proof\":{\"path\":[{\"hashes\":[],\"index\":3}]},\"top_proof\":{\"path\":"
      "[{\"hashes\":[],\"index\":18446744073709551615}]},\"root\":" +
      arr(31) + ",\"leaf\":" + arr(32) + "}}}}";
  const std::string want =
      "{\"registered_proof\":\"StackedDrg32GiBV1_1_Feat_SyntheticPoRep\",\"vanilla_proofs\":{"
      "\"StackedDrg32GiBV1\":[[{"
      "\"comm_d_proofs\":{\"data\":{\"Single\":{\"root\":" +
      arr(10) + ",\"leaf\":" + arr(11) + ",\"path\":{\"path\":[{\"hashes\":[" + arr(12) +
      "],\"index\":1}]}}}},\"comm_r_last_proof\":{\"data\":{\"Sub\":{"
      "\"base_proof\":{\"path\":[{\"hashes\":[" +
      arr(22) + "," + arr(23) +
      "],\"index\":7}]},\"sub_proof\":{\"path\":[{"
      "\"hashes\":[],\"index\":0}]},\"root\":" +
      arr(20) + ",\"leaf\":" + arr(21) +
      "}}},\"replica_column_proofs\":{"
      "\"c_x\":" +
      col + ",\"drg_parents\":[],\"exp_parents\":[" + col + "]},\"labeling_proofs\":[{\"parents\":[" +
      arr(40) +
      "],\"layer_index\":1,\"node\":1234567890123}],\"encoding_proof\":{\"parents\":[],\"layer_index\":11,"
      "\"node\":0}}],[]]},\"comm_r\":" +
      arr(1) + ",\"comm_d\":" + arr(2) + ",\"replica_id\":" + arr(3) + ",\"seed\":" + arr(0) +
      ",\"ticket\":" + arr(255) + "}";
  EXPECT_EQ(write_c1(c1), want);
  EXPECT_EQ(write_c1(parse_c1(want)), want);

  // Same object, other layout: members reordered, whitespace, "_h" absent,
  // an unknown member of every JSON type, a key spelled with \u escapes.
  std::string loose = want;
  loose =
      replace_once(loose, "{\"registered_proof\":\"StackedDrg32GiBV1_1_Feat_SyntheticPoRep\",",
                   "{\n  \"ticket\" : " + arr(255) +
                       ",\n  \"x\": {\"a\": [1.5e3, -0, true, false, null, \"s\\\"\"]},"
                       "\n  \"registered\\u005fproof\": \"StackedDrg32GiBV1_1_Feat_SyntheticPoRep\",\r\n\t");
  loose = replace_once(loose, ",\"ticket\":" + arr(255) + "}", " }\n");
  loose = replace_once(loose, "\"rows\":[" + arr(30) + "],\"_h\":null}",
                       "\"_h\" : null , \"rows\" : [ " + arr(30) + " ] }");
  loose = replace_once(loose, "\"_h\":null}", "\"rows\":[" + arr(30) + "]}");  // the exp parent: drop "_h"
  loose = replace_once(loose, "\"rows\":[" + arr(30) + "],\"rows\":", "\"rows\":");
  EXPECT_EQ(write_c1(parse_c1(loose)), want);
}

// Wrapper: Go's field order and padded base64; both forms through
// parse_c1_any and load_c1_file.
TEST(C1Json, WrapperRoundTrip) {
  C1Wrapper w;
  w.sector_num = 42;
  w.sector_size = 2048;
  w.phase1 = make_2k(7);
  std::string inner = write_c1(w.phase1);
  std::string json = write_c1_wrapper(w);
  const std::string head = "{\"SectorNum\":42,\"Phase1Out\":\"", tail = "\",\"SectorSize\":2048}";
  ASSERT_EQ(json.rfind(head, 0), 0u);
  ASSERT_EQ(json.substr(json.size() - tail.size()), tail);
  std::string b64 = json.substr(head.size(), json.size() - head.size() - tail.size());
  EXPECT_EQ(b64.size(), (inner.size() + 2) / 3 * 4);
  std::vector<uint8_t> decoded = base64_decode(b64);
  EXPECT_EQ(std::string(decoded.begin(), decoded.end()), inner);

  C1Wrapper back = parse_c1_wrapper(json);
  EXPECT_EQ(back.sector_num, 42);
  EXPECT_EQ(back.sector_size, 2048u);
  EXPECT_EQ(write_c1_wrapper(back), json);
  EXPECT_NO_THROW(validate_c1_wrapper(back));

  // Negative sector numbers (Go int64) and whitespace-broken base64 are read.
  std::string neg = replace_once(json, "\"SectorNum\":42", "\"SectorNum\" : -9223372036854775808");
  neg = replace_once(neg, b64.substr(0, 8), b64.substr(0, 4) + "\\n" + b64.substr(4, 4));
  EXPECT_EQ(parse_c1_wrapper(neg).sector_num, INT64_MIN);

  C1Wrapper any = parse_c1_any(json);
  EXPECT_EQ(any.sector_num, 42);
  C1Wrapper raw = parse_c1_any(inner);
  EXPECT_EQ(raw.sector_num, 0);
  EXPECT_EQ(raw.sector_size, 2048u);
  EXPECT_EQ(write_c1(raw.phase1), inner);

  auto dir = std::filesystem::temp_directory_path();
  std::string fw = (dir / ("c1_wrap_" + std::to_string(::getpid()) + ".json")).string();
  std::string fr = (dir / ("c1_raw_" + std::to_string(::getpid()) + ".json")).string();
  std::ofstream(fw, std::ios::binary) << json;
  std::ofstream(fr, std::ios::binary) << inner << "\n";
  EXPECT_EQ(write_c1_wrapper(load_c1_file(fw)), json);
  EXPECT_EQ(load_c1_file(fr).sector_size, 2048u);
  std::ofstream(fr, std::ios::binary) << inner.substr(0, inner.size() / 2);
  std::string err = error_of<C1FormatError>([&] { load_c1_file(fr); });
  EXPECT_HAS(err, fr);
  EXPECT_HAS(err, "unexpected end of input");
  std::remove(fw.c_str());
  std::remove(fr.c_str());
  EXPECT_THROW(load_c1_file(fr), std::runtime_error);

  // Wrapper-level errors.
  EXPECT_HAS(error_of<C1FormatError>([&] { parse_c1_wrapper(replace_once(json, b64.substr(0, 4), "!AAA")); }),
             "Phase1Out: invalid base64 character");
  EXPECT_HAS(
      error_of<C1FormatError>([&] { parse_c1_wrapper(replace_once(json, ",\"SectorSize\":2048", "")); }),
      "missing field \"SectorSize\"");
  EXPECT_HAS(error_of<C1FormatError>([&] { parse_c1_any("{\"SectorNum\":1,\"comm_r\":" + arr(0) + "}"); }),
             "mixes");
  EXPECT_HAS(error_of<C1FormatError>([&] { parse_c1_any("{}"); }), "neither a c1");
  C1Wrapper wrong = back;
  wrong.sector_size = 4096;
  EXPECT_EQ(error_of<C1ValidationError>([&] { validate_c1_wrapper(wrong); }),
            "SectorSize: 4096 does not match StackedDrg2KiBV1_1 (2048)");
  std::string inner_err = error_of<C1FormatError>([&] {
    std::string broken = replace_once(inner, "\"layer_index\":1,", "");
    parse_c1_wrapper(head + base64_encode({(const uint8_t*)broken.data(), broken.size()}) + tail);
  });
  EXPECT_HAS(inner_err,
             "Phase1Out (decoded c1 JSON): vanilla_proofs.StackedDrg2KiBV1[0][0].labeling_proofs[0]: "
             "missing field \"layer_index\"");
}

// RFC 4648 §10 test vectors, padding and whitespace handling.
TEST(C1Json, Base64) {
  const std::pair<std::string, std::string> v[] = {{"", ""},
                                                   {"f", "Zg=="},
                                                   {"fo", "Zm8="},
                                                   {"foo", "Zm9v"},
                                                   {"foob", "Zm9vYg=="},
                                                   {"fooba", "Zm9vYmE="},
                                                   {"foobar", "Zm9vYmFy"}};
  for (auto& [plain, enc] : v) {
    EXPECT_EQ(base64_encode({(const uint8_t*)plain.data(), plain.size()}), enc);
    auto dec = base64_decode(enc);
    EXPECT_EQ(std::string(dec.begin(), dec.end()), plain);
    std::string unpadded = enc.substr(0, enc.find('='));
    dec = base64_decode(unpadded);
    EXPECT_EQ(std::string(dec.begin(), dec.end()), plain) << unpadded;
  }
  std::vector<uint8_t> all(256);
  for (int i = 0; i < 256; i++) all[i] = uint8_t(i);
  std::string enc = base64_encode(all);
  EXPECT_EQ(enc.substr(0, 8), "AAECAwQF");
  EXPECT_EQ(base64_decode(enc), all);
  EXPECT_EQ(base64_decode(" Zm9v\r\nYmFy \n"), base64_decode("Zm9vYmFy"));
  EXPECT_HAS(error_of<C1FormatError>([] { base64_decode("Zm9vY"); }), "dangling");
  EXPECT_HAS(error_of<C1FormatError>([] { base64_decode("Zm9v-mFy"); }),
             "invalid base64 character at offset 4");
  EXPECT_HAS(error_of<C1FormatError>([] { base64_decode("Zg==Zg=="); }), "after '=' padding");
  EXPECT_HAS(error_of<C1FormatError>([] { base64_decode("Zg="); }), "padding");
  EXPECT_HAS(error_of<C1FormatError>([] { base64_decode("Zm9v="); }), "padding");
}

// Every kind of malformed JSON gives a C1FormatError naming the place.
TEST(C1Json, MalformedInputMessages) {
  const std::string json = write_c1(make_2k());
  const std::string P = "vanilla_proofs.StackedDrg2KiBV1[0][0]";
  // Truncation anywhere: a clean error, never a crash or a silent success.
  for (size_t cut : {size_t(0), size_t(1), size_t(20), json.size() / 3, json.size() / 2, json.size() - 1})
    EXPECT_HAS(parse_error(json.substr(0, cut)), "unexpected end of input");
  EXPECT_EQ(parse_error(""), "(top level): unexpected end of input, expected an object (at byte 0)");
  EXPECT_HAS(parse_error(json + "x"), "trailing characters");

  EXPECT_HAS(parse_error(replace_once(json, "\"layer_index\":1,", "")),
             P + ".labeling_proofs[0]: missing field \"layer_index\"");
  EXPECT_HAS(parse_error(replace_once(json, ",\"ticket\":", ",\"tickets\":")),
             "(top level): missing field \"ticket\"");
  EXPECT_HAS(parse_error(replace_once(json, "\"rows\":[[", "\"rows\":[[256,")),
             P + ".replica_column_proofs.c_x.column.rows[0][0]: value 256 out of range 0..255");
  EXPECT_HAS(parse_error(replace_once(json, "\"rows\":[[", "\"rows\":[[-1,")),
             P + ".replica_column_proofs.c_x.column.rows[0][0]: value out of byte range");
  EXPECT_HAS(parse_error(replace_once(json, "\"rows\":[[", "\"rows\":[[1,")),
             P + ".replica_column_proofs.c_x.column.rows[0]: expected 32 bytes, got 33");
  std::string comm_d = "\"comm_d\":[";
  std::string short_d = json.substr(0, json.find(comm_d) + comm_d.size()) +
                        json.substr(json.find(',', json.find(comm_d) + comm_d.size()) + 1);
  EXPECT_HAS(parse_error(short_d), "comm_d: expected 32 bytes, got 31");
  EXPECT_HAS(
      parse_error(replace_once(json, "\"StackedDrg2KiBV1\":[", "\"StackedDrg32GiBV1\":[")),
      "vanilla_proofs: variant \"StackedDrg32GiBV1\" does not match registered_proof StackedDrg2KiBV1_1 "
      "(expected \"StackedDrg2KiBV1\")");
  EXPECT_HAS(parse_error(replace_once(json, "StackedDrg2KiBV1_1", "StackedDrg2KiBV9")),
             "registered_proof: unknown registered seal proof \"StackedDrg2KiBV9\"");
  EXPECT_HAS(parse_error(replace_once(json, "{\"Single\":", "{\"Double\":")),
             P + ".comm_d_proofs.data.Double: unknown variant \"Double\", expected Single, Sub or Top");
  EXPECT_HAS(parse_error(replace_once(json, "\"layer_index\":1,", "\"layer_index\":\"1\",")),
             P + ".labeling_proofs[0].layer_index: expected a non-negative integer, got '\"'");
  EXPECT_HAS(parse_error(replace_once(json, "\"layer_index\":1,", "\"layer_index\":1.0,")),
             "fractional or exponent");
  EXPECT_HAS(parse_error(replace_once(json, "\"layer_index\":1,", "\"layer_index\":4294967296,")),
             "value 4294967296 out of range 0..4294967295");
  EXPECT_HAS(parse_error(replace_once(json, "\"layer_index\":1,", "\"layer_index\":01,")), "leading zero");
  EXPECT_HAS(parse_error(replace_once(json, "\"layer_index\":1,", "\"layer_index\":1,\"layer_index\":1,")),
             "duplicate field \"layer_index\"");
  EXPECT_HAS(parse_error(replace_once(json, "\"_h\":null", "\"_h\":0")), "column._h: expected null");
  EXPECT_HAS(parse_error(replace_once(json, "\"labeling_proofs\":[", "\"labeling_proofs\":{")),
             P + ".labeling_proofs: expected an array, got '{'");
  EXPECT_HAS(parse_error(replace_once(json, "\"labeling_proofs\":[", "\"labeling_proofs\"[")),
             "expected ':'");
  EXPECT_HAS(parse_error("[]"), "(top level): expected an object, got '['");
}

// validate_c1 finds each shape error and names its path.
TEST(C1Json, ValidationMessages) {
  const SealCommitPhase1Output good = make_2k(3);
  const std::string P = "vanilla_proofs[0][1]";
  auto with = [&](auto&& mutate) {
    SealCommitPhase1Output c = good;
    mutate(c);
    return validate_error(c);
  };
  auto proof01 = [](SealCommitPhase1Output& c) -> StackedProof& { return c.vanilla_proofs[0][1]; };

  EXPECT_EQ(with([](auto& c) { c.vanilla_proofs.push_back(c.vanilla_proofs[0]); }),
            "vanilla_proofs: expected 1 partitions, got 2");
  EXPECT_EQ(with([](auto& c) { c.vanilla_proofs[0].pop_back(); }),
            "vanilla_proofs[0]: expected 2 challenges, got 1");
  EXPECT_EQ(with([&](auto& c) {
              auto& ip = proof01(c).replica_column_proofs.drg_parents[3].inclusion_proof;
              ip.base.push_back(ip.base.back());
            }),
            P + ".replica_column_proofs.drg_parents[3].inclusion_proof: expected 2 path levels, got 3");
  EXPECT_EQ(with([&](auto& c) { proof01(c).comm_d_proofs.base.pop_back(); }),
            P + ".comm_d_proofs: expected 6 path levels, got 5");
  EXPECT_EQ(with([&](auto& c) { proof01(c).comm_r_last_proof.base[1].hashes.pop_back(); }),
            P + ".comm_r_last_proof.path[1]: expected 7 hashes (arity 8), got 6");
  EXPECT_EQ(with([&](auto& c) { proof01(c).comm_d_proofs.base[0].index = 2; }),
            P + ".comm_d_proofs.path[0].index: 2 is not below the arity 2");
  EXPECT_EQ(with([&](auto& c) {
              auto& m = proof01(c).comm_r_last_proof;
              m.shape = MerkleProofShape::Sub;
              m.sub = {m.base.back()};
            }),
            P + ".comm_r_last_proof: expected a Single proof for TreeR, got Sub");
  EXPECT_EQ(with([&](auto& c) { proof01(c).replica_column_proofs.exp_parents[2].column.rows.pop_back(); }),
            P + ".replica_column_proofs.exp_parents[2].column.rows: expected 2 rows (layers), got 1");
  EXPECT_EQ(with([&](auto& c) { proof01(c).replica_column_proofs.drg_parents.pop_back(); }),
            P + ".replica_column_proofs.drg_parents: expected 6 columns, got 5");
  EXPECT_EQ(with([&](auto& c) { proof01(c).replica_column_proofs.exp_parents.push_back({}); }),
            P + ".replica_column_proofs.exp_parents: expected 8 columns, got 9");
  EXPECT_EQ(with([&](auto& c) { proof01(c).labeling_proofs.pop_back(); }),
            P + ".labeling_proofs: expected 2 proofs (layers), got 1");
  EXPECT_EQ(with([&](auto& c) { proof01(c).labeling_proofs[1].parents.pop_back(); }),
            P + ".labeling_proofs[1].parents: expected 37 parents, got 36");
  EXPECT_EQ(with([&](auto& c) { proof01(c).labeling_proofs[1].parents[15][0] ^= 1; }),
            P + ".labeling_proofs[1].parents[15]: is not the label of drg_parents[1] at layer 2");
  EXPECT_EQ(with([&](auto& c) { proof01(c).labeling_proofs[1].parents[20][0] ^= 1; }),
            P + ".labeling_proofs[1].parents[20]: is not the label of exp_parents[0] at layer 1");
  EXPECT_EQ(with([&](auto& c) { proof01(c).labeling_proofs[0].parents[36][0] ^= 1; }),
            P + ".labeling_proofs[0].parents[36]: is not the label of drg_parents[0] at layer 1");
  EXPECT_EQ(with([&](auto& c) { proof01(c).labeling_proofs[1].parents[10][0] ^= 1; }),
            P + ".labeling_proofs[1].parents[10]: is not the label of exp_parents[4] at layer 1");
  EXPECT_EQ(with([&](auto& c) { proof01(c).labeling_proofs[0].layer_index = 0; }),
            P + ".labeling_proofs[0].layer_index: expected 1, got 0");
  EXPECT_HAS(with([&](auto& c) { proof01(c).encoding_proof.node++; }),
             P + ".encoding_proof.node: expected the challenge");
  EXPECT_EQ(with([&](auto& c) { proof01(c).comm_d_proofs.root[0] ^= 1; }),
            P + ".comm_d_proofs.root: is not comm_d");
  EXPECT_EQ(
      with([&](auto& c) { proof01(c).comm_r_last_proof.root[0] ^= 1; }),
      P + ".comm_r_last_proof.root: differs from vanilla_proofs[0][0].comm_r_last_proof.root (all share "
          "comm_r_last)");
  EXPECT_EQ(with([&](auto& c) { proof01(c).comm_r_last_proof.leaf[0] ^= 1; }),
            P + ".comm_r_last_proof.leaf: is not the last layer's label plus the data leaf");
  EXPECT_EQ(with([&](auto& c) { proof01(c).replica_column_proofs.c_x.inclusion_proof.leaf[0] ^= 1; }),
            P + ".replica_column_proofs.c_x.inclusion_proof.leaf: is not the Poseidon hash of the column");
  EXPECT_EQ(with([&](auto& c) { proof01(c).replica_column_proofs.c_x.column.rows[0][31] = 0xff; }),
            P + ".replica_column_proofs.c_x.column.rows[0]: not a canonical field element");
  EXPECT_HAS(with([&](auto& c) { proof01(c).comm_d_proofs.base[0].index ^= 1; }),
             P + ".comm_d_proofs: path indices give leaf");
  EXPECT_EQ(with([](auto& c) { c.comm_r[0] ^= 1; }),
            "comm_r: is not Poseidon2(comm_c, comm_r_last) of the proofs' roots");
  auto cfg32 = *porep_config(uint64_t(RegisteredSealProof::StackedDrg32GiBV1_1));
  EXPECT_EQ(error_of<C1ValidationError>([&] { validate_c1(good, cfg32); }),
            "registered_proof: StackedDrg2KiBV1_1 does not match the expected StackedDrg32GiBV1_1");
  // The untouched object passes, also against its own config passed explicitly.
  EXPECT_NO_THROW(validate_c1(good, *porep_config(uint64_t(RegisteredSealProof::StackedDrg2KiBV1_1))));
}

// Production shapes: 32GiB (Sub proofs, 10 × 18 challenges, 11 layers) and
// 64GiB (Top proofs) round-trip byte for byte and validate.
TEST(C1Json, RoundTrip32GiBAnd64GiBShapes) {
  for (auto [id, geo] : {std::pair{RegisteredSealProof::StackedDrg32GiBV1_1, k32GiB},
                         std::pair{RegisteredSealProof::StackedDrg64GiBV1_1_Feat_SyntheticPoRep, k64GiB}}) {
    auto t0 = std::chrono::steady_clock::now();
    SealCommitPhase1Output c1 = Builder(id, geo, 11).build();
    auto t1 = std::chrono::steady_clock::now();
    std::string json = write_c1(c1);
    auto t2 = std::chrono::steady_clock::now();
    SealCommitPhase1Output back = parse_c1(json);
    auto t3 = std::chrono::steady_clock::now();
    validate_c1(back);
    auto t4 = std::chrono::steady_clock::now();
    EXPECT_EQ(write_c1(back), json);
    const auto& m = back.vanilla_proofs[9][17].replica_column_proofs.exp_parents[7].inclusion_proof;
    EXPECT_EQ(m.shape, geo.shape);
    EXPECT_EQ(m.base.size(), 9u);
    EXPECT_EQ(m.sub.size(), 1u);
    EXPECT_EQ(m.top.size(), geo.top_arity ? 1u : 0u);
    EXPECT_HAS(json, geo.top_arity ? "\"StackedDrg64GiBV1\":[[{" : "\"StackedDrg32GiBV1\":[[{");
    auto ms = [](auto a, auto b) { return std::chrono::duration<double, std::milli>(b - a).count(); };
    std::printf("  %s: %.1f MB JSON; build %.0f ms, write %.0f ms, parse %.0f ms, validate %.0f ms\n",
                std::string(porep_config(uint64_t(id))->name).c_str(), json.size() / 1e6, ms(t0, t1),
                ms(t1, t2), ms(t2, t3), ms(t3, t4));
    // A wrong sub level is reported with the compound path names.
    back.vanilla_proofs[3][4].replica_column_proofs.c_x.inclusion_proof.sub[0].hashes.pop_back();
    EXPECT_EQ(validate_error(back),
              "vanilla_proofs[3][4].replica_column_proofs.c_x.inclusion_proof.sub_proof.path[0]: "
              "expected 7 hashes (arity 8), got 6");
  }
}

// Hostile input: random byte edits and cuts of a valid c1 either parse (and
// then validate or throw C1ValidationError) or throw C1FormatError; nothing
// else escapes and nothing crashes.
TEST(C1Json, MutatedInputOnlyThrowsFormatErrors) {
  const std::string json = write_c1(make_2k(5));
  std::mt19937_64 rng(99);
  const char alphabet[] = "0123456789[]{},:\"-.eE \\nulltrue";
  size_t parsed = 0, rejected = 0;
  for (int iter = 0; iter < 600; iter++) {
    std::string m = json;
    int edits = 1 + int(rng() % 3);
    for (int e = 0; e < edits; e++) {
      size_t at = rng() % m.size();
      switch (rng() % 3) {
        case 0: m[at] = alphabet[rng() % (sizeof alphabet - 1)]; break;
        case 1: m.erase(at, 1 + rng() % 8); break;
        default: m.insert(at, 1, alphabet[rng() % (sizeof alphabet - 1)]); break;
      }
    }
    if (iter % 5 == 0) m.resize(rng() % m.size());
    try {
      SealCommitPhase1Output c1 = parse_c1(m);
      parsed++;
      try {
        validate_c1(c1);
      } catch (const C1ValidationError&) {
      }
    } catch (const C1ValidationError& e) {
      ADD_FAILURE() << "validation error escaped parse: " << e.what();
    } catch (const C1FormatError&) {
      rejected++;
    }
  }
  EXPECT_GT(rejected, 400u);
  std::printf("  %zu mutants parsed, %zu rejected\n", parsed, rejected);
}
