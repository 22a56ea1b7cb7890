#pragma once
// printf-style formatting into std::string, and escaping for SVG/HTML text.
#include <cstdarg>
#include <cstdio>
#include <string>
#include <string_view>

namespace cuzk::timeline {

[[gnu::format(printf, 1, 2)]] inline std::string strf(const char* fmt, ...) {
  char small[256];
  va_list ap;
  va_start(ap, fmt);
  int n = std::vsnprintf(small, sizeof small, fmt, ap);
  va_end(ap);
  if (n < 0) return {};
  if (size_t(n) < sizeof small) return std::string(small, size_t(n));
  std::string out(size_t(n) + 1, '\0');
  va_start(ap, fmt);
  std::vsnprintf(out.data(), out.size(), fmt, ap);
  va_end(ap);
  out.resize(size_t(n));
  return out;
}

// Escapes &, <, >, " and ' and drops control characters (XML 1.0 forbids them).
inline std::string xml_escape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default:
        if (static_cast<unsigned char>(c) >= 0x20 || c == '\t') out += c;
    }
  }
  return out;
}

// "850 ms" below a second, "12.3 s" above.
inline std::string human_ms(double ms) { return ms < 1000 ? strf("%.0f ms", ms) : strf("%.1f s", ms / 1000); }

// Seconds with one decimal from milliseconds ("12.3").
inline std::string secs(double ms, int decimals = 1) { return strf("%.*f", decimals, ms / 1000.0); }

}  // namespace cuzk::timeline
