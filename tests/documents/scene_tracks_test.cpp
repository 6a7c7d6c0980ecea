// The scene "tracks" and "commands" blocks (formats.md; rules AN1-AN6, AN10, F3, F6): every key read
// with its value, the defaults, weight clamping, and bad input named by its JSON path.
#include <catch2/catch.hpp>

#include <filesystem>

#include "asterune/documents/scene_file.hpp"
#include "asterune/documents/scene_tracks.hpp"
#include "asterune/rig/builtin.hpp"
#include "asterune/rig/rig.hpp"

using namespace asterune;
using Catch::Matchers::Contains;

namespace {
const std::string kHead = R"({"format": "asterune.scene/1", "rig": "builtin:r15", )";

io::SceneDesc parse(const std::string& body) {
  auto s = io::parse_scene_json(kHead + body + "}", "/s/x.scene.json");
  const std::string why = s.ok() ? std::string() : s.message();
  INFO(why);
  REQUIRE(s.ok());
  return std::move(s).value();
}

std::string error(const std::string& body) {
  auto s = io::parse_scene_json(kHead + body + "}", "x.scene.json");
  REQUIRE_FALSE(s.ok());
  return s.message();
}
}  // namespace

TEST_CASE("scene tracks: the issue's example keys, each read with its value", "[io][scene][tracks]") {
  const io::SceneDesc s = parse(R"("tracks": [
      {"name": "Walk", "clip": "walk.bvh", "retarget": {"map": "auto", "translation": false}, "priority": "Movement",
       "weight": 0.75, "speed": -1.5, "loop": false, "time": 0.25, "playing": false,
       "mask": {"parts": ["UpperTorso", "Head"], "descendants": false}, "additive": false, "root_motion": true},
      {"name": "Lean", "clip": "../lean.rbxmx", "additive": {"reference_time": 0.5}, "weight": -0.25},
      {"name": "Breath", "clip": "b.rbxmx", "additive": true}])");
  REQUIRE(s.tracks.size() == 3);
  const io::SceneTrack& w = s.tracks[0];
  CHECK(w.name == "Walk");
  CHECK(w.clip == std::filesystem::path("/s/walk.bvh"));
  CHECK(w.retarget.auto_map);
  CHECK_FALSE(w.retarget.translation);
  REQUIRE(w.priority);
  CHECK(*w.priority == TrackPriority::kMovement);
  CHECK(w.weight == 0.75f);
  CHECK(w.speed == -1.5f);
  REQUIRE(w.loop);
  CHECK_FALSE(*w.loop);
  CHECK(w.time == 0.25f);
  CHECK_FALSE(w.playing);
  REQUIRE(w.mask_parts.size() == 2);
  CHECK(w.mask_parts[0] == "UpperTorso");
  CHECK(w.mask_parts[1] == "Head");
  CHECK_FALSE(w.mask_descendants);
  CHECK_FALSE(w.additive);
  CHECK(w.root_motion);

  const io::SceneTrack& lean = s.tracks[1];
  CHECK(lean.clip == std::filesystem::path("/lean.rbxmx"));
  CHECK(lean.additive);
  CHECK(lean.reference_time == 0.5f);
  CHECK(lean.weight == -0.25f);  // an additive track subtracts (rule AN6): not clamped

  const io::SceneTrack& b = s.tracks[2];
  CHECK(b.additive);
  CHECK(b.reference_time == 0.0f);  // its first frame by default
}

TEST_CASE("scene tracks: defaults, and the priority and loop left to the clip", "[io][scene][tracks]") {
  const io::SceneDesc s = parse(R"("tracks": [{"name": "Idle", "clip": "idle.bvh"}])");
  REQUIRE(s.tracks.size() == 1);
  const io::SceneTrack& t = s.tracks[0];
  CHECK_FALSE(t.priority);  // the clip's (a KeyframeSequence's Priority), else Core
  CHECK_FALSE(t.loop);      // the clip's (a KeyframeSequence's Loop), else looped
  CHECK(t.weight == 1.0f);
  CHECK(t.speed == 1.0f);
  CHECK(t.time == 0.0f);
  CHECK(t.playing);
  CHECK(t.mask_parts.empty());
  CHECK(t.mask_descendants);
  CHECK_FALSE(t.additive);
  CHECK_FALSE(t.root_motion);
  CHECK(t.retarget.auto_map);
  CHECK(t.retarget.translation);
  CHECK(s.commands.empty());
  CHECK_FALSE(s.animation);
}

