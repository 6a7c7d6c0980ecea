// Rule RT23: a synthetic first frame. The cgspeed CMU conversions start with a T-pose frame the
// converter added (their provenance notes say so); a capture without one (CMU 131_01 in its 3ds
// Max conversion, the bvh-python mocapbank file) must not be cut. Dropping a frame is checked on
// a hand-made clip whose new key times follow by hand.
#include <catch2/catch.hpp>

#include <string>

#include "asterune/documents/scene_animation.hpp"
#include "asterune/retarget/first_frame.hpp"

using namespace asterune;

namespace {
io::SourceClip load(const std::string& file) {
  auto loaded = io::load_source_clip(std::string(ASTERUNE_TEST_DATA_DIR) + "/bvh/" + file);
  REQUIRE(loaded);
  return std::move(loaded).value();
}
}  // namespace

TEST_CASE("RT23: a converter's T-pose first frame is found, a real first frame is not", "[retarget][first_frame]") {
  for (const char* file : {"cmu_49_04_run_leap.bvh", "cmu_35_01_walk.bvh", "cmu_35_17_run.bvh"}) {
    INFO(file);
    const io::SourceClip clip = load(file);
    const FirstFrameCheck c = detect_synthetic_first_frame(clip.clip, clip.skeleton);
    INFO("jump " << c.jump << " typical " << c.typical << " rest " << c.rest_distance0 << " / " << c.rest_distance1);
    CHECK(c.synthetic);
    CHECK(c.frame_time == Approx(1.0f / 120.0f).epsilon(1e-3));
    CHECK(c.note.find("frame 0") != std::string::npos);
    CHECK(c.note.size() <= 200);

    // Without it, the clip's first step is an ordinary one.
    io::SourceClip cut = clip;
    drop_first_frame(cut.clip, c.frame_time);
    CHECK(cut.clip.duration == Approx(clip.clip.duration - c.frame_time));
    const FirstFrameCheck again = detect_synthetic_first_frame(cut.clip, cut.skeleton);
    CHECK_FALSE(again.synthetic);
    CHECK(again.jump < 4.0f * again.typical);
  }
  for (const char* file : {"cmu_131_01_start_walk_stop.bvh", "bvhpython_mocapbank_3dsmax_names.bvh"}) {
    INFO(file);
    const io::SourceClip clip = load(file);
    CHECK_FALSE(detect_synthetic_first_frame(clip.clip, clip.skeleton).synthetic);
  }
}

TEST_CASE("RT23: dropping the first frame moves keys, tangents, easing and markers", "[retarget][first_frame]") {
  Clip clip;
  clip.duration = 0.3f;
  ClipTrack t;
  t.name = "Hips";
  t.rotation_times = {0.0f, 0.1f, 0.2f, 0.3f};
  t.rotations = {glm::quat(1, 0, 0, 0), glm::quat(0, 1, 0, 0), glm::quat(0, 0, 1, 0), glm::quat(0, 0, 0, 1)};
  t.rotation_easing = {KeyEasing{}, KeyEasing{}, KeyEasing{}, KeyEasing{}};
  t.translation_times = {0.0f};  // a constant channel keeps its one key
  t.translations = {glm::vec3(1, 2, 3)};
  clip.tracks.push_back(t);
  clip.markers = {ClipMarker{0.05f, "Start", "", ClipMarkerKind::kMarker}, ClipMarker{0.25f, "Step", "", ClipMarkerKind::kMarker}};
  drop_first_frame(clip, 0.1f);
  const ClipTrack& d = clip.tracks[0];
  REQUIRE(d.rotation_times.size() == 3);
  CHECK(d.rotation_times[0] == 0.0f);
  CHECK(d.rotation_times[1] == Approx(0.1f));
  CHECK(d.rotation_times[2] == Approx(0.2f));
  CHECK(d.rotations[0] == glm::quat(0, 1, 0, 0));
  CHECK(d.rotation_easing.size() == 3);
  REQUIRE(d.translation_times.size() == 1);
  CHECK(d.translation_times[0] == 0.0f);
  CHECK(d.translations[0] == glm::vec3(1, 2, 3));
  REQUIRE(clip.markers.size() == 1);
  CHECK(clip.markers[0].name == "Step");
  CHECK(clip.markers[0].time == Approx(0.15f));
  CHECK(clip.duration == Approx(0.2f));
}
