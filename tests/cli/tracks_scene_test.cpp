// asterune-solve's scene tracks through the command line's own code (make_run, run_frames): the
// composed pose of a masked Action track over a Movement track is checked against the two clips
// sampled here on their own and blended by the budget rule of docs/animator.md worked out by hand
// (rules AN4, AN5); a joint outside the mask shows the Movement track alone.
#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>
#include <string>
#include <vector>

#include "asterune/documents/scene_animation.hpp"
#include "asterune/retarget/animation.hpp"
#include "asterune/rig/builtin.hpp"
#include "run.hpp"
#include "scene_run.hpp"
#include "sampled_clip.hpp"
#include "support/temp_dir.hpp"

using namespace asterune;

namespace {

const std::string kWalk = std::string(ASTERUNE_TEST_DATA_DIR) + "/bvh/cmu_131_01_start_walk_stop.bvh";
const std::string kWave = std::string(ASTERUNE_EXAMPLES_DIR) + "/clips/wave.rbxmx";

// Sign-aligned weighted sum, normalised (rule AN4), written out for two rotations.
glm::quat blend2(const glm::quat& a, float wa, const glm::quat& b, float wb) {
  const float s = (a.w * b.w + a.x * b.x + a.y * b.y + a.z * b.z) < 0.0f ? -1.0f : 1.0f;
  glm::quat q(wa * a.w + s * wb * b.w, wa * a.x + s * wb * b.x, wa * a.y + s * wb * b.y, wa * a.z + s * wb * b.z);
  const float n = std::sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z);
  return glm::quat(q.w / n, q.x / n, q.y / n, q.z / n);
}

float rotation_gap(const glm::quat& a, const glm::quat& b) {
  return 1.0f - std::fabs(a.w * b.w + a.x * b.x + a.y * b.y + a.z * b.z);
}

}  // namespace

TEST_CASE("scene tracks: a masked Action at 0.5 over Movement at 1 blends 50/50 on the mask, Movement elsewhere",
          "[cli][tracks]") {
  const test::TempDir tmp("cli_tracks_blend");
  const std::string scene = (tmp / "blend.scene.json").string();
  {
    std::ofstream out(scene);
    // dt = 1/16 s: the tracks' accumulated time is exact, so the clips sampled here at
    // frame / 16 s are sampled at the same times as the animator's tracks.
    out << R"({"format": "asterune.scene/1", "rig": "builtin:r15", "frames": 24, "dt": 0.0625, "tracks": [
      {"name": "Walk", "clip": ")" << kWalk << R"(", "priority": "Movement"},
      {"name": "Wave", "clip": ")" << kWave << R"(", "priority": "Action", "weight": 0.5,
       "mask": {"parts": ["RightUpperArm"], "descendants": true}}]})";
  }
  cli::RunRequest request;
  request.scene = scene;
  cli::Run run = cli::make_run(request);
  const Rig& rig = run.rig;
  std::vector<io::FrameRecord> recs;
  cli::run_frames(run, 0, run.frames - 1, [&](const io::FrameRecord& r) { recs.push_back(r); });
  REQUIRE(recs.size() == 24);

  test::SampledClip walk(kWalk, rig), wave(kWave, rig);
  const int right_shoulder = rig.find_joint("RightUpperArm").index;
  const int right_elbow = rig.find_joint("RightLowerArm").index;
  const int left_shoulder = rig.find_joint("LeftUpperArm").index;
  const int waist = rig.find_joint("UpperTorso").index;
  REQUIRE((right_shoulder >= 0 && right_elbow >= 0 && left_shoulder >= 0 && waist >= 0));
  int checked = 0;
  for (const int f : {0, 5, 11, 23}) {
    INFO("frame " << f);
    const float t = static_cast<float>(f) * 0.0625f;
    walk.at(rig, t);
    wave.at(rig, t);
    const io::FrameRecord& rec = recs[static_cast<size_t>(f)];
    // On the mask: Action claims 0.5 of the budget, Movement (claim 1) the remaining 0.5.
    for (const int j : {right_shoulder, right_elbow}) {
      const auto i = static_cast<size_t>(j);
      REQUIRE(walk.coverage[i] == 1.0f);
      REQUIRE(wave.coverage[i] == 1.0f);
      const glm::quat want = blend2(wave.local[i].rotation, 0.5f, walk.local[i].rotation, 0.5f);
      CHECK(rotation_gap(rec.local[i].rotation, want) < 1e-6f);
      const glm::vec3 p = 0.5f * wave.local[i].position + 0.5f * walk.local[i].position;
      CHECK(glm::length(rec.local[i].position - p) < 1e-5f);
      CHECK(rec.coverage[i] == Approx(1.0f).margin(1e-6));
      ++checked;
    }
    // Off the mask the Action track claims nothing: Movement shows at 1.
    for (const int j : {left_shoulder, waist}) {
      const auto i = static_cast<size_t>(j);
      CHECK(rotation_gap(rec.local[i].rotation, walk.local[i].rotation) < 1e-6f);
      CHECK(glm::length(rec.local[i].position - walk.local[i].position) < 1e-5f);
      ++checked;
    }
    // The wave is far from the walk on the arm, so a wrong blend could not pass by accident.
    if (f > 0) CHECK(rotation_gap(wave.local[static_cast<size_t>(right_shoulder)].rotation,
                                  walk.local[static_cast<size_t>(right_shoulder)].rotation) > 1e-3f);
    // The frame reports both tracks at their weights.
    REQUIRE(rec.tracks.size() == 2);
    CHECK(rec.tracks[0].name == "Walk");
    CHECK(rec.tracks[0].weight == 1.0f);
    CHECK(rec.tracks[1].name == "Wave");
    CHECK(rec.tracks[1].weight == 0.5f);
  }
  CHECK(checked == 16);
}
