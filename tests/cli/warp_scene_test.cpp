// asterune-solve playing a graph track with StrideWarp and OrientationWarp (rules LO6, LO8, LO9,
// F11) through the command line's own code: the CMU walk at twice its speed and turned 0.5 rad
// moves the root at the gameplay speed (within 5 %, the issue's figure once the clamp is not
// hit), and the JSON frame carries each warp's stride scale, play rate and lower-body yaw.
#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "asterune/documents/frames_file.hpp"
#include "run.hpp"
#include "scene_run.hpp"
#include "support/temp_dir.hpp"

using namespace asterune;

TEST_CASE("warp scene: the root moves at the gameplay speed and the JSON frame reports the warps (rules LO6-LO9, F11)",
          "[cli][graph][warp]") {
  const test::TempDir tmp("cli_warp");
  const std::string walk = std::string(ASTERUNE_TEST_DATA_DIR) + "/bvh/cmu_35_01_walk.bvh";
  const std::string scene = (tmp / "warp.scene.json").string();
  {
    std::ofstream out(scene);
    out << R"({"format": "asterune.scene/1", "rig": "builtin:r15", "frames": 120,
      "tracks": [{"name": "Loco", "root_motion": true, "graph": {"format": "asterune.graph/1",
        "parameters": {"speed": {"type": "number", "default": 5.0}, "direction": {"type": "number", "default": 0.5}},
        "nodes": {"walk": {"type": "Clip", "clip": ")" << walk << R"("},
                  "stride": {"type": "StrideWarp", "pose": "walk", "speed": {"parameter": "speed"}},
                  "turn": {"type": "OrientationWarp", "pose": "stride", "direction": {"parameter": "direction"}}},
        "output": "turn"}}]})";
  }
  cli::RunRequest request;
  request.scene = scene;
  cli::Run run = cli::make_run(request);
  std::vector<io::FrameRecord> recs;
  cli::run_frames(run, 0, run.frames - 1, [&](const io::FrameRecord& r) { recs.push_back(r); });
  REQUIRE(recs.size() == 120);
  // 5 studs/s over frames 10..110 (100 frames at 1/60 s): 8.33 studs.
  const glm::vec3 d = recs[110].root.position - recs[10].root.position;
  CHECK(std::hypot(d.x, d.z) == Approx(5.0f * 100.0f / 60.0f).epsilon(0.05));

  const nlohmann::json f = nlohmann::json::parse(io::frames_json_frame(run.rig, recs[60], 1).substr(1));
  const nlohmann::json& nodes = f.at("tracks").at(0).at("graph").at("nodes");
  const nlohmann::json& stride = nodes.at("stride").at("warp");
  // The walk travels about 2.9 studs/s: ratio about 1.7, inside the clamp, so the rate is 1.
  CHECK(stride.at("stride_scale").get<float>() == Approx(5.0f / 2.9f).epsilon(0.05));
  CHECK(stride.at("play_rate").get<float>() == Approx(1.0f));
  CHECK(stride.at("ignored").get<bool>() == false);
  CHECK(nodes.at("turn").at("warp").at("lower_body_yaw").get<float>() == Approx(0.5f));
  CHECK_FALSE(nodes.at("walk").contains("warp"));
}
