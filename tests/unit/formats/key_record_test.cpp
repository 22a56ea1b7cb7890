// The record of fully checked keys (formats/key_record.hpp): a key is checked
// in full once, later reads of the same bytes skip the subgroup checks, and
// any change to the bytes (a point outside the subgroup) is checked again.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <thread>
#include <random>
#include <string>
#include <vector>

#include "circuits/cube_chain.hpp"
#include "ec/subgroup.hpp"
#include "fixtures.hpp"
#include "formats/key_record.hpp"
#include "platform/hex.hpp"
#include "groth16/io.hpp"
#include "groth16/setup.hpp"
#include "temp_dir.hpp"

using namespace cuzk;
using namespace cuzk::formats;
namespace fs = std::filesystem;

namespace {

// A fresh directory for key files and their record.
struct KeyDir : cuzk::test::TempDir {
  KeyDir() : cuzk::test::TempDir("cuzk-key-record") {}
  std::string file(const std::string& name, const std::vector<uint8_t>& bytes) const {
    std::string p = (path / name).string();
    write_binary_file(p, bytes);
    return p;
  }
  size_t records() const {
    size_t n = 0;
    if (fs::exists(path / "rec"))
      for ([[maybe_unused]] auto& e : fs::directory_iterator(path / "rec")) n++;
    return n;
  }
};

// cubic.zkey with H[1] replaced by a point on the curve outside the subgroup.
std::vector<uint8_t> zkey_with_bad_point(const std::vector<uint8_t>& good) {
  std::mt19937_64 rng(3);
  auto p = ec::random_curve_point<ec::G1Curve>(rng);
  auto b = good;
  const size_t h = test::section_offset(good, 9);
  std::memcpy(&b[h + 96], p.x.v.data(), 48);  // Montgomery form, as snarkjs writes points
  std::memcpy(&b[h + 96 + 48], p.y.v.data(), 48);
  return b;
}

}  // namespace

TEST(KeyRecord, ZkeyIsCheckedInFullOnceThenFromTheRecord) {
  KeyDir d;
  const auto good = test::load("cubic.zkey");
  const std::string path = d.file("cubic.zkey", good);
  CheckedKeys rec(d.path / "rec");
  KeyCheckDone done{};
  Zkey first = read_zkey_file_checked(path, {}, rec, &done);
  EXPECT_EQ(done, KeyCheckDone::FullNow);
  EXPECT_TRUE(rec.contains(key_digest(good)));
  EXPECT_EQ(d.records(), 1u);
  Zkey second = read_zkey_file_checked(path, {}, rec, &done);
  EXPECT_EQ(done, KeyCheckDone::FullBefore);
  ASSERT_EQ(second.h.size(), first.h.size());
  for (size_t i = 0; i < first.h.size(); i++) ASSERT_EQ(second.h[i], first.h[i]);
  EXPECT_EQ(second.vk.ic, first.vk.ic);
  // A vk-only read neither needs nor makes a record.
  KeyDir d2;
  CheckedKeys rec2(d2.path / "rec");
  read_zkey_file_checked(path, {ec::Check::Full, true}, rec2, &done);
  EXPECT_EQ(d2.records(), 0u);
}

TEST(KeyRecord, AChangedKeyIsCheckedAgainAndNeverRecordedWhenBad) {
  KeyDir d;
  const auto good = test::load("cubic.zkey");
  CheckedKeys rec(d.path / "rec");
  read_zkey_file_checked(d.file("good.zkey", good), {}, rec);
  ASSERT_EQ(d.records(), 1u);
  // Same file name, one point changed: the digest differs, the full check runs and fails.
  const std::string path = d.file("good.zkey", zkey_with_bad_point(good));
  for (int run = 0; run < 2; run++) {
    try {
      read_zkey_file_checked(path, {}, rec);
      FAIL() << "a point outside the subgroup was accepted on run " << run;
    } catch (const std::exception& e) {
      EXPECT_NE(std::string(e.what()).find("not in the prime-order subgroup"), std::string::npos) << e.what();
    }
  }
  EXPECT_EQ(d.records(), 1u);
  // --check curve accepts it (a trusted key), and records nothing.
  KeyCheckDone done{};
  EXPECT_NO_THROW(read_zkey_file_checked(path, {ec::Check::SkipSubgroup}, rec, &done));
  EXPECT_EQ(done, KeyCheckDone::CurveOnly);
  EXPECT_EQ(d.records(), 1u);
}

