// Rule RT20: contacts from the structure and contacts that are steps. Real CMU captures (a
// Daz-named dance, a straight walk, the same walk made in place by the test) and hand-made
// samples whose contact frames follow from the documented merge and minimum lengths.
#include <catch2/catch.hpp>

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include "asterune/documents/scene_animation.hpp"
#include "asterune/retarget/contacts.hpp"
#include "asterune/rig/world.hpp"

using namespace asterune;

namespace {

io::SourceClip load(const std::string& file) {
  auto loaded = io::load_source_clip(std::string(ASTERUNE_TEST_DATA_DIR) + "/bvh/" + file);
  REQUIRE(loaded);
  return std::move(loaded).value();
}

// The lowest height (along +Y) of the foot joint's subtree, joints and end sites, per frame,
// by a forward kinematics of its own in double (independent of detect_foot_contacts).
std::vector<double> sole_heights(const SampledSource& s, const SourceSkeleton& skel, int foot) {
  std::vector<double> out;
  const auto n = static_cast<size_t>(s.joint_count);
  for (int f = 0; f < s.frame_count; ++f) {
    double low = std::numeric_limits<double>::infinity();
    for (size_t j = 0; j < n; ++j) {
      bool below = false;
      for (int k = static_cast<int>(j); k >= 0; k = skel.parents[static_cast<size_t>(k)]) below = below || k == foot;
      if (!below) continue;
      low = std::min({low, double(s.joint[static_cast<size_t>(f) * n + j].y), double(s.end_site[static_cast<size_t>(f) * n + j].y)});
    }
    out.push_back(low);
  }
  return out;
}

// Checks that between two consecutive Footstep markers of each foot the foot was lifted at
// least `lift` above the floor (a real step), and returns the number of markers per foot.
std::vector<int> check_steps(const FootContacts& c, const SampledSource& s, const SourceSkeleton& skel, double lift) {
  std::vector<int> count(c.feet.size(), 0);
  const std::vector<ClipMarker> steps = footstep_markers(c);
  for (size_t i = 0; i < c.feet.size(); ++i) {
    const std::vector<double> h = sole_heights(s, skel, c.feet[i].joint);
    float previous = -1.0f;
    for (const ClipMarker& m : steps) {
      if (m.value != c.feet[i].side) continue;
      ++count[i];
      if (previous >= 0.0f) {
        double highest = -std::numeric_limits<double>::infinity();
        for (int f = static_cast<int>(std::lround(previous / c.dt)); f <= static_cast<int>(std::lround(m.time / c.dt)); ++f)
          highest = std::max(highest, h[static_cast<size_t>(f)] - c.floor);
        INFO(c.feet[i].side << " footsteps at " << previous << " and " << m.time << " s: highest lift " << highest);
        CHECK(highest > lift);
      }
      previous = m.time;
    }
  }
  return count;
}

}  // namespace

TEST_CASE("RT20: a Daz-named skeleton finds its feet from the structure", "[retarget][contacts]") {
  // No naming scheme knows hip / lThigh / lFoot; the retarget maps the legs by structure, and
  // the contacts must watch the same feet.
  const io::SourceClip clip = load("cmu_05_20_daz_names.bvh");
  auto found = find_foot_contacts(clip.clip, clip.skeleton, glm::quat(1, 0, 0, 0));
  REQUIRE(found);
  const FootContacts& c = found.value();
  INFO(c.note);
  REQUIRE(c.feet.size() == 2);
  CHECK(clip.skeleton.joint_names[static_cast<size_t>(c.feet[0].joint)] == "lFoot");
  CHECK(clip.skeleton.joint_names[static_cast<size_t>(c.feet[1].joint)] == "rFoot");
  CHECK(c.has_floor);
  CHECK_FALSE(c.spans().empty());
  CHECK_FALSE(c.in_place());
}

TEST_CASE("RT20: a CMU walk has one contact and one Footstep per foot-down", "[retarget][contacts]") {
  const io::SourceClip clip = load("cmu_35_01_walk.bvh");
  auto found = find_foot_contacts(clip.clip, clip.skeleton, glm::quat(1, 0, 0, 0));
  REQUIRE(found);
  const FootContacts& c = found.value();
  REQUIRE(c.has_floor);
  auto samples = sample_source(clip.clip, clip.skeleton);
  REQUIRE(samples);
  // 3 s of walking at about 1.3 m/s, steps of about 0.65 m: 2 or 3 foot-downs per foot. Every
  // pair of consecutive markers of one foot has a swing between them (its lowest point 0.04 L
  // up: a walking toe clears the floor by a few cm).
  const std::vector<int> count = check_steps(c, samples.value(), clip.skeleton, 0.04 * c.leg_length);
  for (int k : count) {
    CHECK(k >= 2);
    CHECK(k <= 4);
  }
  CHECK_FALSE(c.in_place());
}

