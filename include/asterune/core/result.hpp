// Result<T>: the error-as-value type every setup-time (loading, building, binding) function
// returns. A failed Result carries one human-readable message naming the file or item and
// the reason; a successful one carries the value. Per-frame functions never use it.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace asterune {

/// A setup-time failure: one message that names the item and the reason.
struct Error {
  std::string message;
};

/// Either a value or an Error. Cheap to move; never throws on access misuse in release
/// builds' callers that check ok() first.
template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : data_(std::move(value)) {}               // NOLINT: implicit by design
  Result(Error error) : data_(std::move(error)) {}           // NOLINT: implicit by design

  bool ok() const { return data_.index() == 0; }
  explicit operator bool() const { return ok(); }

  T& value() & { return std::get<0>(data_); }
  const T& value() const& { return std::get<0>(data_); }
  T&& value() && { return std::get<0>(std::move(data_)); }
  const Error& error() const { return std::get<1>(data_); }
  const std::string& message() const { return std::get<1>(data_).message; }

 private:
  std::variant<T, Error> data_;
};

/// Result of an operation that has no value to return.
struct Success {};
using Status = Result<Success>;

/// Builds an Error. Messages are one line (rule RG7): a control character that came from the
/// input (a line break inside a quoted key or name) is written as an escape (\n, \r, \t,
/// \xHH), so a log or a CLI's stderr shows one line per refusal.
inline Error make_error(std::string message) {
  static constexpr char kHex[] = "0123456789abcdef";
  size_t i = 0;
  while (i < message.size() && static_cast<unsigned char>(message[i]) >= 0x20 && message[i] != 0x7f) ++i;
  if (i == message.size()) return Error{std::move(message)};
  std::string out = message.substr(0, i);
  for (; i < message.size(); ++i) {
    const auto c = static_cast<unsigned char>(message[i]);
    if (c >= 0x20 && c != 0x7f) out += static_cast<char>(c);
    else if (c == '\n') out += "\\n";
    else if (c == '\r') out += "\\r";
    else if (c == '\t') out += "\\t";
    else out += std::string("\\x") + kHex[c >> 4] + kHex[c & 15];
  }
  return Error{std::move(out)};
}

}  // namespace asterune
