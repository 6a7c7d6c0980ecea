// Rule AN11: a clip played on its own (--clip without a scene) plays as its file says, else
// once, and ends on its last pose: its last frame lands at t = duration and must not wrap to
// frame 0's pose. A scene without "loop" plays the file's Loop; --loop / --no-loop decide over
// both, and an exported .rbxmx's Loop is the playback's. Through the command line's own code
// (make_run, run_frames, write_out_file).
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "export.hpp"
#include "run.hpp"
#include "scene_run.hpp"
#include "support/temp_dir.hpp"

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

namespace {

// Every frame's world placements of a run.
std::vector<std::vector<Transform>> run_all(cli::Run& run) {
  std::vector<std::vector<Transform>> out;
  cli::run_frames(run, 0, run.frames - 1, [&](const io::FrameRecord& r) { out.push_back(r.world); });
  return out;
}

float largest_distance(const std::vector<Transform>& a, const std::vector<Transform>& b) {
  float d = 0.0f;
  for (size_t j = 0; j < a.size() && j < b.size(); ++j) d = std::max(d, glm::length(a[j].position - b[j].position));
  return d;
}

std::string read_text(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Exports the whole run of `request` to `path` as the command line does (its Loop from the
// playback, rule AN11); returns every frame's world placements.
std::vector<std::vector<Transform>> export_run(const cli::RunRequest& request, const std::filesystem::path& path,
                                               bool loop_flag = false) {
  cli::Run run = cli::make_run(request);
  std::vector<io::FrameRecord> recs;
  cli::run_frames(run, 0, run.frames - 1, [&](const io::FrameRecord& r) { recs.push_back(r); });
  cli::OutOptions o;
  o.loop = cli::export_loop(run, loop_flag);
  cli::write_out_file(path.string(), run, recs, o);
  std::vector<std::vector<Transform>> world;
  for (const io::FrameRecord& r : recs) world.push_back(r.world);
  return world;
}

void write_scene(const std::filesystem::path& path, const std::string& clip, int frames, const std::string& extra) {
  std::ofstream(path) << R"({"format": "asterune.scene/1", "rig": "builtin:r15", "frames": )" << frames
                      << R"(, "dt": 0.0166666667, "animation": {"clip": ")" << clip << "\"" << extra << "}}";
}

}  // namespace

TEST_CASE("AN11: --out run.rbxmx, then --clip run.rbxmx --all-frames ends on the last pose", "[cli][clip_end]") {
  // The documented round trip on CMU 49_04: the export's Loop is the playback's (once: false),
  // so playing it back clamps at its last Keyframe and its last frame is the run's last pose
  // (the issue measured 13 studs there when the played-back clip wrapped to frame 0's pose).
  test::TempDir dir("clip_end_round_trip");
  const std::filesystem::path out = dir.path() / "run.rbxmx";
  cli::RunRequest request;
  request.rig = "builtin:r15";
  request.clip = std::string(ASTERUNE_TEST_DATA_DIR) + "/bvh/cmu_49_04_run_leap.bvh";
  const auto written = export_run(request, out);
  CHECK(read_text(out).find("<bool name=\"Loop\">false</bool>") != std::string::npos);
  cli::RunRequest back;
  back.clip = out.string();
  cli::Run played_run = cli::make_run(back);
  REQUIRE(played_run.loop);
  CHECK_FALSE(*played_run.loop);
  const auto played = run_all(played_run);
  REQUIRE(played.size() == written.size());
  const float last = largest_distance(played.back(), written.back());
  const float to_first = largest_distance(played.back(), written.front());
  INFO("last frame: " << last << " studs from the written last pose, " << to_first << " from frame 0's");
  CHECK(last < 0.02f);      // the key reduction's 0.005 studs, plus float printing of the CFrames
  CHECK(to_first > 1.0f);   // the run travels: frame 0's pose is far from the last
}

TEST_CASE("AN11: a scene without \"loop\" plays the file's Loop; --loop and --no-loop decide over both", "[cli][clip_end]") {
  test::TempDir dir("clip_end_scene_loop");
  // Two KeyframeSequences of the same 30 frames of CMU 49_04's run, Loop false and true.
  cli::RunRequest source;
  source.rig = "builtin:r15";
  source.clip = std::string(ASTERUNE_TEST_DATA_DIR) + "/bvh/cmu_49_04_run_leap.bvh";
  source.frames = 30;
  const auto walk = export_run(source, dir.path() / "once.rbxmx");
  source.loop = true;
  export_run(source, dir.path() / "looped.rbxmx");
  CHECK(read_text(dir.path() / "once.rbxmx").find("<bool name=\"Loop\">false</bool>") != std::string::npos);
  CHECK(read_text(dir.path() / "looped.rbxmx").find("<bool name=\"Loop\">true</bool>") != std::string::npos);

  // A scene with no "loop" over each: frame 29 is at t = 29/60 = the clips' duration, which is
  // the last pose played once and frame 0's pose looped.
  struct Case {
    const char* clip;
    const char* extra;
    std::optional<bool> flag;
    bool loops;
  };
  const Case cases[] = {{"once.rbxmx", "", {}, false},
                        {"looped.rbxmx", "", {}, true},
                        {"looped.rbxmx", R"(, "loop": false)", {}, false},
                        {"once.rbxmx", R"(, "loop": true)", {}, true},
                        {"looped.rbxmx", "", false, false},
                        {"once.rbxmx", R"(, "loop": false)", true, true}};
  for (const Case& c : cases) {
    INFO(c.clip << c.extra << (c.flag ? (*c.flag ? " --loop" : " --no-loop") : ""));
    write_scene(dir.path() / "s.scene.json", c.clip, 30, c.extra);
    cli::RunRequest r;
    r.scene = (dir.path() / "s.scene.json").string();
    r.loop = c.flag;
    cli::Run run = cli::make_run(r);
    REQUIRE(run.loop);
    CHECK(*run.loop == c.loops);
    CHECK(cli::export_loop(run, false) == c.loops);
    const auto world = run_all(run);
    REQUIRE(world.size() == 30);
    const float to_last = largest_distance(world.back(), walk.back());
    const float to_first = largest_distance(world.back(), walk.front());
    INFO("frame 29: " << to_last << " studs from the last pose, " << to_first << " from frame 0's");
    if (c.loops) CHECK(to_first < 0.02f);
    else CHECK(to_last < 0.02f);
    CHECK((c.loops ? to_last : to_first) > 0.5f);  // the run moved in 29 frames: the two differ
  }
}

TEST_CASE("AN11: --loop plays a clip alone looped and exports Loop true", "[cli][clip_end]") {
  cli::RunRequest r;
  r.rig = "builtin:r15";
  r.clip = std::string(ASTERUNE_TEST_DATA_DIR) + "/bvh/cmu_49_04_run_leap.bvh";
  r.loop = true;
  cli::Run looped = cli::make_run(r);
  REQUIRE(looped.loop);
  CHECK(*looped.loop);
  CHECK(cli::export_loop(looped, false));
  const auto world = run_all(looped);
  // The last frame, at t = duration, wraps to frame 0's pose.
  CHECK(largest_distance(world.back(), world.front()) < 1e-4f);
  // Without an animation the flag alone gives the export's Loop.
  cli::RunRequest pose_only;
  pose_only.rig = "builtin:r15";
  cli::Run still = cli::make_run(pose_only);
  CHECK_FALSE(still.loop);
  CHECK(cli::export_loop(still, true));
  CHECK_FALSE(cli::export_loop(still, false));
}
