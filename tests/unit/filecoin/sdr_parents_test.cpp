// SDR graph parents: domain seeds (docs/FILECOIN.md §7.1 table), the primitives
// (ChaCha20 and BLAKE2b-512 against OpenSSL, Feistel invertibility), the
// parent tables of testdata/filecoin/sdr-parents.txt, the parent-cache
// digests and cache ids of rust-fil-proofs' parent_cache.json (§7.7).
#include <gtest/gtest.h>
#include <openssl/evp.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "filecoin/sdr/chacha.hpp"
#include "filecoin/sdr/feistel.hpp"
#include "filecoin/sdr/parent_cache.hpp"
#include "filecoin/sdr/parents.hpp"
#include "platform/hex.hpp"
#include "slow.hpp"

using namespace cuzk;
using namespace cuzk::filecoin;

namespace {

PorepConfig config(uint64_t id) { return *porep_config(id); }

std::string hex(std::span<const uint8_t> b) { return platform::to_hex(b); }

// One "## ..." section of sdr-parents.txt: the porep id and node -> 14 parents.
struct ParentTable {
  std::string title;
  uint64_t proof_id = 0;
  std::map<uint64_t, std::vector<uint32_t>> rows;
};

std::vector<ParentTable> load_parent_tables() {
  const std::string path =
      std::string(CUZK_TEST_VECTORS) + "/../../../shared/testdata/filecoin/sdr-parents.txt";
  std::ifstream in(path);
  EXPECT_TRUE(in) << "cannot open " << path;
  std::vector<ParentTable> tables;
  std::string line;
  while (std::getline(in, line)) {
    if (line.starts_with("## ")) {
      auto pos = line.find("porep_id=");
      EXPECT_NE(pos, std::string::npos) << line;
      auto id = platform::from_hex(line.substr(pos + 9, 64));
      EXPECT_TRUE(id && id->size() == 32) << line;
      tables.push_back({line, (*id)[0], {}});
    } else if (!line.empty() && line[0] != '#') {
      for (char& c : line)
        if (c == '[' || c == ']' || c == ',') c = ' ';
      std::istringstream s(line);
      uint64_t node, v;
      s >> node;
      std::vector<uint32_t> parents;
      while (s >> v) parents.push_back(uint32_t(v));
      EXPECT_EQ(parents.size(), kParentCount) << line;
      EXPECT_FALSE(tables.empty());
      tables.back().rows[node] = parents;
    }
  }
  return tables;
}

}  // namespace

// §7.1 example table.
TEST(SdrSeeds, DrgSeedAndFeistelKeys) {
  EXPECT_EQ(hex(derive_drg_seed(config(5).porep_id())),
            "3be68542ec229705b99be29c2106b0e4222ccd1d0311398ea4d22d7d");
  EXPECT_EQ(derive_feistel_keys(config(5).porep_id()),
            (FeistelKeys{0x90b15b1c4509e47a, 0xdc5378c03df3f21b, 0xfa76fc24deb9d7ac, 0xcdec5e11f7b30a54}));
  EXPECT_EQ(hex(derive_drg_seed(config(8).porep_id())),
            "ba0350183955dc9f07e73503f5c63ff1bd9c22501363983de241f74a");
  EXPECT_EQ(derive_feistel_keys(config(8).porep_id()),
            (FeistelKeys{0x35a20d6c881b3e73, 0x11063648dc13a120, 0xa8c1ad029b31fcb5, 0xd299d840a5770469}));
}

// ChaCha8 with an all-zero key and nonce: the first keystream block of the
// classic reduced-round test vectors (eSTREAM / draft-strombergson TC1).
TEST(SdrPrimitives, ChaCha8RngZeroSeed) {
  ChaCha8Rng rng(std::array<uint8_t, 32>{});
  std::vector<uint8_t> block;
  for (int i = 0; i < 16; i++) {
    uint32_t w = rng.next_u32();
    for (int b = 0; b < 4; b++) block.push_back(uint8_t(w >> (8 * b)));
  }
  EXPECT_EQ(hex(block),
            "3e00ef2f895f40d67f5bb8e81f09a5a12c840ec3ce9a7f3b181be188ef711a1e"
            "984ce172b9216f419f445367456d5619314a42a3da86b001387bfdb80e0cfe42");
  // gen::<u64>() = lo | hi << 32 of consecutive words.
  EXPECT_EQ(ChaCha8Rng(std::array<uint8_t, 32>{}).next_u64(), 0xd6405f892fef003eull);
}

