// Rules RT24 and F3 through the command line's own code (make_run, run_frames): a source whose
// rest is not a standing body (a Bandai-like rest lying on its back, the feet in line with the
// legs, limbs named by no scheme) plays from frame 0 when its roles fail on the turned rest; the
// retarget errors are one line of at most 200 characters past the file name and name a remedy;
// --rest, --origin, --floor and --plant-feet set what the scene's retarget block sets.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "run.hpp"
#include "scene_run.hpp"
#include "support/temp_dir.hpp"

using namespace asterune;
using Catch::Matchers::Contains;

namespace {

struct Node {
  std::string name;
  glm::vec3 offset;
  std::vector<Node> children;
  bool end = false;
  glm::vec3 end_offset{0.0f};
};

Node chain(const std::vector<std::pair<std::string, glm::vec3>>& joints, glm::vec3 end) {
  Node n{joints.back().first, joints.back().second, {}, true, end};
  for (size_t k = joints.size() - 1; k-- > 0;) n = Node{joints[k].first, joints[k].second, {n}};
  return n;
}

void emit(const Node& n, bool root, std::string& out, std::vector<std::string>& order) {
  auto v = [](glm::vec3 p) { return std::to_string(p.x) + " " + std::to_string(p.y) + " " + std::to_string(p.z); };
  out += std::string(root ? "ROOT " : "JOINT ") + n.name + "\n{\nOFFSET " + v(n.offset) + "\nCHANNELS " +
         (root ? "6 Xposition Yposition Zposition " : "3 ") + "Zrotation Xrotation Yrotation\n";
  order.push_back(n.name);
  for (const Node& c : n.children) emit(c, false, out, order);
  if (n.end) out += "End Site\n{\nOFFSET " + v(n.end_offset) + "\n}\n";
  out += "}\n";
}

// The rest lies on its back: hips -> head along +Z, legs along -Z with the toes in line with
// them (so no forward, and no left or right, can be read from the rest). Torso names are a
// scheme's, the limbs' none. Frame k stands it up (root Xrotation -90 turns +Z into +Y) with
// the ankles bent 90 degrees (the toes then point along -Z) and moves the hips 2 units a frame
// along -Z (translation channels are in the skeleton's space): forward, the way the toes point.
std::string lying_rest_bvh(int frames) {
  auto leg = [](const std::string& s, float x) {
    return chain({{"Thigh" + s, {x, 0, -2}}, {"Shin" + s, {0, 0, -18}}, {"Ankle" + s, {0, 0, -18}}, {"Toe" + s, {0, 0, -4}}},
                 {0, 0, -3});
  };
  auto arm = [](const std::string& s, float x) {
    return chain({{"Clav" + s, {2 * x, 0, 14}}, {"Upper" + s, {4 * x, 0, 0}}, {"Fore" + s, {10 * x, 0, 0}},
                  {"Wrist" + s, {10 * x, 0, 0}}},
                 {5 * x, 0, 0});
  };
  Node neck = chain({{"Neck", {0, 0, 14}}, {"Head", {0, 0, 5}}}, {0, 0, 7});
  Node chest{"Chest", {0, 0, 8}, {neck, arm("A", 1), arm("B", -1)}};
  Node spine{"Spine", {0, 0, 8}, {chest}};
  Node hips{"Hips", {0, 0, 0}, {spine, leg("L", 4), leg("R", -4)}};
  std::string text = "HIERARCHY\n";
  std::vector<std::string> order;
  emit(hips, true, text, order);
  text += "MOTION\nFrames: " + std::to_string(frames) + "\nFrame Time: 0.0333333\n";
  for (int f = 0; f < frames; ++f) {
    for (const std::string& name : order) {
      if (name == "Hips") text += "0 40 " + std::to_string(-2.0 * f) + " 0 -90 0 ";
      else if (name.rfind("Ankle", 0) == 0) text += "0 90 0 ";
      else text += "0 0 0 ";
    }
    text += "\n";
  }
  return text;
}

std::string write(const std::filesystem::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
  return path.string();
}

// The CliError message make_run throws for `request` (empty when it does not throw).
std::string failure(const cli::RunRequest& request) {
  try {
    cli::make_run(request);
  } catch (const cli::CliError& e) {
    return e.what();
  }
  return {};
}

}  // namespace

