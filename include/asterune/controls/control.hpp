// Control descriptions and per-frame reports: the plain data a ControlStack is built from
// (SPEC CS1-CS8). A control is one of a small closed set of kinds (IK, look-at, spring, feet) held in a
// std::variant; there is no class hierarchy. Descriptions are setup-time data (they own
// strings and vectors); the stack binds them to a rig once and then runs allocation-free.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "asterune/controls/target.hpp"

namespace asterune {

/// Which IK solver a control uses (SPEC IK2). kAuto: 1 segment aims, 2 segments use the
/// analytic two-bone solver, longer chains FABRIK.
enum class IkSolver { kAuto, kTwoBone, kFabrik, kCcd };

/// Relative tolerance of the IK endpoint-to-pivot snap: an end_offset closer to the end joint's
/// own pivot than this fraction of the chain's last bone (the distance between the last two
/// pivots; for a one-joint chain, the pivot's distance from the end part's origin), and at least
/// 1e-6 studs, is taken as that pivot, dropping the zero-length last segment.
inline constexpr float kPivotSnapRelative = 1e-3f;

/// An IK control (SPEC IK1, IK2, IK5, IK7): moves a point fixed in the `end` part toward the
/// target by turning the joints from the one placing `chain_root` down to the one placing `end`.
struct IkSettings {
  std::string chain_root;          // part name: its joint is the first joint of the chain
  std::string end;                 // part name: its joint is the last joint; must descend from chain_root
  glm::vec3 end_offset{0.0f};      // the reaching point, in the end part's frame; within
                                   // kPivotSnapRelative of the last bone from the end joint's
                                   // pivot it counts as that pivot (ControlReport::endpoint_snapped)
  std::optional<Target> pole;      // bend-plane hint (a world point, or a point on a part)
  IkSolver solver = IkSolver::kAuto;
  bool position_goal = true;       // false: orientation only (Roblox IKControl type Rotation)
  std::optional<glm::quat> orientation_goal;  // world rotation for the end part, applied after the solve (IK7)
};

/// A look-at control (SPEC LA1-LA3): turns the joints from the one placing `chain_root` down
/// to the one placing `end` so that the end part's `forward` axis points at the target.
struct LookAtSettings {
  std::string chain_root;
  std::string end;
  glm::vec3 forward{0.0f, 0.0f, -1.0f};  // facing axis in the end part's frame (R0: -Z)
  float yaw_limit_deg = 80.0f;           // relative to the end part's rest facing
  float pitch_limit_deg = 60.0f;
  std::vector<float> joint_weights;      // empty: even spread (joint k takes 1/(n-k) of what remains)
};

/// A collider a spring chain is kept out of (SPEC S7), fixed in one of the rig's parts.
enum class SpringColliderShape { kSphere, kCapsule };

struct SpringCollider {
  SpringColliderShape shape = SpringColliderShape::kSphere;
  std::string part;               // the part it moves with (a child part name, parent-qualified name, or the root part)
  glm::vec3 offset{0.0f};         // sphere centre, or the capsule's first end, in the part's frame
  glm::vec3 offset_end{0.0f};     // capsule only: the second end, in the part's frame
  float radius = 0.5f;            // studs, > 0
};

/// A spring chain (SPEC S1-S7, docs/springs.md): the joints from the one placing `chain_root`
/// down to the one placing `end` swing after their animated pose. Each joint carries one
/// segment, from its pivot to the next joint's pivot; the last segment ends at `end_offset` in
/// the end part's frame, by default the point opposite the end joint's pivot through the end
/// part's centre. The control has no target: the animated pose is what it follows.
struct SpringSettings {
  std::string chain_root;
  std::string end;
  std::optional<glm::vec3> end_offset;  // nullopt: opposite the end joint's pivot through the part centre
  float stiffness = 60.0f;              // 1/s^2, in [0, 10000]
  float damping = 6.0f;                 // 1/s, in [0, 100]
  glm::vec3 gravity{0.0f};              // studs/s^2, world (Roblox's default gravity is 196.2 down)
  std::vector<SpringCollider> colliders;
/// One leg of a feet control: the chain from `chain_root` (the thigh part) down to `end` (the
/// foot part) must be exactly three joints (hip, knee, ankle).
struct FeetLeg {
  std::string chain_root;
  std::string end;
  /// The sole point in the foot part's frame; nullopt = the centre of the bottom face of the
  /// foot part's box, (0, -size.y / 2, 0).
  std::optional<glm::vec3> sole_offset;
};

/// Ground adaptation (rules G1-G6, docs/ground.md): one control owns both legs and the pelvis.
/// Needs a ground query in StackFrame::ground. The control's smooth_time smooths each foot's lift
/// and hit normal; its target is unused.
struct FeetSettings {
  std::vector<FeetLeg> legs;         // 1 or 2 legs (kMaxFeet)
  float probe_height = 1.0f;         // studs: rays start this far above the sole and reach as far below
  float max_lift = 1.0f;             // studs: bound on each foot's lift and on the pelvis drop
  bool pelvis = true;                // lower the joint that carries the legs when a leg cannot reach
  bool align_to_normal = true;       // turn each foot toward the (smoothed) hit normal
  float max_tilt_deg = 35.0f;        // cap on that turn (rule G5)
  glm::vec3 up{0.0f, 1.0f, 0.0f};    // up axis in the root part's frame (rule G6)
};

/// One control of a stack.
struct ControlDesc {
  std::string name;
  int priority = 0;          // ascending; ties keep insertion order (CS1)
  float weight = 1.0f;       // blend weight in [0, 1]; <= 0 or nonfinite: the control does not run
  float smooth_time = 0.0f;  // seconds; <= 0: no target smoothing (CS6)
  bool enabled = true;
  Target target;
  std::variant<IkSettings, LookAtSettings, SpringSettings, FeetSettings> settings;
};

/// Why a control did or did not change the pose this frame.
enum class ControlStatus {
  kNotRun,      // update() has not reached it yet
  kSolved,      // the solver ran and its candidate was blended in
  kDisabled,    // enabled == false
  kZeroWeight,  // weight <= 0 or nonfinite
  kBadTarget,   // the target (or the root placement) was nonfinite: nothing changed
};

const char* to_string(ControlStatus status);

/// Most legs a feet control can own (the size of FeetReport::feet).
inline constexpr int kMaxFeet = 2;

/// One foot of a feet control's report.
struct FootReport {
  bool hit = false;          // the foot's ray found ground (false: the missed-ground event)
  bool clamped = false;      // the lift hit max_lift, or the tilt hit max_tilt_deg
  float lift = 0.0f;         // studs along up applied to the sole this frame (after policy and smoothing)
  float tilt_deg = 0.0f;     // degrees the foot was turned toward the ground normal
  float sole_error = 0.0f;   // studs from the final sole to its target (hit point + animated clearance)
};

/// The feet control's part of a report (foot_count 0 for other kinds). Fixed size: no allocation.
struct FeetReport {
  int foot_count = 0;
  std::array<FootReport, kMaxFeet> feet{};
  float pelvis_drop = 0.0f;  // studs the pelvis was lowered along up (never negative)
};

/// Per-control outcome of the last update(), measured on the pose AFTER its blend.
struct ControlReport {
  ControlStatus status = ControlStatus::kNotRun;
  bool reached = false;  // IK: residual <= 0.001 studs; look-at: within 1e-3 rad and not limited
  bool clamped = false;  // look-at: a yaw/pitch limit cut the turn
  float residual = 0.0f; // IK: studs from the endpoint to the target; look-at: radians of gaze error
  int changed_joints = 0;      // joints whose transform this control changed
  glm::vec3 target{0.0f};      // the (smoothed) world target used this frame
  /// IK: end_offset lay within kPivotSnapRelative of the chain's last bone from the end joint's
  /// own pivot, so the chain reaches (and residual is measured) with that pivot itself and the
  /// end joint takes no positional turn (e.g. 0.1019 typed for an ankle pivot at 0.10194).
  bool endpoint_snapped = false;
  bool has_pole = false;       // IK: a finite pole was used this frame (drawings show it)
  glm::vec3 pole{0.0f};        // IK: that world pole point
  int substeps = 0;            // spring: substeps run this frame (rule S3)
  int resets = 0;              // spring: resets fired this frame (rules S5, S6)
  // A spring has no target: its residual is the studs from the chain's tip to the animated
  // tip (how far it swings), `reached` when that is <= 0.001.
  FeetReport feet;             // feet control: per-foot outcome; its residual is the worst sole_error
};

}  // namespace asterune
