// GraphDesc: the plain-data description of an animation graph (Roblox Animation Graph
// semantics, rules GR1-GR14): typed parameters with defaults and a flat vector of nodes that
// refer to their inputs by index. Every node property is a literal or bound to a parameter by
// name. Built by hand or by the asterune.graph/1 reader (field names follow that format's
// snake_case keys); validated once by build_graph() (asterune/graph/graph.hpp), which turns it
// into a runtime GraphInstance. Nothing here is used per frame.
//
//   GraphDesc                     nodes[i].inputs[k].node = index of another node
//     parameters  speed:number    output = index of the node the graph plays
//     nodes       [0] Clip walk   [1] Clip run   [2] Blend1D loco(inputs 0 @1, 1 @3)
//     output      2
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "asterune/clip/clip.hpp"
#include "asterune/retarget/animation.hpp"
#include "asterune/retarget/contacts.hpp"

namespace asterune {

/// A parameter's type (rule GR1).
enum class GraphParameterType : std::uint8_t { kNumber, kBool, kString };

/// One named, typed parameter with its default (rule GR1). Only the default of its type is read.
struct GraphParameterDesc {
  std::string name;  // unique within the graph
  GraphParameterType type = GraphParameterType::kNumber;
  float number_default = 0.0f;
  bool bool_default = false;
  std::string string_default;
};

/// A number property: the literal `value`, or the parameter named `parameter` when that is not
/// empty (JSON: a number or {"parameter": NAME}). The parameter must be a number (rule GR1).
struct GraphNumber {
  float value = 0.0f;
  std::string parameter;
};
/// A bool property: literal or a bool parameter (rule GR1).
struct GraphBool {
  bool value = false;
  std::string parameter;
};
/// A string property: literal or a string parameter (rule GR1).
struct GraphString {
  std::string value;
  std::string parameter;
};

enum class GraphNodeType : std::uint8_t {
  kClip,
  kSelect,
  kPrioritySelect,
  kSequence,
  kRandomSequence,
  kOver,
  kAdd,
  kSubtract,
  kMask,
  kSpeed,
  kBlend1D,
  kBlend2D,
  kStrideWarp,       // rules LO6, LO7 (warp_nodes.hpp)
  kOrientationWarp,  // rule LO8
};

/// Clip play_mode (rule GR2). JSON: "Loop", "PingPong", "OnceAndHold", "OnceAndReset".
enum class GraphPlayMode : std::uint8_t { kLoop, kPingPong, kOnceAndHold, kOnceAndReset };

/// Transition curve (rule GR8). JSON: "Linear", "CubicV2", "Inertial".
enum class GraphCurve : std::uint8_t { kLinear, kCubicV2, kInertial };

/// A transition (JSON {"duration": s, "curve": "Linear"}), rule GR8.
struct GraphTransition {
  float duration = 0.25f;  // seconds, >= 0
  GraphCurve curve = GraphCurve::kLinear;
};

/// PrioritySelect interruptibility (rule GR4). kDefault: the node's default_interruptible.
/// JSON: "Always", "Finished", "Trigger".
enum class GraphInterruptible : std::uint8_t { kDefault, kAlways, kFinished, kTrigger };

/// Sequence advance condition (rule GR5). kDefault: the node's default_wait_for.
/// JSON: "Finished", "Trigger".
enum class GraphWaitFor : std::uint8_t { kDefault, kFinished, kTrigger };

/// Blend1D/Blend2D phase sync (rule GR9). JSON: "Synced" (default), "Unsynced", "Markers".
enum class GraphPhaseSync : std::uint8_t { kSynced, kUnsynced, kMarkers };

/// Blend2D input_mode (rule GR7). JSON: "Cartesian" (default), "Polar".
enum class GraphInputMode : std::uint8_t { kCartesian, kPolar };

/// Clip distance_matching (rules LO12-LO14). JSON: "none" (default), "start", "stop".
enum class GraphDistanceMatching : std::uint8_t { kNone, kStart, kStop };

/// One entry of a node's `inputs` (JSON inputs[]). Which fields a node reads depends on its type.
struct GraphInputDesc {
  std::string name;  // Select: the name `selection` chooses; elsewhere informative
  int node = -1;     // index into GraphDesc::nodes
  // PrioritySelect (rule GR4).
  GraphBool trigger;
  GraphInterruptible interruptible = GraphInterruptible::kDefault;
  GraphBool interruptible_trigger;
  // Sequence (rule GR5).
  GraphWaitFor wait_for = GraphWaitFor::kDefault;
  GraphBool wait_for_trigger;
  // RandomSequence (rule GR6): probability weight, >= 0.
  GraphNumber weight{1.0f, {}};
  // Blend1D (literal: the axis is fixed at build, rule GR7).
  float position = 0.0f;
  // Blend2D (literal: triangulated at build, rule GR7). Polar: x = direction (radians),
  // y = magnitude.
  float x = 0.0f;
  float y = 0.0f;
  // Selectors and sequences: overrides the node's default_transition when set (rule GR8).
  std::optional<GraphTransition> transition;
};

/// One part weight of a Mask node (JSON "weights": {PART: w}).
struct GraphMaskWeight {
  std::string part;  // child part name (or parent-qualified, rule R6)
  float weight = 1.0f;
};

/// One node. Fields not used by its type are ignored.
struct GraphNodeDesc {
  std::string id;  // the JSON key; unique, names the node in errors and reports
  GraphNodeType type = GraphNodeType::kClip;

