// asterune-viewer: the renderer's fixed colours (linear RGB in [0, 1]). Its own header so that
// the headless test (tests/viewer) can read the background back without the renderer.
#pragma once

#include <glm/glm.hpp>

namespace asterune::viewer::colour {

inline constexpr glm::vec3 kBackground{0.89f, 0.91f, 0.94f};
inline constexpr glm::vec3 kPart{0.36f, 0.56f, 0.86f};        // part boxes: blue
inline constexpr glm::vec3 kSpringPart{0.25f, 0.70f, 0.55f};  // parts of a spring chain: green
inline constexpr glm::vec3 kGround{0.62f, 0.60f, 0.56f};      // colliding ground: warm grey

}  // namespace asterune::viewer::colour
