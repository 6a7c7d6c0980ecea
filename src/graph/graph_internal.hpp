// Private layout of GraphInstance: the built (read-only) node definitions, the per-node runtime
// state (plain data: snapshot() copies it as bytes), the pose buffers and the helpers the
// update's passes share (src/graph/graph_tick.cpp, graph_select.cpp, graph_eval.cpp,
// graph_weights.cpp).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "asterune/graph/graph.hpp"
#include "asterune/retarget/animation.hpp"
#include "asterune/retarget/contacts.hpp"
#include "asterune/retarget/foot_plant.hpp"
#include "graph/warp_state.hpp"

namespace asterune::graph_detail {

// A property resolved at build: the literal, or the parameter index (rule GR1).
struct NumRef {
  float literal = 0.0f;
  int param = -1;
};
struct BoolRef {
  bool literal = false;
  int param = -1;
};
struct StrRef {
  std::string literal;
  int param = -1;
};

struct InputDef {
  std::string name;
  int node = -1;
  BoolRef trigger;
  GraphInterruptible interruptible = GraphInterruptible::kAlways;  // resolved (no kDefault)
  BoolRef interruptible_trigger;
  GraphWaitFor wait_for = GraphWaitFor::kFinished;                 // resolved
  BoolRef wait_for_trigger;
  NumRef weight{1.0f, -1};
  float position = 0.0f, x = 0.0f, y = 0.0f;
  GraphTransition transition;  // resolved (the node's default when not overridden)
};

struct Tri {
  int a = 0, b = 0, c = 0;  // input slots
};
struct Edge {
  int a = 0, b = 0;
};

struct NodeDef {
  GraphNodeType type = GraphNodeType::kClip;
  std::string id;
  // Clip
  const Clip* clip = nullptr;
  const AnimationBinding* binding = nullptr;
  int context = -1;  // index into Impl::contexts
  GraphPlayMode play_mode = GraphPlayMode::kLoop;
  BoolRef reverse;
  NumRef speed{1.0f, -1}, trim_start{0.0f, -1}, trim_end{-1.0f, -1};
  std::vector<int> markers;       // marker indexes, by time
  std::vector<int> sync_markers;  // the subset named the parent's sync marker (Markers sync)
  // Inputs
  std::vector<InputDef> inputs;
  StrRef selection;
  int loop_count = 0, play_count = 0;
  std::uint64_t seed = 0;
  int base = -1, over = -1, additive = -1, a = -1, b = -1, pose = -1;
  NumRef weight{1.0f, -1};
  std::vector<float> mask;  // per joint (Mask)
  BoolRef invert;
  NumRef position, x, y;
  NumRef direction;                        // OrientationWarp (rule LO8)
  float clamp_min = 0.5f, clamp_max = 2.0f;  // StrideWarp (rule LO6)
  GraphInputMode input_mode = GraphInputMode::kCartesian;
  GraphPhaseSync phase_sync = GraphPhaseSync::kSynced;
  std::string sync_marker;
  std::vector<int> order;    // Blend1D: input slots by ascending position; Polar: by direction
  int centre = -1;           // Polar: the input at magnitude 0, or -1
  std::vector<Tri> tris;     // Blend2D Cartesian: the Delaunay triangles
  std::vector<Edge> hull;    // Blend2D Cartesian: the hull's edges
  int weight_offset = 0;     // into Impl::input_weight (one per input)
  int from_slot = -1;        // selectors and sequences: the pose a transition starts from
  // Clip root motion and contacts (rule GR16): the clip's foot contacts (not owned), and per
  // graph foot (Impl::foot_labels) the index of that foot in them, -1 when it has none.
  const FootContacts* contacts = nullptr;
  std::vector<int> feet;
  // The root joint's heading at the trim's start and end (literal trims: cached at build).
  bool heads_cached = false;
  float head_ts_yaw = 0.0f, head_te_yaw = 0.0f;
  glm::vec3 head_ts_pos{0.0f}, head_te_pos{0.0f};
  // Distance matching (rules LO12-LO14, graph_distance.cpp): the root's cumulative horizontal
  // travel over the whole clip, sampled every travel_dt seconds at build (non-decreasing).
  GraphDistanceMatching distance_matching = GraphDistanceMatching::kNone;
  NumRef distance;
  std::vector<float> travel;
  float travel_dt = 0.0f;
};

// This update's root step of a node's output (rule GR16): a turn about +Y and a travel.
struct RootStep {
  float yaw = 0.0f;
  glm::vec3 travel{0.0f};
};

// Per leg, plain data (snapshot): held while the blended contact is down; after the release, the
// offset from the motion fades out over the blend time.
struct PlantFoot {
  std::uint8_t held = 0;
  float since = 0.0f;         // seconds since the release
  glm::vec3 anchor{0.0f};     // held sole, in the frame the output pose is drawn in
  glm::vec3 release{0.0f};    // anchor - motion's sole at the release (fading)
};
static_assert(std::is_trivially_copyable_v<PlantFoot>);

// Runtime state of one node: plain data, copied as bytes by snapshot()/restore() (rule GR14).
struct NodeState {
  float weight = 0.0f;      // share of the output this update
  float time = 0.0f;        // Clip: clip time
  float phase = 0.0f;       // Clip: normalized in trim; Blend: synced phase
  float te = 0.0f, td = 0.0f;  // transition elapsed / duration
  std::int32_t cycles = 0;  // completed cycles since the node last started
  std::int32_t dir = 1;     // Clip PingPong direction
  std::int32_t cur = -1, prev = -1;  // selectors/sequences: input slots (prev: live source)
  std::int32_t loops = 0;   // Sequence passes / RandomSequence picks
  std::int32_t leader = -1; // Blend Markers: leading input slot
  std::uint8_t done = 0;    // once clip finished; sequence ran out of loops
  std::uint8_t started = 0; // reset() ran (time placed at the play start)
  std::uint8_t shown = 0;   // the node's pose buffer holds a pose it output
  std::uint8_t frozen = 0;  // the transition starts from the node's from-pose
  std::uint8_t curve = 0;   // GraphCurve of the running transition
  std::uint8_t inertial = 0;   // 1: offset to capture; 2: offsets captured
  std::uint8_t active = 0;  // ticked this update (its pose is evaluated)
  std::uint8_t last_trigger = 0;  // Sequence: the current input's wait_for_trigger last update
  std::uint8_t head = 0;    // Clip root motion: 0 no previous heading, 1 head_* hold it, 2 from the start
  float head_yaw = 0.0f, head_x = 0.0f, head_z = 0.0f;  // Clip: the root heading at the last update
  std::uint64_t rng = 0;    // RandomSequence: splitmix64 state
};
static_assert(std::is_trivially_copyable_v<NodeState>);

}  // namespace asterune::graph_detail

