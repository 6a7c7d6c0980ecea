// Analytic two-bone IK (rule IK3, IK8): a pure function on three pivot positions and a target.
// Law-of-cosines triangle, reach distance clamped just inside [|a-b|, a+b] (the limb is never
// exactly straight or folded), optional C1 soft reach near full extension (no knee pop),
// optional bounded stretch, pole-driven bend plane with continuity through the chain axis,
// and world-space delta rotations ready to apply to the two joints. No rig, no state (the
// caller feeds last frame's bend direction back in), no allocation, no exceptions.
// Formulas and diagrams: docs/solvers.md.
#pragma once

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "asterune/solvers/solve_report.hpp"

namespace asterune {

/// Tuning of one two-bone solve. Defaults: no soft reach, no stretch, 1e-3 stud tolerance.
struct TwoBoneSettings {
  /// Fraction s of the full reach L = a + b at which softening starts. Below s*L the distance
  /// is used as is; above it follows s*L + (1-s)*L*(1 - exp(-(d - s*L) / ((1-s)*L))), whose
  /// slope is 1 at the start (the bend angle stays C1) and which approaches L without reaching
  /// it. s <= 0, s >= 1 or nonfinite turns soft reach off.
  float soft_reach_start = 0.0f;
  /// Extra length fraction the two segments may grow by near full reach (0.05 = up to 5 %
  /// longer). Requires soft reach (it acts across the same band); 0 turns stretch off. Capped
  /// at two_bone_stretch_ceiling(soft_reach_start) so the knee never bends MORE as the target
  /// moves away. Both segments scale by the same factor k (reported in TwoBoneResult::stretch).
  float max_stretch = 0.0f;
  /// `reached` holds when |solved end - target| <= tolerance (studs).
  float tolerance = 1e-3f;
  /// Largest reach as a fraction m of the (stretched) span A + B (seed 003's
  /// ClampArmReachDistance): the solved distance never exceeds m * (A + B), so a target beyond
  /// it leaves the elbow slightly bent instead of locked straight. With soft reach the curve
  /// approaches m * (A + B) instead of A + B. m <= 0, m >= 1 or nonfinite turns it off.
  float max_extension = 0.0f;
  /// Pole band (rule IK8): the pole's projection off the root->target axis is "well defined"
  /// when its length rho is at least this fraction f of the unstretched chain length a + b.
  /// Then the bend plane is the pole's on this very solve. Inside the band (rho < f (a + b))
  /// the carried bend turns toward the pole by at most max_bend_turn per solve, and lags it by
  /// at most (1 - smoothstep(rho / (f (a + b)))) * pi, so the bend is back on the pole when rho
  /// leaves the band. <= 0 or nonfinite: the pole always applies at once. Default 0.1.
  float pole_band_fraction = 0.1f;
  /// Continuity inside the pole band: largest turn of the bend direction toward the pole per
  /// solve (radians). A caller running at a frame rate sets it to rate * dt (the IK control
  /// does, from IkSettings::pole_turn_rate_deg_per_s). <= 0 or nonfinite = unlimited (the
  /// band's lag envelope alone). Default 12 degrees.
  float max_bend_turn = 0.2094395f;
};

/// The current pose and the goal. All points are world space (or any one common frame).
struct TwoBoneInput {
  glm::vec3 root{0.0f};    ///< pivot of the upper joint (hip / shoulder); never moves
  glm::vec3 mid{0.0f};     ///< pivot of the lower joint (knee / elbow), current pose
  glm::vec3 end{0.0f};     ///< the endpoint that should reach (ankle pivot or hand point), current pose
  glm::vec3 target{0.0f};  ///< where `end` should go
  /// Pole point: the bend (knee) points toward it. Used only when has_pole and the point is
  /// finite and off the root->target axis; otherwise the bend direction is kept (see below).
  glm::vec3 pole{0.0f};
  bool has_pole = false;
  /// Last frame's TwoBoneResult::bend_direction, for continuity. Zero (or nonfinite) = none:
  /// the current pose's own bend (mid off the root->end line) is used instead.
  glm::vec3 previous_bend{0.0f};
};

struct TwoBoneResult {
  glm::vec3 mid{0.0f};  ///< solved lower-joint pivot
  glm::vec3 end{0.0f};  ///< solved endpoint
  /// Unit vector orthogonal to the solved root->end axis pointing from that axis toward the
  /// solved mid pivot. Feed it back as TwoBoneInput::previous_bend next frame.
  glm::vec3 bend_direction{0.0f};
  /// World-space delta for the upper joint (about the root pivot):
  ///   new world orientation of the upper part = delta_upper * old world orientation.
  /// It turns the upper segment (mid - root) onto its solved direction AND the current bend
  /// plane onto the solved bend plane, so a hinge knee keeps bending about its own axis. When
  /// the current limb is straight (no plane) it is the shortest-arc rotation.
  glm::quat delta_upper{1.0f, 0.0f, 0.0f, 0.0f};
  /// World-space delta for the lower joint (about the SOLVED mid pivot), applied AFTER the
  /// upper delta: new world orientation of the lower part = delta_lower * delta_upper * old.
  /// It is the shortest arc from delta_upper * (end - mid) to (solved end - solved mid); with
  /// a bent current pose it turns about the bend-plane normal only.
  glm::quat delta_lower{1.0f, 0.0f, 0.0f, 0.0f};
  /// Segment scale factor applied by stretch (1 = none). Solved segment lengths are k*a, k*b;
  /// a caller that cannot scale bones should leave max_stretch at 0.
  float stretch = 1.0f;
  SolveReport report;
};

/// Solves the triangle root-mid-end so that `end` goes toward `target`.
/// Segment lengths a = |mid-root|, b = |end-mid| come from the input pose. The requested
/// distance d = |target-root| is softened (if enabled), stretched (if enabled) and clamped to
/// [|a-b| + e, min(a + b - e, m (a + b))] with e = 1e-4 * (a + b), m = max_extension (when on),
/// all lengths scaled by the stretch factor; the solved end lies on the root->target ray
/// at that distance. Bend direction, in order of preference:
///  1. the pole (its component orthogonal to the root->target axis, length rho) when usable.
///     Without previous_bend, or when rho >= settings.pole_band_fraction * (a + b), it applies
///     at once. Inside the band with previous_bend (tracking) the carried bend turns toward it
///     about the axis by at most settings.max_bend_turn per solve and by at least enough to lag
///     it by no more than (1 - smoothstep(rho / band)) * pi (continuity as the pole's projection
///     vanishes, e.g. a target sweeping through the root->pole line);
///  2. the previous bend (else the current pose's bend) carried from the current root->end
///     axis onto the new axis by the shortest arc;
///  3. any direction orthogonal to the axis.
/// Unusable input (nonfinite target or pivots): outputs equal the inputs, identity deltas,
/// report {reached=false, residual=-1}. Zero-length segments: no change, report measured on
/// the unchanged pose. A target at the root keeps the current root->end direction.
TwoBoneResult solve_two_bone(const TwoBoneInput& input, const TwoBoneSettings& settings = {});

/// The soft-reach curve alone: d for d <= s*L, else s*L + (1-s)*L*(1 - exp(-(d-s*L)/((1-s)*L))).
/// Returns d unchanged when soft reach is off (s outside (0,1)) or L <= 0.
float soft_reach_distance(float distance, float full_reach, float soft_reach_start);

/// Largest stretch that keeps the knee straightening monotonically while the target recedes:
/// (1-s) / (0.25 + 1.25 s) (exact; derivation in docs/solvers.md). 0 when soft reach is off.
float two_bone_stretch_ceiling(float soft_reach_start);

/// Stretch factor k(d) = 1 + m * smoothstep((d/L - s) / (1 - s)) with m = min(max_stretch,
/// ceiling); exactly 1 at or below s*L, 1 + m at and beyond L. 1 when stretch or soft reach is off.
float two_bone_stretch_factor(float distance, float full_reach, float soft_reach_start, float max_stretch);

}  // namespace asterune
