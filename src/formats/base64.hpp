// Private base64 (RFC 4648, section 4: the standard alphabet, '=' padding) for the io writers
// and readers that embed binary data in text: the glTF data URI and CurveAnimation's
// ValuesAndTimes BinaryString.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace asterune::io::detail {

/// The base64 text of `data`: 4 characters for every 3 bytes, the last group padded with '='.
std::string base64_encode(std::string_view data);

/// The bytes of base64 `text`; white space (space, tab, CR, LF) anywhere is skipped and up to
/// two '=' may end it. Nothing when a character is outside the alphabet, a '=' is followed by
/// anything but white space or '=', or there are more than two '='.
std::optional<std::string> base64_decode(std::string_view text);

}  // namespace asterune::io::detail