// The digest is taken beside a parse with the curve checks only: a key that
// fails them is parsed again with the full check, so even a record made for
// its digest (by hand, here) admits no point off the curve, and the error is
// the one the full check gives (a point outside the subgroup at H[1] comes
// before the one off the curve at H[2]).
TEST(KeyRecord, ARecordNeverAdmitsAPointOffTheCurve) {
  KeyDir d;
  auto bytes = zkey_with_bad_point(test::load("cubic.zkey"));
  const size_t h = test::section_offset(bytes, 9);
  std::memcpy(&bytes[h + 2 * 96 + 48], &bytes[h + 3 * 96 + 48], 48);  // H[2] gets H[3]'s y
  const std::string path = d.file("bad.zkey", bytes);
  CheckedKeys rec(d.path / "rec");
  ASSERT_TRUE(rec.add(key_digest(bytes)));
  auto error_of = [&](const CheckedKeys& r) -> std::string {
    try {
      read_zkey_file_checked(path, {}, r);
    } catch (const std::exception& e) {
      return e.what();
    }
    return "accepted";
  };
  const std::string with_record = error_of(rec), without = error_of(CheckedKeys(std::nullopt));
  EXPECT_NE(with_record.find("not in the prime-order subgroup"), std::string::npos) << with_record;
  EXPECT_EQ(with_record, without);
  // With --check curve the point off the curve is the error.
  try {
    read_zkey_file_checked(path, {ec::Check::SkipSubgroup}, rec);
    FAIL() << "a point off the curve was accepted";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("not on the curve"), std::string::npos) << e.what();
  }
}

// The file's stamp: a key whose file is unchanged is trusted without
// hashing; a replaced or rewritten file is hashed again (and checked in full
// when its bytes differ). settle 0 here: the files were just written.
TEST(KeyRecord, AnUnchangedFileIsTrustedByItsStamp) {
  KeyDir d;
  const auto good = test::load("cubic.zkey");
  const std::string path = d.file("k.zkey", good);
  CheckedKeys rec(d.path / "rec", 0);
  KeyCheckDone done{};
  read_zkey_file_checked(path, {}, rec, &done);
  EXPECT_EQ(done, KeyCheckDone::FullNow);
  EXPECT_EQ(d.records(), 2u);  // the digest and the file's stamp
  auto stamp = FileStamp::of(path);
  ASSERT_TRUE(stamp);
  ASSERT_TRUE(rec.digest_of(*stamp));
  EXPECT_EQ(*rec.digest_of(*stamp), key_digest(good));
  Zkey z = read_zkey_file_checked(path, {}, rec, &done);
  EXPECT_EQ(done, KeyCheckDone::FullBeforeSameFile);
  EXPECT_EQ(z.h.size(), read_zkey_file_checked(path, {ec::Check::SkipSubgroup}, rec).h.size());

  // The same bytes in a new file (written and renamed: a new inode): hashed
  // again, found by digest, and that file's stamp recorded too.
  d.file("k.zkey", good);
  EXPECT_NE(FileStamp::of(path), stamp);
  read_zkey_file_checked(path, {}, rec, &done);
  EXPECT_EQ(done, KeyCheckDone::FullBefore);
  EXPECT_EQ(d.records(), 3u);
  read_zkey_file_checked(path, {}, rec, &done);
  EXPECT_EQ(done, KeyCheckDone::FullBeforeSameFile);

  // A point replaced in place (same inode): the change time moves, so the
  // stamp no longer matches and the full check finds the point. (The
  // pause puts the write in a later kernel clock tick than the last one.)
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  {
    const auto bad = zkey_with_bad_point(good);
    std::fstream io(path, std::ios::in | std::ios::out | std::ios::binary);
    io.write(reinterpret_cast<const char*>(bad.data()), std::streamsize(bad.size()));
  }
  try {
    read_zkey_file_checked(path, {}, rec, &done);
    FAIL() << "a point replaced in place was trusted by the old stamp";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("not in the prime-order subgroup"), std::string::npos) << e.what();
  }

  // Removing a digest's record revokes the stamps that point to it.
  d.file("k2.zkey", good);
  read_zkey_file_checked((d.path / "k2.zkey").string(), {}, rec, &done);
  EXPECT_EQ(done, KeyCheckDone::FullBefore);
  fs::remove(d.path / "rec" / platform::to_hex(key_digest(good)));
  EXPECT_FALSE(rec.digest_of(*FileStamp::of((d.path / "k2.zkey").string())));
  read_zkey_file_checked((d.path / "k2.zkey").string(), {}, rec, &done);
  EXPECT_EQ(done, KeyCheckDone::FullNow);
}

