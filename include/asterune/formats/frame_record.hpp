// The solved frames of a run as every writer takes them: per frame the motor transforms, the
// coverage, the world placements, and what the controls, the animator tracks and the foot
// contacts reported. The CLI fills them; the frames JSON (documents/frames_file.hpp), the Roblox
// and glTF exports (formats/) and the drawings read them.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "asterune/controls/control.hpp"
#include "asterune/math/transform.hpp"

namespace asterune::io {

/// One control's outcome in a printed frame (copied from the stack's ControlReport).
/// A spring control's per-frame counts (rule S3, S5, S6).
struct SpringRecord {
  int substeps = 0;
  int resets = 0;
};

/// One unit per field: `distance` in studs, `angle` in radians.
struct ControlRecord {
  std::string name;
  std::string status;     // to_string(ControlStatus): solved, disabled, zero_weight, ...
  bool reached = false;
  bool clamped = false;
  float distance = 0.0f;  // IK position goal: studs from the endpoint to the target (else 0)
  float angle = 0.0f;     // IK orientation goal / look-at: radians left (else 0)
  float weight = 0.0f;    // weight blended (after a reach window's fade)
  int passes = 0;         // IK solver passes
  float stretch = 1.0f;   // IK segment scale factor (1 = none)
  glm::vec3 target{0.0f};           // the (smoothed) world target the control used (drawings; not in JSON)
  std::optional<glm::vec3> pole;    // IK: the world pole point, when the control has one (not in JSON)
  std::optional<SpringRecord> spring;  // spring controls only: printed as "substeps", "resets"
  std::optional<FeetReport> feet;  // feet controls: per-foot lift, hit, tilt, clamped; pelvis drop
};

/// A warp node's last update in a printed frame (rule LO9; GraphInstance::warp_report).
struct GraphWarpRecord {
  float stride_scale = 1.0f;
  float play_rate = 1.0f;
  float lower_body_yaw = 0.0f;  // radians
  float pelvis_drop = 0.0f;     // studs
  bool ignored = false;         // the speed or direction parameter was unusable and ignored
};

/// One graph node's state in a printed frame (rule F11; GraphInstance::node_weight/time/phase).
struct GraphNodeRecord {
  std::string id;
  float weight = 0.0f;  // the node's share of the track's pose, 0 when inactive
  float time = 0.0f;    // a Clip node's clip time (seconds); else 0
  float phase = 0.0f;   // a Clip node's normalized time in its trim; a blend's synced phase
  std::optional<GraphWarpRecord> warp;  // an active StrideWarp / OrientationWarp: JSON "warp"
};

/// One graph parameter's value in a printed frame: the field of its type is set.
struct GraphParameterRecord {
  std::string name;
  enum class Type { kNumber, kBool, kString } type = Type::kNumber;
  float number = 0.0f;
  bool boolean = false;
  std::string string;
};

/// A graph track's parameters and nodes (in the graph's order) in a printed frame.
struct GraphRecord {
  std::vector<GraphParameterRecord> parameters;
  std::vector<GraphNodeRecord> nodes;
};

/// One animator track's state in a printed frame (a scene with "tracks" or "commands").
struct TrackRecord {
  std::string name;
  float weight = 0.0f;         // weight_current
  float time = 0.0f;           // time_position, seconds
  bool playing = false;        // is_playing
  float weight_target = 0.0f;  // the table prints it (not in JSON)
  float speed = 1.0f;          // the table prints it (not in JSON)
  std::optional<GraphRecord> graph;  // a graph track (rule F11): JSON "graph", the table's node lines
};

/// One animator event of a frame (rule AN7), in the order the animator reported them.
struct EventRecord {
  std::string track;
  std::string kind;   // "marker", "keyframe", "looped", "stopped", "ended"
  std::string name;   // the marker's or keyframe's name; empty for looped, stopped, ended
  std::string value;  // a marker's value; else empty
  float time = 0.0f;  // clip time of the marker (looped: the time the track wrapped to)
  // A graph track's marker (rules F11, AN12): the Clip node's id and the event's weight (the
  // track's effective weight x the graph's event weight); JSON "node" and "weight". Else empty.
  std::string node;
  std::optional<float> weight;
};

/// One foot's contact state in a frame (rule RT17): the foot's label ("LeftFoot") and whether
/// the source foot is on its floor.
struct FootContactRecord {
  std::string foot;
  bool contact = false;
};

/// One solved frame: the root part's world placement, and per joint in layout order, the final
/// T, its coverage and the world placement of the child part (part1).
struct FrameRecord {
  int frame = 0;
  float time = 0.0f;
  std::vector<Transform> local;
  std::vector<float> coverage;
  std::vector<Transform> world;
  std::vector<ControlRecord> controls;
  Transform root;  // the root part's world placement this frame (moves with a scene root path; not in JSON)
  std::vector<TrackRecord> tracks;  // animator tracks; empty when the run has no animator
  std::vector<EventRecord> events;  // animator events of this frame
  int events_dropped = 0;           // events the run's buffer could not hold (counted, rule AN7)
  std::vector<FootContactRecord> contacts;  // a retargeted clip's foot contacts; JSON "contacts" when not empty
};

}  // namespace asterune::io
