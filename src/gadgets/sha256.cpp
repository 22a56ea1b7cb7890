#include "gadgets/sha256.hpp"

#include "gadgets/sha256_witness.hpp"

#include <stdexcept>
#include <string>

namespace cuzk::gadgets {

namespace {

constexpr uint32_t kIv[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                             0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};

std::string num_name(const char* prefix, size_t i) { return prefix + std::to_string(i); }

// A word that is either computed or a sum still to be reduced (upstream's
// `Maybe`): deferring e and a lets their additions merge with the next ones.
struct Maybe {
  bool deferred = false;
  UInt32 concrete;
  std::vector<UInt32> terms;

  // The reduction happens (and is namespaced) only for deferred sums, but
  // the namespace is entered either way, as upstream does.
  UInt32 compute(MultiEq& eq, const char* ns, std::vector<UInt32> others = {}) const {
    ConstraintSystem& cs = eq.cs();
    return in_ns(cs, ns, [&] {
      if (!deferred) return concrete;
      std::vector<UInt32> v = terms;
      v.insert(v.end(), others.begin(), others.end());
      return UInt32::addmany(eq, v);
    });
  }
};

UInt32 sigma(ConstraintSystem& cs, const UInt32& x, size_t r1, size_t r2, size_t r3, bool shift,
             const char* first, const char* second) {
  UInt32 s = x.rotr(r1);
  s = in_ns(cs, first, [&] { return s.xor_(cs, x.rotr(r2)); });
  return in_ns(cs, second, [&] { return s.xor_(cs, shift ? x.shr(r3) : x.rotr(r3)); });
}

bool values_known(std::span<const Boolean> input, const std::vector<UInt32>& h0) {
  for (const Boolean& b : input)
    if (!b.value()) return false;
  for (const UInt32& w : h0)
    if (!w.value()) return false;
  return true;
}

}  // namespace

std::vector<UInt32> sha256_iv() {
  std::vector<UInt32> iv;
  for (uint32_t w : kIv) iv.push_back(UInt32::constant(w));
  return iv;
}

std::vector<UInt32> sha256_compression_function(ConstraintSystem& cs, std::span<const Boolean> input,
                                                const std::vector<UInt32>& h0) {
  if (input.size() != 512 || h0.size() != 8)
    throw std::invalid_argument("sha256 compression: 512 bits and 8 words");
  if (!cs.builds_constraints() && values_known(input, h0))
    return detail::sha256_compression_witness(cs, input, h0);  // the same allocations, faster
  std::vector<UInt32> w;
  w.reserve(64);
  for (size_t i = 0; i < 16; i++) w.push_back(UInt32::from_bits_be(input.data() + 32 * i));

  MultiEq eq(cs);
  for (size_t i = 16; i < 64; i++) {
    Namespace ns(cs, [&] { return num_name("w extension ", i); });
    UInt32 s0 = sigma(cs, w[i - 15], 7, 18, 3, true, "first xor for s0", "second xor for s0");
    UInt32 s1 = sigma(cs, w[i - 2], 17, 19, 10, true, "first xor for s1", "second xor for s1");
    w.push_back(in_ns(cs, "computation of w[i]", [&] {
      return UInt32::addmany(eq, {w[i - 16], s0, w[i - 7], s1});
    }));
  }

  Maybe a{false, h0[0], {}}, e{false, h0[4], {}};
  UInt32 b = h0[1], c = h0[2], d = h0[3], f = h0[5], g = h0[6], h = h0[7];
  for (size_t i = 0; i < 64; i++) {
    Namespace ns(cs, [&] { return num_name("compression round ", i); });
    UInt32 new_e = e.compute(eq, "deferred e computation");
    UInt32 s1 = sigma(cs, new_e, 6, 11, 25, false, "first xor for s1", "second xor for s1");
    UInt32 ch = in_ns(cs, "ch", [&] { return UInt32::sha256_ch(cs, new_e, f, g); });
    std::vector<UInt32> temp1 = {h, s1, ch, UInt32::constant(detail::kSha256RoundConstants[i]), w[i]};
    UInt32 new_a = a.compute(eq, "deferred a computation");
    UInt32 s0 = sigma(cs, new_a, 2, 13, 22, false, "first xor for s0", "second xor for s0");
    UInt32 maj = in_ns(cs, "maj", [&] { return UInt32::sha256_maj(cs, new_a, b, c); });

    h = std::move(g);
    g = std::move(f);
    f = new_e;
    e = Maybe{true, {}, temp1};
    e.terms.push_back(d);
    d = std::move(c);
    c = std::move(b);
    b = new_a;
    a = Maybe{true, {}, std::move(temp1)};
    a.terms.push_back(std::move(s0));
    a.terms.push_back(std::move(maj));
  }

  std::vector<UInt32> out;
  out.push_back(a.compute(eq, "deferred h0 computation", {h0[0]}));
  auto add2 = [&](const char* ns, const UInt32& x, const UInt32& y) {
    return in_ns(cs, ns, [&] { return UInt32::addmany(eq, {x, y}); });
  };
  out.push_back(add2("new h1", h0[1], b));
  out.push_back(add2("new h2", h0[2], c));
  out.push_back(add2("new h3", h0[3], d));
  out.push_back(e.compute(eq, "deferred h4 computation", {h0[4]}));
  out.push_back(add2("new h5", h0[5], f));
  out.push_back(add2("new h6", h0[6], g));
  out.push_back(add2("new h7", h0[7], h));
  eq.finish();  // upstream: MultiEq dropped at the end of the function
  return out;
}

std::vector<Boolean> sha256_block_no_padding(ConstraintSystem& cs, std::span<const Boolean> input) {
  std::vector<Boolean> out;
  for (const auto& word : sha256_compression_function(cs, input, sha256_iv())) {
    auto bits = word.into_bits_be();
    out.insert(out.end(), bits.begin(), bits.end());
  }
  return out;
}

std::vector<Boolean> sha256(ConstraintSystem& cs, std::span<const Boolean> input) {
  if (input.size() % 8) throw std::invalid_argument("sha256 gadget: input must be whole bytes");
  std::vector<Boolean> padded(input.begin(), input.end());
  const uint64_t len = input.size();
  padded.push_back(Boolean::constant(true));
  while ((padded.size() + 64) % 512) padded.push_back(Boolean::constant(false));
  for (int i = 63; i >= 0; i--) padded.push_back(Boolean::constant((len >> i) & 1));

  std::vector<UInt32> cur = sha256_iv();
  for (size_t blk = 0; blk * 512 < padded.size(); blk++) {
    Namespace ns(cs, [&] { return num_name("block ", blk); });
    cur = sha256_compression_function(cs, std::span(padded).subspan(blk * 512, 512), cur);
  }
  std::vector<Boolean> out;
  for (const auto& word : cur) {
    auto bits = word.into_bits_be();
    out.insert(out.end(), bits.begin(), bits.end());
  }
  return out;
}

}  // namespace cuzk::gadgets
