// The part of measure_look_at() a control stack keeps: whether the facing looks at the target
// within the limits, without the report's yaw and pitch (an atan2 and an asin nobody reads
// there). Internal to the library.
#pragma once

#include <glm/glm.hpp>

#include "asterune/solvers/look_at.hpp"

namespace asterune::detail {

/// measure_look_at()'s valid, reached, clamped and residual, the same bits (the same steps
/// on the same numbers); the report's yaw and pitch are not computed.
struct LookAtResidual {
  bool valid = false;
  bool reached = false;
  bool clamped = false;
  float residual = 0.0f;
};

LookAtResidual measure_look_at_residual(const glm::vec3& eye, const glm::vec3& facing, const glm::vec3& target,
                                        const LookAtFrame& frame);

}  // namespace asterune::detail