TEST_CASE("RT24: a rest turned upright whose roles fail plays from frame 0, upright and forward", "[cli][retarget_flags]") {
  test::TempDir dir("lying_rest");
  cli::RunRequest r;
  r.rig = "builtin:r15";
  r.clip = write(dir.path() / "lying.bvh", lying_rest_bvh(8));
  cli::Run run = cli::make_run(r);  // before rule RT24: exit 2 with a 521-character message
  std::vector<io::FrameRecord> recs;
  cli::run_frames(run, 0, run.frames - 1, [&](const io::FrameRecord& f) { recs.push_back(f); });
  REQUIRE(recs.size() > 2);
  const int head = run.rig.find_joint("Head").index, pelvis = run.rig.find_joint("LowerTorso").index;
  REQUIRE(head >= 0);
  REQUIRE(pelvis >= 0);
  for (const io::FrameRecord& f : recs) {
    // Upright: the head 1.5 to 3 studs above the lower torso, hardly in front or to the side.
    const glm::vec3 up = f.world[static_cast<size_t>(head)].position - f.world[static_cast<size_t>(pelvis)].position;
    CHECK(up.y > 1.0f);
    CHECK(glm::length(glm::vec2(up.x, up.z)) < 0.1f * up.y);
  }
  // Forward: the hips travel along the way the frame-0 toes point, which is R15's -Z.
  const glm::vec3 travel = recs.back().world[static_cast<size_t>(pelvis)].position - recs.front().world[static_cast<size_t>(pelvis)].position;
  INFO("travel " << travel.x << ", " << travel.y << ", " << travel.z);
  CHECK(travel.z < -0.5f);
  CHECK(std::fabs(travel.x) < 0.05f * -travel.z);
}

TEST_CASE("RT24 and F3: retarget errors are one line of at most 200 characters and name the remedy", "[cli][retarget_flags]") {
  test::TempDir dir("role_errors");
  const std::string lying = write(dir.path() / "lying.bvh", lying_rest_bvh(8));
  // A chain of three joints: no humanoid role at all.
  const std::string snake = write(dir.path() / "snake.bvh",
                                  "HIERARCHY\nROOT A\n{\nOFFSET 0 0 0\nCHANNELS 6 Xposition Yposition Zposition Zrotation "
                                  "Xrotation Yrotation\nJOINT B\n{\nOFFSET 0 5 0\nCHANNELS 3 Zrotation Xrotation Yrotation\n"
                                  "End Site\n{\nOFFSET 0 5 0\n}\n}\n}\nMOTION\nFrames: 4\nFrame Time: 0.1\n"
                                  "0 0 0 0 0 0 0 0 0\n0 0 1 0 0 0 0 0 0\n0 0 2 0 0 0 0 0 0\n0 0 3 0 0 0 0 0 0\n");
  struct Case {
    std::string clip;
    std::optional<std::string> rest;
    const char* remedy;
  };
  const Case cases[] = {{lying, "rest", "--rest N"}, {snake, {}, "\"map\""}, {lying, "99", "out of range"}};
  for (const Case& c : cases) {
    cli::RunRequest r;
    r.rig = "builtin:r15";
    r.clip = c.clip;
    r.rest = c.rest;
    const std::string message = failure(r);
    INFO(message);
    REQUIRE_FALSE(message.empty());
    CHECK(message.find('\n') == std::string::npos);
    CHECK(message.size() <= c.clip.size() + 200);
    CHECK_THAT(message, Contains(c.remedy));
  }
}

TEST_CASE("retarget flags: --rest --origin --floor and --plant-feet set the animation's retarget block", "[cli][retarget_flags]") {
  io::SceneRetarget rt;
  cli::RunRequest r;
  r.rest = "3";
  r.origin = "first_frame";
  r.floor = "-1.5";
  r.plant_feet = true;
  cli::apply_retarget_flags(r, rt);
  CHECK(rt.rest == SourceRestMode::kFrame);
  CHECK(rt.rest_frame == 3);
  CHECK(rt.origin == SourceOrigin::kFirstFrame);
  CHECK(rt.floor == io::SceneRetarget::Floor::kHeight);
  CHECK(rt.floor_height == -1.5f);
  CHECK(rt.plant_feet);
  r = cli::RunRequest{};
  r.rest = "rest";
  r.origin = "clip";
  r.floor = "rest";
  cli::apply_retarget_flags(r, rt);
  CHECK(rt.rest == SourceRestMode::kRest);
  CHECK(rt.origin == SourceOrigin::kClip);
  CHECK(rt.floor == io::SceneRetarget::Floor::kRest);
  CHECK(rt.plant_feet);  // a flag only sets it
  r.rest = "auto";
  r.floor = "auto";
  cli::apply_retarget_flags(r, rt);
  CHECK(rt.rest == SourceRestMode::kAuto);
  CHECK(rt.floor == io::SceneRetarget::Floor::kAuto);
  for (const auto& [flag, value] : std::vector<std::pair<std::string, std::string>>{
           {"--rest", "-1"}, {"--rest", "1.5"}, {"--rest", "t-pose"}, {"--origin", "root"}, {"--floor", "2e6"},
           {"--floor", "nan"}, {"--floor", "low"}}) {
    cli::RunRequest bad;
    if (flag == "--rest") bad.rest = value;
    else if (flag == "--origin") bad.origin = value;
    else bad.floor = value;
    INFO(flag << " " << value);
    try {
      io::SceneRetarget any;
      cli::apply_retarget_flags(bad, any);
      FAIL("accepted");
    } catch (const cli::CliError& e) {
      CHECK_THAT(e.what(), Contains(flag + " " + value + ": expected"));
    }
  }
  cli::RunRequest no_clip;
  no_clip.rig = "builtin:r15";
  no_clip.plant_feet = true;
  CHECK_THAT(failure(no_clip), Contains("need a clip"));
}

