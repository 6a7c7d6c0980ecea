// CCD with joint limits on chains whose parts are NOT at identity orientation: the returned
// deltas must rebuild the returned points (point_chain.hpp convention) on every path, including the
// early ones (a straight chain toward an unreachable target, a bent chain that cannot fold far
// enough), where the warm start declines (rule IK6, IK8, IK5).
#include <catch2/catch.hpp>

#include <array>
#include <cmath>

#include "asterune/math/transform.hpp"
#include "asterune/solvers/ccd.hpp"
#include "asterune/solvers/fabrik.hpp"

using namespace asterune;

namespace {

// Three parts with arbitrary world orientations; each carries a segment given in its own
// frame, so the world segment is R_i * local_i. The current pose is the rest pose.
struct RotatedChain {
  std::array<glm::quat, 3> orientations;
  std::array<glm::quat, 3> rest_local;
  std::array<JointLimit, 3> limits;
  std::array<glm::vec3, 4> points;
  glm::quat root_parent{1, 0, 0, 0};

  RotatedChain(const std::array<glm::vec3, 3>& world_dirs, const std::array<float, 3>& lengths) {
    const std::array<glm::quat, 3> spin = {glm::angleAxis(0.7f, glm::normalize(glm::vec3(1, 2, 3))),
                                           glm::angleAxis(-1.9f, glm::normalize(glm::vec3(-2, 1, 0.5f))),
                                           glm::angleAxis(2.6f, glm::normalize(glm::vec3(0.3f, -1, 2)))};
    points[0] = glm::vec3(0.5f, 1.0f, -0.25f);
    for (std::size_t i = 0; i < 3; ++i) {
      // Part i's orientation maps its local +Y (the bone axis) onto world_dirs[i], then spins
      // about it, so no part is axis-aligned.
      const glm::quat aim = rotation_between(glm::vec3(0, 1, 0), glm::normalize(world_dirs[i]));
      orientations[i] = glm::normalize(aim * spin[i]);
      // spin[i] turns +Y too: the bone axis in the part frame is inverse(spin) * +Y.
      points[i + 1] = points[i] + lengths[i] * glm::normalize(world_dirs[i]);
      const glm::quat parent = i == 0 ? root_parent : orientations[i - 1];
      rest_local[i] = glm::normalize(glm::conjugate(parent) * orientations[i]);
      const glm::vec3 bone_local = glm::normalize(glm::conjugate(orientations[i]) * glm::normalize(world_dirs[i]));
      limits[i] = JointLimit::ball_socket(bone_local, glm::radians(70.0f), glm::radians(-30.0f), glm::radians(30.0f));
    }
  }
  ChainLimits view() const { return ChainLimits{orientations, rest_local, root_parent, limits}; }
};

// Points rebuilt from the deltas with A_i = deltas[i] * A_{i-1}, segment i turned by A_i.
std::array<glm::vec3, 4> rebuild(const std::array<glm::vec3, 4>& points, const std::array<glm::quat, 3>& deltas) {
  std::array<glm::vec3, 4> p{};
  p[0] = points[0];
  glm::quat acc(1, 0, 0, 0);
  for (std::size_t i = 0; i < 3; ++i) {
    acc = deltas[i] * acc;
    p[i + 1] = p[i] + acc * (points[i + 1] - points[i]);
  }
  return p;
}

void check_solve(const RotatedChain& c, const glm::vec3& target, bool expect_reached) {
  const ChainLimits lim = c.view();
  ChainGoal goal;
  goal.target = target;
  std::array<glm::vec3, 4> out{};
  std::array<glm::quat, 3> deltas{};
  const SolveReport r = solve_ccd(c.points, goal, out, deltas, ChainSettings{}, &lim);
  INFO("target " << target.x << " " << target.y << " " << target.z << " residual " << r.residual);
  REQUIRE(r.residual >= 0.0f);
  for (const glm::quat& d : deltas) REQUIRE(glm::length(glm::vec4(d.w, d.x, d.y, d.z)) == Approx(1.0f).margin(1e-4));
  const auto rebuilt = rebuild(c.points, deltas);
  for (std::size_t i = 0; i < 4; ++i) CHECK(glm::length(rebuilt[i] - out[i]) < 1e-4f);
  CHECK(glm::length(rebuilt[3] - target) == Approx(r.residual).margin(1e-4));
  // Every joint inside its limit, measured on the orientations rebuilt from the deltas.
  glm::quat acc(1, 0, 0, 0);
  for (std::size_t i = 0; i < 3; ++i) {
    acc = deltas[i] * acc;
    const glm::quat part = acc * c.orientations[i];
    glm::quat parent_now = c.root_parent;
    if (i > 0) {
      glm::quat a(1, 0, 0, 0);
      for (std::size_t k = 0; k < i; ++k) a = deltas[k] * a;
      parent_now = a * c.orientations[i - 1];
    }
    CHECK(within_limit(c.limits[i], glm::conjugate(parent_now * c.rest_local[i]) * part, glm::radians(0.05f)));
  }
  if (expect_reached) CHECK(r.reached);
  else CHECK_FALSE(r.reached);
  if (!r.reached) CHECK(r.clamped);
}

}  // namespace

TEST_CASE("ccd with limits: a straight rotated chain toward an unreachable target (rule IK6, IK8)") {
  const glm::vec3 dir = glm::normalize(glm::vec3(1, 0.3f, -0.4f));
  const RotatedChain c({dir, dir, dir}, {1.0f, 0.8f, 0.6f});
  check_solve(c, c.points[0] + 3.5f * glm::normalize(glm::vec3(0.2f, 1.0f, 0.1f)), false);
  check_solve(c, c.points[0] + 3.5f * dir, false);  // straight ahead, beyond reach
}

TEST_CASE("ccd with limits: a bent rotated chain folding toward its root cannot close (rule IK6, IK8)") {
  const RotatedChain c({glm::vec3(1, 0, 0), glm::vec3(0.7f, 0.7f, 0), glm::vec3(0, 1, 0.2f)}, {1.0f, 0.8f, 0.6f});
  // 0.05 studs from the root: the cones (70 degrees) forbid the fold.
  check_solve(c, c.points[0] + glm::vec3(0.02f, 0.04f, 0.02f), false);
  check_solve(c, c.points[0] + glm::vec3(-0.3f, 0.2f, 0.1f), false);
}

TEST_CASE("ccd with limits: a reachable target inside the cones on a rotated chain is reached (rule IK6, IK8)") {
  const RotatedChain c({glm::vec3(1, 0, 0), glm::vec3(0.7f, 0.7f, 0), glm::vec3(0, 1, 0.2f)}, {1.0f, 0.8f, 0.6f});
  // Forward kinematics of a mild bend of the same chain: well inside every cone.
  const glm::vec3 t = c.points[0] + 1.0f * glm::normalize(glm::vec3(1, 0.1f, 0.1f)) +
                      0.8f * glm::normalize(glm::vec3(0.8f, 0.6f, 0.1f)) + 0.6f * glm::normalize(glm::vec3(0.3f, 1, 0.2f));
  check_solve(c, t, true);
}
