#pragma once
// ZCash / blst serialisation of BLS12-381 points (docs/FILECOIN.md §5.4).
//
//   G1: compressed 48 bytes (x), uncompressed 96 bytes (x || y)
//   G2: compressed 96 bytes (x), uncompressed 192 bytes (x || y)
//   Fp: 48 bytes big-endian; Fp2 = c0 + c1*u as c1 || c0.
//   Flags in the three most significant bits of byte 0:
//     0x80  compressed form
//     0x40  point at infinity (every other bit of the encoding zero)
//     0x20  compressed, non-infinity only: y is the lexicographically largest root
//
// Decoding never throws or crashes on any input; it returns Decoded<C>
// carrying either the point or a DecodeError with a readable message, e.g.
// "G1 compressed: x is not canonical (x >= p)". The Check argument selects
// the validation: Full (on curve and in the subgroup, the default),
// SkipSubgroup (on curve only; for trusted data such as mapped parameters)
// or None (format only; uncompressed points are taken as they are).
#include <array>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>

#include "ec/subgroup.hpp"

namespace cuzk::ec {

enum class Form : uint8_t { Compressed, Uncompressed };
enum class Check : uint8_t { Full, SkipSubgroup, None };

enum class DecodeError : uint8_t {
  None = 0,
  WrongLength,              // input size differs from the form's size
  CompressionFlagMismatch,  // 0x80 disagrees with the form (length)
  SortFlagOnUncompressed,   // 0x20 set on an uncompressed encoding
  SortFlagOnInfinity,       // 0x20 set together with 0x40
  InfinityNotCanonical,     // 0x40 set but some other bit is non-zero
  XNotCanonical,            // an x coefficient >= p
  YNotCanonical,            // a y coefficient >= p
  NoSquareRoot,             // compressed: x^3 + b is not a square
  NotOnCurve,               // uncompressed: y^2 != x^3 + b
  NotInSubgroup,            // on the curve but not of order r
};

inline const char* to_string(DecodeError e) {
  switch (e) {
    case DecodeError::None: return "ok";
    case DecodeError::WrongLength: return "wrong length";
    case DecodeError::CompressionFlagMismatch: return "compression flag mismatch";
    case DecodeError::SortFlagOnUncompressed: return "sort flag on uncompressed encoding";
    case DecodeError::SortFlagOnInfinity: return "sort flag on the point at infinity";
    case DecodeError::InfinityNotCanonical: return "non-canonical point at infinity";
    case DecodeError::XNotCanonical: return "x is not canonical";
    case DecodeError::YNotCanonical: return "y is not canonical";
    case DecodeError::NoSquareRoot: return "no square root";
    case DecodeError::NotOnCurve: return "not on curve";
    case DecodeError::NotInSubgroup: return "not in subgroup";
  }
  return "unknown";
}

// Byte codec for the coordinate fields.
template <class F>
struct FieldCodec;

template <>
struct FieldCodec<ff::Fp> {
  static constexpr size_t BYTES = 48;
  static constexpr bool EXTENSION = false;
  static void write(const ff::Fp& a, uint8_t* out) { a.to_bytes_be(std::span<uint8_t, 48>(out, 48)); }
  // Returns -1 on success, else the index of the non-canonical coefficient (0).
  static int read(const uint8_t* in, ff::Fp& out) {
    auto v = ff::Fp::from_bytes_be(std::span<const uint8_t, 48>(in, 48));
    if (!v) return 0;
    out = *v;
    return -1;
  }
};

template <>
struct FieldCodec<ff::Fp2> {
  static constexpr size_t BYTES = 96;
  static constexpr bool EXTENSION = true;
  static void write(const ff::Fp2& a, uint8_t* out) {
    FieldCodec<ff::Fp>::write(a.c1, out);
    FieldCodec<ff::Fp>::write(a.c0, out + 48);
  }
  // -1 on success, else 1 (c1, checked first: it comes first) or 0 (c0).
  static int read(const uint8_t* in, ff::Fp2& out) {
    if (FieldCodec<ff::Fp>::read(in, out.c1) >= 0) return 1;
    if (FieldCodec<ff::Fp>::read(in + 48, out.c0) >= 0) return 0;
    return -1;
  }
};

template <class C>
inline constexpr size_t compressed_size = FieldCodec<typename C::Base>::BYTES;
template <class C>
inline constexpr size_t uncompressed_size = 2 * FieldCodec<typename C::Base>::BYTES;
template <class C>
constexpr size_t encoded_size(Form f) {
  return f == Form::Compressed ? compressed_size<C> : uncompressed_size<C>;
}

namespace flags {
inline constexpr uint8_t kCompressed = 0x80;
inline constexpr uint8_t kInfinity = 0x40;
inline constexpr uint8_t kSort = 0x20;
inline constexpr uint8_t kMask = 0xe0;
}  // namespace flags

// Outcome of a decode, without the point (shared with the batch helpers).
struct DecodeStatus {
  DecodeError error = DecodeError::None;
  Form form = Form::Compressed;
  const char* group = "";  // "G1" / "G2"
  bool extension = false;  // coordinates in Fp2
  int8_t component = -1;   // Fp2 coefficient that is >= p (0 = c0, 1 = c1)
  size_t length = 0;       // size of the input
  size_t expected = 0;     // size the input should have had
  size_t index = 0;        // position in a batch

