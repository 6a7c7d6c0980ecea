// The io module's private base64 (src/formats/base64.hpp), which the glTF writer's data URI and the
// CurveAnimation ValuesAndTimes use, against the test vectors of RFC 4648, section 10, and
// groups worked out by hand from the alphabet of its section 4.
#include <catch2/catch.hpp>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "formats/base64.hpp"

using asterune::io::detail::base64_decode;
using asterune::io::detail::base64_encode;

namespace {

// RFC 4648, section 10: BASE64("") = "", BASE64("f") = "Zg==", ... BASE64("foobar") = "Zm9vYmFy".
const std::vector<std::pair<std::string, std::string>> kRfcVectors = {
    {"", ""},         {"f", "Zg=="},         {"fo", "Zm8="},     {"foo", "Zm9v"},
    {"foob", "Zm9vYg=="}, {"fooba", "Zm9vYmE="}, {"foobar", "Zm9vYmFy"},
};

}  // namespace

TEST_CASE("io base64: encodes the RFC 4648 test vectors", "[io][base64]") {
  for (const auto& [bytes, text] : kRfcVectors) {
    INFO("'" << bytes << "'");
    CHECK(base64_encode(bytes) == text);
  }
}

TEST_CASE("io base64: decodes the RFC 4648 test vectors", "[io][base64]") {
  for (const auto& [bytes, text] : kRfcVectors) {
    INFO("'" << text << "'");
    const std::optional<std::string> got = base64_decode(text);
    REQUIRE(got);
    CHECK(*got == bytes);
  }
}

TEST_CASE("io base64: bytes above 0x7f and zero bytes", "[io][base64]") {
  // ff fe fd = 111111 111111 111011 111101 = 63 63 59 61 = "//79"; 00 00 = 000000 000000 0000(00) = "AAA=".
  const std::string high("\xff\xfe\xfd", 3), zeros(2, '\0');
  CHECK(base64_encode(high) == "//79");
  CHECK(base64_encode(zeros) == "AAA=");
  CHECK(base64_decode("//79") == std::optional<std::string>(high));
  CHECK(base64_decode("AAA=") == std::optional<std::string>(zeros));
}

TEST_CASE("io base64: white space is skipped, anything else outside the alphabet is refused", "[io][base64]") {
  CHECK(base64_decode(" Zm9v\r\nYmFy\t") == std::optional<std::string>("foobar"));
  CHECK(base64_decode("Zg==\n") == std::optional<std::string>("f"));
  CHECK_FALSE(base64_decode("Zm9v!"));
  CHECK_FALSE(base64_decode("Zm9v-_"));  // the URL-safe alphabet (RFC 4648, section 5) is not this one
  CHECK_FALSE(base64_decode("Zg=a"));    // '=' only at the end
  CHECK_FALSE(base64_decode("Zg==="));   // at most two '='
}
