#include "asterune/documents/rig_loader.hpp"

#include <cctype>
#include <filesystem>

#include "asterune/documents/rig_file.hpp"
#include "asterune/formats/roblox.hpp"
#include "asterune/rig/builtin.hpp"
#include "rig_document.hpp"

namespace asterune::io {
using namespace detail;

Result<RigDesc> load_rig_desc(std::string_view spec) {
  constexpr std::string_view kBuiltin = "builtin:";
  if (spec.starts_with(kBuiltin)) {
    if (auto desc = builtin_rig_desc(spec)) return std::move(*desc);
    std::string names;
    for (std::string_view n : builtin_rig_names()) names += (names.empty() ? "" : ", ") + std::string(kBuiltin) + std::string(n);
    return make_error("unknown built-in rig '" + std::string(spec) + "' (built-in rigs: " + names + ")");
  }
  const std::filesystem::path path{std::string(spec)};
  if (path.extension() == ".rbxmx") return read_rbxmx_file(path);
  std::string ext = path.extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (ext == ".gltf" || ext == ".glb" || ext == ".vrm" || ext == ".vrma" || ext == ".bvh")  // rule F21
    return make_error(std::string(spec) + ": a " + ext.substr(1) +
                      " file is an animation source, not a rig: play it with --clip; a rig is builtin:r15, "
                      "builtin:r6, an asterune.rig/1 .json, a Roblox JSON extraction or a Roblox .rbxmx model");
  return parse_text_file(path, [&](std::string_view text, const std::string& label) -> Result<RigDesc> {
    const Json doc = parse_json(text);
    if (doc.is_object() && !doc.contains("format") && doc.contains("parts") && doc["parts"].is_object())
      return parse_roblox_rig_json(text, label, default_rig_name(path));
    return read_rig_document(doc, default_rig_name(path));
  });
}

Result<Rig> load_rig(std::string_view spec) {
  Result<RigDesc> desc = load_rig_desc(spec);
  if (!desc) return desc.error();
  Result<Rig> rig = build_rig(desc.value());
  if (!rig) return make_error(std::string(spec) + ": " + rig.message());
  return rig;
}

}  // namespace asterune::io

namespace asterune::io {

Transform default_root_placement(const Rig& rig) {
  if (rig.root_part() < 0) return Transform::identity();
  const auto& placement = rig.part(rig.root_part()).placement;
  return placement ? *placement : Transform::identity();
}

}  // namespace asterune::io
