// Scene snapshot and restore commands run by asterune-solve's own code (make_run, run_frames;
// rule F27): a run that snapshots at t = 1 and restores at t = 2 shows after t = 2 the frames a
// run without them shows after t = 1, bit for bit (the expectation is the other run's output,
// not anything the rollback computes), with a graph parameter ramp running across both.
#include <catch2/catch.hpp>

#include <bit>
#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include "asterune/documents/frames_file.hpp"
#include "run.hpp"
#include "scene_run.hpp"
#include "support/temp_dir.hpp"

using namespace asterune;

namespace {

// dt = 1/16 s: t = 1 is frame 16 and t = 2 frame 32, exactly.
std::vector<io::FrameRecord> run_scene(const test::TempDir& tmp, const std::string& name, const std::string& extra) {
  const std::string scene = (tmp / name).string();
  {
    std::ofstream out(scene);
    out << R"({"format": "asterune.scene/1", "rig": "builtin:r15", "frames": 49, "dt": 0.0625,
      "tracks": [{"name": "Loco", "graph": ")" << ASTERUNE_EXAMPLES_DIR << R"(/locomotion.graph.json"}],
      "commands": [{"t": 0.5, "track": "Loco", "set_parameter": {"name": "speed", "value": 7.1, "over": 2.0}})"
        << extra << "]}";
  }
  cli::RunRequest request;
  request.scene = scene;
  cli::Run run = cli::make_run(request);
  std::vector<io::FrameRecord> recs;
  cli::run_frames(run, 0, run.frames - 1, [&](const io::FrameRecord& r) { recs.push_back(r); });
  return recs;
}

std::vector<std::uint32_t> bits(const io::FrameRecord& r) {
  std::vector<std::uint32_t> out;
  auto add = [&](float v) { out.push_back(std::bit_cast<std::uint32_t>(v)); };
  for (const Transform& t : r.local) {
    for (int i = 0; i < 3; ++i) add(t.position[i]);
    for (int i = 0; i < 4; ++i) add(t.rotation[i]);
  }
  for (const Transform& t : r.world)
    for (int i = 0; i < 3; ++i) add(t.position[i]);
  for (const io::TrackRecord& t : r.tracks) {
    add(t.weight);
    add(t.time);
    REQUIRE(t.graph);
    for (const io::GraphParameterRecord& p : t.graph->parameters) add(p.number);
    for (const io::GraphNodeRecord& n : t.graph->nodes) {
      add(n.weight);
      add(n.time);
      add(n.phase);
    }
  }
  return out;
}

}  // namespace

TEST_CASE("scene snapshot: after a restore at t = 2 the frames repeat those after the snapshot at t = 1 (rule F27)",
          "[cli][snapshot]") {
  const test::TempDir tmp("cli_snapshot");
  const std::vector<io::FrameRecord> plain = run_scene(tmp, "plain.scene.json", "");
  const std::vector<io::FrameRecord> rolled = run_scene(
      tmp, "rolled.scene.json", R"(, {"t": 1.0, "snapshot": "A"}, {"t": 2.0, "restore": "A"})");
  REQUIRE(plain.size() == 49);
  REQUIRE(rolled.size() == 49);
  for (size_t f = 0; f <= 32; ++f) {  // up to the restore's own frame: the snapshot changes nothing
    INFO("frame " << f);
    CHECK(bits(rolled[f]) == bits(plain[f]));
  }
  for (size_t k = 1; k <= 16; ++k) {  // the scene clock goes on; the animation state is t = 1's
    INFO("frame " << 32 + k << " against the plain run's frame " << 16 + k);
    CHECK(rolled[32 + k].time == plain[32 + k].time);
    CHECK(bits(rolled[32 + k]) == bits(plain[16 + k]));
  }
  // The ramp still moves at t = 2, so the restore is seen: the speed parameter went back.
  REQUIRE(plain[33].tracks[0].graph);
  CHECK(rolled[33].tracks[0].graph->parameters[0].number < plain[33].tracks[0].graph->parameters[0].number);
  CHECK(bits(rolled[33]) != bits(plain[33]));
}

TEST_CASE("scene snapshot: a restore may run twice, and a snapshot may be taken again", "[cli][snapshot]") {
  const test::TempDir tmp("cli_snapshot_again");
  const std::vector<io::FrameRecord> plain = run_scene(tmp, "plain.scene.json", "");
  const std::vector<io::FrameRecord> rolled =
      run_scene(tmp, "again.scene.json",
                R"(, {"t": 1.0, "snapshot": "A"}, {"t": 1.5, "restore": "A"}, {"t": 2.0, "restore": "A"},)"
                R"( {"t": 2.0, "snapshot": "A"}, {"t": 2.5, "restore": "A"})");
  REQUIRE(rolled.size() == 49);
  for (size_t k = 1; k <= 8; ++k) {
    INFO("k = " << k);
    CHECK(bits(rolled[24 + k]) == bits(plain[16 + k]));  // after the first restore at 1.5
    CHECK(bits(rolled[32 + k]) == bits(plain[16 + k]));  // after the second at 2.0
    CHECK(bits(rolled[40 + k]) == bits(plain[16 + k]));  // the snapshot at 2.0 saved t = 1's state again
  }
}
