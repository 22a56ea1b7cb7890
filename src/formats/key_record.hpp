#pragma once
// Key checks that do not cost a proof: a record of the key files (.zkey,
// .params) whose every point passed the full check (on the curve and in the
// prime-order subgroup), keyed by a digest of the file's bytes. The first
// run with a key pays the subgroup checks; later runs with the same bytes
// hash the file (about 1 GB/s per thread) and check the curve equation
// only. A changed byte changes the digest, so an altered key is checked in
// full again.
//
// Records: one empty file per digest in $CUZK_KEY_RECORDS, else
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

class CheckedKeys {
 public:
  // The folder from the environment (see above); nullopt when disabled or
  // no home is known.
  static std::optional<std::filesystem::path> default_dir();
  explicit CheckedKeys(std::optional<std::filesystem::path> dir = default_dir()) : dir_(std::move(dir)) {}

  bool enabled() const { return dir_.has_value(); }
  bool contains(const KeyDigest& d) const;
  // Best effort: a record that cannot be written only costs a full check
  // next time. Returns whether it was written.
  bool add(const KeyDigest& d) const;

 private:
  std::optional<std::filesystem::path> dir_;
};

// How a key was checked by the readers below.
enum class KeyCheckDone { CurveOnly, FullNow, FullBefore };
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
