#include "asterune/formats/roblox.hpp"
#include "json_read.hpp"

namespace asterune::io {
using namespace detail;

namespace {

Transform cframe_at(const Json& v, const std::string& p) {
  Result<Transform> t = from_cframe(read_cframe_array(v, p));
  if (!t) fail(p, "not a valid CFrame: " + t.message());
  return t.value();
}

RigDesc read_roblox_document(const Json& doc, std::string_view default_name) {
  require_object(doc, "");
  RigDesc desc;
  desc.name = std::string(default_name);
  const Json& parts = require_object(require_member(doc, "", "parts"), "/parts");
  if (parts.empty()) fail("/parts", "the rig has no parts (empty rig)");
  for (auto it = parts.begin(); it != parts.end(); ++it) {
    const std::string p = child_pointer("/parts", it.key());
    const Json& jp = require_object(it.value(), p);
    PartDesc part;
    part.id = part.name = it.key();
    if (part.name.empty()) fail(p, "empty part name");
    if (const Json* s = find_member(jp, "size")) part.size = read_vec3(*s, child_pointer(p, "size"));
    if (const Json* cf = find_member(jp, "CFrame")) part.placement = cframe_at(*cf, child_pointer(p, "CFrame"));
    else if (const Json* rp = find_member(jp, "rest_position"))
      part.placement = Transform::from_position(read_vec3(*rp, child_pointer(p, "rest_position")));
    desc.parts.push_back(std::move(part));
  }
  const Json& joints = require_array(require_member(doc, "", "joints"), "/joints");
  for (size_t i = 0; i < joints.size(); ++i) {
    const std::string p = child_pointer("/joints", i);
    const Json& jj = require_object(joints[i], p);
    JointDesc joint;
    joint.name = read_name(require_member(jj, p, "name"), child_pointer(p, "name"));
    joint.part0 = read_name(require_member(jj, p, "Part0"), child_pointer(p, "Part0"));
    joint.part1 = read_name(require_member(jj, p, "Part1"), child_pointer(p, "Part1"));
    for (const std::string* ref : {&joint.part0, &joint.part1})
      if (!parts.contains(*ref))
        fail(child_pointer(p, ref == &joint.part0 ? "Part0" : "Part1"), "unknown part '" + *ref + "'");
    joint.c0 = cframe_at(require_member(jj, p, "C0"), child_pointer(p, "C0"));
    joint.c1 = cframe_at(require_member(jj, p, "C1"), child_pointer(p, "C1"));
    desc.joints.push_back(std::move(joint));
  }
  return desc;
}

}  // namespace

Result<RigDesc> parse_roblox_rig_json(std::string_view text, std::string_view file_label, std::string_view default_name) {
  try {
    return read_roblox_document(parse_json(text), default_name);
  } catch (const LoadError& e) {
    return to_error(file_label, e);
  }
}

Result<RigDesc> read_roblox_rig_json_file(const std::filesystem::path& path) {
  std::string name = path.filename().string();
  if (const size_t dot = name.find('.'); dot != std::string::npos) name.resize(dot);
  return parse_text_file(path, [&](std::string_view text, const std::string& label) {
    return parse_roblox_rig_json(text, label, name);
  });
}

}  // namespace asterune::io