TEST_CASE("scene tracks: every priority name, by rank (rule AN3)", "[io][scene][tracks]") {
  const char* names[] = {"Core", "Idle", "Movement", "Action", "Action2", "Action3", "Action4"};
  for (int rank = 0; rank < 7; ++rank) {
    INFO(names[rank]);
    const io::SceneDesc s =
        parse(std::string(R"("tracks": [{"name": "A", "clip": "a.bvh", "priority": ")") + names[rank] + "\"}]");
    REQUIRE(s.tracks[0].priority);
    CHECK(static_cast<int>(*s.tracks[0].priority) == rank);
  }
}

TEST_CASE("scene tracks: weights below 0 clamp to 0 except on additive tracks, above 1 stay", "[io][scene][tracks]") {
  const io::SceneDesc s = parse(R"("tracks": [
      {"name": "A", "clip": "a.bvh", "weight": -3},
      {"name": "B", "clip": "b.bvh", "weight": 4.5},
      {"name": "C", "clip": "c.bvh", "weight": -0.5, "additive": true}],
    "commands": [
      {"t": 0, "track": "A", "adjust_weight": {"weight": -1}},
      {"t": 0, "track": "C", "adjust_weight": {"weight": -2}},
      {"t": 0, "track": "A", "play": {"weight": -1}},
      {"t": 0, "track": "C", "play": {"weight": -0.75}},
      {"t": 0, "track": "B", "adjust_weight": {"weight": 7}}])");
  CHECK(s.tracks[0].weight == 0.0f);
  CHECK(s.tracks[1].weight == 4.5f);
  CHECK(s.tracks[2].weight == -0.5f);
  REQUIRE(s.commands.size() == 5);
  CHECK(s.commands[0].weight == 0.0f);
  CHECK(s.commands[1].weight == -2.0f);
  CHECK(s.commands[2].play.weight == 0.0f);
  CHECK(s.commands[3].play.weight == -0.75f);
  CHECK(s.commands[4].weight == 7.0f);
}

TEST_CASE("scene commands: the issue's example, file order kept, each value read", "[io][scene][tracks]") {
  const io::SceneDesc s = parse(R"("tracks": [
      {"name": "Wave", "clip": "w.rbxmx", "playing": false, "weight": 0.8, "speed": 1.25},
      {"name": "Walk", "clip": "walk.bvh"}, {"name": "Run", "clip": "run.bvh"}, {"name": "Idle", "clip": "idle.bvh"}],
    "commands": [
      {"t": 1.0, "track": "Wave", "play": {"fade": 0.3, "weight": 1.0, "speed": 1.0}},
      {"t": 2.0, "track": "Walk", "stop": {"fade": 0.5}},
      {"t": 2.0, "track": "Run", "adjust_weight": {"weight": 0.5, "fade": 0.2}},
      {"t": 2.5, "track": "Run", "adjust_speed": {"speed": 1.5}},
      {"t": 3.0, "track": "Idle", "play": {"transition": "inertial", "fade": 0.3}},
      {"t": 0.5, "track": "Wave", "play": {}},
      {"t": 0.5, "track": "Walk", "stop": {}},
      {"t": 0.5, "track": "Run", "adjust_weight": {"weight": 0.25}},
      {"t": 4.0, "track": "Run", "set_time": {"time": 0.125}}])");
  REQUIRE(s.commands.size() == 9);
  const auto& c = s.commands;
  CHECK(c[0].t == 1.0f);
  CHECK(c[0].track == "Wave");
  CHECK(c[0].kind == io::SceneCommandKind::kPlay);
  CHECK(c[0].play.fade == 0.3f);
  CHECK(c[0].play.weight == 1.0f);
  CHECK(c[0].play.speed == 1.0f);
  CHECK(c[0].play.transition == TransitionKind::kCrossfade);
  CHECK(c[1].kind == io::SceneCommandKind::kStop);
  CHECK(c[1].track == "Walk");
  CHECK(c[1].fade == 0.5f);
  CHECK(c[2].kind == io::SceneCommandKind::kAdjustWeight);
  CHECK(c[2].weight == 0.5f);
  CHECK(c[2].fade == 0.2f);
  CHECK(c[3].kind == io::SceneCommandKind::kAdjustSpeed);
  CHECK(c[3].t == 2.5f);
  CHECK(c[3].speed == 1.5f);
  CHECK(c[4].kind == io::SceneCommandKind::kPlay);
  CHECK(c[4].play.transition == TransitionKind::kInertial);
  CHECK(c[4].play.fade == 0.3f);
  // Defaults: fades 0.1 (Roblox's), play at the track's own weight and speed.
  CHECK(c[5].t == 0.5f);  // file order, not time order
  CHECK(c[5].play.fade == 0.1f);
  CHECK(c[5].play.weight == 0.8f);
  CHECK(c[5].play.speed == 1.25f);
  CHECK(c[6].fade == 0.1f);
  CHECK(c[7].fade == 0.1f);
  CHECK(c[7].weight == 0.25f);
  CHECK(c[8].kind == io::SceneCommandKind::kSetTime);
  CHECK(c[8].time == 0.125f);
}

