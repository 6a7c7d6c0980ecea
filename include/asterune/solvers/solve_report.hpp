// SolveReport: what every pure IK solver (two-bone, FABRIK, CCD) returns about one solve
// (rule IK8). It is a plain value: no allocation, no error state, always filled.
#pragma once

namespace asterune {

struct SolveReport {
  /// True when the SOLVED endpoint lies within the solver's tolerance of the target. It is
  /// measured on the output pose, never inferred from distances alone.
  bool reached = false;
  /// True when the solver could not follow the request as given: the target distance was
  /// clamped into the reachable interval or softened near full reach (two-bone), the target
  /// was out of reach (chains), or a joint limit stopped a joint (chains with limits).
  bool clamped = false;
  /// Distance (studs) from the solved endpoint to the target. Negative (-1) when nothing was
  /// solved because an input was unusable (nonfinite target or pivots, bad span sizes): the
  /// outputs then equal the inputs and `reached` is false.
  float residual = -1.0f;
  /// Iterations used: 1 for the analytic two-bone solve, backward+forward pass pairs for
  /// FABRIK, tip-to-root sweeps for CCD; 0 when the pose already reached or nothing was solved.
  int passes = 0;
};

}  // namespace asterune