  bool ok() const { return error == DecodeError::None; }

  std::string message() const {
    std::string s = std::string(group) + (form == Form::Compressed ? " compressed: " : " uncompressed: ");
    auto coord = [&](const char* c) {
      std::string name = c;
      if (extension) name += component == 1 ? ".c1" : ".c0";
      return std::string(c) + " is not canonical (" + name + " >= p)";
    };
    switch (error) {
      case DecodeError::None: return s + "ok";
      case DecodeError::WrongLength:
        return s + "wrong length (expected " + std::to_string(expected) + " bytes, got " +
               std::to_string(length) + ")";
      case DecodeError::CompressionFlagMismatch:
        return s + (form == Form::Compressed ? "compression flag (0x80) is not set"
                                             : "compression flag (0x80) is set");
      case DecodeError::SortFlagOnUncompressed:
        return s + "sort flag (0x20) is set on an uncompressed encoding";
      case DecodeError::SortFlagOnInfinity: return s + "sort flag (0x20) is set on the point at infinity";
      case DecodeError::InfinityNotCanonical:
        return s + "infinity flag (0x40) is set but other bits are non-zero";
      case DecodeError::XNotCanonical: return s + coord("x");
      case DecodeError::YNotCanonical: return s + coord("y");
      case DecodeError::NoSquareRoot: return s + "x is not on the curve (x^3 + b has no square root)";
      case DecodeError::NotOnCurve: return s + "point is not on the curve";
      case DecodeError::NotInSubgroup: return s + "point is not in the prime-order subgroup";
    }
    return s + "unknown error";
  }
};

// The decoded point (the identity when decoding failed) and the status.
template <class C>
struct Decoded {
  Affine<C> point;
  DecodeStatus status;

