// asterune-solve playing a graph track through the command line's own code (make_run,
// run_frames; rules F10, GR7, GR15): the locomotion example's speed ramp and blend weights
// against the ramp and Blend1D formulas worked out by hand, its footsteps alternating (found
// from the solved feet's world positions alone, not from the graph's markers), --set, and the
// graph's entry in the JSON frames (rule F11).
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
using Catch::Matchers::StartsWith;

namespace {

const std::string kScene = std::string(ASTERUNE_EXAMPLES_DIR) + "/locomotion.scene.json";

std::vector<io::FrameRecord> run_all(const cli::RunRequest& request) {
  cli::Run run = cli::make_run(request);
  std::vector<io::FrameRecord> recs;
  cli::run_frames(run, 0, run.frames - 1, [&](const io::FrameRecord& r) { recs.push_back(r); });
  return recs;
}

const io::GraphNodeRecord& node(const io::FrameRecord& rec, const std::string& id) {
  REQUIRE(rec.tracks.size() == 1);
  REQUIRE(rec.tracks[0].graph);
  for (const io::GraphNodeRecord& n : rec.tracks[0].graph->nodes)
    if (n.id == id) return n;
  FAIL("no node " << id);
  return rec.tracks[0].graph->nodes[0];
}

float speed_of(const io::FrameRecord& rec) {
  REQUIRE(rec.tracks[0].graph);
  REQUIRE(rec.tracks[0].graph->parameters.size() == 1);
  CHECK(rec.tracks[0].graph->parameters[0].name == "speed");
  return rec.tracks[0].graph->parameters[0].number;
}

// Footstep touchdowns from the pose alone: a foot is planted while its world horizontal speed
// is below 0.3 of the body's (LowerTorso's) over the same frame, for at least 3 frames (gaps of
// up to 3 frames inside one plant are closed). Returns 'L'/'R' per touchdown in time order.
std::string touchdowns(const Rig& rig, const std::vector<io::FrameRecord>& recs) {
  const int body = rig.find_joint("LowerTorso").index;
  const int feet[2] = {rig.find_joint("LeftFoot").index, rig.find_joint("RightFoot").index};
  REQUIRE((body >= 0 && feet[0] >= 0 && feet[1] >= 0));
  auto horizontal_step = [&](int joint, size_t f) {
    const glm::vec3 d = recs[f].world[static_cast<size_t>(joint)].position -
                        recs[f - 1].world[static_cast<size_t>(joint)].position;
    return std::hypot(d.x, d.z);
  };
  std::vector<std::pair<size_t, char>> steps;
  for (int k = 0; k < 2; ++k) {
    std::vector<std::pair<size_t, size_t>> plants;
    size_t start = 0;
    bool down = false;
    for (size_t f = 1; f <= recs.size(); ++f) {
      const bool now = f < recs.size() && horizontal_step(feet[k], f) < 0.3f * horizontal_step(body, f);
      if (now && !down) start = f - 1;
      if (!now && down) {
        if (!plants.empty() && start - plants.back().second <= 3) plants.back().second = f - 1;
        else plants.emplace_back(start, f - 1);
      }
      down = now;
    }
    for (const auto& [s, e] : plants)
      if (e - s >= 2) steps.emplace_back(s, k == 0 ? 'L' : 'R');
  }
  std::sort(steps.begin(), steps.end());
  std::string order;
  for (const auto& s : steps) order += s.second;
  return order;
}

}  // namespace

TEST_CASE("graph scene: the locomotion example ramps speed linearly and Blend1D weights follow it", "[cli][graph]") {
  cli::RunRequest request;
  request.scene = kScene;
  const std::vector<io::FrameRecord> recs = run_all(request);
  REQUIRE(recs.size() == 421);
  // The command at t = 1.5 runs after frame 90's pose (its time is 90 dt); the ramp then goes
  // from 2.9 to 7.1 over 3 s: speed(t) = 2.9 + 4.2 (t - t90) / 3, held at 7.1 after.
  const float t90 = recs[90].time;
  for (const size_t f : {size_t{0}, size_t{45}, size_t{90}, size_t{91}, size_t{150}, size_t{270}, size_t{300},
                         size_t{420}}) {
    INFO("frame " << f);
    const float t = recs[f].time;
    const float want = f <= 90 ? 2.9f : std::min(7.1f, 2.9f + 4.2f * (t - t90) / 3.0f);
    const float s = speed_of(recs[f]);
    CHECK(s == Approx(want).margin(1e-4));
    // Blend1D between walk at 2.9 and run at 7.1 (rule GR7): run = (s - 2.9) / 4.2.
    const float run = (s - 2.9f) / 4.2f;
    CHECK(node(recs[f], "run").weight == Approx(run).margin(1e-4));
    CHECK(node(recs[f], "walk").weight == Approx(1.0f - run).margin(1e-4));
    CHECK(node(recs[f], "loco").weight == 1.0f);
    // A Clip node's phase is its time within the clip.
    for (const char* clip : {"walk", "run"}) {
      const io::GraphNodeRecord& n = node(recs[f], clip);
      if (n.weight == 0.0f) continue;
      CHECK(n.phase >= 0.0f);
      CHECK(n.phase < 1.0f);
    }
  }
}

