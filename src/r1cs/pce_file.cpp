#include "r1cs/pce_file.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <vector>

#include "platform/digest.hpp"
#include "r1cs/pce_format.hpp"
#include "platform/mapped_file.hpp"

#include <oneapi/tbb/parallel_for.h>

namespace cuzk::r1cs {

namespace {

using pce_format::kFrBytes;
using pce_format::kMagic;
using pce_format::kVersion;

using File = std::unique_ptr<FILE, int (*)(FILE*)>;

class Writer {
 public:
  Writer(FILE* f, const std::string& path) : f_(f), path_(path) {}
  void bytes(const void* p, size_t n) {
    if (n && std::fwrite(p, 1, n, f_) != n)
      throw std::runtime_error(path_ + ": write failed: " + std::strerror(errno));
    sha_.update(p, n);
  }
  void u32(uint32_t v) { bytes(&v, 4); }
  void u64(uint64_t v) { bytes(&v, 8); }
  void trailer() {
    const PceDigest d = sha_.finish();
    if (std::fwrite(d.data(), 1, d.size(), f_) != d.size())
      throw std::runtime_error(path_ + ": write failed: " + std::strerror(errno));
  }

 private:
  FILE* f_;
  const std::string& path_;
  platform::Sha256 sha_;
};

void write_array(Writer& w, std::span<const uint32_t> v) { w.bytes(v.data(), v.size() * sizeof(uint32_t)); }

// A mapped file's bytes read in order, for the checks of read_pce_file.
class MappedCursor {
 public:
  MappedCursor(std::span<const uint8_t> b, const std::string& path) : b_(b), path_(path) {}
  [[noreturn]] void corrupt(const std::string& why) const {
    throw PceFileError(PceFileError::Kind::Corrupt, path_ + ": corrupt pre-compiled circuit: " + why);
  }
  const uint8_t* take(uint64_t n) {
    if (n > b_.size() - at_) corrupt("truncated");
    const uint8_t* p = b_.data() + at_;
    at_ += n;
    return p;
  }
  uint32_t u32() {
    uint32_t v;
    std::memcpy(&v, take(4), 4);
    return v;
  }
  uint64_t u64() {
    uint64_t v;
    std::memcpy(&v, take(8), 8);
    return v;
  }
  // A count of `elem`-byte items that must fit in what is left of the file.
  uint64_t count(uint64_t elem, const char* what) {
    const uint64_t n = u64();
    if (n > (b_.size() - at_) / elem)
      corrupt(std::string(what) + " count " + std::to_string(n) + " exceeds the file");
    return n;
  }
  std::span<const uint32_t> u32s(uint64_t n) {
    return {reinterpret_cast<const uint32_t*>(take(n * 4)), size_t(n)};  // 4-aligned: every field before is
  }
  uint64_t offset() const { return at_; }

