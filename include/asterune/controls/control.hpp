// Control descriptions and per-frame reports: the plain data a ControlStack is built from
// (rule CS1-CS8). A control is one of a small closed set of kinds (IK, look-at, spring, feet) held in a
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
#include "asterune/solvers/joint_limits.hpp"

namespace asterune {

/// A joint limit of an IK control (rule IK8), rest-relative (docs/solvers.md "Joint limits"):
/// it constrains L = inverse(parent_world * rest_local) * part_world of the joint placing
/// `part`, where rest_local = rotation(C0 * inverse(C1)) (the part at T = identity).
struct IkJointLimit {
  std::string part;                          // the part the limited joint places; must be in the chain
  JointLimitKind kind = JointLimitKind::kHinge;
  glm::vec3 axis{1.0f, 0.0f, 0.0f};          // hinge axis / cone axis, in the part's own frame (normalized at bind)
  float min_deg = 0.0f;                      // hinge angle range, or the cone's twist range (degrees)
  float max_deg = 0.0f;
  float cone_deg = 0.0f;                     // ball-socket: largest swing of `axis` (degrees)
};

/// Seed 003 L11 reach window: the directions (from the chain root's pivot to the target, in
/// the character's frame) the limb may reach for. Outside it the control's weight fades to 0
/// over falloff_deg instead of clamping the target (docs/control-stack.md "Reach window").
struct ReachWindow {
  glm::vec3 forward{0.0f, 0.0f, -1.0f};  // character facing, in the root part's frame
  glm::vec3 up{0.0f, 1.0f, 0.0f};        // character up, in the root part's frame
  /// Which side the limb is on: +1 right (forward x up), -1 left, 0 = from the chain root
  /// pivot's rest position. Azimuths are mirrored by it, so one set of limits serves both arms.
  float side = 0.0f;
  float up_limit_deg = 170.0f;     // elevation (0 hanging, 90 level, 180 overhead) above which it fades
  float across_limit_deg = 45.0f;  // azimuth across the body (0 forward, +90 own side, 180 behind)
  float behind_limit_deg = 135.0f; // azimuth round the own side toward behind
  float falloff_deg = 30.0f;       // degrees outside the window over which the weight fades to 0 (0: step)
};

/// Seed 003 L11 character-frame pole: the bend points back and a little outward, fixed in the
/// character's frame, and slides toward `outward` as the reach direction nears the pole
/// direction (where its projection vanishes). Replaces IkSettings::pole (not both).
struct CharacterPole {
  glm::vec3 back{0.0f, 0.0f, 1.0f};     // root part frame
  glm::vec3 outward{1.0f, 0.0f, 0.0f};  // root part frame: the limb's own side
  float outward_deg = 30.0f;            // base pole = back turned this far toward outward
  float slide_deg = 30.0f;              // the pole slides fully to `outward` as the aim comes within this angle of the base pole's line
};

/// Which IK solver a control uses (rule IK2). kAuto: 1 segment aims, 2 segments use the
/// analytic two-bone solver (FABRIK when joint limits are given), longer chains FABRIK.
enum class IkSolver { kAuto, kTwoBone, kFabrik, kCcd };

/// Relative tolerance of the IK endpoint-to-pivot snap: an end_offset closer to the end joint's
/// own pivot than this fraction of the chain's last bone (the distance between the last two
/// pivots; for a one-joint chain, the pivot's distance from the end part's origin), and at least
/// 1e-6 studs, is taken as that pivot, dropping the zero-length last segment.
inline constexpr float kPivotSnapRelative = 1e-3f;

/// An IK control (rule IK1, IK2, IK5, IK7, IK8): moves a point fixed in the `end` part toward
/// the target by turning the joints from the one placing `chain_root` down to the one placing
/// `end`. Formulas of every setting: docs/solvers.md and docs/control-stack.md.
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
  /// Soft reach start s in (0, 1): the target distance is softened above s * reach (C1). 0 = off.
  float soft_reach = 0.0f;
  /// Largest segment scale factor (two-bone only, needs soft_reach): 1 = no stretch, 1.05 = up
  /// to 5 % longer, capped at 1 + two_bone_stretch_ceiling(soft_reach). Needs a chain that
  /// ends at the joint after the lower segment (end part = the hand, end_offset = its pivot),
  /// because the stretch moves that joint's attachment (T translation) along the bone.
  float stretch = 1.0f;
  float tolerance = 1e-3f;         // studs: reached when the endpoint is this close (FABRIK/CCD stop there)
  int max_passes = 16;             // FABRIK passes / CCD sweeps, 1..64 (with limits, up to as many refinement steps follow)
  /// Largest reach as a fraction m of the chain length (seed 003 ClampArmReachDistance): the
  /// target distance is clamped to m * length so the limb stays slightly bent. 0 = off; (0, 1).
  float max_extension = 0.0f;
  /// Continuity of the bend while the pole's projection vanishes (rule IK8), degrees per second;
  /// elsewhere the pole applies on the same frame. <= 0: unlimited.
  float pole_turn_rate_deg_per_s = 720.0f;
  std::vector<IkJointLimit> limits;              // per joint, rest-relative (FABRIK / CCD)
  std::optional<ReachWindow> reach_window;       // fades the weight outside a reach window
  std::optional<CharacterPole> character_pole;   // pole fixed in the character's frame
};

