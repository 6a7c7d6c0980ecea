#include "asterune/documents/scene_file.hpp"

#include <cmath>

#include "scene_blocks.hpp"

namespace asterune::io {
using namespace detail;

std::filesystem::path SceneBlockContext::resolve(const std::string& path) const {
  const std::filesystem::path p(path);
  return p.is_absolute() ? p : (base_dir / p).lexically_normal();
}

namespace {

// {"path": [{"t", "position", "rotation"?}...]}: at least one key, times nondecreasing.
std::vector<RootKey> read_root_path(const Json& v, const std::string& pointer) {
  check_keys(v, pointer, {"path"});
  const std::string pp = child_pointer(pointer, "path");
  const Json& path = require_member(v, pointer, "path");
  require_array(path, pp);
  if (path.empty()) fail(pp, "a root path needs at least one key");
  std::vector<RootKey> keys;
  for (size_t i = 0; i < path.size(); ++i) {
    const std::string kp = child_pointer(pp, i);
    const Json& k = path[i];
    require_object(k, kp);
    check_keys(k, kp, {"t", "position", "rotation"});
    RootKey key;
    key.t = read_float(require_member(k, kp, "t"), child_pointer(kp, "t"));
    require_member(k, kp, "position");
    Json placement = k;
    placement.erase("t");
    key.placement = read_placement(placement, kp);
    if (!keys.empty() && key.t < keys.back().t) fail(child_pointer(kp, "t"), "path times must not decrease");
    keys.push_back(key);
  }
  return keys;
}

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
  if (const Json* root = find_member(doc, "root")) {
    if (root->is_object() && find_member(*root, "path")) {
      scene.root_path = read_root_path(*root, "/root");
      scene.root = scene.root_path.front().placement;
    } else {
      scene.root = read_placement(*root, "/root");
    }
  }
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

Transform sample_root_path(std::span<const RootKey> path, float time) {
  if (path.empty()) return Transform::identity();
  if (!std::isfinite(time) || time <= path.front().t) return path.front().placement;
  if (time >= path.back().t) return path.back().placement;
  size_t hi = 1;
  while (path[hi].t < time) ++hi;  // path.back().t > time, so this stops inside the path
  const RootKey& a = path[hi - 1];
  const RootKey& b = path[hi];
  const float span = b.t - a.t;
  if (!(span > 0.0f)) return b.placement;
  return interpolate(a.placement, b.placement, (time - a.t) / span);
}

Result<SceneDesc> parse_scene_json(std::string_view text, const std::filesystem::path& scene_file) {
  try {
    SceneBlockContext ctx{scene_file, scene_file.parent_path()};
    return read_scene_document(parse_json(text), ctx);
  } catch (const LoadError& e) {
    return to_error(scene_file.string(), e);
  }
}

Result<SceneDesc> read_scene_file(const std::filesystem::path& path) {
  return parse_text_file(path, [&](std::string_view text, const std::string&) { return parse_scene_json(text, path); });
}

}  // namespace asterune::io
