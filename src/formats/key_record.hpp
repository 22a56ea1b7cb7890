#pragma once
// Key checks that do not cost a proof: a record of the key files (.zkey,
// .params) whose every point passed the full check (on the curve and in the
// prime-order subgroup), keyed by a digest of the file's bytes. The first
// run with a key pays the subgroup checks; later runs with the same bytes
// hash the file (about 1 GB/s per thread) and check the curve equation
// only. A changed byte changes the digest, so an altered key is checked in
// full again.
//
// Hashing costs more than reading the key once the record exists (6-9 ms
// of a 95 ms proof at 2^13 constraints), so the record also remembers the
// file itself: its FileStamp (device, inode, size, modification and change
// times in ns) maps to the digest taken of it. A later read whose stamp
// matches, before and after the file is mapped, trusts that digest without
// hashing. Any write to the file moves its change time (ctime), which no
// user can set back; a stamp is recorded only once the file has been
// unchanged for `settle` (2 s), so a write in the same clock tick as the
// check cannot go unseen on a file system with coarse timestamps.
//
// Records: one file per digest (named by its hex; a line of text inside)
// and one per file stamp ("file-DEV-INODE-SIZE-MTIME-CTIME", holding the
// digest's hex) in $CUZK_KEY_RECORDS, else
// $XDG_CACHE_HOME/cuzk/checked-keys, else $HOME/.cache/cuzk/checked-keys.
// Whoever can write there can vouch for a key, as whoever can replace the
// cuzk binary could; CUZK_KEY_RECORDS=off disables the record.
#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "ec/encoding.hpp"
#include "formats/zkey.hpp"
#include "groth16/params.hpp"

namespace cuzk::formats {

using KeyDigest = std::array<uint8_t, 32>;
// SHA-256 of (kDigestTag, the length as u64 little-endian, the SHA-256 of
// each 4 MiB chunk in order): a hash list, so the chunks hash in parallel.
// (Records made before the tag existed, by a plain SHA-256, no longer match:
// such a key is checked in full once more.)
inline constexpr std::string_view kDigestTag = "cuzk key digest v2: sha256 of 4 MiB chunks\n";
KeyDigest key_digest(std::span<const uint8_t> bytes);

// What stat says about a file, enough to tell that its bytes have not been
// written since.
struct FileStamp {
  uint64_t dev = 0, ino = 0, size = 0;
  int64_t mtime_ns = 0, ctime_ns = 0;
  static std::optional<FileStamp> of(const std::string& path);  // nullopt: no such regular file
  bool operator==(const FileStamp&) const = default;
};

class CheckedKeys {
 public:
  // The folder from the environment (see above); nullopt when disabled or
  // no home is known.
  static std::optional<std::filesystem::path> default_dir();
  static constexpr int64_t kSettleNs = 2'000'000'000;
  explicit CheckedKeys(std::optional<std::filesystem::path> dir = default_dir(),
                       int64_t settle_ns = kSettleNs)
      : dir_(std::move(dir)), settle_ns_(settle_ns) {}

  bool enabled() const { return dir_.has_value(); }
  bool contains(const KeyDigest& d) const;
  // Best effort: a record that cannot be written only costs a full check
  // next time. Returns whether it was written.
  bool add(const KeyDigest& d) const;
  // The digest recorded for a file with this stamp, if that digest is
  // itself on record (removing a digest's record revokes its stamps too).
  std::optional<KeyDigest> digest_of(const FileStamp& s) const;
  // Records the file's stamp for digest d, unless the file changed less
  // than settle_ns ago. Returns whether it was written.
  bool add_stamp(const FileStamp& s, const KeyDigest& d) const;

 private:
  bool write_record(const std::filesystem::path& file, const std::string& text) const;
  std::optional<std::filesystem::path> dir_;
  int64_t settle_ns_;
};

// How a key was checked by the readers below.
// FullBefore: the digest was on record; SameFile: the file's stamp was (no hashing).
enum class KeyCheckDone { CurveOnly, FullNow, FullBefore, FullBeforeSameFile };
const char* key_check_text(KeyCheckDone d);

// read_zkey_file / read_parameters_file with the record: for Check::Full, a
// recorded digest means Check::SkipSubgroup; an unrecorded key is checked in
// full and recorded once it passes. Other checks pass through unchanged.
// The digest is taken over the same mapped bytes that are parsed.
Zkey read_zkey_file_checked(const std::string& path, ZkeyReadOptions o, const CheckedKeys& record,
                            KeyCheckDone* done = nullptr);
groth16::Parameters read_parameters_file_checked(const std::string& path, ec::Check check,
                                                 const CheckedKeys& record, KeyCheckDone* done = nullptr);

}  // namespace cuzk::formats