TEST_CASE("scene tracks: the animation block beside tracks is the Core track 'animation' (rule AN10)",
          "[io][scene][tracks]") {
  const io::SceneDesc s = parse(R"("animation": {"clip": "a.bvh", "loop": false},
      "tracks": [{"name": "Wave", "clip": "w.rbxmx"}],
      "commands": [{"t": 1, "track": "animation", "stop": {"fade": 0.2}}])");
  REQUIRE(s.animation);
  REQUIRE(s.commands.size() == 1);
  CHECK(s.commands[0].track == "animation");
  const io::SceneTrack t = io::animation_track(*s.animation);
  CHECK(t.name == "animation");
  CHECK(t.clip == s.animation->clip);
  REQUIRE(t.priority);
  CHECK(*t.priority == TrackPriority::kCore);
  REQUIRE(t.loop);
  CHECK_FALSE(*t.loop);
  CHECK(t.weight == 1.0f);
  CHECK(t.speed == 1.0f);
  CHECK(t.time == 0.0f);
  CHECK(t.playing);
  CHECK(t.mask_parts.empty());
  CHECK_FALSE(t.additive);
}

TEST_CASE("scene tracks: bad input names the JSON path and the reason (rule F3)", "[io][scene][tracks]") {
  const std::string walk = R"("tracks": [{"name": "Walk", "clip": "w.bvh")";
  CHECK_THAT(error(walk + R"(, "priority": "Fast"}])"),
             Contains("x.scene.json: /tracks/0/priority: unknown priority 'Fast' (expected one of: Core, Idle, "
                      "Movement, Action, Action2, Action3, Action4)"));
  CHECK_THAT(error(walk + R"(, "priority": "core"}])"), Contains("/tracks/0/priority: unknown priority 'core'"));
  CHECK_THAT(error(walk + R"(, "weight": 1e39}])"), Contains("/tracks/0/weight: number is not finite"));
  CHECK_THAT(error(walk + R"(, "speed": -1e39}])"), Contains("/tracks/0/speed: number is not finite"));
  CHECK_THAT(error(walk + R"(, "time": 1e39}])"), Contains("/tracks/0/time: number is not finite"));
  CHECK_THAT(error(walk + R"(, "mask": {"parts": []}}])"), Contains("/tracks/0/mask/parts: a mask names at least one part"));
  CHECK_THAT(error(walk + R"(, "mask": {"part": ["Head"]}}])"), Contains("/tracks/0/mask/part: unknown key"));
  CHECK_THAT(error(walk + R"(, "additive": "yes"}])"), Contains("/tracks/0/additive: must be true, false or"));
  CHECK_THAT(error(walk + R"(, "additive": {"reference_time": -1}}])"),
             Contains("/tracks/0/additive/reference_time: must be a clip time in seconds >= 0"));
  CHECK_THAT(error(walk + R"(}, {"name": "Walk", "clip": "r.bvh"}])"),
             Contains("/tracks/1/name: duplicate track name 'Walk' (already used by /tracks/0)"));
  CHECK_THAT(error(R"("tracks": [])"), Contains("/tracks: a tracks block needs at least one track"));
  CHECK_THAT(error(R"("tracks": [{"clip": "w.bvh"}])"), Contains("/tracks/0: missing"));
  CHECK_THAT(error(R"("animation": {"clip": "a.bvh"}, "tracks": [{"name": "animation", "clip": "w.bvh"}])"),
             Contains("/tracks/0/name: the name 'animation' is the scene's \"animation\" block's track"));

  const std::string cmd = walk + R"(}], "commands": [)";
  CHECK_THAT(error(cmd + R"({"t": 1, "track": "Run", "stop": {}}])"),
             Contains("/commands/0/track: unknown track 'Run' (tracks: 'Walk')"));
  CHECK_THAT(error(R"("commands": [{"t": 1, "track": "Run", "stop": {}}])"),
             Contains("/commands/0/track: unknown track 'Run' (the scene has no tracks)"));
  CHECK_THAT(error(cmd + R"({"t": 1, "track": "Walk", "stop": {"fade": -0.1}}])"),
             Contains("/commands/0/stop/fade: a fade must be a time in seconds >= 0"));
  CHECK_THAT(error(cmd + R"({"t": 1, "track": "Walk", "play": {"fade": -2}}])"), Contains("/commands/0/play/fade: a fade must be"));
  CHECK_THAT(error(cmd + R"({"t": 1, "track": "Walk", "adjust_weight": {"weight": 1, "fade": -1}}])"),
             Contains("/commands/0/adjust_weight/fade: a fade must be"));
  CHECK_THAT(error(cmd + R"({"t": 1, "track": "Walk", "adjust_weight": {"fade": 1}}])"),
             Contains("/commands/0/adjust_weight: missing"));
  CHECK_THAT(error(cmd + R"({"t": 1, "track": "Walk", "adjust_weight": {"weight": 1e39}}])"),
             Contains("/commands/0/adjust_weight/weight: number is not finite"));
  CHECK_THAT(error(cmd + R"({"t": 1, "track": "Walk", "adjust_speed": {"speed": -1e39}}])"),
             Contains("/commands/0/adjust_speed/speed: number is not finite"));
  CHECK_THAT(error(cmd + R"({"t": 1, "track": "Walk", "play": {"speed": 1e39}}])"),
             Contains("/commands/0/play/speed: number is not finite"));
  CHECK_THAT(error(cmd + R"({"t": 1, "track": "Walk", "play": {"transition": "blend"}}])"),
             Contains("/commands/0/play/transition: unknown transition 'blend' (expected crossfade or inertial)"));
  CHECK_THAT(error(cmd + R"({"t": 1, "track": "Walk"}])"), Contains("/commands/0: a command needs one action"));
  CHECK_THAT(error(cmd + R"({"t": 1, "track": "Walk", "stop": {}, "play": {}}])"),
             Contains("/commands/0/play: a command has one action ('stop' is already given)"));
  CHECK_THAT(error(cmd + R"({"t": 1, "track": "Walk", "pause": {}}])"), Contains("/commands/0/pause: unknown key 'pause'"));
  CHECK_THAT(error(cmd + R"({"t": -0.5, "track": "Walk", "stop": {}}])"), Contains("/commands/0/t: must be a time in seconds >= 0"));
  CHECK_THAT(error(cmd + R"({"track": "Walk", "stop": {}}])"), Contains("/commands/0: missing"));
}

