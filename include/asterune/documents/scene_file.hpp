// Scene files: the `asterune.scene/1` JSON format of docs/formats.md, read into a plain
// SceneDesc (no JSON types in this header). A scene names a rig, the root placement, an
// optional starting pose and the frames to run.
//
// Extending: the later blocks ("animation", "tracks", "commands", "controls", "ground") are read by functions
// registered in src/documents/scene_blocks.cpp (one entry per key, each in its own source file) that
// fill their own field of SceneDesc. Until a block has a reader, a scene using it fails with
// "<file>: /<key>: '<key>' is not supported yet ..." rather than being silently ignored.
#pragma once

#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "asterune/controls/control.hpp"
#include "asterune/controls/ground.hpp"
#include "asterune/core/result.hpp"
#include "asterune/documents/scene_animation.hpp"
#include "asterune/documents/scene_tracks.hpp"
#include "asterune/math/transform.hpp"

namespace asterune::io {

inline constexpr std::string_view kSceneFormat = "asterune.scene/1";

/// One timed placement of a moving root (`"root": {"path": [...]}`).
struct RootKey {
  float t = 0.0f;        // seconds, nondecreasing along the path
  Transform placement;   // position, and rotation (identity when the key gives none)
};

/// The root placement of a path at `time`: position linear and rotation slerped (shortest
/// arc) between the keys around it, held at the first key before it and the last key after it
/// (also for a nonfinite time: the first key). An empty path gives identity. No allocation.
Transform sample_root_path(std::span<const RootKey> path, float time);

struct SceneDesc {
  std::filesystem::path file;                  // the scene file (empty for a scene built in code)
  std::string rig = "builtin:r15";             // "builtin:..." or a path, already resolved against
                                               // the scene file's folder (load with io::load_rig)
  std::optional<Transform> root;               // root part placement; nullopt = the rig's default
                                               // (io::default_root_placement); with a root path,
                                               // the path's first placement
  std::vector<RootKey> root_path;              // `"root": {"path": [...]}`: the root moves (empty: it stays at `root`)
  std::optional<std::filesystem::path> pose;   // asterune.pose/1 file, resolved like `rig`
  int frames = 1;                              // number of frames to run, >= 1
  float dt = 1.0f / 60.0f;                     // seconds per frame, > 0
  std::optional<SceneAnimation> animation;     // the "animation" block (scene_animation.hpp)
  std::vector<SceneTrack> tracks;              // the "tracks" block (scene_tracks.hpp), file order
  std::vector<SceneCommand> commands;          // the "commands" block, file order
  std::vector<ControlDesc> controls;           // "controls" block: ik, look_at, feet (not yet bound to the rig)
  std::optional<GroundDesc> ground;            // "ground" block (checked; io::build_ground-ready)
};

/// Parses `asterune.scene/1` text; relative paths are resolved against the folder of
/// `scene_file` (which is also used in messages). Keys: format (required), rig (required),
/// root (a placement, or {"path": [{"t", "position", optional "rotation"}...]}), pose, frames (integer 1..100000), dt (number in (0, 1]); keys starting
/// with '_' are comments. Fails naming the file, the JSON path and the reason, including for
/// unknown keys and for blocks not supported yet.
Result<SceneDesc> parse_scene_json(std::string_view text, const std::filesystem::path& scene_file);

/// Reads a scene file (see parse_scene_json).
Result<SceneDesc> read_scene_file(const std::filesystem::path& path);

}  // namespace asterune::io
