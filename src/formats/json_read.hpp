// Private helpers for the JSON readers of asterune::io: reading a file, parsing with
// nlohmann-json, and typed access that reports "<file>: <json path>: <reason>".
// Inside the readers a bad value throws LoadError; every public entry point catches it and
// returns a failed Result, so nothing half-built escapes and no exception leaves asterune::io.
#pragma once

#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

#include <glm/glm.hpp>
#include <nlohmann/json.hpp>

#include "asterune/core/result.hpp"
#include "asterune/math/cframe.hpp"
#include "asterune/math/transform.hpp"

namespace asterune::io::detail {

using Json = nlohmann::ordered_json;  // keeps file order (parts, output keys)

/// A reader failure: where (a JSON pointer such as "/joints/3/c0/cframe", or a line) and why.
struct LoadError {
  std::string where;
  std::string reason;
};

/// Deepest array/object nesting any JSON reader accepts (docs/formats.md, "Limits").
inline constexpr size_t kMaxJsonDepth = 64;
/// Largest text file (JSON, .rbxmx) any reader accepts: 256 MiB (docs/formats.md, "Limits").
inline constexpr std::uintmax_t kMaxTextFileBytes = std::uintmax_t{256} << 20;

/// Reads a whole file; throws LoadError{"", reason} when it cannot be opened or read, is a
/// directory or not a regular file (a device such as /dev/zero, a pipe), or is larger than
/// kMaxTextFileBytes.
std::string read_text_file(const std::filesystem::path& path);

/// Throws LoadError naming line and column when `text` nests arrays/objects deeper than
/// `max_depth` (brackets inside strings do not count). Linear, no recursion.
void check_json_depth(std::string_view text, size_t max_depth);

/// Writes `text` to `path` (replacing it). Fails with "<path>: cannot open file for writing" or
/// "<path>: write failed".
Status write_text_file(const std::filesystem::path& path, std::string_view text);

/// Parses JSON text; a syntax error or nesting deeper than kMaxJsonDepth throws LoadError
/// naming line and column.
Json parse_json(std::string_view text);

/// Appends a key or an index to a JSON pointer, escaping '~' and '/' (RFC 6901).
std::string child_pointer(const std::string& pointer, std::string_view key);
std::string child_pointer(const std::string& pointer, size_t index);

/// Formats the final message: "<file>: <where>: <reason>" (where may be empty).
Error to_error(std::string_view file, const LoadError& e);

/// The body every read_*_file entry point shares: reads the file at `path` (read_text_file) and
/// returns `parse(text, label)`, a Result, where label is path.string(). A LoadError that the
/// read or `parse` throws fails as to_error(label, e), so each reader states only its parse.
template <class Parse>
auto parse_text_file(const std::filesystem::path& path, Parse&& parse)
    -> std::invoke_result_t<Parse&, std::string_view, const std::string&> {
  const std::string label = path.string();
  try {
    const std::string text = read_text_file(path);
    return parse(std::string_view(text), label);
  } catch (const LoadError& e) {
    return to_error(label, e);
  }
}

[[noreturn]] void fail(const std::string& where, std::string reason);

/// Rejects keys other than `allowed` (keys starting with '_' are comments and always allowed).
void check_keys(const Json& object, const std::string& pointer, std::initializer_list<std::string_view> allowed);

const Json& require_object(const Json& v, const std::string& pointer);
const Json& require_array(const Json& v, const std::string& pointer);
/// Member `key` of object `v`, or nullptr if absent.
const Json* find_member(const Json& v, std::string_view key);
const Json& require_member(const Json& v, const std::string& pointer, std::string_view key);

std::string read_string(const Json& v, const std::string& pointer);
/// A non-empty string.
std::string read_name(const Json& v, const std::string& pointer);
bool read_bool(const Json& v, const std::string& pointer);
/// A finite number that fits a float.
float read_float(const Json& v, const std::string& pointer);
int read_int(const Json& v, const std::string& pointer);
glm::vec3 read_vec3(const Json& v, const std::string& pointer);
CFrameComponents read_cframe_array(const Json& v, const std::string& pointer);

/// A placement in either form of formats.md: {"position", "rotation"} or {"cframe"}.
Transform read_placement(const Json& v, const std::string& pointer);

/// A float as JSON with the shortest decimal text that reads back to the same float.
Json float_json(float f);
Json vec3_json(const glm::vec3& v);
/// {"position": [...], "rotation": [w, x, y, z]}
Json placement_json(const Transform& t);

/// Indented JSON text in which arrays of numbers and small placement objects stay on one line.
std::string pretty_json(const Json& v);
/// The same layout for a value nested `indent` levels deep (no trailing newline), for writers
/// that stream a document piece by piece.
void append_pretty_json(const Json& v, int indent, std::string& out);

}  // namespace asterune::io::detail