TEST_CASE("scene tracks: mask parts are checked against the rig (rules AN5, R6)", "[io][scene][tracks]") {
  const Rig rig = build_rig(*builtin_rig_desc("r15")).value();
  const io::SceneDesc ok = parse(R"("tracks": [{"name": "A", "clip": "a.bvh",
      "mask": {"parts": ["RightUpperArm", "UpperTorso/Head"]}}])");
  CHECK(io::check_track_masks(ok.tracks, rig, "x.scene.json"));
  const io::SceneDesc bad = parse(R"("tracks": [{"name": "A", "clip": "a.bvh"},
      {"name": "B", "clip": "b.bvh", "mask": {"parts": ["Head", "Tail"]}}])");
  const Status st = io::check_track_masks(bad.tracks, rig, "x.scene.json");
  REQUIRE_FALSE(st);
  CHECK(st.message() == "x.scene.json: /tracks/1/mask/parts/1: no part named 'Tail' in rig 'R15'");
  // The root part is a part of the rig but no joint places it: the animator cannot mask it.
  const io::SceneDesc root = parse(R"("tracks": [{"name": "A", "clip": "a.bvh", "mask": {"parts": ["HumanoidRootPart"]}}])");
  const Status rs = io::check_track_masks(root.tracks, rig, "x.scene.json");
  REQUIRE_FALSE(rs);
  CHECK(rs.message() == "x.scene.json: /tracks/0/mask/parts/0: 'HumanoidRootPart' is the root part of rig 'R15', "
                        "which no joint places (name the parts below it)");
}

