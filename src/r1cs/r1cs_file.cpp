#include "r1cs/r1cs_file.hpp"

#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace cuzk::r1cs {

namespace {

constexpr char kCircuitMagic[8] = {'C', 'U', 'Z', 'K', 'R', '1', 'C', 'S'};
constexpr char kWitnessMagic[8] = {'C', 'U', 'Z', 'K', 'W', 'T', 'N', 'S'};
constexpr uint32_t kVersion = 1;

void put_u32(std::string& o, uint32_t x) {
  for (int i = 0; i < 4; i++) o += char(x >> (8 * i));
}
void put_u64(std::string& o, uint64_t x) {
  for (int i = 0; i < 8; i++) o += char(x >> (8 * i));
}
void put_fr(std::string& o, const Fr& x) {
  uint8_t b[32];
  x.to_bytes_le(std::span<uint8_t, 32>(b, 32));
  o.append(reinterpret_cast<const char*>(b), 32);
}

// Bounds-checked little-endian reader that names file and offset in errors.
class Reader {
 public:
  Reader(std::span<const uint8_t> b, const std::string& origin) : b_(b), origin_(origin) {}
  [[noreturn]] void fail(const std::string& what) const {
    throw FormatError(origin_ + ": " + what + " (at byte offset " + std::to_string(pos_) + ")");
  }
  void need(size_t n) const {
    if (b_.size() - pos_ < n)
      fail("truncated: need " + std::to_string(n) + " more bytes, have " + std::to_string(b_.size() - pos_));
  }
  uint32_t u32() {
    need(4);
    uint32_t x = 0;
    for (int i = 0; i < 4; i++) x |= uint32_t(b_[pos_ + i]) << (8 * i);
    pos_ += 4;
    return x;
  }
  uint64_t u64() {
    need(8);
    uint64_t x = 0;
    for (int i = 0; i < 8; i++) x |= uint64_t(b_[pos_ + i]) << (8 * i);
    pos_ += 8;
    return x;
  }
  Fr fr() {
    need(32);
    auto v = Fr::from_bytes_le(std::span<const uint8_t, 32>(b_.data() + pos_, 32));
    if (!v) fail("field element is not canonical (>= r)");
    pos_ += 32;
    return *v;
  }
  void magic(const char (&m)[8], const char* what) {
    need(8);
    if (std::memcmp(b_.data() + pos_, m, 8) != 0) fail(std::string("bad magic: not a ") + what);
    pos_ += 8;
    uint32_t v = u32();
    if (v != kVersion) fail("unsupported version " + std::to_string(v));
    u32();
  }
  size_t remaining() const { return b_.size() - pos_; }
  size_t pos() const { return pos_; }

 private:
  std::span<const uint8_t> b_;
  const std::string& origin_;
  size_t pos_ = 0;
};

void put_matrix(std::string& o, const CsrMatrix& m) {
  put_u64(o, m.nnz());
  for (uint64_t x : m.row_ptr) put_u64(o, x);
  for (uint32_t c : m.col) put_u32(o, c);
  for (const Fr& v : m.val) put_fr(o, v);
}

CsrMatrix get_matrix(Reader& r, size_t rows, size_t num_vars, const char* name) {
  CsrMatrix m;
  uint64_t nnz = r.u64();
  // 8 (row_ptr) + 4 + 32 bytes per entry: refuse absurd sizes before allocating.
  if (nnz > r.remaining() / 36 || rows + 1 > r.remaining() / 8)
    r.fail(std::string("matrix ") + name + ": sizes exceed the file");
  m.row_ptr.resize(rows + 1);
  for (auto& x : m.row_ptr) x = r.u64();
  if (m.row_ptr[0] != 0 || m.row_ptr[rows] != nnz)
    r.fail(std::string("matrix ") + name + ": row pointers do not span the entries");
  for (size_t i = 0; i < rows; i++)
    if (m.row_ptr[i] > m.row_ptr[i + 1]) r.fail(std::string("matrix ") + name + ": row pointers decrease");
  m.col.resize(nnz);
  for (auto& c : m.col) {
    c = r.u32();
    if (c >= num_vars) r.fail(std::string("matrix ") + name + ": column index out of range");
  }
  m.val.resize(nnz);
  for (auto& v : m.val) v = r.fr();
  return m;
}

}  // namespace

std::string serialize_r1cs(const R1cs& r) {
  std::string o(kCircuitMagic, 8);
  put_u32(o, kVersion);
  put_u32(o, 0);
  put_u64(o, r.num_inputs);
  put_u64(o, r.num_aux);
  put_u64(o, r.num_constraints());
  for (const CsrMatrix* m : {&r.a, &r.b, &r.c}) put_matrix(o, *m);
  return o;
}

R1cs parse_r1cs(std::span<const uint8_t> bytes, const std::string& origin) {
  Reader rd(bytes, origin);
  rd.magic(kCircuitMagic, "cuzk R1CS circuit file");
  R1cs r;
  r.num_inputs = rd.u64();
  r.num_aux = rd.u64();
  uint64_t rows = rd.u64();
  if (r.num_inputs == 0) rd.fail("a circuit has at least the ONE input");
  if (r.num_inputs + r.num_aux > (uint64_t(1) << 32)) rd.fail("too many variables");
  if (rows > rd.remaining() / 24) rd.fail("constraint count exceeds the file");
  const size_t vars = r.num_inputs + r.num_aux;
  r.a = get_matrix(rd, rows, vars, "A");
  r.b = get_matrix(rd, rows, vars, "B");
  r.c = get_matrix(rd, rows, vars, "C");
  if (rd.remaining()) rd.fail("trailing bytes after the C matrix");
  return r;
}

std::string serialize_witness(std::span<const Fr> z) {
  std::string o(kWitnessMagic, 8);
  put_u32(o, kVersion);
  put_u32(o, 0);
  put_u64(o, z.size());
  for (const Fr& v : z) put_fr(o, v);
  return o;
}

std::vector<Fr> parse_witness(std::span<const uint8_t> bytes, const std::string& origin) {
  Reader rd(bytes, origin);
  rd.magic(kWitnessMagic, "cuzk witness file");
  uint64_t n = rd.u64();
  if (n != rd.remaining() / 32 || rd.remaining() % 32)
    rd.fail("witness declares " + std::to_string(n) + " values but holds " + std::to_string(rd.remaining()) +
            " bytes");
  std::vector<Fr> z(n);
  for (auto& v : z) v = rd.fr();
  if (n == 0 || !z[0].is_one()) throw FormatError(origin + ": the first witness value (ONE) must be 1");
  return z;
}

void write_file(const std::string& path, const std::string& bytes) {
  std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw std::runtime_error("cannot write " + tmp);
    out.write(bytes.data(), std::streamsize(bytes.size()));
    if (!out) throw std::runtime_error("write failed: " + tmp);
  }
  std::filesystem::rename(tmp, path);
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace cuzk::r1cs
