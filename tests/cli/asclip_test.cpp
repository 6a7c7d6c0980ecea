// --out FILE.asclip and --clip FILE.asclip (rules P8, P9), through the command line's own code
// (make_run, run_frames, write_out_file): a CMU walk played on R15 is written compressed, played
// back from the file, and every frame of the replay is within the default 0.0018 studs of the
// first run on every part's virtual vertices (rule P7).
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "asterune/clip/error_metric.hpp"
#include "export.hpp"
#include "run.hpp"
#include "scene_run.hpp"
#include "support/temp_dir.hpp"

using namespace asterune;

TEST_CASE("a run written as .asclip plays back from the file within the tolerance", "[cli][out][asclip]") {
  cli::RunRequest request;
  request.rig = "builtin:r15";
  request.clip = std::string(ASTERUNE_TEST_DATA_DIR) + "/bvh/cmu_35_01_walk.bvh";
  cli::Run run = cli::make_run(request);
  std::vector<io::FrameRecord> first;
  cli::run_frames(run, 0, run.frames - 1, [&](const io::FrameRecord& r) { first.push_back(r); });
  const test::TempDir dir("asclip_cli");
  const std::string path = (dir.path() / "walk.asclip").string();
  const cli::OutReport report = cli::write_out_file(path, run, first, cli::OutOptions{});
  CHECK(report.summary.find(":1 against raw floats") != std::string::npos);
  CHECK(report.max_error <= 0.0018f);

  cli::RunRequest again = request;
  again.clip = path;
  cli::Run replay = cli::make_run(again);
  std::vector<io::FrameRecord> second;
  cli::run_frames(replay, 0, replay.frames - 1, [&](const io::FrameRecord& r) { second.push_back(r); });
  REQUIRE(second.size() == first.size());
  const VirtualVertices vertices = make_virtual_vertices(run.rig);
  VertexErrorScratch scratch = make_vertex_error_scratch(run.rig);
  for (size_t f = 0; f < first.size(); ++f) {
    VertexError e;
    REQUIRE(pose_vertex_error(run.rig, vertices, first[f].local, second[f].local, scratch, e));
    INFO("frame " << f);
    REQUIRE(e.distance <= 0.0018f);
    REQUIRE(first[f].coverage == second[f].coverage);
  }
  // Another rig's layout is refused with the remedy.
  cli::RunRequest r6 = again;
  r6.rig = "builtin:r6";
  CHECK_THROWS_WITH(cli::make_run(r6), Catch::Contains("compress it again for this rig"));
}
