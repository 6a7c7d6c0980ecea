#include "json_read.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <sstream>

namespace asterune::io::detail {

std::string read_text_file(const std::filesystem::path& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) fail("", "is a directory, not a file");
  const auto status = std::filesystem::status(path, ec);
  if (!ec && std::filesystem::exists(status) && !std::filesystem::is_regular_file(status))
    fail("", "is not a regular file (devices, pipes and sockets are refused)");
  if (!ec && std::filesystem::is_regular_file(status)) {
    const auto size = std::filesystem::file_size(path, ec);
    if (!ec && size > kMaxTextFileBytes)
      fail("", "file is " + std::to_string(size) + " bytes, more than the limit of " +
                   std::to_string(kMaxTextFileBytes));
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) fail("", "cannot open file");
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) fail("", "cannot read file");
  return ss.str();
}

namespace {
// Line and column (1-based) of byte offset `end` in `text`.
std::string line_column(std::string_view text, size_t end) {
  size_t line = 1, col = 1;
  end = std::min(end, text.size());
  for (size_t i = 0; i < end; ++i) {
    if (text[i] == '\n') ++line, col = 1;
    else ++col;
  }
  return "line " + std::to_string(line) + ", column " + std::to_string(col);
}
}  // namespace

void check_json_depth(std::string_view text, size_t max_depth) {
  // Counts brackets outside strings, so the parser (and the recursive copies and destructors
  // of the value it builds) never sees more than max_depth levels. Syntax is left to the parser.
  size_t depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > max_depth)
        fail(line_column(text, i), "invalid JSON: nested deeper than " + std::to_string(max_depth) + " levels");
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
}

Status write_text_file(const std::filesystem::path& path, std::string_view text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return make_error(path.string() + ": cannot open file for writing");
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  out.flush();
  if (!out) return make_error(path.string() + ": write failed");
  return Success{};
}

Json parse_json(std::string_view text) {
  check_json_depth(text, kMaxJsonDepth);
  try {
    return Json::parse(text.begin(), text.end());
  } catch (const Json::parse_error& e) {
    std::string what = e.what();
    // nlohmann prefixes "[json.exception.parse_error.101] parse error at line 1, column 5: ".
    const size_t colon = what.find(": ");
    if (colon != std::string::npos) what = what.substr(colon + 2);
    fail(line_column(text, e.byte == 0 ? size_t{0} : e.byte - 1), "invalid JSON: " + what);
  } catch (const Json::exception& e) {  // e.g. out_of_range.406: a number too large for a double
    std::string what = e.what();
    const size_t bracket = what.find("] ");
    if (bracket != std::string::npos) what = what.substr(bracket + 2);
    fail("", "invalid JSON: " + what);
  }
}

std::string child_pointer(const std::string& pointer, std::string_view key) {
  std::string out = pointer;
  out += '/';
  for (char c : key) {
    if (c == '~') out += "~0";
    else if (c == '/') out += "~1";
    else out += c;
  }
  return out;
}

std::string child_pointer(const std::string& pointer, size_t index) { return pointer + "/" + std::to_string(index); }

Error to_error(std::string_view file, const LoadError& e) {
  std::string msg(file);
  if (!e.where.empty()) msg += ": " + e.where;
  msg += ": " + e.reason;
  return make_error(std::move(msg));
}

void fail(const std::string& where, std::string reason) { throw LoadError{where, std::move(reason)}; }

namespace {
const char* type_name(const Json& v) {
  switch (v.type()) {
    case Json::value_t::null: return "null";
    case Json::value_t::object: return "an object";
    case Json::value_t::array: return "an array";
    case Json::value_t::string: return "a string";
    case Json::value_t::boolean: return "a boolean";
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
    case Json::value_t::number_float: return "a number";
    default: return "an unsupported value";
  }
}
std::string at(const std::string& pointer) { return pointer.empty() ? std::string("/") : pointer; }
}  // namespace

