#include "r1cs/pce_extract.hpp"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <vector>

#include "platform/digest.hpp"
#include "r1cs/pce_format.hpp"
#include "r1cs/pce_recorder.hpp"

namespace cuzk::r1cs {

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The file being written; closed (and removed unless kept) on destruction.
class OutFile {
 public:
  explicit OutFile(std::string path) : path_(std::move(path)) {
    fd_ = ::open(path_.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd_ < 0) throw std::runtime_error(path_ + ": cannot create: " + std::strerror(errno));
  }
  ~OutFile() {
    if (fd_ >= 0) ::close(fd_);
    if (!kept_) {
      std::error_code ec;
      std::filesystem::remove(path_, ec);
    }
  }
  OutFile(const OutFile&) = delete;
  OutFile& operator=(const OutFile&) = delete;

  // Room for the whole file up front, so a full disk fails before the work.
  void reserve(uint64_t bytes) {
    const int e = ::posix_fallocate(fd_, 0, off_t(bytes));
    if (e != 0 && e != EOPNOTSUPP && e != EINVAL)
      throw std::runtime_error(path_ + ": cannot reserve " + std::to_string(bytes) +
                               " bytes: " + std::strerror(e));
  }
  void write_at(uint64_t off, const void* p, size_t n) {
    const auto* b = static_cast<const uint8_t*>(p);
    while (n) {
      const ssize_t w = ::pwrite(fd_, b, n, off_t(off));
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) throw std::runtime_error(path_ + ": write failed: " + std::strerror(w < 0 ? errno : EIO));
      b += w;
      off += uint64_t(w);
      n -= size_t(w);
    }
  }
  void read_at(uint64_t off, void* p, size_t n) {
    auto* b = static_cast<uint8_t*>(p);
    while (n) {
      const ssize_t r = ::pread(fd_, b, n, off_t(off));
      if (r < 0 && errno == EINTR) continue;
      if (r <= 0)
        throw std::runtime_error(path_ + ": read back failed: " + std::strerror(r < 0 ? errno : EIO));
      b += r;
      off += uint64_t(r);
      n -= size_t(r);
    }
  }
  void finish(const std::string& final_path) {
    if (::fsync(fd_) != 0) {
      const int e = errno;
      ::close(fd_);
      fd_ = -1;
      throw std::runtime_error(path_ + ": write failed: " + std::strerror(e));
    }
    // The written pages leave the page cache (clean after fsync): they sit
    // in folios of the writes' sizes, and a mapping of them is in good part
    // 4 KiB pages (half the 32 GiB PoRep's file). Read back through read_pce_file's huge-page mapping, the file
    // comes in 2 MiB folios mapped whole: every synthesis then streams the
    // arrays with fewer TLB misses (a 32 GiB PoRep partition's a/b/c 6%
    // faster), for one read of the file from disk.
    ::posix_fadvise(fd_, 0, 0, POSIX_FADV_DONTNEED);
    if (::close(fd_) != 0) {
      fd_ = -1;
      throw std::runtime_error(path_ + ": write failed: " + std::strerror(errno));
    }
    fd_ = -1;
    std::error_code ec;
    std::filesystem::rename(path_, final_path, ec);
    if (ec) throw std::runtime_error(final_path + ": cannot rename into place: " + ec.message());
    kept_ = true;
  }

 private:
  std::string path_;
  int fd_ = -1;
  bool kept_ = false;
};

// Temporary files of earlier extractions into `path` whose process is gone
// (killed part-way: a 32 GiB PoRep's is 7 GB) are removed.
void remove_orphans(const std::string& path) {
  const std::filesystem::path p(path);
  const std::filesystem::path dir = p.has_parent_path() ? p.parent_path() : std::filesystem::path(".");
  const std::string prefix = p.filename().string() + ".tmp.";
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(prefix, 0) != 0) continue;
    const std::string pid = name.substr(prefix.size());
    if (pid.empty() || pid.find_first_not_of("0123456789") != std::string::npos) continue;
    if (::kill(pid_t(std::stol(pid)), 0) != 0 && errno == ESRCH) std::filesystem::remove(entry.path(), ec);
  }
}

// Pass 1: counts only.
struct CountSink {
  uint64_t nnz[3] = {0, 0, 0};
  void term(int k, uint32_t, uint32_t) { nnz[k]++; }
  void end_row(int k) {
    if (nnz[k] >= (uint64_t(1) << 32))
      throw std::length_error("pre-compiled circuit: 2^32 terms or more in a matrix");
  }
};

