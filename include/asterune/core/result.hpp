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

inline Error make_error(std::string message) { return Error{std::move(message)}; }

}  // namespace asterune