// Our ChaCha20 against OpenSSL's (16-byte IV = counter_le32 ‖ nonce), at
// block-aligned and unaligned offsets.
TEST(SdrPrimitives, ChaCha20MatchesOpenSsl) {
  std::mt19937_64 rng(7);
  std::array<uint8_t, 32> key;
  std::array<uint8_t, 12> nonce;
  for (auto& b : key) b = uint8_t(rng());
  for (auto& b : nonce) b = uint8_t(rng());
  std::vector<uint8_t> ref(64 * 9), zeros(ref.size(), 0);
  uint8_t iv[16] = {0};
  std::copy(nonce.begin(), nonce.end(), iv + 4);
  EVP_CIPHER_CTX* ctx = EVP_CIPHER_CTX_new();
  ASSERT_EQ(EVP_EncryptInit_ex(ctx, EVP_chacha20(), nullptr, key.data(), iv), 1);
  int len = 0;
  ASSERT_EQ(EVP_EncryptUpdate(ctx, ref.data(), &len, zeros.data(), int(zeros.size())), 1);
  EVP_CIPHER_CTX_free(ctx);
  for (uint64_t off : {0, 1, 63, 64, 100, 200}) {
    std::vector<uint8_t> mine(ref.size() - off);
    chacha20_ietf_keystream(key, nonce, off, mine);
    EXPECT_TRUE(std::equal(mine.begin(), mine.end(), ref.begin() + off)) << off;
  }
  std::vector<uint8_t> two(2);
  EXPECT_THROW(chacha20_ietf_keystream(key, nonce, (uint64_t(1) << 38) - 1, two), std::invalid_argument);
}

TEST(SdrPrimitives, Blake2bMatchesOpenSsl) {
  std::mt19937_64 rng(11);
  for (size_t n : {0, 1, 16, 17, 64, 127, 128}) {
    std::vector<uint8_t> msg(n);
    for (auto& b : msg) b = uint8_t(rng());
    uint8_t ref[64];
    unsigned len = 0;
    ASSERT_EQ(EVP_Digest(msg.data(), msg.size(), ref, &len, EVP_blake2b512(), nullptr), 1);
    auto mine = blake2b512_short(msg);
    EXPECT_TRUE(std::equal(mine.begin(), mine.end(), ref)) << n;
  }
  std::vector<uint8_t> big(129);
  EXPECT_THROW(blake2b512_short(big), std::invalid_argument);
}

// permute is a bijection of [0, N) and invert undoes it (N not a power of 4).
TEST(SdrPrimitives, FeistelIsAPermutation) {
  for (uint64_t n : {7u, 64u * 8, 1000u}) {
    Feistel f(n, derive_feistel_keys(config(5).porep_id()));
    std::vector<bool> seen(n);
    for (uint64_t i = 0; i < n; i++) {
      uint64_t p = f.permute(i);
      ASSERT_LT(p, n);
      EXPECT_FALSE(seen[p]) << n << " " << i;
      seen[p] = true;
      EXPECT_EQ(f.invert(p), i);
    }
    EXPECT_THROW(f.permute(n), std::out_of_range);
  }
}

// Every row of sdr-parents.txt: full 2KiB tables (ids 0, 5) and sample
// nodes of 8MiB, 32GiB and 64GiB computed one node at a time.
TEST(SdrParents, TestdataTables) {
  auto tables = load_parent_tables();
  ASSERT_EQ(tables.size(), 5u);
  size_t checked = 0;
  for (const auto& t : tables) {
    SdrGraph g(config(t.proof_id));
    for (const auto& [node, want] : t.rows) {
      std::vector<uint32_t> got(kParentCount);
      g.parents(node, got.data());
      EXPECT_EQ(got, want) << t.title << " node " << node;
      checked++;
    }
  }
  EXPECT_EQ(checked, 64u * 2 + 9 * 3);
}

// §7.7 worked example.
TEST(SdrParents, Node57Example) {
  SdrGraph g(config(5));
  uint32_t p[kParentCount];
  g.parents(57, p);
  EXPECT_EQ(std::vector<uint32_t>(p, p + 14),
            (std::vector<uint32_t>{56, 56, 48, 50, 42, 55, 46, 41, 13, 46, 44, 31, 3, 15}));
}

TEST(SdrParents, BadInput) {
  SdrGraph g(config(5));
  uint32_t p[kParentCount];
  EXPECT_THROW(g.parents(64, p), std::out_of_range);
  EXPECT_THROW(SdrGraph(1, config(5).porep_id(), ApiVersion::V1_1_0), std::invalid_argument);
  EXPECT_THROW(SdrGraph((uint64_t(1) << 32) + 1, config(5).porep_id(), ApiVersion::V1_1_0),
               std::invalid_argument);
}