void check_keys(const Json& object, const std::string& pointer, std::initializer_list<std::string_view> allowed) {
  for (auto it = object.begin(); it != object.end(); ++it) {
    const std::string& key = it.key();
    if (!key.empty() && key[0] == '_') continue;
    bool ok = false;
    for (std::string_view a : allowed) ok = ok || key == a;
    if (!ok) {
      std::string list;
      for (std::string_view a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
      fail(child_pointer(pointer, key), "unknown key '" + key + "' (expected one of: " + list + ")");
    }
  }
}

const Json& require_object(const Json& v, const std::string& pointer) {
  if (!v.is_object()) fail(at(pointer), std::string("expected an object, found ") + type_name(v));
  return v;
}

const Json& require_array(const Json& v, const std::string& pointer) {
  if (!v.is_array()) fail(at(pointer), std::string("expected an array, found ") + type_name(v));
  return v;
}

const Json* find_member(const Json& v, std::string_view key) {
  auto it = v.find(std::string(key));
  return it == v.end() ? nullptr : &*it;
}

const Json& require_member(const Json& v, const std::string& pointer, std::string_view key) {
  const Json* m = find_member(v, key);
  if (!m) fail(at(pointer), "missing required key '" + std::string(key) + "'");
  return *m;
}

std::string read_string(const Json& v, const std::string& pointer) {
  if (!v.is_string()) fail(at(pointer), std::string("expected a string, found ") + type_name(v));
  return v.get<std::string>();
}

std::string read_name(const Json& v, const std::string& pointer) {
  std::string s = read_string(v, pointer);
  if (s.empty()) fail(at(pointer), "must not be empty");
  return s;
}

bool read_bool(const Json& v, const std::string& pointer) {
  if (!v.is_boolean()) fail(at(pointer), std::string("expected true or false, found ") + type_name(v));
  return v.get<bool>();
}

float read_float(const Json& v, const std::string& pointer) {
  if (!v.is_number()) fail(at(pointer), std::string("expected a number, found ") + type_name(v));
  const double d = v.get<double>();
  if (!std::isfinite(d) || std::fabs(d) > static_cast<double>(std::numeric_limits<float>::max()))
    fail(at(pointer), "number is not finite (or too large for a float)");
  return static_cast<float>(d);
}

int read_int(const Json& v, const std::string& pointer) {
  if (!v.is_number_integer())
    fail(at(pointer), std::string("expected an integer, found ") + (v.is_number() ? "a fractional number" : type_name(v)));
  const auto i = v.get<long long>();
  if (i < std::numeric_limits<int>::min() || i > std::numeric_limits<int>::max()) fail(at(pointer), "integer out of range");
  return static_cast<int>(i);
}

namespace {
template <size_t N>
std::array<float, N> read_floats(const Json& v, const std::string& pointer) {
  require_array(v, pointer);
  if (v.size() != N)
    fail(at(pointer), "expected " + std::to_string(N) + " numbers, found " + std::to_string(v.size()));
  std::array<float, N> out{};
  for (size_t i = 0; i < N; ++i) out[i] = read_float(v[i], child_pointer(pointer, i));
  return out;
}
}  // namespace

glm::vec3 read_vec3(const Json& v, const std::string& pointer) {
  const auto a = read_floats<3>(v, pointer);
  return {a[0], a[1], a[2]};
}

CFrameComponents read_cframe_array(const Json& v, const std::string& pointer) { return read_floats<12>(v, pointer); }

Transform read_placement(const Json& v, const std::string& pointer) {
  require_object(v, pointer);
  check_keys(v, pointer, {"position", "rotation", "cframe"});
  if (const Json* cf = find_member(v, "cframe")) {
    if (find_member(v, "position") || find_member(v, "rotation"))
      fail(at(pointer), "give either 'cframe' or 'position'/'rotation', not both");
    const std::string p = child_pointer(pointer, "cframe");
    Result<Transform> t = from_cframe(read_cframe_array(*cf, p));
    if (!t) fail(p, "not a valid CFrame: " + t.message());
    return t.value();
  }
  Transform t;
  if (const Json* pos = find_member(v, "position")) t.position = read_vec3(*pos, child_pointer(pointer, "position"));
  if (const Json* rot = find_member(v, "rotation")) {
    const std::string p = child_pointer(pointer, "rotation");
    const auto q = read_floats<4>(*rot, p);
    const auto n = normalized_rotation(glm::quat(q[0], q[1], q[2], q[3]));
    if (!n) fail(p, "rotation quaternion [w, x, y, z] has zero length");
    t.rotation = *n;
  }
  return t;
}

Json float_json(float f) {
  if (f == 0.0f) return 0.0;  // no "-0"
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, f);
  return std::strtod(std::string(buf, r.ptr).c_str(), nullptr);
}

Json vec3_json(const glm::vec3& v) { return Json::array({float_json(v.x), float_json(v.y), float_json(v.z)}); }

Json placement_json(const Transform& t) {
  const glm::quat& q = t.rotation;
  return Json{{"position", vec3_json(t.position)},
              {"rotation", Json::array({float_json(q.w), float_json(q.x), float_json(q.y), float_json(q.z)})}};
}

}  // namespace asterune::io::detail

namespace asterune::io::detail {
namespace {
void pretty(const Json& v, int indent, std::string& out) {
  const bool flat = !v.is_structured() || v.empty() ||
                    std::all_of(v.begin(), v.end(), [](const Json& e) { return !e.is_structured(); }) ||
                    (v.is_object() && v.size() <= 2 && std::all_of(v.begin(), v.end(), [](const Json& e) {
                       return !e.is_object() && (!e.is_array() || std::all_of(e.begin(), e.end(), [](const Json& x) {
                                                   return !x.is_structured();
                                                 }));
                     }));
  if (flat) {
    out += v.dump(-1, ' ', false, Json::error_handler_t::replace);
    return;
  }
  const std::string pad(static_cast<size_t>(indent + 1), ' ');
  out += v.is_array() ? "[\n" : "{\n";
  size_t i = 0;
  for (auto it = v.begin(); it != v.end(); ++it, ++i) {
    out += pad;
    if (v.is_object()) out += Json(it.key()).dump() + ": ";
    pretty(*it, indent + 1, out);
    out += (i + 1 < v.size()) ? ",\n" : "\n";
  }
  out += std::string(static_cast<size_t>(indent), ' ') + (v.is_array() ? "]" : "}");
}
}  // namespace

std::string pretty_json(const Json& v) {
  std::string out;
  pretty(v, 0, out);
  return out + "\n";
}

void append_pretty_json(const Json& v, int indent, std::string& out) { pretty(v, indent, out); }

}  // namespace asterune::io::detail