TEST_CASE("RT20: the same walk made in place finds the same steps", "[retarget][contacts]") {
  const io::SourceClip walk = load("cmu_35_01_walk.bvh");
  auto travelling = find_foot_contacts(walk.clip, walk.skeleton, glm::quat(1, 0, 0, 0));
  REQUIRE(travelling);
  // In place: the root's horizontal travel from its first to its last key taken off linearly in
  // time, so the body stays over its start and the stance foot slides back at walking speed.
  io::SourceClip in_place = walk;
  const std::string& root = walk.skeleton.joint_names[0];
  auto track = std::find_if(in_place.clip.tracks.begin(), in_place.clip.tracks.end(),
                            [&](const ClipTrack& t) { return t.name == root; });
  REQUIRE(track != in_place.clip.tracks.end());
  REQUIRE(track->translations.size() > 2);
  const glm::vec3 travel = track->translations.back() - track->translations.front();
  const float t0 = track->translation_times.front(), t1 = track->translation_times.back();
  for (size_t k = 0; k < track->translations.size(); ++k) {
    const float u = (track->translation_times[k] - t0) / (t1 - t0);
    track->translations[k] -= u * glm::vec3(travel.x, 0.0f, travel.z);
  }
  auto found = find_foot_contacts(in_place.clip, in_place.skeleton, glm::quat(1, 0, 0, 0));
  REQUIRE(found);
  const FootContacts& c = found.value();
  INFO(c.note);
  REQUIRE(c.has_floor);
  CHECK(c.in_place());
  // The ground slides back (-Z here: the walk goes +Z) at about the walk's speed: 3.83 m over
  // 2.98 s = 22.8 CMU units per second.
  CHECK(c.ground_velocity.z == Approx(-travel.z / (t1 - t0)).epsilon(0.25));
  const auto spans = [](const FootContacts& x, size_t foot) {
    int k = 0;
    for (const ContactSpan& s : x.spans()) k += s.foot == foot ? 1 : 0;
    return k;
  };
  for (size_t foot = 0; foot < 2; ++foot) {
    INFO("foot " << foot);
    CHECK(std::abs(spans(c, foot) - spans(travelling.value(), foot)) <= 1);
  }
  auto samples = sample_source(in_place.clip, in_place.skeleton);
  REQUIRE(samples);
  check_steps(c, samples.value(), in_place.skeleton, 0.04 * c.leg_length);
}

TEST_CASE("RT20: short lifts join contacts, short touches are no contacts", "[retarget][contacts]") {
  // One foot (a single joint), L = 1, dt = 0.02 s; the speed thresholds are opened so that the
  // heights alone make the raw contacts. Height per frame: down 0-9, up 10-11 (a lift of 2
  // frames, 0.04 s: joined, under 0.1 s = 5 frames), down 12-29, up 30-39, down 40-41 (a touch
  // of 0.04 s, under 0.05 s = round(2.5) = 3 frames: dropped), up 42-59, down 60-69 (kept).
  std::vector<float> h(70, 0.0f);
  for (int f = 10; f <= 11; ++f) h[static_cast<size_t>(f)] = 0.2f;
  for (int f = 30; f <= 59; ++f) h[static_cast<size_t>(f)] = (f == 40 || f == 41) ? 0.0f : 0.2f;
  SourceSkeleton s;
  s.name = "foot";
  s.joint_names = {"Foot"};
  s.parents = {-1};
  s.rest_local = {Transform::identity()};
  SampledSource samples;
  samples.dt = 0.02f;
  samples.frame_count = static_cast<int>(h.size());
  samples.joint_count = 1;
  for (float y : h) {
    samples.joint.emplace_back(0.0f, y, 0.0f);
    samples.end_site.emplace_back(0.0f, y, 0.0f);
  }
  ContactThresholds th;
  th.enter_speed = 10.0f;  // a 0.2 step is 5 L/s by central differences: let it in
  th.exit_speed = 10.0f;
  const FootContacts c = detect_foot_contacts(samples, s, {FootSpec{"LeftFoot", "Left", 0}}, glm::vec3(0, 1, 0), 1.0f, th);
  REQUIRE(c.has_floor);
  std::vector<unsigned char> want(70, 0);
  for (int f = 0; f <= 29; ++f) want[static_cast<size_t>(f)] = 1;
  for (int f = 60; f <= 69; ++f) want[static_cast<size_t>(f)] = 1;
  CHECK(c.contact == want);
  const auto steps = footstep_markers(c);
  REQUIRE(steps.size() == 2);
  CHECK(steps[0].time == 0.0f);
  CHECK(steps[1].time == Approx(60 * 0.02f));
}
