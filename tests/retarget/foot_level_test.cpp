// Rule RT22: flat feet in stance. CMU walks and runs retargeted onto builtin:r15 as a user plays
// them, the feet calibrated from the clip's own contacts: over the middle third of every contact
// the foot part's tilt from level (the angle between its +Y axis and the world's, in double from
// the world placements alone) has median <= 4 degrees and 90th percentile <= 10 degrees.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "asterune/documents/rig_loader.hpp"
#include "asterune/documents/scene_animation.hpp"
#include "asterune/retarget/animation.hpp"
#include "asterune/retarget/contacts.hpp"
#include "asterune/retarget/foot_level.hpp"
#include "asterune/rig/builtin.hpp"
#include "asterune/rig/rig.hpp"
#include "asterune/rig/world.hpp"

using namespace asterune;

namespace {

struct Tilt {
  double median = 0.0, p90 = 0.0;
  size_t samples = 0;
};

Tilt mid_stance_tilt(const std::string& file, bool level) {
  auto loaded = io::load_source_clip(std::string(ASTERUNE_TEST_DATA_DIR) + "/bvh/" + file);
  REQUIRE(loaded);
  io::SourceClip clip = std::move(loaded).value();
  const Rig rig = build_rig(*builtin_rig_desc("r15")).value();
  io::SceneRetarget rt;
  auto profile = io::build_scene_profile(rt, clip.skeleton, rig, clip.rest_on_ground);
  REQUIRE(profile);
  if (level) {  // as the CLI does: before the floor is fitted
    auto levelled = level_clip_feet(clip.clip, clip.skeleton, rig, profile.value());
    REQUIRE(levelled);
    CHECK(levelled.value().size() == 2);
    for (const FootLevel& l : levelled.value()) CHECK(l.contacts > 0);
  }
  auto contacts = io::resolve_scene_floor(rt, clip, rig, profile.value());
  REQUIRE(contacts);
  const FootContacts& c = contacts.value();
  REQUIRE(c.feet.size() == 2);
  auto binding = build_animation_binding(clip.clip, rig, &clip.skeleton, &profile.value());
  REQUIRE(binding);
  AnimationContext ctx = make_animation_context(binding.value());
  const auto n = static_cast<size_t>(rig.joint_count());
  std::vector<Transform> local(n), world(n);
  std::vector<float> coverage(n);
  const Transform root = io::default_root_placement(rig);
  std::vector<double> tilt;
  for (const ContactSpan& span : c.spans()) {
    const JointLookup foot = rig.find_joint(c.feet[span.foot].label);  // "LeftFoot" / "RightFoot"
    REQUIRE(foot.found());
    const int len = span.last - span.first + 1;
    for (int f = span.first + len / 3; f <= span.last - len / 3; ++f) {
      REQUIRE(sample_animation(clip.clip, binding.value(), rig, static_cast<float>(f) * c.dt, WrapMode::kClamp, ctx,
                               local, coverage));
      REQUIRE(evaluate_world(rig, root, local, world));
      const glm::dquat q(world[static_cast<size_t>(foot.index)].rotation);
      const glm::dvec3 up = glm::normalize(q * glm::dvec3(0, 1, 0));
      tilt.push_back(std::acos(std::clamp(up.y, -1.0, 1.0)) * 180.0 / 3.14159265358979);
    }
  }
  REQUIRE(tilt.size() > 10);
  std::sort(tilt.begin(), tilt.end());
  return {tilt[tilt.size() / 2], tilt[(tilt.size() - 1) * 9 / 10], tilt.size()};
}

}  // namespace

TEST_CASE("RT22: CMU walks and runs stand on level feet in mid-stance", "[retarget][feet]") {
  for (const char* file :
       {"cmu_35_01_walk.bvh", "cmu_35_17_run.bvh", "cmu_49_04_run_leap.bvh", "cmu_131_01_start_walk_stop.bvh"}) {
    INFO(file);
    const Tilt t = mid_stance_tilt(file, true);
    INFO("median " << t.median << " p90 " << t.p90 << " over " << t.samples);
    CHECK(t.median <= 4.0);
    CHECK(t.p90 <= 10.0);
  }
}

TEST_CASE("RT22: without the calibration the feet roll (the check can fail)", "[retarget][feet]") {
  // CMU 49_04 uncalibrated: mid-stance tilt median about 14 degrees.
  const Tilt t = mid_stance_tilt("cmu_49_04_run_leap.bvh", false);
  CHECK(t.median > 8.0);
}
