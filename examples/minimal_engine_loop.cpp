// The smallest engine integration: one R15 character whose animator plays an idle sway (a
// clip made here, with a marker), a hand reaching for a moving point and the head following it.
// Everything is set up once; the loop body is the per-frame path (no allocation, no exceptions).
#include <array>
#include <cstdio>
#include <vector>

#include "asterune/anim/animator.hpp"
#include "asterune/clip/clip.hpp"
#include "asterune/retarget/animation.hpp"

#include "asterune/controls/stack.hpp"
#include "asterune/rig/builtin.hpp"
#include "asterune/rig/pose.hpp"
#include "asterune/rig/rig.hpp"
#include "asterune/rig/world.hpp"

int main() {
  using namespace asterune;
  // Setup: build the rig (shared by every character) and this character's state.
  const Rig rig = build_rig(*builtin_rig_desc("r15")).value();
  Pose pose = make_pose(rig);
  std::vector<Transform> world(static_cast<size_t>(rig.joint_count()));

  // An idle clip: the upper torso sways 6 degrees about +Y and back over 2 s, with a marker at
  // 1 s. Its track names the rig's part, so it binds natively (rule P3).
  Clip idle;
  idle.name = "Idle";
  idle.duration = 2.0f;
  ClipTrack sway;
  sway.name = "UpperTorso";
  sway.rotation_times = {0.0f, 1.0f, 2.0f};
  const glm::quat turned = glm::angleAxis(glm::radians(6.0f), glm::vec3(0, 1, 0));
  sway.rotations = {glm::quat(1, 0, 0, 0), turned, glm::quat(1, 0, 0, 0)};
  idle.tracks.push_back(sway);
  idle.markers.push_back(ClipMarker{1.0f, "SwayTurn", "", ClipMarkerKind::kMarker});
  auto idle_binding = build_animation_binding(idle, rig, nullptr, nullptr);
  if (!idle_binding) {
    std::fprintf(stderr, "%s\n", idle_binding.message().c_str());
    return 1;
  }
  TrackDesc idle_track;
  idle_track.name = "Idle";
  idle_track.clip = &idle;
  idle_track.binding = &idle_binding.value();
  idle_track.priority = TrackPriority::kIdle;
  auto animator = Animator::build(rig, std::vector<TrackDesc>{idle_track});
  if (!animator) {
    std::fprintf(stderr, "%s\n", animator.message().c_str());
    return 1;
  }
  std::array<AnimEvent, 8> events;
  int markers_seen = 0;

  IkSettings arm;
  arm.chain_root = "RightUpperArm";
  arm.end = "RightHand";
  arm.pole = target_at({2, 3, 1});
  LookAtSettings head;
  head.chain_root = "Head";  // neck only, so the reaching arm is not moved afterwards (CS2)
  head.end = "Head";
  ControlDesc reach;
  reach.name = "RightReach";
  reach.smooth_time = 0.05f;
  reach.target = target_at({1.2f, 4.0f, -1.0f});
  reach.settings = arm;
  ControlDesc look;
  look.name = "Look";
  look.priority = 1;
  look.target = target_on_part("RightHand", {0, 0, 0});  // the head watches the hand
  look.settings = head;
  const std::vector<ControlDesc> controls{reach, look};
  auto stack = ControlStack::build(rig, controls);
  if (!stack) {
    std::fprintf(stderr, "%s\n", stack.message().c_str());
    return 1;
  }

  // Per frame: the engine supplies the root placement and dt, then reads the motor transforms.
  // The order (rule AN16): animator, then the root moved by its root motion, then the controls
  // at that root (a track with root_motion fills root_delta; here it stays the identity).
  Transform root = Transform::from_position({0, 3, 0});
  for (int frame = 0; frame < 90; ++frame) {
    const AnimatorReport anim = animator.value().update(rig, 1.0f / 60.0f, pose.local, pose.coverage, events);
    root = root * anim.root_delta;
    for (int e = 0; e < anim.events_written; ++e) markers_seen += events[static_cast<size_t>(e)].kind == AnimEventKind::kMarker;
    const float t = static_cast<float>(frame) / 60.0f;
    stack.value().set_target_position(0, {1.2f, 4.0f - t, -1.0f});
    stack.value().update(rig, StackFrame{root, 1.0f / 60.0f, t}, pose, world);
    // pose.local[j] is now Motor6D j's Transform; world[j] places its child part.
  }
  const ControlReport& r = stack.value().report(0);
  const int hand = rig.find_joint("RightHand").index;
  std::printf("RightReach reached=%d distance=%.4f studs; hand at (%.3f, %.3f, %.3f)\n", r.reached ? 1 : 0,
              static_cast<double>(r.distance), static_cast<double>(world[static_cast<size_t>(hand)].position.x),
              static_cast<double>(world[static_cast<size_t>(hand)].position.y), static_cast<double>(world[static_cast<size_t>(hand)].position.z));
  std::printf("Idle track: time %.3f s, %d marker(s) crossed\n",
              static_cast<double>(animator.value().state(0).time_position), markers_seen);
  return r.reached && markers_seen == 1 ? 0 : 1;
}
