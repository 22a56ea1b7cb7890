#include "groth16/io.hpp"

#include <tbb/parallel_for.h>

#include <atomic>
#include <fstream>

#include "ec/curve_check.hpp"
#include "platform/mapped_file.hpp"
#include "platform/large_vector.hpp"

namespace cuzk::groth16 {

namespace {

using ec::Form;

class Writer {
 public:
  explicit Writer(size_t reserve) { out_.reserve(reserve); }
  void u32(size_t n, const char* what) {
    if (n > 0xffffffffu) throw std::length_error(std::string(what) + ": too many points for a u32 length");
    for (int s = 24; s >= 0; s -= 8) out_.push_back(uint8_t(n >> s));
  }
  template <class C>
  void point(const ec::Affine<C>& p) {
    auto b = ec::to_uncompressed<C>(p);
    out_.insert(out_.end(), b.begin(), b.end());
  }
  template <class C>
  void points(const std::vector<ec::Affine<C>>& ps, const char* what) {
    u32(ps.size(), what);
    size_t off = out_.size(), sz = ec::uncompressed_size<C>;
    out_.resize(off + ps.size() * sz);
    tbb::parallel_for(size_t(0), ps.size(), [&](size_t i) {
      ec::encode_uncompressed<C>(
          ps[i], std::span<uint8_t, ec::uncompressed_size<C>>(out_.data() + off + i * sz, sz));
    });
  }
  std::vector<uint8_t> take() { return std::move(out_); }

 private:
  std::vector<uint8_t> out_;
};

class Reader {
 public:
  Reader(std::span<const uint8_t> b, std::string_view source) : b_(b), src_(source) {}

  [[noreturn]] void fail(size_t at, const std::string& what) const { throw FormatError(src_, at, what); }
  size_t offset() const { return off_; }

  std::span<const uint8_t> take(size_t n, const std::string& what) {
    if (b_.size() - off_ < n)
      fail(off_, what + ": truncated (need " + std::to_string(n) + " bytes, " +
                     std::to_string(b_.size() - off_) + " left)");
    auto s = b_.subspan(off_, n);
    off_ += n;
    return s;
  }
  size_t u32(const std::string& what) {
    auto s = take(4, what + " length");
    return size_t(s[0]) << 24 | size_t(s[1]) << 16 | size_t(s[2]) << 8 | size_t(s[3]);
  }
  template <class C>
  ec::Affine<C> point(const std::string& what, Form form, ec::Check check, bool no_identity) {
    size_t at = off_;
    auto d = ec::decode<C>(take(ec::encoded_size<C>(form), what), form, check);
    if (!d.ok()) fail(at, what + ": " + d.message());
    if (no_identity && d.point.is_identity()) fail(at, what + ": point at infinity");
    return d.point;
  }
  // A u32 count and that many uncompressed points, decoded in parallel; the
  // error reported is the one at the lowest index.
  template <class C>
  std::vector<ec::Affine<C>> points(const std::string& what, ec::Check check, bool no_identity) {
    const size_t n = u32(what), sz = ec::uncompressed_size<C>, base = off_;
    if ((b_.size() - off_) / sz < n)
      fail(off_, what + ": truncated (" + std::to_string(n) + " points need " + std::to_string(n * sz) +
                     " bytes, " + std::to_string(b_.size() - off_) + " left)");
    // In huge pages (platform/large_vector.hpp): a PoRep key holds GBs of
    // points, and faulting them in 4 KiB pages was a tenth of a 2 KiB PoRep
    // proof's CPU time in `cuzk porep-prove`.
    auto out = platform::large_vector<ec::Affine<C>>(n);
    std::atomic<size_t> first_bad{n};
    // Per block: decoding (coordinates below p), then ec::first_invalid (the
    // curve equation eight points at a time; the subgroup for Check::Full).
    tbb::parallel_for(tbb::blocked_range<size_t>(0, n, 512), [&](const tbb::blocked_range<size_t>& r) {
      size_t end = r.end();
      for (size_t i = r.begin(); i < end; i++) {
        if (i >= first_bad.load(std::memory_order_relaxed)) return;
        auto d = ec::decode_uncompressed<C>(b_.subspan(base + i * sz, sz), ec::Check::None);
        if (!d.ok() || (no_identity && d.point.is_identity())) end = i;
        else out[i] = d.point;
      }
      end = r.begin() +
            ec::first_invalid(std::span<const ec::Affine<C>>(out.data() + r.begin(), end - r.begin()), check);
      if (end == r.end()) return;  // the whole block is good
      size_t cur = first_bad.load();
      while (end < cur && !first_bad.compare_exchange_weak(cur, end)) {
      }
    });
    if (size_t i = first_bad.load(); i < n) {
      off_ = base + i * sz;
      point<C>(what + "[" + std::to_string(i) + "]", Form::Uncompressed, check, no_identity);  // throws
    }
    off_ = base + n * sz;
    return out;
  }
  void expect_end() const {
    if (off_ != b_.size()) fail(off_, std::to_string(b_.size() - off_) + " unexpected trailing bytes");
  }

