#include <cmath>
#include <cstdlib>
#include <map>
#include <set>

#include <pugixml.hpp>

#include "asterune/io/roblox.hpp"
#include "json_read.hpp"

namespace asterune::io {
namespace {

using detail::LoadError;

bool is_part_class(std::string_view c) {
  return c == "Part" || c == "MeshPart" || c == "WedgePart" || c == "CornerWedgePart" || c == "TrussPart" ||
         c == "UnionOperation";
}

/// The <Properties> child named `name` (any element type), or an empty node.
pugi::xml_node property(const pugi::xml_node& item, std::string_view name) {
  for (pugi::xml_node p : item.child("Properties").children())
    if (name == p.attribute("name").value()) return p;
  return {};
}

struct ItemLabel {
  std::string text;  // e.g. "Motor6D 'Neck' (referent RBX12...)"
};

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

glm::vec3 read_vector3(const pugi::xml_node& v, const std::string& where) {
  glm::vec3 out;
  const char* keys[3] = {"X", "Y", "Z"};
  for (int i = 0; i < 3; ++i) {
    const pugi::xml_node c = v.child(keys[i]);
    if (!c) throw LoadError{where, std::string("missing component ") + keys[i]};
    out[i] = parse_number(c, where + "." + keys[i]);
    if (!std::isfinite(out[i])) throw LoadError{where, "nonfinite size"};
  }
  return out;
}

struct RawPart {
  std::string referent, name;
  PartDesc desc;
};
struct RawMotor {
  std::string part0_ref, part1_ref;
  JointDesc desc;
};

// Visits every <Item> below `top` in document order (pre-order). Iterative: the input decides
// the nesting depth, so recursion could overflow the stack.
void collect(const pugi::xml_node& top, std::vector<RawPart>& parts, std::vector<RawMotor>& motors,
             std::string& model_name) {
  std::vector<pugi::xml_node> stack;  // the next <Item> sibling to visit at each open level
  if (pugi::xml_node first = top.child("Item")) stack.push_back(first);
  while (!stack.empty()) {
    const pugi::xml_node item = stack.back();
    if (pugi::xml_node next = item.next_sibling("Item")) stack.back() = next;
    else stack.pop_back();
    const std::string cls = item.attribute("class").value();
    const std::string ref = item.attribute("referent").value();
    const std::string name = property(item, "Name").child_value();
    const std::string label = cls + " '" + name + "' (referent " + ref + ")";
    if (cls == "Model" && model_name.empty()) model_name = name;
    if (is_part_class(cls)) {
      RawPart p;
      p.referent = ref;
      p.name = name;
      if (name.empty()) throw LoadError{label, "part has no Name"};
      p.desc.placement = read_cframe(item, "CFrame", label);
      pugi::xml_node size = property(item, "size");
      if (!size) size = property(item, "Size");
      if (size) p.desc.size = read_vector3(size, label + " size");
      parts.push_back(std::move(p));
    } else if (cls == "Motor6D") {
      RawMotor m;
      m.desc.name = name;
      m.part0_ref = property(item, "Part0").child_value();
      m.part1_ref = property(item, "Part1").child_value();
      m.desc.c0 = read_cframe(item, "C0", label);
      m.desc.c1 = read_cframe(item, "C1", label);
      if (pugi::xml_node en = property(item, "Enabled")) m.desc.enabled = std::string_view(en.child_value()) != "false";
      motors.push_back(std::move(m));
    }
    if (pugi::xml_node child = item.child("Item")) stack.push_back(child);
  }
}

}  // namespace

Result<RigDesc> parse_rbxmx(std::string_view text, std::string_view file_label, std::string_view default_name) {
  pugi::xml_document doc;
  const pugi::xml_parse_result parsed = doc.load_buffer(text.data(), text.size());
  if (!parsed) {
    size_t line = 1;
    for (ptrdiff_t i = 0; i < parsed.offset && static_cast<size_t>(i) < text.size(); ++i)
      if (text[static_cast<size_t>(i)] == '\n') ++line;
    return detail::to_error(file_label, LoadError{"line " + std::to_string(line),
                                                  std::string("invalid XML: ") + parsed.description()});
  }
  const pugi::xml_node root = doc.child("roblox");
  if (!root) return detail::to_error(file_label, LoadError{"", "not a Roblox XML model (no <roblox> element)"});
  try {
    std::vector<RawPart> parts;
    std::vector<RawMotor> motors;
    std::string model_name;
    collect(root, parts, motors, model_name);
    if (parts.empty()) throw LoadError{"", "no parts (Part/MeshPart items) found: empty rig"};
    std::map<std::string, int> name_count;
    for (const RawPart& p : parts) ++name_count[p.name];
    std::map<std::string, std::string> ref_to_id;
    std::set<std::string> ids;
    RigDesc desc;
    desc.name = model_name.empty() ? std::string(default_name) : model_name;
    for (RawPart& p : parts) {
      p.desc.name = p.name;
      p.desc.id = name_count[p.name] == 1 ? p.name : p.referent;
      if (p.desc.id.empty() || !ids.insert(p.desc.id).second)
        throw LoadError{"part '" + p.name + "'", "duplicate or missing referent '" + p.referent + "'"};
      ref_to_id[p.referent] = p.desc.id;
      desc.parts.push_back(std::move(p.desc));
    }
    for (RawMotor& m : motors) {
      auto resolve = [&](const std::string& ref) {
        auto it = ref_to_id.find(ref);
        return it == ref_to_id.end() ? (ref.empty() ? std::string("null") : ref) : it->second;
      };
      m.desc.part0 = resolve(m.part0_ref);
      m.desc.part1 = resolve(m.part1_ref);
      desc.joints.push_back(std::move(m.desc));
    }
    return desc;
  } catch (const LoadError& e) {
    return detail::to_error(file_label, e);
  }
}

Result<RigDesc> read_rbxmx_file(const std::filesystem::path& path) {
  try {
    const std::string text = detail::read_text_file(path);
    return parse_rbxmx(text, path.string(), path.stem().string());
  } catch (const LoadError& e) {
    return detail::to_error(path.string(), e);
  }
}

}  // namespace asterune::io