namespace asterune {

struct GraphInstance::Impl {
  using NodeDef = graph_detail::NodeDef;
  using NodeState = graph_detail::NodeState;
  std::vector<GraphParameterDesc> params;  // names, types (defaults unused after build)
  std::vector<NodeDef> defs;
  int output = -1;
  int joints = 0;
  std::uint64_t rig_signature = 0;
  std::uint64_t signature = 0;  // of the description's shape (snapshot check)
  std::size_t string_capacity = 64;
  // Parameter values.
  std::vector<float> numbers;
  std::vector<std::uint8_t> bools;
  std::vector<std::string> strings;  // reserved to string_capacity at build
  // Node state and buffers.
  std::vector<NodeState> state;
  std::vector<Transform> poses;  // node i's output: joints entries at i * joints
  std::vector<float> covs;
  std::vector<Transform> from_poses;  // per from_slot
  std::vector<float> from_covs;
  std::vector<float> input_weight;    // this update's weight of each input of each node
  // Per node: its input_weight entries hold this update's blend weights (the parameters do not
  // change within an update, so the first computation serves every later ask).
  std::vector<std::uint8_t> weights_fresh;
  std::vector<AnimationContext> contexts;
  // Root motion and contacts (rule GR16): the rig's root-motion joint (rule AN9), whether
  // this update extracts it, and per node this update's step, lap crossings and per graph
  // foot the contact and known weights (nodes x feet); the output's blended contact weights.
  int root_joint = -1;
  bool extract_root = false;
  std::vector<graph_detail::RootStep> steps;
  std::vector<std::int32_t> wraps;
  std::vector<std::string> foot_labels;
  std::vector<float> foot_cw, foot_kw, foot_weight;
  std::vector<Transform> scratch_pose;  // heading samples of bound trims
  std::vector<float> scratch_cov;
  // Per-frame values this update ignored (rule LO14: a nonfinite distance).
  int ignored_values = 0;
  // Planted feet on the output (rule LO15, graph_plant.cpp); empty legs: not planting.
  // `plant` holds the legs (rule RT19's solve) and one contact per leg rewritten each update.
  FootPlant plant;
  std::vector<int> plant_foot;  // per leg: its index into foot_labels
  std::vector<graph_detail::PlantFoot> plant_state;
  std::vector<Transform> plant_world;
  // Warp nodes (rules LO6-LO9): the shared rig binding and per node this update's values.
  graph_detail::WarpRig warp_rig;
  std::vector<graph_detail::WarpState> warp;
  // Per-update event output.
  GraphEvent* events = nullptr;
  int event_capacity = 0, events_written = 0, events_dropped = 0;

