// Rule AN11: a clip played on its own (--clip without a scene) plays as its file says, else
// once, and ends on its last pose: its last frame lands at t = duration and must not wrap to
// frame 0's pose. Through the command line's own code (make_run, run_frames).
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "run.hpp"
#include "scene_run.hpp"

using namespace asterune;

namespace {

// The largest step of the pelvis (joint 0's part, world) between consecutive frames after the
// first, and its distance between the first and the last frame.
struct Ends {
  float last_step = 0.0f;
  float largest_step = 0.0f;
  float travel = 0.0f;
  int frames = 0;
};

Ends play(const std::string& file) {
  cli::RunRequest request;
  request.rig = "builtin:r15";
  request.clip = std::string(ASTERUNE_TEST_DATA_DIR) + "/bvh/" + file;
  cli::Run run = cli::make_run(request);
  std::vector<glm::vec3> pelvis;
  cli::run_frames(run, 0, run.frames - 1, [&](const io::FrameRecord& r) { pelvis.push_back(r.world[0].position); });
  REQUIRE(pelvis.size() > 3);
  Ends e;
  e.frames = static_cast<int>(pelvis.size());
  for (size_t f = 1; f < pelvis.size(); ++f) e.largest_step = std::max(e.largest_step, glm::length(pelvis[f] - pelvis[f - 1]));
  e.last_step = glm::length(pelvis.back() - pelvis[pelvis.size() - 2]);
  e.travel = glm::length(pelvis.back() - pelvis.front());
  return e;
}

}  // namespace

TEST_CASE("AN11: --clip alone plays the clip once and ends on its last pose", "[cli][clip_end]") {
  // CMU 49_04 without its T-pose frame (rule RT23) lasts 250 / 120 s: at 60 Hz its last frame is
  // at t = duration exactly, where looping wrapped to frame 0's pose (a last step of 13 studs).
  // The bvh-python mocapbank file (30 Hz) must end without a jump too.
  for (const char* file : {"bvhpython_mocapbank_3dsmax_names.bvh", "cmu_49_04_run_leap.bvh"}) {
    INFO(file);
    const Ends e = play(file);
    INFO("last step " << e.last_step << ", largest " << e.largest_step << ", travel " << e.travel);
    CHECK(e.last_step < 0.5f);      // a 60 Hz step of a run (3 m/s: 0.05 m) or a walk, not a jump
    CHECK(e.largest_step < 1.0f);
  }
}