 private:
  std::span<const uint8_t> b_;
  const std::string& path_;
  uint64_t at_ = 0;
};

// One matrix of a mapped file, its arrays viewed in place; every offset,
// column and coefficient index checked (in parallel: 722 M terms for the
// 32 GiB PoRep).
PackedCsr map_matrix(MappedCursor& r, uint64_t rows, uint64_t columns, const char* name,
                     const std::shared_ptr<const platform::MappedFile>& file) {
  const uint64_t nnz = r.count(8, "term"), table_len = r.count(kFrBytes, "coefficient");
  if (table_len < 2) r.corrupt(std::string(name) + ": coefficient table shorter than 2");
  if (rows + 1 > (uint64_t(1) << 62) / 4) r.corrupt("row count out of range");
  const auto row_ptr = r.u32s(rows + 1), col = r.u32s(nnz), coeff = r.u32s(nnz);
  std::vector<Fr> table(table_len);
  for (auto& x : table) {
    auto v = Fr::from_bytes_le(std::span<const uint8_t, kFrBytes>(r.take(kFrBytes), kFrBytes));
    if (!v) r.corrupt(std::string(name) + ": coefficient not canonical");
    x = *v;
  }
  if (table[0] != Fr::one() || table[1] != -Fr::one())
    r.corrupt(std::string(name) + ": table must start with 1, -1");
  if (row_ptr[0] != 0 || row_ptr[rows] != nnz)
    r.corrupt(std::string(name) + ": row offsets do not span the terms");
  // First bad index of each kind, or UINT64_MAX.
  std::atomic<uint64_t> bad_row{UINT64_MAX}, bad_col{UINT64_MAX}, bad_coeff{UINT64_MAX};
  const auto lower = [](std::atomic<uint64_t>& a, uint64_t v) {
    for (uint64_t cur = a.load(); v < cur && !a.compare_exchange_weak(cur, v);) {
    }
  };
  tbb::parallel_for(tbb::blocked_range<uint64_t>(0, rows, 1 << 20), [&](const auto& rg) {
    for (uint64_t i = rg.begin(); i < rg.end(); i++)
      if (row_ptr[i] > row_ptr[i + 1]) return lower(bad_row, i);
  });
  tbb::parallel_for(tbb::blocked_range<uint64_t>(0, nnz, 1 << 20), [&](const auto& rg) {
    uint32_t max_col = 0, max_coeff = 0;
    for (uint64_t k = rg.begin(); k < rg.end(); k++) {
      max_col = std::max(max_col, col[k]);
      max_coeff = std::max(max_coeff, coeff[k]);
    }
    if (max_col >= columns || max_coeff >= table_len)  // find the term (rare: a corrupt file)
      for (uint64_t k = rg.begin(); k < rg.end(); k++) {
        if (col[k] >= columns) lower(bad_col, k);
        if (coeff[k] >= table_len) lower(bad_coeff, k);
      }
  });
  if (bad_row != UINT64_MAX)
    r.corrupt(std::string(name) + ": row offsets decrease at row " + std::to_string(bad_row.load()));
  if (bad_col != UINT64_MAX)
    r.corrupt(std::string(name) + ": column out of range at term " + std::to_string(bad_col.load()));
  if (bad_coeff != UINT64_MAX)
    r.corrupt(std::string(name) + ": coefficient index out of range at term " +
              std::to_string(bad_coeff.load()));
  return PackedCsr(row_ptr, col, coeff, std::move(table), file);
}

}  // namespace

uint64_t pce_file_bytes(const PrecompiledCircuit& pce) {
  uint64_t n = pce_format::header_bytes(pce.parts().size()) + pce_format::kTrailerBytes;
  for (const PackedCsr* m : {&pce.a(), &pce.b(), &pce.c()})
    n += pce_format::matrix_bytes(m->rows(), m->nnz(), m->table.size());
  return n;
}

void write_pce_file(const std::string& path, const PrecompiledCircuit& pce, const PceDigest& circuit_digest) {
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  {
    File f(std::fopen(tmp.c_str(), "wb"), std::fclose);
    if (!f) throw std::runtime_error(tmp + ": cannot create: " + std::strerror(errno));
    Writer w(f.get(), tmp);
    pce_format::Bytes head;
    pce_format::put_header(head, circuit_digest, pce.num_inputs(), pce.num_aux(), pce.num_constraints(),
                           pce.parts());
    w.bytes(head.data().data(), head.data().size());
    for (const PackedCsr* m : {&pce.a(), &pce.b(), &pce.c()}) {
      w.u64(m->nnz());
      w.u64(m->table.size());
      write_array(w, m->row_ptr);
      write_array(w, m->col);
      write_array(w, m->coeff);
      pce_format::Bytes table;
      pce_format::put_table(table, m->table);
      w.bytes(table.data().data(), table.data().size());
    }
    w.trailer();
    if (std::fflush(f.get()) != 0) throw std::runtime_error(tmp + ": write failed: " + std::strerror(errno));
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::filesystem::remove(tmp);
    throw std::runtime_error(path + ": cannot rename into place: " + ec.message());
  }
}

bool pce_file_is_current(const std::string& path, const PceDigest& expected) {
  File f(std::fopen(path.c_str(), "rb"), std::fclose);
  uint8_t head[sizeof kMagic + 8 + 32];
  if (!f || std::fread(head, 1, sizeof head, f.get()) != sizeof head) return false;
  uint32_t version;
  std::memcpy(&version, head + sizeof kMagic, 4);
  return std::memcmp(head, kMagic, sizeof kMagic) == 0 && version == kVersion &&
         std::memcmp(head + sizeof kMagic + 8, expected.data(), expected.size()) == 0;
}

PrecompiledCircuit read_pce_file(const std::string& path, const PceDigest& expected) {
  std::shared_ptr<const platform::MappedFile> file;
  {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec))
      throw PceFileError(PceFileError::Kind::Missing, path + ": " + (ec ? ec.message() : "no such file"));
    try {
      file = std::make_shared<const platform::MappedFile>(path, platform::MapOptions{.huge_pages = true});
    } catch (const std::exception& e) {
      throw PceFileError(PceFileError::Kind::Missing, path + ": " + e.what());
    }
  }
  const std::span<const uint8_t> all = file->bytes();
  MappedCursor r(all, path);
  if (std::memcmp(r.take(sizeof kMagic), kMagic, sizeof kMagic) != 0) r.corrupt("not a .pce file");
  const uint32_t version = r.u32();
  r.u32();
  PceDigest digest;
  std::memcpy(digest.data(), r.take(digest.size()), digest.size());
  if (version != kVersion)
    throw PceFileError(PceFileError::Kind::Stale, path + ": format version " + std::to_string(version) +
                                                      ", this build reads " + std::to_string(kVersion));
  if (digest != expected)
    throw PceFileError(PceFileError::Kind::Stale,
                       path + ": recorded from other circuit code (digest differs)");
  // The checksum before anything else is believed (SHA-256 reads the whole
  // file once, which also brings its pages in).
  if (all.size() < r.offset() + 32) r.corrupt("truncated");
  {
    platform::Sha256 sha;
    const size_t body = all.size() - 32;
    for (size_t at = 0; at < body; at += size_t(64) << 20)
      sha.update(all.data() + at, std::min(body - at, size_t(64) << 20));
    if (std::memcmp(sha.finish().data(), all.data() + body, 32) != 0) r.corrupt("checksum mismatch");
  }
  const uint64_t num_inputs = r.u64(), num_aux = r.u64(), rows = r.count(4, "row");
  if (num_inputs == 0 || num_inputs + num_aux >= (uint64_t(1) << 32))
    r.corrupt("variable counts out of range");
  std::vector<SynthesisCounts> parts(r.count(24, "part mark"));
  SynthesisCounts prev{0, 1, 0};
  for (SynthesisCounts& c : parts) {
    c.aux = r.u64();
    c.inputs = r.u64();
    c.constraints = r.u64();
    if (c.aux < prev.aux || c.inputs < prev.inputs || c.constraints < prev.constraints || c.aux > num_aux ||
        c.inputs > num_inputs || c.constraints > rows)
      r.corrupt("part marks out of order or out of range");
    prev = c;
  }
  PackedCsr a = map_matrix(r, rows, num_inputs + num_aux, "A", file);
  PackedCsr b = map_matrix(r, rows, num_inputs + num_aux, "B", file);
  PackedCsr c = map_matrix(r, rows, num_inputs + num_aux, "C", file);
  if (r.offset() + 32 != all.size()) r.corrupt(r.offset() + 32 < all.size() ? "trailing bytes" : "truncated");
  return PrecompiledCircuit(num_inputs, num_aux, std::move(a), std::move(b), std::move(c), std::move(parts));
}

}  // namespace cuzk::r1cs
