// Shared Roblox XML reading helpers (roblox_xml.hpp).
#include "roblox_xml.hpp"

#include <cmath>
#include <cstdlib>

namespace asterune::io::detail {

pugi::xml_node property(const pugi::xml_node& item, std::string_view name) {
  for (pugi::xml_node p : item.child("Properties").children())
    if (name == p.attribute("name").value()) return p;
  return {};
}

std::string item_label(const pugi::xml_node& item) {
  return std::string(item.attribute("class").value()) + " '" + property(item, "Name").child_value() +
         "' (referent " + item.attribute("referent").value() + ")";
}

float parse_number(const pugi::xml_node& n, const std::string& where) {
  const char* s = n.child_value();
  char* end = nullptr;
  const float v = std::strtof(s, &end);
  while (end && (*end == ' ' || *end == '\t' || *end == '\n' || *end == '\r')) ++end;
  if (end == s || (end && *end != '\0')) throw LoadError{where, std::string("not a number: '") + s + "'"};
  return v;
}

Transform read_cframe(const pugi::xml_node& item, std::string_view name, const std::string& label) {
  const pugi::xml_node cf = property(item, name);
  const std::string where = label + " " + std::string(name);
  if (!cf) throw LoadError{label, "missing property " + std::string(name)};
  static constexpr const char* kKeys[12] = {"X", "Y", "Z", "R00", "R01", "R02", "R10", "R11", "R12", "R20", "R21", "R22"};
  CFrameComponents c{};
  for (size_t i = 0; i < 12; ++i) {
    const pugi::xml_node v = cf.child(kKeys[i]);
    if (!v) throw LoadError{where, std::string("missing component ") + kKeys[i]};
    c[i] = parse_number(v, where + "." + kKeys[i]);
  }
  Result<Transform> t = from_cframe(c);
  if (!t) throw LoadError{where, "not a valid CFrame: " + t.message()};
  return t.value();
}

void load_xml(pugi::xml_document& doc, std::string_view text) {
  const pugi::xml_parse_result parsed = doc.load_buffer(text.data(), text.size());
  if (parsed) return;
  size_t line = 1;
  for (ptrdiff_t i = 0; i < parsed.offset && static_cast<size_t>(i) < text.size(); ++i)
    if (text[static_cast<size_t>(i)] == '\n') ++line;
  throw LoadError{"line " + std::to_string(line), std::string("invalid XML: ") + parsed.description()};
}

int read_token(const pugi::xml_node& item, std::string_view name, const std::string& label, int fallback) {
  const pugi::xml_node p = property(item, name);
  if (!p) return fallback;
  const std::string where = label + " " + std::string(name);
  const float v = parse_number(p, where);
  if (!std::isfinite(v) || v != std::floor(v) || std::fabs(v) > 1e6f)
    throw LoadError{where, std::string("not an enum token: '") + p.child_value() + "'"};
  return static_cast<int>(v);
}

}  // namespace asterune::io::detail
