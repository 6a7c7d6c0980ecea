// One source of truth for a bound clip's keys: the binding keeps the clip as
// it was at bind, and every way of sampling it (without a cursor, with one: the compiled key
// stream) reads those keys, so an edit of the Clip after binding is seen by none of them until
// the clip is bound again.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "asterune/clip/binding.hpp"
#include "asterune/clip/clip.hpp"
#include "asterune/clip/sample.hpp"
#include "support/math.hpp"
#include "support/r15_rig.hpp"

using namespace asterune;
using namespace asterune::test;

namespace {

// A clip turning every joint of the rig about +X: 30 degrees at both keys (t = 0 and 1).
Clip turned_clip(const Rig& rig, float degrees) {
  Clip c;
  c.name = "turned";
  c.duration = 1.0f;
  for (int j = 0; j < rig.joint_count(); ++j) {
    ClipTrack t;
    t.name = rig.child_name(j);
    t.rotation_times = {0.0f, 1.0f};
    const glm::quat q = axis_angle_deg(degrees, {1, 0, 0});
    t.rotations = {q, q};
    c.tracks.push_back(std::move(t));
  }
  return c;
}

// The largest angle, degrees, between the sampled rotations and a turn of `degrees` about +X.
float largest_error(const std::vector<Transform>& local, float degrees) {
  float worst = 0.0f;
  const glm::quat want = axis_angle_deg(degrees, {1, 0, 0});
  for (const Transform& t : local) worst = std::max(worst, quat_angle_deg(glm::conjugate(want) * t.rotation));
  return worst;
}

}  // namespace

TEST_CASE("a binding samples the keys it was built from, with or without a cursor", "[clip][bound_keys]") {
  const Rig rig = r15_rig();
  Clip clip = turned_clip(rig, 30.0f);
  const ClipBinding binding = build_clip_binding(clip, rig).value();
  REQUIRE(binding.bound_clip());
  // Edited after binding: every key now says 60 degrees.
  for (ClipTrack& t : clip.tracks)
    for (glm::quat& q : t.rotations) q = axis_angle_deg(60.0f, {1, 0, 0});
  const size_t n = static_cast<size_t>(rig.joint_count());
  std::vector<Transform> plain(n), streamed(n);
  std::vector<float> coverage(n);
  ClipCursor cursor = make_clip_cursor(binding);
  for (float t : {0.0f, 0.25f, 0.5f, 1.0f}) {
    INFO("t = " << t);
    REQUIRE(sample_clip(clip, binding, t, WrapMode::kClamp, plain, coverage));
    REQUIRE(sample_clip(clip, binding, t, WrapMode::kClamp, cursor, streamed, coverage));
    // Before: the search read the edited Clip (60) while the stream kept its compiled keys (30).
    CHECK(largest_error(plain, 30.0f) < 0.1f);  // float acos near 1: ~0.04 degrees of noise; the edit is 30
    CHECK(largest_error(streamed, 30.0f) < 0.1f);  // float acos near 1: ~0.04 degrees of noise; the edit is 30
  }
  // Bound again, the edit plays, both ways.
  const ClipBinding again = build_clip_binding(clip, rig).value();
  ClipCursor cursor2 = make_clip_cursor(again);
  REQUIRE(sample_clip(clip, again, 0.5f, WrapMode::kClamp, plain, coverage));
  REQUIRE(sample_clip(clip, again, 0.5f, WrapMode::kClamp, cursor2, streamed, coverage));
  CHECK(largest_error(plain, 60.0f) < 0.1f);  // float acos near 1: ~0.04 degrees of noise; the edit is 30
  CHECK(largest_error(streamed, 60.0f) < 0.1f);  // float acos near 1: ~0.04 degrees of noise; the edit is 30
}