// A stamp is recorded only for a file that has been unchanged for `settle`.
TEST(KeyRecord, AFreshlyWrittenFileGetsNoStamp) {
  KeyDir d;
  const std::string path = d.file("k.zkey", test::load("cubic.zkey"));
  CheckedKeys rec(d.path / "rec");  // the default settle, 2 s
  KeyCheckDone done{};
  read_zkey_file_checked(path, {}, rec, &done);
  EXPECT_EQ(d.records(), 1u);
  read_zkey_file_checked(path, {}, rec, &done);
  EXPECT_EQ(done, KeyCheckDone::FullBefore);
  EXPECT_FALSE(rec.add_stamp(*FileStamp::of(path), key_digest(test::load("cubic.zkey"))));
  EXPECT_FALSE(FileStamp::of((d.path / "missing").string()));
}

TEST(KeyRecord, DisabledRecordChecksEveryRun) {
  KeyDir d;
  const std::string path = d.file("cubic.zkey", test::load("cubic.zkey"));
  CheckedKeys none(std::nullopt);
  KeyCheckDone done{};
  for (int run = 0; run < 2; run++) {
    read_zkey_file_checked(path, {}, none, &done);
    EXPECT_EQ(done, KeyCheckDone::FullNow);
  }
  EXPECT_EQ(d.records(), 0u);
}

TEST(KeyRecord, BellpersonParamsUseTheSameRecord) {
  KeyDir d;
  std::mt19937_64 rng(8);
  circuits::CubeChain::Shape shape{16, 1, 1};
  auto params = groth16::generate_parameters(circuits::CubeChain(shape), groth16::ToxicWaste::random(rng));
  const auto bytes = groth16::encode_parameters(params);
  const std::string path = d.file("c.params", bytes);
  CheckedKeys rec(d.path / "rec");
  KeyCheckDone done{};
  auto first = read_parameters_file_checked(path, ec::Check::Full, rec, &done);
  EXPECT_EQ(done, KeyCheckDone::FullNow);
  auto second = read_parameters_file_checked(path, ec::Check::Full, rec, &done);
  EXPECT_EQ(done, KeyCheckDone::FullBefore);
  EXPECT_EQ(groth16::encode_parameters(second), bytes);
}

TEST(KeyRecord, FolderFromTheEnvironment) {
  const char* old = std::getenv("CUZK_KEY_RECORDS");
  const std::string saved = old ? old : "";
  ::setenv("CUZK_KEY_RECORDS", "off", 1);
  EXPECT_FALSE(CheckedKeys::default_dir().has_value());
  ::setenv("CUZK_KEY_RECORDS", "/some/where", 1);
  EXPECT_EQ(CheckedKeys::default_dir(), fs::path("/some/where"));
  ::unsetenv("CUZK_KEY_RECORDS");
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  const std::string saved_xdg = xdg ? xdg : "";
  ::setenv("XDG_CACHE_HOME", "/cache", 1);
  EXPECT_EQ(CheckedKeys::default_dir(), fs::path("/cache/cuzk/checked-keys"));
  if (xdg) ::setenv("XDG_CACHE_HOME", saved_xdg.c_str(), 1);
  else ::unsetenv("XDG_CACHE_HOME");
  if (old) ::setenv("CUZK_KEY_RECORDS", saved.c_str(), 1);
}

// Known answers computed with Python's hashlib (an independent SHA-256) over
// the documented hash list: 9 MiB of (31·i mod 251) makes three chunks, the
// last one short; the empty file hashes one empty chunk.
TEST(KeyRecord, DigestIsTheDocumentedHashList) {
  std::vector<uint8_t> big(size_t(9) << 20);
  for (size_t i = 0; i < big.size(); i++) big[i] = uint8_t((i * 31) % 251);
  EXPECT_EQ(platform::to_hex(key_digest(big)),
            "8cab11c3bf880b213c05161d30803f677f83a7ba511398a63db5311923193e9b");
  EXPECT_EQ(platform::to_hex(key_digest({})),
            "4cd69b575b29ba3dff4c388c7e5c814ff4d40cf2f350e347965ee0d32883922f");
  const uint8_t abc[] = {'a', 'b', 'c'};
  EXPECT_EQ(platform::to_hex(key_digest(abc)),
            "8451c5543dff21218668bc5297f33fe05b58ebe9acd690219c85596efdb869f9");
  big[(size_t(5) << 20) + 17] ^= 1;  // one bit in the second chunk
  EXPECT_NE(platform::to_hex(key_digest(big)),
            "8cab11c3bf880b213c05161d30803f677f83a7ba511398a63db5311923193e9b");
}