 private:
  std::span<const uint8_t> b_;
  std::string_view src_;
  size_t off_ = 0;
};

void write_vk(Writer& w, const VerifyingKey& vk) {
  w.point(vk.alpha_g1);
  w.point(vk.beta_g1);
  w.point(vk.beta_g2);
  w.point(vk.gamma_g2);
  w.point(vk.delta_g1);
  w.point(vk.delta_g2);
  w.points(vk.ic, "ic");
}

VerifyingKey read_vk(Reader& r, ec::Check check) {
  VerifyingKey vk;
  vk.alpha_g1 = r.point<ec::G1Curve>("alpha_g1", Form::Uncompressed, check, false);
  vk.beta_g1 = r.point<ec::G1Curve>("beta_g1", Form::Uncompressed, check, false);
  vk.beta_g2 = r.point<ec::G2Curve>("beta_g2", Form::Uncompressed, check, false);
  vk.gamma_g2 = r.point<ec::G2Curve>("gamma_g2", Form::Uncompressed, check, false);
  vk.delta_g1 = r.point<ec::G1Curve>("delta_g1", Form::Uncompressed, check, false);
  vk.delta_g2 = r.point<ec::G2Curve>("delta_g2", Form::Uncompressed, check, false);
  vk.ic = r.points<ec::G1Curve>("ic", check, true);
  return vk;
}

Proof read_proof(Reader& r, const std::string& name) {
  Proof p;
  p.a = r.point<ec::G1Curve>(name + ".a", Form::Compressed, ec::Check::Full, true);
  p.b = r.point<ec::G2Curve>(name + ".b", Form::Compressed, ec::Check::Full, true);
  p.c = r.point<ec::G1Curve>(name + ".c", Form::Compressed, ec::Check::Full, true);
  return p;
}

size_t vk_size(const VerifyingKey& vk) { return 3 * 96 + 3 * 192 + 4 + 96 * vk.ic.size(); }

}  // namespace

std::array<uint8_t, kProofBytes> encode_proof(const Proof& p) {
  std::array<uint8_t, kProofBytes> out;
  ec::encode_compressed<ec::G1Curve>(p.a, std::span<uint8_t, 48>(out.data(), 48));
  ec::encode_compressed<ec::G2Curve>(p.b, std::span<uint8_t, 96>(out.data() + 48, 96));
  ec::encode_compressed<ec::G1Curve>(p.c, std::span<uint8_t, 48>(out.data() + 144, 48));
  return out;
}

Proof decode_proof(std::span<const uint8_t> bytes, std::string_view source) {
  Reader r(bytes, source);
  if (bytes.size() != kProofBytes)
    r.fail(0, "a proof is " + std::to_string(kProofBytes) + " bytes, got " + std::to_string(bytes.size()));
  return read_proof(r, "proof");
}

std::vector<uint8_t> encode_proofs(std::span<const Proof> proofs) {
  std::vector<uint8_t> out;
  for (const auto& p : proofs) {
    auto b = encode_proof(p);
    out.insert(out.end(), b.begin(), b.end());
  }
  return out;
}

std::vector<Proof> decode_proofs(std::span<const uint8_t> bytes, std::string_view source) {
  Reader r(bytes, source);
  if (bytes.empty() || bytes.size() % kProofBytes)
    r.fail(0, "length " + std::to_string(bytes.size()) + " is not a positive multiple of " +
                  std::to_string(kProofBytes));
  std::vector<Proof> out;
  for (size_t k = 0; k < bytes.size() / kProofBytes; k++)
    out.push_back(read_proof(r, "proof " + std::to_string(k)));
  return out;
}

std::vector<uint8_t> encode_verifying_key(const VerifyingKey& vk) {
  Writer w(vk_size(vk));
  write_vk(w, vk);
  return w.take();
}

VerifyingKey decode_verifying_key(std::span<const uint8_t> bytes, std::string_view source, ec::Check check) {
  Reader r(bytes, source);
  VerifyingKey vk = read_vk(r, check);
  r.expect_end();
  return vk;
}

size_t encoded_parameters_size(const Parameters& p) {
  return vk_size(p.vk) + 5 * 4 + 96 * (p.h.size() + p.l.size() + p.a.size() + p.b_g1.size()) +
         192 * p.b_g2.size();
}

std::vector<uint8_t> encode_parameters(const Parameters& p) {
  Writer w(encoded_parameters_size(p));
  write_vk(w, p.vk);
  w.points(p.h, "h");
  w.points(p.l, "l");
  w.points(p.a, "a");
  w.points(p.b_g1, "b_g1");
  w.points(p.b_g2, "b_g2");
  return w.take();
}

Parameters decode_parameters(std::span<const uint8_t> bytes, std::string_view source, ec::Check check) {
  Reader r(bytes, source);
  Parameters p;
  p.vk = read_vk(r, check);
  p.h = r.points<ec::G1Curve>("h", check, true);
  p.l = r.points<ec::G1Curve>("l", check, true);
  p.a = r.points<ec::G1Curve>("a", check, true);
  p.b_g1 = r.points<ec::G1Curve>("b_g1", check, true);
  p.b_g2 = r.points<ec::G2Curve>("b_g2", check, true);
  r.expect_end();
  if (p.b_g1.size() != p.b_g2.size())
    throw FormatError(source, bytes.size(),
                      "b_g1 has " + std::to_string(p.b_g1.size()) + " points but b_g2 has " +
                          std::to_string(p.b_g2.size()));
  return p;
}

void write_file(const std::string& path, std::span<const uint8_t> bytes) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  if (!f) throw std::runtime_error(path + ": cannot open for writing");
  f.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
  if (!f) throw std::runtime_error(path + ": write failed");
}

VerifyingKey read_verifying_key_file(const std::string& path, ec::Check check) {
  platform::MappedFile f(path);
  return decode_verifying_key(f.bytes(), path, check);
}

Parameters read_parameters_file(const std::string& path, ec::Check check) {
  platform::MappedFile f(path);
  return decode_parameters(f.bytes(), path, check);
}

}  // namespace cuzk::groth16