// The full cache ids (file stems) of rust-fil-proofs parent_cache.json for
// all 10 registered v1 / v1.1 graphs (the §7.7 table shows their ends).
TEST(SdrParentCache, CacheIds) {
  const std::pair<uint64_t, const char*> ids[] = {
      {0, "3f0eef38bb48af1f48ad65e14eb85b4ebfc167cec18cd81764f6d998836c9899"},
      {5, "494d91dc80f2df5272c4b9e129bc7ade9405225993af9fe34e6542a39a47554b"},
      {1, "dcdabb0fbe4364bf0ac28b6a18c66de246409fa1a9020a00f33fb3e3053da6dc"},
      {6, "5eed212119fd91aa6220a27f31a8966444a9381842bceb3a1ea61525bd47a5b5"},
      {2, "2aa9c77c3e58259481351cc4be2079cc71e1c9af39700866545c043bfa30fb42"},
      {7, "7ba215a1d2345774ab90b8cb1158d296e409d6068819d7b8c7baf0b25d63dc34"},
      {3, "e1fa5d5b811ddbd118be3412c4a8c329156b8b8acc72632bca459455b5a05a13"},
      {8, "21981246c370f9d76c7a77ab273d94bde0ceb4e938292334960bce05585dc117"},
      {4, "8a99e8d6b6be7ab87a56b632e6739ff201c23ea14e99737c74690f0e265574d6"},
      {9, "4905486b7af19558ac3649bc6261411858b6add534438878c4ee3b29d8b9de0b"},
  };
  for (auto [id, stem] : ids) {
    SdrGraph g(config(id));
    EXPECT_EQ(g.parent_cache_id(), std::string("v28-sdr-parent-") + stem) << id;
    EXPECT_EQ(g.parent_cache_file_name(), std::string("v28-sdr-parent-") + stem + ".cache");
  }
}

TEST(SdrParentCache, Digest2KiB) {
  for (auto [id, digest] : {std::pair<uint64_t, const char*>{
                                0, "3da49221e2ed55371b86d0bf3d6526fcf128af61bed904f966428db1b531750d"},
                            {5, "840057702eea7652cf97e04306c30fe57174714d90de156a25eddd6075c25b97"}}) {
    auto cache = ParentCache::build(SdrGraph(config(id)));
    EXPECT_EQ(cache.nodes(), 64u);
    EXPECT_EQ(hex(cache.digest()), digest) << id;
  }
}

TEST(SdrParentCache, Digest8MiB) {
  for (auto [id, digest] : {std::pair<uint64_t, const char*>{
                                1, "a76604f2f59f2744c7151653bbb1d8596b6b57d295e6fa6c1f0c41d725b502ce"},
                            {6, "03cd13565ded97c240a5f52e54295ad127bd0461b57904cb3a4d79b097bbecab"}}) {
    SdrGraph g(config(id));
    auto cache = ParentCache::build(g);
    EXPECT_EQ(hex(cache.digest()), digest) << id;
    // Spot-check that rows equal single-node computation.
    uint32_t p[kParentCount];
    g.parents(123456, p);
    EXPECT_TRUE(std::equal(p, p + kParentCount, cache.parents(123456)));
  }
}

TEST(SdrParentCache, FileRoundTrip) {
  SdrGraph g(config(5));
  auto cache = ParentCache::build(g, 1);
  auto dir = std::filesystem::temp_directory_path() / ("cuzk-sdr-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  auto path = dir / g.parent_cache_file_name();
  cache.write(path);
  EXPECT_EQ(std::filesystem::file_size(path), 64u * 56);
  auto back = ParentCache::read(path, 64);
  EXPECT_EQ(hex(back.digest()), hex(cache.digest()));
  EXPECT_THROW(ParentCache::read(path, 128), std::runtime_error);
  EXPECT_THROW(ParentCache::read(dir / "missing.cache", 64), std::runtime_error);
  std::filesystem::remove_all(dir);
}

// 512 MiB: a 940 MB table and ~10^9 BLAKE2b calls; CUZK_SLOW_TESTS=1 only.
TEST(SdrParentCache, Digest512MiBSlow) {
  CUZK_SLOW_TEST("a 940 MB table");
  for (auto [id, digest] : {std::pair<uint64_t, const char*>{
                                2, "3adcc092423aa76d6a7184016893406da44dd974b219a89cd3ece25e4e3018f5"},
                            {7, "b5877d1963793efebc261fd8fde4dd6bc59e6b5c7abf52617a4ee023b8dc173a"}}) {
    auto cache = ParentCache::build(SdrGraph(config(id)));
    EXPECT_EQ(hex(cache.digest()), digest) << id;
  }
}
