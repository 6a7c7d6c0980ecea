// Rule RT6 on hostile numbers: a scale or units near FLT_MAX (or a huge source root position)
// must not turn the pose into NaN while sample_retarget reports ok. The overflowing travel is
// dropped for the frame and counted as sanitized; rotations are still retargeted.
#include <catch2/catch.hpp>

#include <limits>
#include <vector>

#include "asterune/retarget/binding.hpp"
#include "asterune/retarget/humanoid.hpp"
#include "asterune/retarget/rig_source.hpp"
#include "asterune/rig/builtin.hpp"
#include "asterune/rig/rig.hpp"
#include "asterune/rig/world.hpp"

using namespace asterune;

TEST_CASE("root travel that overflows float is sanitized, never NaN", "[retarget][hostile]") {
  const Rig rig = std::move(build_rig(*builtin_rig_desc("r15")).value());
  const float big = std::numeric_limits<float>::max();
  struct Case {
    float units, scale;
    glm::vec3 move;
    bool overflows;  // travel * scale * units is past float range
  };
  for (const Case& c : {Case{1.0f, big, {5, 0, -7}, true}, Case{big, 1.0f, {5, 0, -7}, true},
                        Case{1.0f, 1.0f, {big, -big, big}, false}}) {
    SourceSkeleton source = source_skeleton_from_rig(rig);
    source.units_to_studs = c.units;
    AutoProfileOptions options;
    options.scale = c.scale;
    const auto profile = build_auto_profile(source, rig, options);
    REQUIRE(profile.ok());
    const auto binding = build_retarget_binding(source, rig, profile.value());
    REQUIRE(binding.ok());
    RetargetContext context = make_retarget_context(binding.value());
    std::vector<Transform> source_local = source.rest_local;
    source_local[0].position += c.move;
    std::vector<Transform> local(static_cast<size_t>(rig.joint_count()));
    std::vector<float> coverage(local.size());
    const RetargetReport r = sample_retarget(binding.value(), rig, source_local, {}, context, local, coverage);
    INFO("units " << c.units << " scale " << c.scale << " move " << c.move.x);
    CHECK(r.ok);
    if (c.overflows) CHECK(r.sanitized >= 1);
    for (const Transform& t : local) CHECK(is_finite(t));
    for (const glm::quat& w : context.target_rotation) CHECK(is_finite(w));
    std::vector<Transform> world(local.size());
    REQUIRE(evaluate_world(rig, Transform::identity(), local, world));
    for (const Transform& w : world) CHECK(is_finite(w));
  }
}