TEST_CASE("retarget flags: --origin first_frame puts frame 0's hips on the root part (rule RT14)", "[cli][retarget_flags]") {
  cli::RunRequest r;
  r.rig = "builtin:r15";
  r.clip = std::string(ASTERUNE_TEST_DATA_DIR) + "/bvh/cmu_49_04_run_leap.bvh";
  r.frames = 1;
  const int pelvis = 0;  // R15's Root joint places LowerTorso
  auto first = [&](const cli::RunRequest& q) {
    cli::Run run = cli::make_run(q);
    glm::vec3 p(0.0f), root(0.0f);
    cli::run_frames(run, 0, 0, [&](const io::FrameRecord& f) {
      p = f.world[pelvis].position;
      root = f.root.position;
    });
    return glm::vec2(p.x - root.x, p.z - root.z);
  };
  const glm::vec2 clip = first(r);
  r.origin = "first_frame";
  const glm::vec2 placed = first(r);
  INFO("clip origin " << clip.x << ", " << clip.y << "; first_frame " << placed.x << ", " << placed.y);
  CHECK(glm::length(clip) > 1.0f);  // CMU 49_04 starts away from the capture's origin
  // The lower torso's centre is not exactly the hips joint (R15's Root C1, the pose's tilt).
  CHECK(glm::length(placed) < 0.15f);
}

TEST_CASE("retarget flags: a scene's clip tracks and graph Clip nodes take them too, as their retarget blocks would",
          "[cli][retarget_flags][tracks]") {
  // The same CMU run as one scene track: --origin first_frame must move it as "origin":
  // "first_frame" in the track's own retarget block does (formats.md: a track's retarget is the
  // animation block's object), and as the flag moves the animation block.
  const test::TempDir tmp("retarget_flags_tracks");
  const std::string clip = std::string(ASTERUNE_TEST_DATA_DIR) + "/bvh/cmu_49_04_run_leap.bvh";
  auto scene = [&](const std::string& name, const std::string& retarget) {
    const std::filesystem::path path = tmp / name;
    std::ofstream(path) << R"({"format": "asterune.scene/1", "rig": "builtin:r15", "frames": 1,
      "tracks": [{"name": "Run", "clip": ")" << clip << R"(", "retarget": {)" << retarget << "}}]}";
    return path.string();
  };
  auto pelvis = [&](cli::RunRequest q) {
    cli::Run run = cli::make_run(q);
    glm::vec3 p(0.0f);
    cli::run_frames(run, 0, 0, [&](const io::FrameRecord& f) { p = f.world[0].position - f.root.position; });
    return glm::vec2(p.x, p.z);
  };
  cli::RunRequest plain, flagged, in_file;
  plain.scene = flagged.scene = scene("plain.scene.json", R"("map": "auto")");
  flagged.origin = "first_frame";
  in_file.scene = scene("first.scene.json", R"("map": "auto", "origin": "first_frame")");
  const glm::vec2 a = pelvis(plain), b = pelvis(flagged), c = pelvis(in_file);
  INFO("plain " << a.x << ", " << a.y << "; flag " << b.x << ", " << b.y << "; block " << c.x << ", " << c.y);
  CHECK(glm::length(a) > 1.0f);     // the capture starts away from its origin
  CHECK(glm::length(b) < 0.15f);    // the flag reached the track
  CHECK(glm::length(b - c) < 1e-5f);  // exactly as the track's own block

  // A graph track: the flag reaches its Clip nodes.
  const std::filesystem::path graph = tmp / "graph.scene.json";
  std::ofstream(graph) << R"({"format": "asterune.scene/1", "rig": "builtin:r15", "frames": 1,
    "tracks": [{"name": "G", "graph": {"format": "asterune.graph/1",
      "nodes": {"run": {"type": "Clip", "clip": ")" << clip << R"("}}, "output": "run"}}]})";
  cli::RunRequest g;
  g.scene = graph.string();
  const glm::vec2 ga = pelvis(g);
  g.origin = "first_frame";
  const glm::vec2 gb = pelvis(g);
  INFO("graph plain " << ga.x << ", " << ga.y << "; flag " << gb.x << ", " << gb.y);
  CHECK(glm::length(ga) > 1.0f);
  CHECK(glm::length(gb) < 0.15f);
}
