#include "asterune/io/scene_file.hpp"

#include "scene_blocks.hpp"

namespace asterune::io {
using namespace detail;

std::filesystem::path SceneBlockContext::resolve(const std::string& path) const {
  const std::filesystem::path p(path);
  return p.is_absolute() ? p : (base_dir / p).lexically_normal();
}

namespace {

constexpr std::string_view kCoreKeys[] = {"format", "rig", "root", "pose", "frames", "dt"};

SceneDesc read_scene_document(const Json& doc, const SceneBlockContext& ctx) {
  require_object(doc, "");
  // Every key must be a core key or a registered block (or a '_' comment).
  for (auto it = doc.begin(); it != doc.end(); ++it) {
    const std::string& key = it.key();
    if (!key.empty() && key[0] == '_') continue;
    bool known = false;
    for (std::string_view k : kCoreKeys) known = known || key == k;
    for (const SceneBlock& b : scene_blocks()) known = known || key == b.key;
    if (!known) {
      std::string list;
      for (std::string_view k : kCoreKeys) list += (list.empty() ? "" : ", ") + std::string(k);
      for (const SceneBlock& b : scene_blocks()) list += ", " + std::string(b.key);
      fail(child_pointer("", key), "unknown key '" + key + "' (expected one of: " + list + ")");
    }
  }
  const std::string format = read_string(require_member(doc, "", "format"), "/format");
  if (format != kSceneFormat)
    fail("/format", "unsupported format '" + format + "' (expected '" + std::string(kSceneFormat) + "')");

  SceneDesc scene;
  scene.file = ctx.scene_file;
  const std::string rig = read_name(require_member(doc, "", "rig"), "/rig");
  scene.rig = rig.starts_with("builtin:") ? rig : ctx.resolve(rig).string();
  if (const Json* root = find_member(doc, "root")) scene.root = read_placement(*root, "/root");
  if (const Json* pose = find_member(doc, "pose")) scene.pose = ctx.resolve(read_name(*pose, "/pose"));
  if (const Json* frames = find_member(doc, "frames")) {
    scene.frames = read_int(*frames, "/frames");
    if (scene.frames < 1 || scene.frames > 100000) fail("/frames", "must be between 1 and 100000");
  }
  if (const Json* dt = find_member(doc, "dt")) {
    scene.dt = read_float(*dt, "/dt");
    if (!(scene.dt > 0.0f && scene.dt <= 1.0f)) fail("/dt", "must be a time step in seconds in (0, 1]");
  }
  for (const SceneBlock& block : scene_blocks())
    if (const Json* v = find_member(doc, block.key)) block.read(*v, child_pointer("", block.key), ctx, scene);
  return scene;
}

}  // namespace

Result<SceneDesc> parse_scene_json(std::string_view text, const std::filesystem::path& scene_file) {
  try {
    SceneBlockContext ctx{scene_file, scene_file.parent_path()};
    return read_scene_document(parse_json(text), ctx);
  } catch (const LoadError& e) {
    return to_error(scene_file.string(), e);
  }
}

Result<SceneDesc> read_scene_file(const std::filesystem::path& path) {
  try {
    return parse_scene_json(read_text_file(path), path);
  } catch (const LoadError& e) {
    return to_error(path.string(), e);
  }
}

}  // namespace asterune::io
