// Cycles cut from the CMU walks and runs (rules LO1-LO4): the seam does not pop. Measured apart
// from the cutter: the looped clip is sampled across its seam through the ordinary clip sampler
// and each step's largest joint rotation change is compared with the median per-frame change of
// the raw clip (the root's turn about up left out on both sides: across the seam it is the
// cycle's heading change, which root motion carries on).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "asterune/clip/binding.hpp"
#include "asterune/clip/sample.hpp"
#include "asterune/documents/scene_animation.hpp"
#include "asterune/math/swing_twist.hpp"
#include "asterune/retarget/contacts.hpp"
#include "asterune/retarget/cycle.hpp"
#include "asterune/retarget/first_frame.hpp"

using namespace asterune;

namespace {

struct Sampler {
  ClipBinding binding;
  std::vector<Transform> local;
  std::vector<float> coverage;
  std::vector<int> parents;
  void at(const Clip& clip, float t, WrapMode wrap) { sample_clip(clip, binding, t, wrap, local, coverage); }
};

Sampler make_sampler(const Clip& clip, const SourceSkeleton& s) {
  auto b = build_clip_binding(clip, s);
  REQUIRE(b.ok());
  Sampler out{b.value(), std::vector<Transform>(static_cast<size_t>(s.joint_count())),
              std::vector<float>(static_cast<size_t>(s.joint_count())), s.parents};
  return out;
}

// The largest rotation change of any driven joint between two sampled poses; a root joint is
// compared by its swing off +Y (its turn about up is heading).
float largest_change(const Sampler& s, const std::vector<Transform>& before, const std::vector<Transform>& after) {
  float worst = 0.0f;
  for (size_t j = 0; j < before.size(); ++j) {
    if (s.binding.track_of(static_cast<int>(j)) < 0) continue;
    glm::quat q0 = before[j].rotation, q1 = after[j].rotation;
    if (s.parents[j] < 0) {
      q0 = swing_twist(q0, glm::vec3(0, 1, 0)).swing;
      q1 = swing_twist(q1, glm::vec3(0, 1, 0)).swing;
    }
    worst = std::max(worst, 2.0f * std::acos(std::min(1.0f, std::fabs(glm::dot(q0, q1)))));
  }
  return worst;
}

struct Figures {
  CycleSpan span;
  float median = 0.0f;  // raw clip, radians per frame
  float seam = 0.0f;    // across the seam, radians per frame
};

Figures measure(const std::string& file) {
  auto loaded = io::load_source_clip(std::string(ASTERUNE_TEST_DATA_DIR) + "/bvh/" + file);
  REQUIRE(loaded.ok());
  io::SourceClip src = std::move(loaded).value();
  const FirstFrameCheck first = detect_synthetic_first_frame(src.clip, src.skeleton);
  if (first.synthetic) drop_first_frame(src.clip, first.frame_time);
  auto contacts = find_foot_contacts(src.clip, src.skeleton, glm::quat(1, 0, 0, 0));
  REQUIRE(contacts.ok());
  auto span = find_cycle(src.clip, src.skeleton, contacts.value());
  INFO(file << ": " << (span.ok() ? span.value().describe() : span.message()));
  REQUIRE(span.ok());
  auto cut = cut_cycle(src.clip, src.skeleton, span.value(), contacts.value().up);
  REQUIRE(cut.ok());
  const float dt = contacts.value().dt;
  Figures out;
  out.span = span.value();

  Sampler raw = make_sampler(src.clip, src.skeleton);
  std::vector<float> steps;
  std::vector<Transform> previous;
  for (int f = 0; f < contacts.value().frame_count; ++f) {
    raw.at(src.clip, std::min(src.clip.duration, static_cast<float>(f) * dt), WrapMode::kClamp);
    if (f > 0) steps.push_back(largest_change(raw, previous, raw.local));
    previous = raw.local;
  }
  std::nth_element(steps.begin(), steps.begin() + static_cast<long>(steps.size() / 2), steps.end());
  out.median = steps[steps.size() / 2];

  // Across the seam: D - dt -> D (the loop's start again) -> D + dt, sampled looped.
  const Clip& loop = cut.value();
  REQUIRE(loop.duration == Approx(static_cast<float>(out.span.last - out.span.first) * dt));
  Sampler looped = make_sampler(loop, src.skeleton);
  std::vector<std::vector<Transform>> poses;
  for (float t : {loop.duration - dt, loop.duration, loop.duration + dt}) {
    looped.at(loop, t, WrapMode::kLoop);
    poses.push_back(looped.local);
  }
  out.seam = std::max(largest_change(looped, poses[0], poses[1]), largest_change(looped, poses[1], poses[2]));
  return out;
}

}  // namespace

TEST_CASE("a cycle cut from each CMU walk and run loops without a pop (rules LO1-LO4)", "[retarget][cycle]") {
  for (const char* file : {"cmu_35_01_walk.bvh", "cmu_35_17_run.bvh", "cmu_131_01_start_walk_stop.bvh",
                           "cmu_49_04_run_leap.bvh"}) {
    const Figures f = measure(file);
    std::printf("%s: %s; seam step %.3f deg, median step %.3f deg, ratio %.2f\n", file, f.span.describe().c_str(),
                static_cast<double>(glm::degrees(f.seam)), static_cast<double>(glm::degrees(f.median)),
                static_cast<double>(f.seam / f.median));
    INFO(file << ": " << f.span.describe() << "; seam " << glm::degrees(f.seam) << " deg, median "
              << glm::degrees(f.median) << " deg");
    CHECK(f.span.strides >= 1);
    CHECK(f.median > 0.0f);
    CHECK(f.seam <= 1.5f * f.median);
  }
}
