// A game engine's view of asterune: only the installed headers and the package config.
#include <cstdio>
#include <vector>

#include <asterune/rig/pose.hpp>
#include <asterune/rig/rig.hpp>
#include <asterune/rig/world.hpp>

int main() {
  asterune::RigDesc desc;
  desc.parts = {{"Root", "Root", {}, {}}, {"A", "A", {}, {}}, {"B", "B", {}, {}}};
  desc.joints = {{"J1", "Root", "A", asterune::Transform::from_position({0, 1, 0}), {}, true},
                 {"J2", "A", "B", asterune::Transform::from_position({0, 1, 0}), {}, true}};
  auto rig = asterune::build_rig(desc);
  if (!rig) return 1;
  asterune::Pose pose = asterune::make_pose(rig.value());
  std::vector<asterune::Transform> world(2);
  asterune::evaluate_world(rig.value(), {}, pose.local, world);
  std::printf("joints=%d y=%.1f\n", rig.value().joint_count(), world[1].position.y);
  return world[1].position.y == 2.0f ? 0 : 1;
}
