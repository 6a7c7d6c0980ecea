// Private helper of the retarget module: snapping a direction to the nearest coordinate axis,
// shared by the automatic facing (humanoid.cpp) and the source-rest check (source_rest.cpp).
#pragma once

#include <cmath>

#include <glm/glm.hpp>

namespace asterune::detail {

/// The signed unit axis (+-X, +-Y, +-Z) along v's largest component; ties go to the first
/// axis. A zero vector gives +X.
inline glm::vec3 snap_axis(const glm::vec3& v) {
  int best = 0;
  for (int i = 1; i < 3; ++i)
    if (std::fabs(v[i]) > std::fabs(v[best])) best = i;
  glm::vec3 out(0.0f);
  out[best] = v[best] >= 0.0f ? 1.0f : -1.0f;
  return out;
}

}  // namespace asterune::detail
