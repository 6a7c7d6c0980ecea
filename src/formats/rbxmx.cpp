#include <cmath>
#include <cstdlib>
#include <map>
#include <set>

#include <pugixml.hpp>

#include "asterune/formats/roblox.hpp"
#include "json_read.hpp"
#include "roblox_xml.hpp"

namespace asterune::io {
namespace {

using detail::LoadError;
using detail::parse_number;
using detail::property;
using detail::read_cframe;

bool is_part_class(std::string_view c) {
  return c == "Part" || c == "MeshPart" || c == "WedgePart" || c == "CornerWedgePart" || c == "TrussPart" ||
         c == "UnionOperation";
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
    const std::string label = detail::item_label(item);
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
  try {
    detail::load_xml(doc, text);
  } catch (const LoadError& e) {
    return detail::to_error(file_label, e);
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
  return detail::parse_text_file(path, [&](std::string_view text, const std::string& label) {
    return parse_rbxmx(text, label, path.stem().string());
  });
}

}  // namespace asterune::io