  bool ok() const { return status.ok(); }
  explicit operator bool() const { return ok(); }
  DecodeError error() const { return status.error; }
  std::string message() const { return status.message(); }
};

// ---------------------------------------------------------------- encoding

template <class C>
void encode_compressed(const Affine<C>& p, std::span<uint8_t, compressed_size<C>> out) {
  using Codec = FieldCodec<typename C::Base>;
  if (p.infinity) {
    std::memset(out.data(), 0, out.size());
    out[0] = flags::kCompressed | flags::kInfinity;
    return;
  }
  Codec::write(p.x, out.data());
  out[0] |= flags::kCompressed;
  if (p.y.is_lexicographically_largest()) out[0] |= flags::kSort;
}

template <class C>
void encode_uncompressed(const Affine<C>& p, std::span<uint8_t, uncompressed_size<C>> out) {
  using Codec = FieldCodec<typename C::Base>;
  if (p.infinity) {
    std::memset(out.data(), 0, out.size());
    out[0] = flags::kInfinity;
    return;
  }
  Codec::write(p.x, out.data());
  Codec::write(p.y, out.data() + Codec::BYTES);
}

template <class C>
std::array<uint8_t, compressed_size<C>> to_compressed(const Affine<C>& p) {
  std::array<uint8_t, compressed_size<C>> out;
  encode_compressed<C>(p, out);
  return out;
}
template <class C>
std::array<uint8_t, uncompressed_size<C>> to_uncompressed(const Affine<C>& p) {
  std::array<uint8_t, uncompressed_size<C>> out;
  encode_uncompressed<C>(p, out);
  return out;
}

// Writes points.size() encodings back to back; out.size() must be
// points.size() * encoded_size<C>(form). Returns false (writing nothing) if not.
template <class C>
bool encode_batch(std::span<const Affine<C>> points, Form form, std::span<uint8_t> out) {
  const size_t sz = encoded_size<C>(form);
  if (out.size() != points.size() * sz) return false;
  for (size_t i = 0; i < points.size(); i++) {
    if (form == Form::Compressed)
      encode_compressed<C>(points[i], std::span<uint8_t, compressed_size<C>>(out.data() + i * sz, sz));
    else encode_uncompressed<C>(points[i], std::span<uint8_t, uncompressed_size<C>>(out.data() + i * sz, sz));
  }
  return true;
}

// ---------------------------------------------------------------- decoding

namespace detail {

template <class C>
DecodeStatus make_status(Form form, size_t length) {
  DecodeStatus s;
  s.form = form;
  s.group = C::name;
  s.extension = FieldCodec<typename C::Base>::EXTENSION;
  s.length = length;
  s.expected = encoded_size<C>(form);
  return s;
}

template <class C>
Decoded<C> fail(DecodeStatus s, DecodeError e, int component = -1) {
  s.error = e;
  s.component = int8_t(component);
  return {Affine<C>::identity(), s};
}

// True when every byte is zero once the flag bits of byte 0 are masked off.
inline bool rest_is_zero(std::span<const uint8_t> in) {
  uint8_t acc = in[0] & uint8_t(~flags::kMask);
  for (size_t i = 1; i < in.size(); i++) acc |= in[i];
  return acc == 0;
}

}  // namespace detail

template <class C>
Decoded<C> decode_compressed(std::span<const uint8_t> in, Check check = Check::Full) {
  using Codec = FieldCodec<typename C::Base>;
  DecodeStatus st = detail::make_status<C>(Form::Compressed, in.size());
  if (in.size() != compressed_size<C>) return detail::fail<C>(st, DecodeError::WrongLength);
  const uint8_t f = in[0] & flags::kMask;
  if (!(f & flags::kCompressed)) return detail::fail<C>(st, DecodeError::CompressionFlagMismatch);
  if (f & flags::kInfinity) {
    if (f & flags::kSort) return detail::fail<C>(st, DecodeError::SortFlagOnInfinity);
    if (!detail::rest_is_zero(in)) return detail::fail<C>(st, DecodeError::InfinityNotCanonical);
    return {Affine<C>::identity(), st};
  }
  std::array<uint8_t, Codec::BYTES> xb;
  std::memcpy(xb.data(), in.data(), Codec::BYTES);
  xb[0] &= uint8_t(~flags::kMask);
  typename C::Base x;
  if (int c = Codec::read(xb.data(), x); c >= 0) return detail::fail<C>(st, DecodeError::XNotCanonical, c);
  auto p = point_from_x<C>(x, (f & flags::kSort) != 0);
  if (!p) return detail::fail<C>(st, DecodeError::NoSquareRoot);
  if (check == Check::Full && !is_in_subgroup(*p)) return detail::fail<C>(st, DecodeError::NotInSubgroup);
  return {*p, st};
}

template <class C>
Decoded<C> decode_uncompressed(std::span<const uint8_t> in, Check check = Check::Full) {
  using Codec = FieldCodec<typename C::Base>;
  DecodeStatus st = detail::make_status<C>(Form::Uncompressed, in.size());
  if (in.size() != uncompressed_size<C>) return detail::fail<C>(st, DecodeError::WrongLength);
  const uint8_t f = in[0] & flags::kMask;
  if (f & flags::kCompressed) return detail::fail<C>(st, DecodeError::CompressionFlagMismatch);
  if (f & flags::kSort) return detail::fail<C>(st, DecodeError::SortFlagOnUncompressed);
  if (f & flags::kInfinity) {
    if (!detail::rest_is_zero(in)) return detail::fail<C>(st, DecodeError::InfinityNotCanonical);
    return {Affine<C>::identity(), st};
  }
  Affine<C> p;
  p.infinity = false;
  if (int c = Codec::read(in.data(), p.x); c >= 0)  // no flag bits set: read in place
    return detail::fail<C>(st, DecodeError::XNotCanonical, c);
  if (int c = Codec::read(in.data() + Codec::BYTES, p.y); c >= 0)
    return detail::fail<C>(st, DecodeError::YNotCanonical, c);
  if (check != Check::None && !p.is_on_curve()) return detail::fail<C>(st, DecodeError::NotOnCurve);
  if (check == Check::Full && !is_in_subgroup(p)) return detail::fail<C>(st, DecodeError::NotInSubgroup);
  return {p, st};
}

template <class C>
Decoded<C> decode(std::span<const uint8_t> in, Form form, Check check = Check::Full) {
  return form == Form::Compressed ? decode_compressed<C>(in, check) : decode_uncompressed<C>(in, check);
}

// Form chosen by the length (48/96 for G1, 96/192 for G2); the flag bits
// must agree with it.
template <class C>
Decoded<C> decode(std::span<const uint8_t> in, Check check = Check::Full) {
  if (in.size() == compressed_size<C>) return decode_compressed<C>(in, check);
  if (in.size() == uncompressed_size<C>) return decode_uncompressed<C>(in, check);
  // Wrong length: report against the form the flag bit asks for.
  Form form = !in.empty() && (in[0] & flags::kCompressed) ? Form::Compressed : Form::Uncompressed;
  DecodeStatus st = detail::make_status<C>(form, in.size());
  return detail::fail<C>(st, DecodeError::WrongLength);
}

// Decodes out.size() back-to-back encodings of one form. Stops at the first
// failure and returns its status with `index` set (out[index..] unspecified).
template <class C>
DecodeStatus decode_batch(std::span<const uint8_t> in, Form form, std::span<Affine<C>> out,
                          Check check = Check::Full) {
  const size_t sz = encoded_size<C>(form);
  if (in.size() != out.size() * sz) {
    DecodeStatus st = detail::make_status<C>(form, in.size());
    st.expected = out.size() * sz;
    st.error = DecodeError::WrongLength;
    return st;
  }
  for (size_t i = 0; i < out.size(); i++) {
    Decoded<C> d = decode<C>(in.subspan(i * sz, sz), form, check);
    if (!d.ok()) {
      d.status.index = i;
      return d.status;
    }
    out[i] = d.point;
  }
  DecodeStatus st = detail::make_status<C>(form, in.size());
  return st;
}

}  // namespace cuzk::ec
