#include "r1cs/pce_file.hpp"

#include <unistd.h>

#include <bit>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <vector>

#include "platform/digest.hpp"

namespace cuzk::r1cs {

namespace {

constexpr char kMagic[8] = {'C', 'U', 'Z', 'K', 'P', 'C', 'E', '\n'};
constexpr uint32_t kVersion = 2;
constexpr size_t kFrBytes = 32;
static_assert(std::endian::native == std::endian::little, ".pce files are written in host order");

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

class Reader {
 public:
  Reader(FILE* f, const std::string& path, uint64_t size) : f_(f), path_(path), left_(size) {}
  [[noreturn]] void corrupt(const std::string& why) const {
    throw PceFileError(PceFileError::Kind::Corrupt, path_ + ": corrupt pre-compiled circuit: " + why);
  }
  void bytes(void* p, size_t n) {
    if (n > left_ || (n && std::fread(p, 1, n, f_) != n)) corrupt("truncated");
    left_ -= n;
    sha_.update(p, n);
  }
  uint32_t u32() {
    uint32_t v;
    bytes(&v, 4);
    return v;
  }
  uint64_t u64() {
    uint64_t v;
    bytes(&v, 8);
    return v;
  }
  // A count of `elem`-byte items that must fit in what is left of the file.
  uint64_t count(size_t elem, const char* what) {
    const uint64_t n = u64();
    if (n > left_ / elem) corrupt(std::string(what) + " count " + std::to_string(n) + " exceeds the file");
    return n;
  }
  void check_trailer() {
    const PceDigest want = sha_.finish();
    PceDigest got{};
    if (left_ != got.size() || std::fread(got.data(), 1, got.size(), f_) != got.size())
      corrupt(left_ < got.size() ? "truncated" : "trailing bytes");
    if (got != want) corrupt("checksum mismatch");
  }

 private:
  FILE* f_;
  const std::string& path_;
  uint64_t left_;
  platform::Sha256 sha_;
};

template <class T>
void write_vec(Writer& w, const std::vector<T>& v) {
  w.bytes(v.data(), v.size() * sizeof(T));
}

PackedCsr read_matrix(Reader& r, uint64_t rows, uint64_t columns, const char* name) {
  PackedCsr m;
  const uint64_t nnz = r.count(8, "term"), table_len = r.count(kFrBytes, "coefficient");
  if (table_len < 2) r.corrupt(std::string(name) + ": coefficient table shorter than 2");
  m.row_ptr.resize(rows + 1);
  r.bytes(m.row_ptr.data(), m.row_ptr.size() * 4);
  m.col.resize(nnz);
  r.bytes(m.col.data(), nnz * 4);
  m.coeff.resize(nnz);
  r.bytes(m.coeff.data(), nnz * 4);
  m.table.resize(table_len);
  for (auto& x : m.table) {
    uint8_t b[kFrBytes];
    r.bytes(b, kFrBytes);
    auto v = Fr::from_bytes_le(std::span<const uint8_t, kFrBytes>(b));
    if (!v) r.corrupt(std::string(name) + ": coefficient not canonical");
    x = *v;
  }
  if (m.table[0] != Fr::one() || m.table[1] != -Fr::one())
    r.corrupt(std::string(name) + ": table must start with 1, -1");
  if (m.row_ptr[0] != 0 || m.row_ptr[rows] != nnz)
    r.corrupt(std::string(name) + ": row offsets do not span the terms");
  for (uint64_t i = 0; i < rows; i++)
    if (m.row_ptr[i] > m.row_ptr[i + 1])
      r.corrupt(std::string(name) + ": row offsets decrease at row " + std::to_string(i));
  for (uint64_t k = 0; k < nnz; k++) {
    if (m.col[k] >= columns)
      r.corrupt(std::string(name) + ": column out of range at term " + std::to_string(k));
    if (m.coeff[k] >= table_len)
      r.corrupt(std::string(name) + ": coefficient index out of range at term " + std::to_string(k));
  }
  return m;
}

}  // namespace

uint64_t pce_file_bytes(const PrecompiledCircuit& pce) {
  uint64_t n = 8 + 4 + 4 + 32 + 3 * 8 + 8 + 24 * pce.parts().size() + 32;
  for (const PackedCsr* m : {&pce.a(), &pce.b(), &pce.c()})
    n += 16 + 4 * (m->row_ptr.size() + m->col.size() + m->coeff.size()) + kFrBytes * m->table.size();
  return n;
}

void write_pce_file(const std::string& path, const PrecompiledCircuit& pce, const PceDigest& circuit_digest) {
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  {
    File f(std::fopen(tmp.c_str(), "wb"), std::fclose);
    if (!f) throw std::runtime_error(tmp + ": cannot create: " + std::strerror(errno));
    Writer w(f.get(), tmp);
    w.bytes(kMagic, sizeof kMagic);
    w.u32(kVersion);
    w.u32(0);
    w.bytes(circuit_digest.data(), circuit_digest.size());
    w.u64(pce.num_inputs());
    w.u64(pce.num_aux());
    w.u64(pce.num_constraints());
    w.u64(pce.parts().size());
    for (const SynthesisCounts& c : pce.parts()) {
      w.u64(c.aux);
      w.u64(c.inputs);
      w.u64(c.constraints);
    }
    for (const PackedCsr* m : {&pce.a(), &pce.b(), &pce.c()}) {
      w.u64(m->nnz());
      w.u64(m->table.size());
      write_vec(w, m->row_ptr);
      write_vec(w, m->col);
      write_vec(w, m->coeff);
      for (const Fr& x : m->table) {
        uint8_t b[kFrBytes];
        x.to_bytes_le(std::span<uint8_t, kFrBytes>(b));
        w.bytes(b, kFrBytes);
      }
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

PrecompiledCircuit read_pce_file(const std::string& path, const PceDigest& expected) {
  std::error_code ec;
  const uint64_t size = std::filesystem::file_size(path, ec);
  if (ec) throw PceFileError(PceFileError::Kind::Missing, path + ": " + ec.message());
  File f(std::fopen(path.c_str(), "rb"), std::fclose);
  if (!f) throw PceFileError(PceFileError::Kind::Missing, path + ": cannot open: " + std::strerror(errno));
  Reader r(f.get(), path, size);
  char magic[8];
  r.bytes(magic, sizeof magic);
  if (std::memcmp(magic, kMagic, sizeof kMagic) != 0) r.corrupt("not a .pce file");
  const uint32_t version = r.u32();
  r.u32();
  PceDigest digest;
  r.bytes(digest.data(), digest.size());
  if (version != kVersion)
    throw PceFileError(PceFileError::Kind::Stale, path + ": format version " + std::to_string(version) +
                                                      ", this build reads " + std::to_string(kVersion));
  if (digest != expected)
    throw PceFileError(PceFileError::Kind::Stale,
                       path + ": recorded from other circuit code (digest differs)");
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
  PackedCsr a = read_matrix(r, rows, num_inputs + num_aux, "A");
  PackedCsr b = read_matrix(r, rows, num_inputs + num_aux, "B");
  PackedCsr c = read_matrix(r, rows, num_inputs + num_aux, "C");
  r.check_trailer();
  return PrecompiledCircuit(num_inputs, num_aux, std::move(a), std::move(b), std::move(c), std::move(parts));
}

}  // namespace cuzk::r1cs