/// A look-at control (rule LA1-LA3): turns the joints from the one placing `chain_root` down
/// to the one placing `end` so that the end part's `forward` axis, from its eye point, points
/// at the target.
struct LookAtSettings {
  std::string chain_root;
  std::string end;
  glm::vec3 forward{0.0f, 0.0f, -1.0f};  // facing axis in the end part's frame (R0: -Z)
  glm::vec3 eye_offset{0.0f};            // the eye, a point in the end part's frame (default: its origin)
  float yaw_limit_deg = 80.0f;           // relative to the end part's rest facing
  float pitch_limit_deg = 60.0f;
  std::vector<float> joint_weights;      // empty: even spread (joint k takes 1/(n-k) of what remains)
  /// Seed 003 TrackLookAngle: the gaze's yaw and pitch move toward the wanted angles at most
  /// this fast (degrees per second); 0 = at once (no tracking state). With tracking, clearing
  /// the target or disabling the control eases the gaze back to the animated pose.
  float tracking_speed_deg_per_s = 0.0f;
  bool easing = true;       // tracking accelerates and decelerates (critically damped follow)
  float ease_time = 0.25f;  // seconds: the follow's time constant (omega = 2 / ease_time)
};

/// A collider a spring chain is kept out of (rule S7), fixed in one of the rig's parts.
enum class SpringColliderShape { kSphere, kCapsule };

struct SpringCollider {
  SpringColliderShape shape = SpringColliderShape::kSphere;
  std::string part;               // the part it moves with (a child part name, parent-qualified name, or the root part)
  glm::vec3 offset{0.0f};         // sphere centre, or the capsule's first end, in the part's frame
  glm::vec3 offset_end{0.0f};     // capsule only: the second end, in the part's frame
  float radius = 0.5f;            // studs, > 0
};

/// A spring chain (rules S1-S9, docs/springs.md): the joints from the one placing `chain_root`
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
};

/// One leg of a feet control: the chain from `chain_root` (the thigh part) down to `end` (the
/// foot part) must be exactly three joints (hip, knee, ankle).
struct FeetLeg {
  std::string chain_root;
  std::string end;
  /// The sole point in the foot part's frame; nullopt = the centre of the bottom face of the
  /// foot part's box, (0, -size.y / 2, 0).
  std::optional<glm::vec3> sole_offset;
};

