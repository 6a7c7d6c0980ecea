#include "asterune/documents/rig_file.hpp"

#include <map>

#include "rig_document.hpp"

namespace asterune::io {
namespace detail {

std::string default_rig_name(const std::filesystem::path& path) {
  std::string name = path.filename().string();
  for (std::string_view suffix : {".rig.json", ".json"}) {
    if (name.size() > suffix.size() && name.ends_with(suffix)) {
      name.resize(name.size() - suffix.size());
      break;
    }
  }
  return name;
}

/// Reads an already parsed `asterune.rig/1` document (throws LoadError).
RigDesc read_rig_document(const Json& doc, std::string_view default_name) {
  require_object(doc, "");
  check_keys(doc, "", {"format", "name", "root", "parts", "joints", "roles"});
  const std::string format = read_string(require_member(doc, "", "format"), "/format");
  if (format != kRigFormat)
    fail("/format", "unsupported format '" + format + "' (expected '" + std::string(kRigFormat) + "')");

  RigDesc desc;
  desc.name = std::string(default_name);
  if (const Json* n = find_member(doc, "name")) desc.name = read_string(*n, "/name");

  const Json& parts = require_array(require_member(doc, "", "parts"), "/parts");
  if (parts.empty()) fail("/parts", "the rig has no parts (empty rig)");
  std::map<std::string, std::string> id_owner;  // id -> pointer of the part that declared it
  for (size_t i = 0; i < parts.size(); ++i) {
    const std::string p = child_pointer("/parts", i);
    const Json& jp = require_object(parts[i], p);
    check_keys(jp, p, {"id", "name", "size", "placement"});
    PartDesc part;
    part.name = read_name(require_member(jp, p, "name"), child_pointer(p, "name"));
    std::string id_pointer = child_pointer(p, "name");
    part.id = part.name;
    if (const Json* id = find_member(jp, "id")) {
      id_pointer = child_pointer(p, "id");
      part.id = read_name(*id, id_pointer);
    }
    if (auto [it, inserted] = id_owner.emplace(part.id, p); !inserted)
      fail(id_pointer, "duplicate part id '" + part.id + "' (already used by " + it->second + ")");
    if (const Json* s = find_member(jp, "size")) part.size = read_vec3(*s, child_pointer(p, "size"));
    if (const Json* pl = find_member(jp, "placement")) part.placement = read_placement(*pl, child_pointer(p, "placement"));
    desc.parts.push_back(std::move(part));
  }

  if (const Json* joints = find_member(doc, "joints")) {
    require_array(*joints, "/joints");
    for (size_t i = 0; i < joints->size(); ++i) {
      const std::string p = child_pointer("/joints", i);
      const Json& jj = require_object((*joints)[i], p);
      check_keys(jj, p, {"name", "part0", "part1", "c0", "c1", "enabled"});
      JointDesc joint;
      joint.name = read_name(require_member(jj, p, "name"), child_pointer(p, "name"));
      for (auto [key, field] : {std::pair{"part0", &joint.part0}, std::pair{"part1", &joint.part1}}) {
        const std::string kp = child_pointer(p, key);
        *field = read_name(require_member(jj, p, key), kp);
        if (!id_owner.count(*field)) fail(kp, "unknown part '" + *field + "' (no part has this id)");
      }
      if (const Json* c0 = find_member(jj, "c0")) joint.c0 = read_placement(*c0, child_pointer(p, "c0"));
      if (const Json* c1 = find_member(jj, "c1")) joint.c1 = read_placement(*c1, child_pointer(p, "c1"));
      if (const Json* en = find_member(jj, "enabled")) joint.enabled = read_bool(*en, child_pointer(p, "enabled"));
      desc.joints.push_back(std::move(joint));
    }
  }

  if (const Json* root = find_member(doc, "root")) {
    desc.root = read_name(*root, "/root");
    if (!id_owner.count(desc.root)) fail("/root", "unknown part '" + desc.root + "' (no part has this id)");
  }
  if (const Json* roles = find_member(doc, "roles")) {
    require_object(*roles, "/roles");
    for (auto it = roles->begin(); it != roles->end(); ++it)
      desc.roles[it.key()] = read_name(it.value(), child_pointer("/roles", it.key()));
  }
  return desc;
}

}  // namespace detail

using namespace detail;

Result<RigDesc> parse_rig_json(std::string_view text, std::string_view file_label, std::string_view default_name) {
  try {
    return read_rig_document(parse_json(text), default_name);
  } catch (const LoadError& e) {
    return to_error(file_label, e);
  }
}

Result<RigDesc> read_rig_file(const std::filesystem::path& path) {
  return parse_text_file(path, [&](std::string_view text, const std::string& label) {
    return parse_rig_json(text, label, default_rig_name(path));
  });
}

std::string write_rig_json(const RigDesc& desc) {
  Json doc = Json::object();
  doc["format"] = kRigFormat;
  doc["name"] = desc.name;
  if (!desc.root.empty()) doc["root"] = desc.root;
  Json parts = Json::array();
  for (const PartDesc& part : desc.parts) {
    Json jp = Json::object();
    if (part.id != part.name) jp["id"] = part.id;
    jp["name"] = part.name;
    jp["size"] = vec3_json(part.size);
    if (part.placement) jp["placement"] = placement_json(*part.placement);
    parts.push_back(std::move(jp));
  }
  doc["parts"] = std::move(parts);
  Json joints = Json::array();
  for (const JointDesc& joint : desc.joints) {
    Json jj = Json::object();
    jj["name"] = joint.name;
    jj["part0"] = joint.part0;
    jj["part1"] = joint.part1;
    jj["c0"] = placement_json(joint.c0);
    jj["c1"] = placement_json(joint.c1);
    if (!joint.enabled) jj["enabled"] = false;
    joints.push_back(std::move(jj));
  }
  doc["joints"] = std::move(joints);
  if (!desc.roles.empty()) {
    Json roles = Json::object();
    for (const auto& [role, part] : desc.roles) roles[role] = part;
    doc["roles"] = std::move(roles);
  }
  return pretty_json(doc);
}

Status write_rig_file(const RigDesc& desc, const std::filesystem::path& path) {
  return detail::write_text_file(path, write_rig_json(desc));
}

}  // namespace asterune::io
