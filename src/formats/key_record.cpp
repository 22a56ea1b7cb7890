#include "formats/key_record.hpp"

#include <tbb/parallel_for.h>
#include <tbb/parallel_invoke.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <system_error>
#include <vector>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "groth16/io.hpp"
#include "platform/digest.hpp"
#include "platform/hex.hpp"
#include "platform/mapped_file.hpp"

namespace cuzk::formats {

namespace fs = std::filesystem;

KeyDigest key_digest(std::span<const uint8_t> bytes) {
  // A hash list: the chunks' digests are taken in parallel (one thread
  // hashes about 1 GB/s, 58 ms for a 58 MB zkey, which made it the longest
  // part of reading a recorded key), then hashed in order after a tag and
  // the length.
  constexpr size_t kChunk = size_t(4) << 20;
  const size_t n = std::max<size_t>(1, (bytes.size() + kChunk - 1) / kChunk);
  std::vector<KeyDigest> parts(n);
  tbb::parallel_for(size_t(0), n, [&](size_t i) {
    const size_t lo = i * kChunk;
    parts[i] = platform::sha256(bytes.subspan(lo, std::min(kChunk, bytes.size() - lo)));
  });
  std::vector<uint8_t> list(kDigestTag.begin(), kDigestTag.end());
  for (int i = 0; i < 8; i++) list.push_back(uint8_t(uint64_t(bytes.size()) >> (8 * i)));
  for (const KeyDigest& d : parts) list.insert(list.end(), d.begin(), d.end());
  return platform::sha256(list);
}

std::optional<fs::path> CheckedKeys::default_dir() {
  if (const char* e = std::getenv("CUZK_KEY_RECORDS"); e && *e) {
    if (std::string_view(e) == "off") return std::nullopt;
    return fs::path(e);
  }
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return fs::path(x) / "cuzk" / "checked-keys";
  if (const char* h = std::getenv("HOME"); h && *h) return fs::path(h) / ".cache" / "cuzk" / "checked-keys";
  return std::nullopt;
}

bool CheckedKeys::contains(const KeyDigest& d) const {
  std::error_code err;
  return dir_ && fs::is_regular_file(*dir_ / platform::to_hex(d), err);
}

bool CheckedKeys::write_record(const fs::path& file, const std::string& text) const {
  std::error_code err;
  fs::create_directories(file.parent_path(), err);
  if (err) return false;
  // Written under a temporary name and renamed: a record exists whole or not at all.
  const fs::path tmp = file.string() + ".tmp" + std::to_string(::getpid());
  { std::ofstream(tmp) << text; }
  fs::rename(tmp, file, err);
  if (!err) return true;
  fs::remove(tmp, err);
  return false;
}

bool CheckedKeys::add(const KeyDigest& d) const {
  return dir_ && write_record(*dir_ / platform::to_hex(d),
                              "every point on the curve and in the prime-order subgroup\n");
}

std::optional<FileStamp> FileStamp::of(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
  auto ns = [](const timespec& t) { return int64_t(t.tv_sec) * 1'000'000'000 + t.tv_nsec; };
  return FileStamp{uint64_t(st.st_dev), uint64_t(st.st_ino), uint64_t(st.st_size), ns(st.st_mtim),
                   ns(st.st_ctim)};
}

namespace {

// A stamp's record file: its fields in the name, the digest inside.
std::string stamp_name(const FileStamp& s) {
  return "file-" + std::to_string(s.dev) + "-" + std::to_string(s.ino) + "-" + std::to_string(s.size) + "-" +
         std::to_string(s.mtime_ns) + "-" + std::to_string(s.ctime_ns);
}

}  // namespace

std::optional<KeyDigest> CheckedKeys::digest_of(const FileStamp& s) const {
  if (!dir_) return std::nullopt;
  std::ifstream in(*dir_ / stamp_name(s));
  std::string hex;
  if (!(in >> hex)) return std::nullopt;
  auto bytes = platform::from_hex(hex);
  if (!bytes || bytes->size() != KeyDigest{}.size()) return std::nullopt;
  KeyDigest d{};
  std::copy(bytes->begin(), bytes->end(), d.begin());
  if (!contains(d)) return std::nullopt;
  return d;
}

bool CheckedKeys::add_stamp(const FileStamp& s, const KeyDigest& d) const {
  if (!dir_) return false;
  timespec now{};
  clock_gettime(CLOCK_REALTIME, &now);
  const int64_t now_ns = int64_t(now.tv_sec) * 1'000'000'000 + now.tv_nsec;
  if (now_ns - std::max(s.mtime_ns, s.ctime_ns) < settle_ns_) return false;
  return write_record(*dir_ / stamp_name(s), platform::to_hex(d) + "\n");
}

const char* key_check_text(KeyCheckDone d) {
  switch (d) {
    case KeyCheckDone::CurveOnly: return "on-curve checks only";
    case KeyCheckDone::FullNow: return "every point checked (curve and subgroup), recorded";
    case KeyCheckDone::FullBefore:
      return "checked in full on an earlier run (same digest); on-curve checks now";
    case KeyCheckDone::FullBeforeSameFile:
      return "checked in full on an earlier run (same file, unchanged since); on-curve checks now";
  }
  return "?";
}

namespace {

// Maps `path`, picks the check from the record, parses, records.
template <class Parse>
auto read_checked(const std::string& path, ec::Check check, const CheckedKeys& record, KeyCheckDone* done,
                  bool populate, const Parse& parse) {
  // The stamp before mapping and after: a file replaced or written in
  // between matches no record.
  const std::optional<FileStamp> stamp =
      check == ec::Check::Full && record.enabled() ? FileStamp::of(path) : std::nullopt;
  // Shared: a parse may keep views of the mapping (a zkey's points).
  const auto f =
      std::make_shared<const platform::MappedFile>(path, platform::MapOptions{.populate = populate});
  const std::span<const uint8_t> bytes = f->bytes();
  if (check != ec::Check::Full || !record.enabled()) {
    if (done) *done = check == ec::Check::Full ? KeyCheckDone::FullNow : KeyCheckDone::CurveOnly;
    return parse(f, check);
  }
  if (stamp && stamp == FileStamp::of(path) && record.digest_of(*stamp)) {
    // The curve checks still run; a key that fails them is parsed again in
    // full below, so its error is the full check's.
    try {
      auto out = parse(f, ec::Check::SkipSubgroup);
      if (done) *done = KeyCheckDone::FullBeforeSameFile;
      return out;
    } catch (const std::exception&) {
    }
  }
  // The digest (chunks in parallel) is taken beside a parse with the curve
  // checks, which a key on record needs anyway; a key not on record is parsed again with
  // the full check (the subgroup checks cost far more than that parse), as
  // is one that fails the curve checks, so its error names the same point
  // as before.
  KeyDigest d{};
  std::optional<decltype(parse(f, check))> curve_checked;
  tbb::parallel_invoke([&] { d = key_digest(bytes); },
                       [&] {
                         try {
                           curve_checked.emplace(parse(f, ec::Check::SkipSubgroup));
                         } catch (const std::exception&) {
                         }
                       });
  // The stamp is recorded only for the bytes that were hashed: the file's
  // stamp after the hash must still be the one taken before the mapping.
  auto record_stamp = [&] {
    if (stamp && stamp == FileStamp::of(path)) record.add_stamp(*stamp, d);
  };
  if (curve_checked && record.contains(d)) {
    record_stamp();
    if (done) *done = KeyCheckDone::FullBefore;
    return std::move(*curve_checked);
  }
  curve_checked.reset();
  auto out = parse(f, ec::Check::Full);  // throws for a bad point: nothing recorded
  if (record.add(d)) record_stamp();
  if (done) *done = KeyCheckDone::FullNow;
  return out;
}

}  // namespace

Zkey read_zkey_file_checked(const std::string& path, ZkeyReadOptions o, const CheckedKeys& record,
                            KeyCheckDone* done) {
  // A vk-only read checks a few points, so it neither uses nor makes a
  // record of the whole file; pipes cannot be mapped and hashed first.
  std::error_code err;
  if (o.vk_only || !fs::is_regular_file(path, err)) {
    if (done) *done = o.check == ec::Check::Full ? KeyCheckDone::FullNow : KeyCheckDone::CurveOnly;
    return read_zkey_file(path, o);
  }
  using File = std::shared_ptr<const platform::MappedFile>;
  return read_checked(path, o.check, record, done, !o.vk_only, [&](const File& f, ec::Check c) {
    ZkeyReadOptions oc = o;
    oc.check = c;
    return parse_zkey_in_place(f, f->bytes(), path, oc);
  });
}

groth16::Parameters read_parameters_file_checked(const std::string& path, ec::Check check,
                                                 const CheckedKeys& record, KeyCheckDone* done) {
  return read_checked(path, check, record, done, false,
                      [&](const std::shared_ptr<const platform::MappedFile>& f, ec::Check c) {
                        return groth16::decode_parameters(f->bytes(), path, c);
                      });
}

}  // namespace cuzk::formats