/// Ground adaptation (rules G1-G9, docs/ground.md): one control owns both legs and the pelvis.
/// Needs a ground query in StackFrame::ground. The control's smooth_time smooths each foot's lift,
/// hit normal and shortening, and the lean; its target is unused.
struct FeetSettings {
  std::vector<FeetLeg> legs;         // 1 or 2 legs (kMaxFeet)
  float probe_height = 1.0f;         // studs: rays start this far above the sole and reach as far below
  float max_lift = 1.0f;             // studs: bound on each foot's lift and on the pelvis drop
  bool pelvis = true;                // lower the joint that carries the legs when a leg cannot reach
  bool align_to_normal = true;       // turn each foot toward the (smoothed) hit normal
  float max_tilt_deg = 35.0f;        // cap on that turn (rule G5)
  glm::vec3 up{0.0f, 1.0f, 0.0f};    // up axis in the root part's frame (rule G6)
  /// Step shortening (rule G8, seed 003 L08): a leg the ground put out of reach first has its
  /// foot target pulled back toward the point under the hip, along the facing, by this fraction
  /// of its reach deficit; the pelvis then drops only for what the shortened target still
  /// lacks. In [0, 1]; 0 = off (the pose bit for bit as without it).
  float step_shorten_ratio = 0.0f;
  /// Slope lean (rule G9, seed 003 L08): tilt the pelvis into the slope the planted feet stand
  /// on (forward going up, back going down, uphill on a side slope), at most max_lean_deg.
  /// Needs pelvis on. Off = the pose bit for bit as without it.
  bool lean = false;
  float max_lean_deg = 10.0f;        // in [0, 45]
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
  kZeroWeight,  // weight <= 0 or nonfinite (or faded to 0 by a reach window)
  kBadTarget,   // the target (or the root placement) was nonfinite: nothing changed
  kNoTarget,    // the target was cleared (clear_target): nothing to reach
  kReleasing,   // target cleared or control disabled: a tracking look-at eases back to the animated pose
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
  float shorten = 0.0f;      // studs the foot target was pulled back toward the point under the hip (rule G8)
  // The foot's ray this frame (rule G1), world space, for drawings and debugging:
  glm::vec3 ray_origin{0.0f};                // probe_height above the animated sole, along up
  glm::vec3 ray_end{0.0f};                   // the hit point when hit, else origin + direction * length
  glm::vec3 hit_normal{0.0f, 1.0f, 0.0f};    // unit ground normal at the hit (unsmoothed); up when missed
};

/// The feet control's part of a report (foot_count 0 for other kinds). Fixed size: no allocation.
struct FeetReport {
  int foot_count = 0;
  std::array<FootReport, kMaxFeet> feet{};
  float pelvis_drop = 0.0f;  // studs the pelvis was lowered along up (never negative)
  float lean_deg = 0.0f;     // degrees the pelvis was tilted into the slope (rule G9)
};

/// Per-control outcome of the last update(), measured on the pose AFTER its blend. One unit
/// per field: `distance` is studs, `angle` radians.
struct ControlReport {
  ControlStatus status = ControlStatus::kNotRun;
  /// IK: distance <= tolerance (position goal) and angle <= 1e-3 (orientation goal);
  /// look-at: angle <= 1e-3 rad and not limited.
  bool reached = false;
  /// IK: the solver could not follow the request as given (distance softened or clamped,
  /// max_extension, out of reach, a joint limit stopped it); look-at: a yaw/pitch limit cut the turn.
  bool clamped = false;
  float distance = 0.0f;  // IK position goal: studs from the endpoint to the target; else 0
  float angle = 0.0f;     // IK orientation goal: radians from the end part to the goal; look-at: radians of gaze error
  int passes = 0;         // IK solver passes (two-bone 1, FABRIK pass pairs, CCD sweeps)
  float stretch = 1.0f;   // IK segment scale factor used (1 = none)
  float weight = 0.0f;    // weight blended this frame (desc weight times the reach window's fade)
  int changed_joints = 0;      // joints whose transform this control changed
  glm::vec3 target{0.0f};      // the (smoothed) world target used this frame
  /// IK: end_offset lay within kPivotSnapRelative of the chain's last bone from the end joint's
  /// own pivot, so the chain reaches (and distance is measured) with that pivot itself and the
  /// end joint takes no positional turn (e.g. 0.1019 typed for an ankle pivot at 0.10194).
  bool endpoint_snapped = false;
  bool has_pole = false;       // IK: a finite pole was used this frame (drawings show it)
  glm::vec3 pole{0.0f};        // IK: that world pole point
  int substeps = 0;            // spring: clock steps taken this frame (rules S3, S8)
  int resets = 0;              // spring: resets fired this frame (rules S5, S6)
  // A spring has no target: its distance is the studs from the chain's tip to the animated
  // tip (how far it swings), `reached` when that is <= 0.001.
  FeetReport feet;             // feet control: per-foot outcome; its distance is the worst sole_error
};

}  // namespace asterune