  Transform* pose(int node) { return poses.data() + static_cast<size_t>(node) * static_cast<size_t>(joints); }
  float* cov(int node) { return covs.data() + static_cast<size_t>(node) * static_cast<size_t>(joints); }
  float num(const graph_detail::NumRef& r) const {
    return r.param >= 0 ? numbers[static_cast<size_t>(r.param)] : r.literal;
  }
  bool flag(const graph_detail::BoolRef& r) const {
    return r.param >= 0 ? bools[static_cast<size_t>(r.param)] != 0 : r.literal;
  }
  std::string_view str(const graph_detail::StrRef& r) const {
    return r.param >= 0 ? std::string_view(strings[static_cast<size_t>(r.param)]) : std::string_view(r.literal);
  }
};

namespace graph_detail {

// --- weights (graph_weights.cpp) --------------------------------------------------------
/// Rule GR7: Blend1D weights into w (one per input; `order` the slots by position).
void blend1d_weights(const NodeDef& def, float p, float* w);
/// Rule GR7: Blend2D weights (Cartesian barycentric / nearest hull edge; Polar).
void blend2d_weights(const NodeDef& def, float x, float y, float* w);
/// Rule GR8: the transition curve's blend factor at u = elapsed / duration in [0, 1].
float transition_alpha(GraphCurve curve, float u);
/// Rule GR8: the inertial offset's remaining share at u in [0, 1] (1 -> 0, C2 smooth).
float inertial_share(float u);
/// Rule GR6: splitmix64.
std::uint64_t splitmix64(std::uint64_t& state);
/// Rule GR6: a draw in [0, 1) with 53 random bits.
double unit_draw(std::uint64_t& state);
/// Delaunay triangulation of the points (build time). Empty when all are collinear.
std::vector<Tri> delaunay(const std::vector<float>& xs, const std::vector<float>& ys);
/// The edges of `tris` that belong to one triangle only (the convex hull).
std::vector<Edge> hull_edges(const std::vector<Tri>& tris);

// --- the private pose blend (graph_blend.cpp): every weighted blend of the graph's nodes ---
/// out = the weighted blend of `count` poses (weights w_i, per-joint coverage c_i as joint
/// weights; the rest pose (identity) fills what they leave below 1), coverage out.
/// Rule GR10's Over/Add/Subtract have their own kernels below.
void blend_weighted(int joints, int count, const Transform* const* poses, const float* const* covs, const float* w,
                    Transform* out, float* out_cov);
/// Rule GR7: two poses, b's factor t anywhere (extrapolation outside [0, 1]).
void blend_two(int joints, const Transform* a, const float* ca, const Transform* b, const float* cb, float t,
               Transform* out, float* out_cov);
/// Rule GR10: Over: per joint, over's factor weight x over's coverage, unclamped.
void blend_over(int joints, const Transform* base, const float* cbase, const Transform* over, const float* cover,
                float weight, Transform* out, float* out_cov);
/// Rule GR10: Add: base with weight x additive applied (q = slerp(1, q_d, a) q_base).
void blend_add(int joints, const Transform* base, const float* cbase, const Transform* add, const float* cadd,
               float weight, Transform* out, float* out_cov);
/// Rule GR10: Subtract: q = q_A slerp(1, conj(q_B), w), p = p_A - w p_B.
void blend_subtract(int joints, const Transform* a, const float* ca, const Transform* b, const float* cb, float weight,
                    Transform* out, float* out_cov);

// --- root motion and contacts (graph_motion.cpp, rule GR16) ------------------------------
/// Build: the root joint, the trims' cached headings, the graph's feet. False with `error` set.
bool prepare_motion(GraphInstance::Impl& impl, const Rig& rig, const GraphDesc& desc, std::string& error);
/// After a node's pose is evaluated: a Clip's root kept in place and its step (when
/// extracting) and its contacts; other nodes blend their inputs' steps and contacts with the
/// weights their pose blend gives the root joint.
void node_motion(GraphInstance::Impl& impl, const Rig& rig, int node);

// --- distance matching (graph_distance.cpp, rules LO12-LO14) ------------------------------
/// Build: each distance-matched Clip's travel curve. False with `error` set.
bool prepare_distance(GraphInstance::Impl& impl, const Rig& rig, std::string& error);
/// The clip time in [ts, te] at which the curve first reaches `travelled` (a binary search).
float time_at_travel(const NodeDef& d, float travelled, float ts, float te);
/// The curve at clip time t (linear between samples).
float travel_at(const NodeDef& d, float t);

// --- planted feet on the output (graph_plant.cpp, rule LO15) ------------------------------
/// Build: the legs of the graph's feet when desc.plant_feet. False with `error` set.
bool prepare_plant(GraphInstance::Impl& impl, const Rig& rig, const GraphDesc& desc, std::string& error);
/// After the output's contacts are known: holds the feet in contact in `local` (the output).
void plant_output(GraphInstance::Impl& impl, const Rig& rig, float dt, std::span<Transform> local);

}  // namespace graph_detail
}  // namespace asterune
