// The `tracks` and `commands` blocks of an asterune.scene/1 file (docs/formats.md): several
// clips played at once by an Animator (docs/animator.md), and the calls a game script would make
// on them at given times:
//   "tracks": [{"name": "Walk", "clip": "walk.bvh", "retarget": {"map": "auto"},
//               "priority": "Movement", "weight": 1.0, "speed": 1.0, "loop": true, "time": 0.0,
//               "playing": true, "mask": {"parts": ["UpperTorso"], "descendants": true},
//               "additive": false, "root_motion": false}],
//   "commands": [{"t": 1.0, "track": "Wave", "play": {"fade": 0.3, "weight": 1.0, "speed": 1.0}},
//                {"t": 2.0, "track": "Walk", "stop": {"fade": 0.5}}, ...]
// A track may play an animation graph instead of a clip (rule F10): "graph": "loco.graph.json"
// or an inline asterune.graph/1 object; commands then set its parameters:
//   {"t": 1.0, "track": "Loco", "set_parameter": {"name": "speed", "value": 3.0, "over": 2.0}}
// and whole-character commands (no "track") save and restore the animation state (rule F27):
//   {"t": 1.0, "snapshot": "A"}, {"t": 2.0, "restore": "A"}
// Reading checks everything that does not need the rig (rule F3: one line naming the file, the
// JSON path and the reason): unknown keys, a command naming no track, an unknown priority or
// transition, a negative fade, a nonfinite number. Mask parts are checked against the rig when
// the tracks are bound (io::check_track_masks). Weights below 0 are clamped to 0 except on
// additive tracks, where a negative weight subtracts (rule AN6); weights above 1 are kept (a
// level normalises, rule AN4).
#pragma once

#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "asterune/anim/animator.hpp"
#include "asterune/core/result.hpp"
#include "asterune/documents/graph_file.hpp"
#include "asterune/documents/scene_animation.hpp"

namespace asterune {
class Rig;
}

namespace asterune::io {

/// The name of the track the "animation" block becomes when the scene also has "tracks" or
/// "commands" (rule AN10: one looped Core track at weight 1 under the others). Commands may
/// name it; a track of the "tracks" block may not take it.
inline constexpr std::string_view kAnimationTrackName = "animation";

/// One entry of "tracks". Clip path resolved against the scene file's folder.
struct SceneTrack {
  std::string name;
  std::filesystem::path clip;             // empty for a graph track
  /// "graph" (rule F10): the graph the track plays instead of a clip, read with the scene (its
  /// Clip paths resolved against the graph file's folder, or the scene's for an inline graph).
  /// A graph track takes no "clip", "retarget" (its Clip nodes carry their own), "loop", "time"
  /// or "additive" (rule GR15); "root_motion" moves the root by the graph's blended root step
  /// (rule GR16).
  std::optional<GraphDocument> graph;
  std::filesystem::path graph_file;       // "graph" as a path (resolved); empty when inline
  SceneRetarget retarget;                 // as the "animation" block's (scene_animation.hpp)
  std::optional<TrackPriority> priority;  // nullopt: the clip's (a KeyframeSequence's Priority), else Core
  std::optional<bool> loop;               // nullopt: the clip's (a KeyframeSequence's Loop), else true
  float weight = 1.0f;                    // >= 0 (clamped), any sign on an additive track
  float speed = 1.0f;                     // clip seconds per second; negative plays backwards
  float time = 0.0f;                      // start time position, seconds
  bool playing = true;                    // playing from the first frame at `weight`, no fade
  std::vector<std::string> mask_parts;    // "mask": {"parts"}; empty: the whole body
  bool mask_descendants = true;           // "mask": {"descendants"}
  bool additive = false;                  // "additive": true or {"reference_time": s}
  float reference_time = 0.0f;            // the additive reference pose's clip time
  bool root_motion = false;
  ClipCycle cycle = ClipCycle::kNone;     // "cycle": "auto" cuts a loop of whole strides (rule LO1)
  /// "plant_feet" on a graph track (rule LO15): feet held from the graph's blended contacts.
  bool plant_feet = false;
};

enum class SceneCommandKind { kPlay, kStop, kAdjustWeight, kAdjustSpeed, kSetTime, kSetParameter, kSnapshot, kRestore };

/// A set_parameter command's value (rule F10): checked against the graph's declaration.
struct SceneParameterValue {
  std::string name;  // a parameter the track's graph declares
  GraphParameterType type = GraphParameterType::kNumber;
  float number = 0.0f;
  bool boolean = false;
  std::string string;
  float over = 0.0f;  // seconds, >= 0 (numbers only): a linear ramp from the value at the command
};

/// One entry of "commands": an Animator call made at the first frame whose time is >= t
/// (within a thousandth of a frame), after that frame's pose (docs/formats.md).
struct SceneCommand {
  float t = 0.0f;        // seconds, >= 0
  std::string track;     // a track's name (or kAnimationTrackName); empty for kSnapshot, kRestore
  SceneCommandKind kind = SceneCommandKind::kPlay;
  PlayOptions play;      // kPlay: fade (default 0.1), weight and speed (default: the track's), transition
  float fade = 0.1f;     // kStop, kAdjustWeight: seconds, >= 0
  float weight = 1.0f;   // kAdjustWeight (clamped to >= 0 unless the track is additive)
  float speed = 1.0f;    // kAdjustSpeed
  float time = 0.0f;     // kSetTime: seconds
  SceneParameterValue parameter;  // kSetParameter (the track is a graph track)
  /// kSnapshot, kRestore (rule F27): the snapshot's id; a restore's id is one an earlier
  /// snapshot command saves (a smaller t, or the same t and earlier in the file).
  std::string snapshot;
};

/// The "animation" block as an Animator track (rule AN10): named kAnimationTrackName, Core,
/// weight 1, speed 1, playing from time 0, looped as the block says.
SceneTrack animation_track(const SceneAnimation& animation);

/// Checks every mask part of the scene's `tracks` (SceneDesc::tracks, in file order) against
/// `rig`: a joint's child part name or a parent-qualified "Parent/Child" name (rule R6), as
/// Rig::find_joint resolves them (the root part, which no joint places, is not one). Fails naming
/// the place, e.g. "<file>: /tracks/2/mask/parts/0: no part named
/// 'Tail' in rig 'R15'".
Status check_track_masks(std::span<const SceneTrack> tracks, const Rig& rig, const std::filesystem::path& scene_file);

}  // namespace asterune::io
