// asterune-solve playing graph tracks with the locomotion options (rules LO15, LO16, AN17, LO4,
// F10): a Clip node with "cycle": "auto" plays the loop cut from CMU 35_01's raw walk, its
// footsteps alternating across the seams and its root travelling on at every wrap; a graph
// track's "plant_feet" holds the walk's feet from the graph's contacts in the world the root
// motion carries them through, and a clip track is told where its plant_feet goes.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

#include "asterune/rig/builtin.hpp"
#include "asterune/rig/rig.hpp"
#include "run.hpp"
#include "scene_run.hpp"
#include "support/temp_dir.hpp"

using namespace asterune;
using Catch::Matchers::Contains;

namespace {

const std::string kWalk = std::string(ASTERUNE_TEST_DATA_DIR) + "/bvh/cmu_35_01_walk.bvh";

std::vector<io::FrameRecord> run_scene(const std::string& path) {
  cli::RunRequest request;
  request.scene = path;
  cli::Run run = cli::make_run(request);
  std::vector<io::FrameRecord> recs;
  cli::run_frames(run, 0, run.frames - 1, [&](const io::FrameRecord& r) { recs.push_back(r); });
  return recs;
}

std::string write_scene(const test::TempDir& tmp, const std::string& name, const std::string& track, int frames) {
  const std::string path = (tmp / name).string();
  std::ofstream out(path);
  out << R"({"format": "asterune.scene/1", "rig": "builtin:r15", "frames": )" << frames << R"(, "tracks": [)" << track
      << "]}";
  return path;
}

std::string walk_graph(const std::string& clip_extra) {
  return R"({"format": "asterune.graph/1", "nodes": {"walk": {"type": "Clip", "clip": ")" + kWalk + "\"" + clip_extra +
         R"(}}, "output": "walk"})";
}

}  // namespace

TEST_CASE("graph scene: a Clip node with cycle auto loops the cut cycle, footsteps once per seam, the root on "
          "(rules LO16, AN17, LO4)",
          "[cli][graph][cycle]") {
  const test::TempDir tmp("cli_graph_cycle");
  const std::string scene = write_scene(
      tmp, "cycle.scene.json", R"({"name": "W", "root_motion": true, "graph": )" + walk_graph(R"(, "cycle": "auto")") + "}",
      480);
  const std::vector<io::FrameRecord> recs = run_scene(scene);
  REQUIRE(recs.size() == 480);
  // The node plays the loop: its time wraps (the cut cycle is shorter than the 2.98 s capture).
  int wraps = 0;
  float longest = 0.0f;
  for (size_t f = 1; f < recs.size(); ++f) {
    const float before = recs[f - 1].tracks[0].graph->nodes[0].time, now = recs[f].tracks[0].graph->nodes[0].time;
    if (now < before) ++wraps;
    longest = std::max(longest, now);
  }
  CHECK(wraps >= 3);  // 8 s of a loop of about 1.2 s
  CHECK(longest < 2.0f);
  // Rule AN17: the seam's twin Footstep is reported once, so Left and Right alternate.
  std::string steps;
  for (const io::FrameRecord& r : recs)
    for (const io::EventRecord& e : r.events)
      if (e.kind == "marker" && e.name == "Footstep") steps += e.value == "Left" ? 'L' : 'R';
  INFO("footsteps " << steps);
  CHECK(steps.size() >= 10);
  CHECK(steps.find("LL") == std::string::npos);
  CHECK(steps.find("RR") == std::string::npos);
  // Rule LO4: every frame moves the root on by about one frame of walking, wraps included (no
  // jump back to the loop's start, no stall).
  std::vector<float> moves;
  for (size_t f = 1; f < recs.size(); ++f) moves.push_back(glm::length(recs[f].root.position - recs[f - 1].root.position));
  std::vector<float> sorted = moves;
  std::sort(sorted.begin(), sorted.end());
  const float median = sorted[sorted.size() / 2];
  CHECK(median > 0.02f);  // about 1.4 studs/s at 60 frames a second
  CHECK(sorted.front() > 0.3f * median);
  CHECK(sorted.back() < 2.0f * median);
}

TEST_CASE("graph scene: plant_feet on a graph track holds the feet the graph's contacts put down (rule LO15)",
          "[cli][graph][plant]") {
  const test::TempDir tmp("cli_graph_plant");
  const Rig rig = build_rig(*builtin_rig_desc("r15")).value();
  auto slide = [&](bool plant) {
    const std::string track = std::string(R"({"name": "W", "root_motion": true, "plant_feet": )") +
                              (plant ? "true" : "false") + R"(, "graph": )" + walk_graph(R"(, "cycle": "auto")") + "}";
    const std::vector<io::FrameRecord> recs = run_scene(write_scene(tmp, "plant.scene.json", track, 300));
    // Per contact (the frames' contacts are the graph's), the sole's largest distance from where it went down.
    float worst = 0.0f;
    for (const char* name : {"LeftFoot", "RightFoot"}) {
      const int j = rig.find_joint(name).index;
      const float half = 0.5f * rig.part(rig.part1()[static_cast<size_t>(j)]).size.y;
      bool down = false;
      glm::vec3 start(0.0f);
      for (const io::FrameRecord& r : recs) {
        bool now = false;
        for (const io::FootContactRecord& c : r.contacts)
          if (c.foot == name) now = c.contact;
        const Transform& part = r.world[static_cast<size_t>(j)];
        const glm::vec3 sole = part.position + part.rotation * glm::vec3(0.0f, -half, 0.0f);
        if (now && !down) start = sole;
        if (now) worst = std::max(worst, glm::length(sole - start));
        down = now;
      }
    }
    return worst;
  };
  const float held = slide(true), free = slide(false);
  INFO("planted " << held << " studs, without " << free);
  CHECK(held <= 0.036f);
  CHECK(free > 2.0f * held);
}

TEST_CASE("graph scene: plant_feet belongs to graph tracks; a clip track's is in its retarget block (rules LO15, F3)",
          "[cli][graph][plant]") {
  const test::TempDir tmp("cli_graph_plant_bad");
  const std::string scene = write_scene(
      tmp, "bad.scene.json", R"({"name": "W", "clip": ")" + kWalk + R"(", "plant_feet": true})", 3);
  cli::RunRequest request;
  request.scene = scene;
  try {
    (void)cli::make_run(request);
    FAIL("accepted");
  } catch (const std::exception& e) {
    CHECK_THAT(std::string(e.what()), Contains("/tracks/0/plant_feet") && Contains("retarget block"));
  }
}
