#include "formats/key_record.hpp"

#include <openssl/evp.h>
#include <tbb/parallel_invoke.h>

#include <cstdlib>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <system_error>
#include <unistd.h>

#include "groth16/io.hpp"
#include "platform/hex.hpp"
#include "platform/mapped_file.hpp"

namespace cuzk::formats {

namespace fs = std::filesystem;

KeyDigest key_digest(std::span<const uint8_t> bytes) {
  KeyDigest d{};
  unsigned len = 0;
  if (EVP_Digest(bytes.data(), bytes.size(), d.data(), &len, EVP_sha256(), nullptr) != 1 || len != d.size())
    throw std::runtime_error("SHA-256 of a key file failed");
  return d;
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

bool CheckedKeys::add(const KeyDigest& d) const {
  if (!dir_) return false;
  std::error_code err;
  fs::create_directories(*dir_, err);
  if (err) return false;
  // Written under a temporary name and renamed: a record exists whole or not at all.
  const fs::path file = *dir_ / platform::to_hex(d);
  const fs::path tmp = file.string() + ".tmp" + std::to_string(::getpid());
  { std::ofstream(tmp) << "every point on the curve and in the prime-order subgroup\n"; }
  fs::rename(tmp, file, err);
  if (!err) return true;
  fs::remove(tmp, err);
  return false;
}

const char* key_check_text(KeyCheckDone d) {
  switch (d) {
    case KeyCheckDone::CurveOnly: return "on-curve checks only";
    case KeyCheckDone::FullNow: return "every point checked (curve and subgroup), recorded";
    case KeyCheckDone::FullBefore:
      return "checked in full on an earlier run (same SHA-256); on-curve checks now";
  }
  return "?";
}

namespace {

// Maps `path`, picks the check from the record, parses, records.
template <class Parse>
auto read_checked(const std::string& path, ec::Check check, const CheckedKeys& record, KeyCheckDone* done,
                  bool populate, const Parse& parse) {
  const platform::MappedFile f(path, populate);
  if (check != ec::Check::Full || !record.enabled()) {
    if (done) *done = check == ec::Check::Full ? KeyCheckDone::FullNow : KeyCheckDone::CurveOnly;
    return parse(f.bytes(), check);
  }
  // The digest (one thread: SHA-256 runs at about 1.7 GB/s here, 35 ms for
  // a 58 MB zkey) is taken beside a parse with the curve checks, which a
  // key on record needs anyway; a key not on record is parsed again with
  // the full check (the subgroup checks cost far more than that parse), as
  // is one that fails the curve checks, so its error names the same point
  // as before.
  KeyDigest d{};
  std::optional<decltype(parse(f.bytes(), check))> curve_checked;
  tbb::parallel_invoke([&] { d = key_digest(f.bytes()); },
                       [&] {
                         try {
                           curve_checked.emplace(parse(f.bytes(), ec::Check::SkipSubgroup));
                         } catch (const std::exception&) {
                         }
                       });
  if (curve_checked && record.contains(d)) {
    if (done) *done = KeyCheckDone::FullBefore;
    return std::move(*curve_checked);
  }
  curve_checked.reset();
  auto out = parse(f.bytes(), ec::Check::Full);  // throws for a bad point: nothing recorded
  record.add(d);
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
  return read_checked(path, o.check, record, done, !o.vk_only, [&](std::span<const uint8_t> b, ec::Check c) {
    ZkeyReadOptions oc = o;
    oc.check = c;
    return parse_zkey(b, path, oc);
  });
}

groth16::Parameters read_parameters_file_checked(const std::string& path, ec::Check check,
                                                 const CheckedKeys& record, KeyCheckDone* done) {
  return read_checked(path, check, record, done, false, [&](std::span<const uint8_t> b, ec::Check c) {
    return groth16::decode_parameters(b, path, c);
  });
}

}  // namespace cuzk::formats
