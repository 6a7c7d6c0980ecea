// Test helper: a base64 decoder of the tests' own (RFC 4648, section 4 alphabet), for reading
// back the binary data the writers embed in text (the glTF data URI, CurveAnimation's
// ValuesAndTimes) independently of the library's base64. Characters outside the alphabet
// (white space, '=' padding) are skipped.
#pragma once

#include <cstring>
#include <string>
#include <string_view>

namespace asterune::test {

inline std::string decode_base64(std::string_view s) {
  static const char* const kTable = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  unsigned acc = 0;
  int bits = 0;
  for (char c : s) {
    const char* at = std::strchr(kTable, c);
    if (c == '\0' || at == nullptr) continue;  // whitespace and '=' padding
    acc = (acc << 6) | static_cast<unsigned>(at - kTable);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<char>((acc >> bits) & 0xffu));
    }
  }
  return out;
}

}  // namespace asterune::test