TEST_CASE("graph scene: with Markers sync the locomotion example's footsteps alternate Left and Right through the "
          "ramp",
          "[cli][graph]") {
  cli::RunRequest request;
  request.scene = kScene;
  cli::Run run = cli::make_run(request);
  std::vector<io::FrameRecord> recs;
  cli::run_frames(run, 0, run.frames - 1, [&](const io::FrameRecord& r) { recs.push_back(r); });
  const std::string order = touchdowns(run.rig, recs);
  INFO(order);
  // 7 s of walking then running: well over a dozen steps, never the same foot twice in a row.
  CHECK(order.size() >= 12);
  for (size_t i = 1; i < order.size(); ++i) CHECK(order[i] != order[i - 1]);
}

TEST_CASE("graph scene: --set starts the run with the value; bad names and values are refused naming --set",
          "[cli][graph]") {
  cli::RunRequest request;
  request.scene = kScene;
  request.frames = 2;
  request.set = {"speed=7.1"};
  const std::vector<io::FrameRecord> recs = run_all(request);
  CHECK(speed_of(recs[0]) == 7.1f);
  CHECK(node(recs[0], "run").weight == Approx(1.0f).margin(1e-6));
  CHECK(node(recs[0], "walk").weight == Approx(0.0f).margin(1e-6));

  struct Case {
    std::string set, want;
  };
  for (const Case& c : {Case{"sped=1", "--set sped=1: no graph track has a parameter 'sped' (parameters: speed)"},
                        Case{"speed=fast", "--set speed=fast: the parameter 'speed' of track 'Loco' is a number: the "
                                           "value must be a finite number"},
                        Case{"speed=inf", "--set speed=inf: the parameter 'speed'"},
                        Case{"speed=", "--set speed=: the parameter 'speed'"},
                        Case{"speed", "--set speed: expected NAME=VALUE"},
                        Case{"=1", "--set =1: expected NAME=VALUE"}}) {
    INFO(c.set);
    request.set = {c.set};
    try {
      (void)cli::make_run(request);
      FAIL("accepted");
    } catch (const cli::CliError& e) {
      CHECK_THAT(std::string(e.what()), StartsWith(c.want));
    }
  }
}

TEST_CASE("graph scene: set_parameter without a ramp shows from the next frame; the JSON frame carries the graph",
          "[cli][graph]") {
  const test::TempDir tmp("cli_graph_set");
  const std::string scene = (tmp / "set.scene.json").string();
  {
    std::ofstream out(scene);
    out << R"({"format": "asterune.scene/1", "rig": "builtin:r15", "frames": 6, "dt": 0.0625,
      "tracks": [{"name": "Loco", "graph": ")" << ASTERUNE_EXAMPLES_DIR << R"(/locomotion.graph.json"}],
      "commands": [{"t": 0.125, "track": "Loco", "set_parameter": {"name": "speed", "value": 5.0}}]})";
  }
  cli::RunRequest request;
  request.scene = scene;
  cli::Run run = cli::make_run(request);
  std::vector<io::FrameRecord> recs;
  cli::run_frames(run, 0, run.frames - 1, [&](const io::FrameRecord& r) { recs.push_back(r); });
  REQUIRE(recs.size() == 6);
  CHECK(speed_of(recs[2]) == 2.9f);  // the command runs after frame 2's pose
  CHECK(speed_of(recs[3]) == 5.0f);
  CHECK(node(recs[3], "run").weight == Approx(2.1f / 4.2f).margin(1e-5));

  const nlohmann::json f = nlohmann::json::parse(io::frames_json_frame(run.rig, recs[3], 1).substr(1));
  const nlohmann::json& g = f.at("tracks").at(0).at("graph");
  CHECK(g.at("parameters").at("speed").get<float>() == 5.0f);
  REQUIRE(g.at("nodes").size() == 3);
  for (const char* id : {"walk", "run", "loco"}) {
    INFO(id);
    const nlohmann::json& n = g.at("nodes").at(id);
    CHECK(n.at("weight").get<float>() == node(recs[3], id).weight);
    CHECK(n.at("time").get<float>() == node(recs[3], id).time);
    CHECK(n.at("phase").get<float>() == node(recs[3], id).phase);
  }
}

