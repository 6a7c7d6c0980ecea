// `--rbxmx-kind curves` on a clip with flips no Euler cubic can follow (rule F24): CMU 05_20
// (tests/data/bvh/cmu_05_20_daz_names.bvh, MotionBuilder conversion with Daz names) has
// 3-frame flips. The flip's joint and segment keep their frames' keys and the rest of the clip
// stays reduced (before: 100% of the keys at any tolerance); the error stderr reports is the
// one a player of the file sees: the CurveAnimation is read back the way `--clip FILE.rbxmx`
// reads it (the FloatCurves evaluated as Roblox documents them) and played at a quarter of the
// step against the unreduced KeyframeSequence (every frame a key, slerped between frames).
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "export.hpp"
#include "run.hpp"
#include "scene_run.hpp"
#include "support/temp_dir.hpp"

using namespace asterune;

namespace {

std::vector<io::FrameRecord> run_all(cli::Run& run) {
  std::vector<io::FrameRecord> recs;
  cli::run_frames(run, 0, run.frames - 1, [&](const io::FrameRecord& r) { recs.push_back(r); });
  REQUIRE(recs.size() == static_cast<size_t>(run.frames));
  return recs;
}

// `file` played on builtin:r15 at a quarter of the step of `recs`: sample 4 f is at recs[f].time.
std::vector<io::FrameRecord> play_quarters(const std::filesystem::path& file, const std::vector<io::FrameRecord>& recs) {
  cli::RunRequest back;
  back.rig = "builtin:r15";
  back.clip = file.string();
  back.dt = 0.25f * (recs[1].time - recs[0].time);
  back.frames = 4 * static_cast<int>(recs.size()) - 3;
  cli::Run r = cli::make_run(back);
  return run_all(r);
}

}  // namespace

TEST_CASE("F24: --rbxmx-kind curves on CMU 05_20 keeps the flips' frames per joint and segment, the rest reduced; "
          "the reported error is the played one",
          "[cli][out][curves]") {
  const test::TempDir tmp("cli_curves_flip");
  cli::RunRequest request;
  request.rig = "builtin:r15";
  request.clip = std::string(ASTERUNE_TEST_DATA_DIR) + "/bvh/cmu_05_20_daz_names.bvh";
  cli::Run run = cli::make_run(request);
  const std::vector<io::FrameRecord> recs = run_all(run);
  REQUIRE(recs.size() > 500);

  const std::filesystem::path curves = tmp / "flip_curves.rbxmx", full = tmp / "flip_full.rbxmx";
  cli::OutOptions options;
  options.curves = true;
  const cli::OutReport report = cli::write_out_file(curves.string(), run, recs, options);
  cli::OutOptions every;
  every.tolerance = 0.0f;
  cli::write_out_file(full.string(), run, recs, every);
  REQUIRE(report.keys_before == recs.size() * static_cast<size_t>(run.rig.joint_count()));
  // Reduced, not every key (a whole-clip fallback kept 100%).
  CHECK(static_cast<double>(report.keys_after) <= 0.32 * static_cast<double>(report.keys_before));

  const std::vector<io::FrameRecord> want = play_quarters(full, recs), got = play_quarters(curves, recs);
  REQUIRE(want.size() == got.size());
  float worst = 0.0f, worst_at_frames = 0.0f;
  for (size_t s = 0; s < want.size(); ++s)
    for (size_t j = 0; j < want[s].world.size(); ++j) {
      const float e = glm::length(got[s].world[j].position - want[s].world[j].position);
      worst = std::max(worst, e);
      if (s % 4 == 0) worst_at_frames = std::max(worst_at_frames, e);
    }
  // At the frames (keys of every flip segment) the bound holds; between them the player's error
  // is the one reported (the reducer checks the same points with the same FloatCurve evaluation).
  CHECK(worst_at_frames <= cli::OutOptions::kDefaultTolerance);
  CHECK(worst == Approx(report.max_error).margin(2e-3));
  WARN("05_20 curves: " << report.keys_after << " of " << report.keys_before << " keys, reported " << report.max_error
                        << " studs, played " << worst << " (at frames " << worst_at_frames << ")");
}