TEST_CASE("scene commands: snapshot and restore, and their bad input on one line (rule F27)", "[io][scene][tracks]") {
  const std::string walk = R"("tracks": [{"name": "Walk", "clip": "w.bvh"}], "commands": [)";
  const io::SceneDesc s = parse(walk + R"({"t": 1.0, "snapshot": "A"}, {"t": 2.0, "restore": "A"},)"
                                       R"( {"t": 2.0, "snapshot": "B"}, {"t": 2.0, "restore": "B"}])");
  REQUIRE(s.commands.size() == 4);
  CHECK(s.commands[0].kind == io::SceneCommandKind::kSnapshot);
  CHECK(s.commands[0].snapshot == "A");
  CHECK(s.commands[0].track.empty());
  CHECK(s.commands[1].kind == io::SceneCommandKind::kRestore);
  CHECK(s.commands[1].t == 2.0f);
  CHECK(s.commands[3].snapshot == "B");
  // Due earlier in time though later in the file: commands at other frames run by time.
  CHECK(parse(walk + R"({"t": 2.0, "restore": "A"}, {"t": 1.0, "snapshot": "A"}])").commands.size() == 2);
  auto one_line = [](const std::string& m) {
    CHECK(m.find('\n') == std::string::npos);
    return m;
  };
  CHECK(one_line(error(walk + R"({"t": 2.0, "restore": "A"}])")) ==
        "x.scene.json: /commands/0/restore: no snapshot command saves 'A' (a restore follows "
        "{\"t\": ..., \"snapshot\": \"A\"})");
  CHECK(one_line(error(walk + R"({"t": 1.0, "snapshot": "B"}, {"t": 2.0, "restore": "A"}])")) ==
        "x.scene.json: /commands/1/restore: no snapshot command saves 'A' (a restore follows "
        "{\"t\": ..., \"snapshot\": \"A\"})");
  CHECK_THAT(one_line(error(walk + R"({"t": 3.0, "snapshot": "A"}, {"t": 2.0, "restore": "A"}])")),
             Contains("x.scene.json: /commands/1/restore: restore 'A' at t = 2.000000 runs before the snapshot 'A' at "
                      "t = 3.000000 saves it"));
  CHECK(one_line(error(walk + R"({"t": 2.0, "restore": "A"}, {"t": 2.0, "snapshot": "A"}])")).find(
            "/commands/0/restore: restore 'A' at t = 2.000000 runs before") != std::string::npos);
  CHECK(one_line(error(walk + R"({"t": 1.0, "track": "Walk", "snapshot": "A"}])")) ==
        "x.scene.json: /commands/0/track: a snapshot command is whole-character: it takes no 'track'");
  CHECK(one_line(error(walk + R"({"t": 1.0, "snapshot": "A"}, {"t": 2.0, "track": "Walk", "restore": "A"}])")) ==
        "x.scene.json: /commands/1/track: a restore command is whole-character: it takes no 'track'");
  CHECK(one_line(error(walk + R"({"t": 1.0, "snapshot": 3}])")) ==
        "x.scene.json: /commands/0/snapshot: the snapshot id must be a string, e.g. \"A\"");
  CHECK(one_line(error(walk + R"({"t": 1.0, "snapshot": "A"}, {"t": 2.0, "restore": ["A"]}])")) ==
        "x.scene.json: /commands/1/restore: the restore id must be a string, e.g. \"A\"");
  CHECK_THAT(one_line(error(walk + R"({"t": 1.0, "snapshot": ""}])")), Contains("/commands/0/snapshot: must not be empty"));
  CHECK_THAT(one_line(error(walk + R"({"t": 1.0, "snapshot": "A", "restore": "A"}])")),
             Contains("/commands/0/restore: a command has one action ('snapshot' is already given)"));
  CHECK_THAT(one_line(error(walk + R"({"t": -1.0, "snapshot": "A"}])")),
             Contains("/commands/0/t: must be a time in seconds >= 0"));
}
