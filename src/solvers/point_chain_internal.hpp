// Private pieces shared by the FABRIK and CCD implementations (not installed): the input
// check, the tolerances, segment lengths. The solvers' other shared steps each have their own
// header: chain_warm_start.hpp (shapes to start from), chain_limit_pass.hpp (limit passes and
// the orientation bookkeeping), chain_refine.hpp (the damped least-squares refinement) and
// chain_finish.hpp (the tail every solve ends with).
#pragma once

#include <algorithm>
#include <cmath>
#include <span>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "asterune/solvers/point_chain.hpp"

namespace asterune::detail {

constexpr float kChainTiny = 1e-7f;

/// ChainSettings::tolerance, or the default 1e-3 studs when it is negative or not finite.
inline float sanitized_tolerance(const ChainSettings& s) {
  return (std::isfinite(s.tolerance) && s.tolerance >= 0.0f) ? s.tolerance : 1e-3f;
}

/// ChainSettings::max_passes clamped to [1, 64].
inline int sanitized_max_passes(const ChainSettings& s) { return std::clamp(s.max_passes, 1, 64); }


/// Validates sizes and values; on failure copies what fits into points_out, fills deltas with
/// identity and returns false.
bool chain_inputs_usable(std::span<const glm::vec3> points, const ChainGoal& goal,
                         std::span<glm::vec3> points_out, std::span<glm::quat> deltas_out,
                         const ChainLimits* limits, std::size_t min_segments);

float segment_length(std::span<const glm::vec3> points, std::size_t i);

}  // namespace asterune::detail