TEST_CASE("graph scene: a one-Clip graph track with root_motion moves the root as the clip's own track does "
          "(rules F10, GR16, AN9)",
          "[cli][graph]") {
  const test::TempDir tmp("cli_graph_root");
  const std::string walk = std::string(ASTERUNE_TEST_DATA_DIR) + "/bvh/cmu_35_01_walk.bvh";
  auto write = [&](const std::string& name, const std::string& track) {
    const std::string path = (tmp / name).string();
    std::ofstream out(path);
    out << R"({"format": "asterune.scene/1", "rig": "builtin:r15", "frames": 150, "tracks": [)" << track << "]}";
    return path;
  };
  // 2.5 s of the 2.98 s walk: no loop wrap, so both give the clip's own travel.
  const std::string clip = write("clip.scene.json", R"({"name": "W", "clip": ")" + walk + R"(", "root_motion": true})");
  const std::string graph = write("graph.scene.json", R"({"name": "W", "root_motion": true, "graph": {"format":
      "asterune.graph/1", "nodes": {"walk": {"type": "Clip", "clip": ")" + walk + R"("}}, "output": "walk"}})");
  cli::RunRequest request;
  request.scene = clip;
  const std::vector<io::FrameRecord> a = run_all(request);
  request.scene = graph;
  const std::vector<io::FrameRecord> b = run_all(request);
  REQUIRE(a.size() == 150);
  REQUIRE(b.size() == 150);
  const float travel = glm::length(a.back().root.position - a.front().root.position);
  CHECK(travel > 3.0f);  // the walk goes somewhere (about 2.9 studs/s)
  for (const size_t f : {size_t{1}, size_t{30}, size_t{75}, size_t{149}}) {
    INFO("frame " << f);
    CHECK(glm::length(b[f].root.position - a[f].root.position) < 1e-3f);
  }
}

TEST_CASE("graph scene: a graph build_graph refuses and a Clip whose clip does not load name the scene's track and "
          "the node (rules F3, F10)",
          "[cli][graph]") {
  const test::TempDir tmp("cli_graph_bad");
  const std::string walk = std::string(ASTERUNE_TEST_DATA_DIR) + "/bvh/cmu_35_01_walk.bvh";
  struct Case {
    const char* what;
    std::string nodes, output, want;
  };
  const Case cases[] = {
      {"equal Blend1D positions",
       R"("a": {"type": "Clip", "clip": ")" + walk + R"("}, "b": {"type": "Clip", "clip": ")" + walk +
           R"("}, "loco": {"type": "Blend1D", "inputs": [{"node": "a", "position": 1}, {"node": "b", "position": 1}]})",
       "loco", "'loco'"},
      {"a clip that does not load", R"("a": {"type": "Clip", "clip": "missing.bvh"})", "a",
       "/nodes/a: node 'a': "},
  };
  for (const Case& c : cases) {
    INFO(c.what);
    const std::string scene = (tmp / "bad.scene.json").string();
    {
      std::ofstream out(scene);
      out << R"({"format": "asterune.scene/1", "rig": "builtin:r15", "tracks": [{"name": "Loco", "graph":
          {"format": "asterune.graph/1", "nodes": {)"
          << c.nodes << R"(}, "output": ")" << c.output << R"("}}]})";
    }
    cli::RunRequest request;
    request.scene = scene;
    try {
      (void)cli::make_run(request);
      FAIL("accepted");
    } catch (const cli::CliError& e) {
      const std::string message = e.what();
      CHECK_THAT(message, StartsWith(scene + ": /tracks/0/graph: "));
      CHECK_THAT(message, Catch::Matchers::Contains(c.want));
      CHECK(message.find('\n') == std::string::npos);
    }
  }
}
