// Names of the graph description's enums (the asterune.graph/1 JSON spellings).
#include "asterune/graph/graph_desc.hpp"

#include <array>

namespace asterune {
namespace {

constexpr std::array<const char*, 14> kNodeNames = {"Clip", "Select", "PrioritySelect", "Sequence",
                                                    "RandomSequence", "Over", "Add", "Subtract",
                                                    "Mask", "Speed", "Blend1D", "Blend2D",
                                                    "StrideWarp", "OrientationWarp"};
constexpr std::array<const char*, 3> kParamNames = {"number", "bool", "string"};
constexpr std::array<const char*, 4> kPlayNames = {"Loop", "PingPong", "OnceAndHold", "OnceAndReset"};
constexpr std::array<const char*, 3> kCurveNames = {"Linear", "CubicV2", "Inertial"};
constexpr std::array<const char*, 4> kInterruptNames = {"Default", "Always", "Finished", "Trigger"};
constexpr std::array<const char*, 3> kWaitNames = {"Default", "Finished", "Trigger"};
constexpr std::array<const char*, 3> kSyncNames = {"Synced", "Unsynced", "Markers"};
constexpr std::array<const char*, 2> kModeNames = {"Cartesian", "Polar"};

template <class E, size_t N>
const char* name_of(const std::array<const char*, N>& names, E e) {
  const auto i = static_cast<size_t>(e);
  return i < N ? names[i] : "?";
}

// First (skip_default: second) entry onwards; "Default" is never parsed.
template <class E, size_t N>
std::optional<E> parse_of(const std::array<const char*, N>& names, std::string_view name, size_t first = 0) {
  for (size_t i = first; i < N; ++i)
    if (name == names[i]) return static_cast<E>(i);
  return std::nullopt;
}

}  // namespace

const char* to_string(GraphNodeType type) { return name_of(kNodeNames, type); }
const char* to_string(GraphParameterType type) { return name_of(kParamNames, type); }
const char* to_string(GraphPlayMode mode) { return name_of(kPlayNames, mode); }
const char* to_string(GraphCurve curve) { return name_of(kCurveNames, curve); }
const char* to_string(GraphInterruptible mode) { return name_of(kInterruptNames, mode); }
const char* to_string(GraphWaitFor mode) { return name_of(kWaitNames, mode); }
const char* to_string(GraphPhaseSync sync) { return name_of(kSyncNames, sync); }
const char* to_string(GraphInputMode mode) { return name_of(kModeNames, mode); }

std::optional<GraphNodeType> parse_graph_node_type(std::string_view n) { return parse_of<GraphNodeType>(kNodeNames, n); }
std::optional<GraphParameterType> parse_graph_parameter_type(std::string_view n) {
  return parse_of<GraphParameterType>(kParamNames, n);
}
std::optional<GraphPlayMode> parse_graph_play_mode(std::string_view n) { return parse_of<GraphPlayMode>(kPlayNames, n); }
std::optional<GraphCurve> parse_graph_curve(std::string_view n) { return parse_of<GraphCurve>(kCurveNames, n); }
std::optional<GraphInterruptible> parse_graph_interruptible(std::string_view n) {
  return parse_of<GraphInterruptible>(kInterruptNames, n, 1);
}
std::optional<GraphWaitFor> parse_graph_wait_for(std::string_view n) { return parse_of<GraphWaitFor>(kWaitNames, n, 1); }
std::optional<GraphPhaseSync> parse_graph_phase_sync(std::string_view n) { return parse_of<GraphPhaseSync>(kSyncNames, n); }
std::optional<GraphInputMode> parse_graph_input_mode(std::string_view n) { return parse_of<GraphInputMode>(kModeNames, n); }

constexpr std::array<const char*, 3> kDistanceNames = {"none", "start", "stop"};
const char* to_string(GraphDistanceMatching mode) { return name_of(kDistanceNames, mode); }
std::optional<GraphDistanceMatching> parse_graph_distance_matching(std::string_view n) {
  return parse_of<GraphDistanceMatching>(kDistanceNames, n);
}

}  // namespace asterune