  // --- Clip (rule GR2). The clip and binding are not owned; they must outlive the instance.
  const Clip* clip = nullptr;
  const AnimationBinding* binding = nullptr;  // build_animation_binding(*clip, rig, ...)
  /// Optional: the clip's foot contacts (rule RT17, find_foot_contacts / the scene's floor), not
  /// owned; the graph reports them blended by the node weights (rule GR16).
  const FootContacts* contacts = nullptr;
  std::string clip_source;  // informative: the JSON "clip" value (a path), for messages
  GraphPlayMode play_mode = GraphPlayMode::kLoop;
  GraphBool reverse;
  GraphNumber speed{1.0f, {}};  // Clip: playback rate; Speed node: dt scale
  // trim [start, end] in clip seconds; trim_end < 0 means the clip's end.
  GraphNumber trim_start{0.0f, {}};
  GraphNumber trim_end{-1.0f, {}};
  /// Rules LO12-LO14: the clip time follows the character's travel instead of the clock. Start:
  /// `distance` is how far it has travelled since the start began (studs); stop: how far it
  /// still has to go. Needs play_mode OnceAndHold or OnceAndReset, played forward.
  GraphDistanceMatching distance_matching = GraphDistanceMatching::kNone;
  GraphNumber distance{0.0f, {}};

  // --- Select / PrioritySelect / Sequence / RandomSequence / Blend1D / Blend2D.
  std::vector<GraphInputDesc> inputs;
  GraphString selection;                                         // Select (rule GR3)
  GraphTransition default_transition;                            // rule GR8
  GraphInterruptible default_interruptible = GraphInterruptible::kAlways;  // PrioritySelect
  GraphWaitFor default_wait_for = GraphWaitFor::kFinished;       // Sequence
  int loop_count = 0;                                            // Sequence: 0 = forever
  int play_count = 0;                                            // RandomSequence: 0 = forever
  std::uint64_t seed = 0;                                        // RandomSequence

  // --- Over (base, over, weight), Add (base, additive, weight), Subtract (a, b, weight),
  // Mask (pose, weights, descendants, invert), Speed (pose, speed). Indexes into nodes.
  int base = -1;
  int over = -1;
  int additive = -1;
  int a = -1;
  int b = -1;
  int pose = -1;
  GraphNumber weight{1.0f, {}};  // Over/Add/Subtract: unclamped (rule GR10)
  std::vector<GraphMaskWeight> weights;  // Mask; unnamed parts get 0
  bool descendants = true;               // Mask: a named part's subtree gets its weight
  GraphBool invert;                      // Mask: weight -> 1 - weight

  // --- Blend1D / Blend2D (rules GR7, GR9).
  GraphNumber position;  // Blend1D
  GraphInputMode input_mode = GraphInputMode::kCartesian;  // Blend2D
  GraphNumber x, y;                                        // Blend2D
  GraphPhaseSync phase_sync = GraphPhaseSync::kSynced;
  std::string sync_marker = "Footstep";  // kMarkers: the marker name aligned on (by value)

  // --- StrideWarp (pose, speed = the gameplay speed in studs/s, clamp; rules LO6, LO7) and
  // OrientationWarp (pose, direction in radians from the rig's facing, + toward its left; LO8).
  GraphNumber direction;
  float clamp_min = 0.5f;  // StrideWarp: the stride scale's bounds, 0 < min <= max
  float clamp_max = 2.0f;
};

/// A whole graph: parameters, nodes, and the node the graph outputs (GraphOutput).
struct GraphDesc {
  std::vector<GraphParameterDesc> parameters;
  std::vector<GraphNodeDesc> nodes;
  int output = -1;  // index into nodes
  /// Rule LO15: hold each foot the output's blended contacts put down where it touched, through
  /// blends (a graph track's "plant_feet").
  bool plant_feet = false;
};

/// The JSON names of the enums ("Clip" ... "Blend2D", "StrideWarp", "OrientationWarp", "number"/"bool"/"string", "Loop" ...,
/// "Linear"/"CubicV2"/"Inertial", "Always"/"Finished"/"Trigger", "Synced"/"Unsynced"/"Markers",
/// "Cartesian"/"Polar"). kDefault values print as "Default".
const char* to_string(GraphNodeType type);
const char* to_string(GraphParameterType type);
const char* to_string(GraphPlayMode mode);
const char* to_string(GraphCurve curve);
const char* to_string(GraphInterruptible mode);
const char* to_string(GraphWaitFor mode);
const char* to_string(GraphPhaseSync sync);
const char* to_string(GraphInputMode mode);
const char* to_string(GraphDistanceMatching mode);  // "none", "start", "stop"
/// The value named `name` (the names of to_string, case-sensitive; never "Default"), or nullopt.
std::optional<GraphNodeType> parse_graph_node_type(std::string_view name);
std::optional<GraphParameterType> parse_graph_parameter_type(std::string_view name);
std::optional<GraphPlayMode> parse_graph_play_mode(std::string_view name);
std::optional<GraphCurve> parse_graph_curve(std::string_view name);
std::optional<GraphInterruptible> parse_graph_interruptible(std::string_view name);
std::optional<GraphWaitFor> parse_graph_wait_for(std::string_view name);
std::optional<GraphPhaseSync> parse_graph_phase_sync(std::string_view name);
std::optional<GraphInputMode> parse_graph_input_mode(std::string_view name);
std::optional<GraphDistanceMatching> parse_graph_distance_matching(std::string_view name);

}  // namespace asterune