// Pass 2: each array buffered and written at its place in the file.
class FileSink {
 public:
  struct Matrix {
    uint64_t row_ptr_off, col_off, coeff_off;  // where the next entries go
    uint64_t rows, nnz;                        // counted by pass 1
  };
  FileSink(OutFile& out, const Matrix (&m)[3], size_t buffer_terms)
      : out_(out), cap_(std::max<size_t>(1, buffer_terms)) {
    for (int k = 0; k < 3; k++) {
      m_[k] = m[k];
      for (auto* v : {&rp_[k], &col_[k], &coeff_[k]}) v->reserve(cap_);
      rp_[k].push_back(0);
    }
  }
  void term(int k, uint32_t c, uint32_t t) {
    if (nnz_[k] == m_[k].nnz) mismatch("more terms than counted");
    nnz_[k]++;
    col_[k].push_back(c);
    coeff_[k].push_back(t);
    if (col_[k].size() == cap_) {
      put(m_[k].col_off, col_[k]);
      put(m_[k].coeff_off, coeff_[k]);
    }
  }
  void end_row(int k) {
    if (rows_[k] == m_[k].rows) mismatch("more rows than counted");
    rows_[k]++;
    rp_[k].push_back(uint32_t(nnz_[k]));
    if (rp_[k].size() == cap_) put(m_[k].row_ptr_off, rp_[k]);
  }
  void finish() {
    for (int k = 0; k < 3; k++) {
      if (rows_[k] != m_[k].rows || nnz_[k] != m_[k].nnz) mismatch("fewer rows or terms than counted");
      put(m_[k].row_ptr_off, rp_[k]);
      put(m_[k].col_off, col_[k]);
      put(m_[k].coeff_off, coeff_[k]);
    }
  }

 private:
  [[noreturn]] static void mismatch(const char* what) {
    throw SynthesisError(std::string("pce extraction: the second pass over the circuit found ") + what);
  }
  void put(uint64_t& off, std::vector<uint32_t>& buf) {
    out_.write_at(off, buf.data(), buf.size() * sizeof(uint32_t));
    off += buf.size() * sizeof(uint32_t);
    buf.clear();
  }
  OutFile& out_;
  const size_t cap_;
  Matrix m_[3];
  uint64_t rows_[3] = {0, 0, 0}, nnz_[3] = {0, 0, 0};
  std::vector<uint32_t> rp_[3], col_[3], coeff_[3];
};

}  // namespace

PceExtractReport extract_pce_file(const std::string& path, const Circuit& blank,
                                  const PceDigest& circuit_digest, const PceExtractOptions& opt) {
  PceExtractReport rep;
  auto t0 = std::chrono::steady_clock::now();
  CountSink counts;
  pce_detail::Recorder<CountSink> first(counts);
  blank.synthesize(first);
  rep.rows = first.rows();
  rep.num_aux = first.num_aux();
  rep.num_inputs = first.num_inputs();
  if (rep.num_inputs + rep.num_aux > 0xffffffffull)
    throw SynthesisError("too many variables for a 32-bit column index");
  std::vector<Fr> tables[3];
  for (int k = 0; k < 3; k++) {
    rep.nnz[k] = counts.nnz[k];
    tables[k] = first.index(k).table();
  }
  const std::vector<SynthesisCounts> parts = first.parts();
  rep.count_s = seconds_since(t0);

  // Offsets of every section.
  uint64_t matrix_start[3];
  FileSink::Matrix m[3];
  uint64_t at = pce_format::header_bytes(parts.size());
  for (int k = 0; k < 3; k++) {
    matrix_start[k] = at;
    m[k].rows = rep.rows;
    m[k].nnz = rep.nnz[k];
    m[k].row_ptr_off = at + 16;
    m[k].col_off = m[k].row_ptr_off + 4 * (rep.rows + 1);
    m[k].coeff_off = m[k].col_off + 4 * rep.nnz[k];
    at += pce_format::matrix_bytes(rep.rows, rep.nnz[k], tables[k].size());
  }
  const uint64_t body = at;
  rep.file_bytes = body + pce_format::kTrailerBytes;

  t0 = std::chrono::steady_clock::now();
  remove_orphans(path);
  OutFile out(path + ".tmp." + std::to_string(::getpid()));
  out.reserve(rep.file_bytes);
  {
    FileSink sink(out, m, opt.buffer_terms);
    pce_detail::Recorder<FileSink> second(sink, int64_t(rep.num_aux));
    blank.synthesize(second);
    sink.finish();
    if (second.num_aux() != rep.num_aux || second.num_inputs() != rep.num_inputs || second.parts() != parts)
      throw SynthesisError("pce extraction: the second pass over the circuit allocated other variables");
    for (int k = 0; k < 3; k++)
      if (second.index(k).table() != tables[k])
        throw SynthesisError("pce extraction: the second pass over the circuit used other coefficients");
  }
  pce_format::Bytes head;
  pce_format::put_header(head, circuit_digest, rep.num_inputs, rep.num_aux, rep.rows, parts);
  out.write_at(0, head.data().data(), head.data().size());
  for (int k = 0; k < 3; k++) {
    pce_format::Bytes mh;
    mh.u64(rep.nnz[k]);
    mh.u64(tables[k].size());
    out.write_at(matrix_start[k], mh.data().data(), mh.data().size());
    pce_format::Bytes tb;
    pce_format::put_table(tb, tables[k]);
    out.write_at(m[k].coeff_off + 4 * rep.nnz[k], tb.data().data(), tb.data().size());
  }
  rep.record_s = seconds_since(t0);

  t0 = std::chrono::steady_clock::now();
  {
    platform::Sha256 sha;
    std::vector<uint8_t> buf(std::min<uint64_t>(body, uint64_t(16) << 20));
    for (uint64_t off = 0; off < body; off += buf.size()) {
      const size_t n = size_t(std::min<uint64_t>(buf.size(), body - off));
      out.read_at(off, buf.data(), n);
      sha.update(buf.data(), n);
    }
    const PceDigest d = sha.finish();
    out.write_at(body, d.data(), d.size());
  }
  out.finish(path);
  rep.checksum_s = seconds_since(t0);
  return rep;
}

}  // namespace cuzk::r1cs
