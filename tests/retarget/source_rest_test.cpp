// The source's reference pose (rule RT13) and origin (rule RT14): a CMU rest turned as a whole,
// a rest whose legs point up, a reference frame, and the first frame placed at the root.
#include <catch2/catch.hpp>

#include "asterune/clip/binding.hpp"
#include "asterune/clip/sample.hpp"
#include "asterune/formats/bvh.hpp"
#include "asterune/retarget/binding.hpp"
#include "asterune/retarget/humanoid.hpp"
#include "asterune/retarget/source_rest.hpp"
#include "asterune/rig/builtin.hpp"
#include "asterune/rig/rig.hpp"
#include "asterune/rig/world.hpp"
#include "retarget_support.hpp"

using namespace asterune;

namespace {

Rig r15() { return std::move(build_rig(*builtin_rig_desc("r15")).value()); }

io::BvhFile load(const char* file) {
  auto bvh = io::load_bvh(std::string(ASTERUNE_TEST_DATA_DIR) + "/bvh/" + file);
  REQUIRE(bvh.ok());
  bvh.value().skeleton.units_to_studs = io::kCmuUnitsToStuds;
  return std::move(bvh).value();
}

// Skeleton-space joint positions for full locals (independent forward kinematics).
std::vector<glm::vec3> fk(const SourceSkeleton& s, const std::vector<Transform>& local) {
  std::vector<Transform> world(local.size());
  std::vector<glm::vec3> out(local.size());
  for (size_t j = 0; j < local.size(); ++j) {
    const int p = s.parents[j];
    world[j] = p < 0 ? local[j] : world[static_cast<size_t>(p)] * local[j];
    out[j] = world[j].position;
  }
  return out;
}

// World transforms of every R15 part at every key time of `clip`, retargeted from `source`
// after prepare_source(options).
std::vector<std::vector<Transform>> play(const SourceSkeleton& source, const Clip& clip, const SourceRestOptions& options,
                                         std::vector<std::string>* notes = nullptr) {
  const Rig rig = r15();
  auto prepared = prepare_source(source, clip, options);
  REQUIRE(prepared.ok());
  if (notes) *notes = prepared.value().notes;
  const SourceSkeleton& s = prepared.value().skeleton;
  AutoProfileOptions opt;
  opt.auto_scale = true;
  opt.rest_on_ground = true;
  auto profile = build_auto_profile(s, rig, opt);
  REQUIRE(profile.ok());
  auto binding = build_retarget_binding(s, rig, profile.value());
  REQUIRE(binding.ok());
  auto cb = build_clip_binding(clip, s);
  REQUIRE(cb.ok());
  const size_t ns = static_cast<size_t>(s.joint_count()), nt = static_cast<size_t>(rig.joint_count());
  std::vector<Transform> sl(ns), local(nt);
  std::vector<float> sc(ns), cov(nt);
  RetargetContext ctx = make_retarget_context(binding.value());
  std::vector<std::vector<Transform>> frames;
  for (float t : clip.tracks[0].rotation_times) {
    sample_clip(clip, cb.value(), t, WrapMode::kClamp, sl, sc);
    REQUIRE(sample_retarget(binding.value(), rig, sl, sc, ctx, local, cov).ok);
    std::vector<Transform> world(nt);
    evaluate_world(rig, Transform::identity(), local, world);
    frames.push_back(world);
  }
  return frames;
}

struct Difference {
  float degrees = 0.0f;
  float studs = 0.0f;
};

Difference compare(const std::vector<std::vector<Transform>>& a, const std::vector<std::vector<Transform>>& b) {
  REQUIRE(a.size() == b.size());
  Difference d;
  for (size_t f = 0; f < a.size(); ++f)
    for (size_t j = 0; j < a[f].size(); ++j) {
      d.degrees = std::max(d.degrees, test::angle_between(a[f][j].rotation, b[f][j].rotation) * 57.29578f);
      d.studs = std::max(d.studs, glm::length(a[f][j].position - b[f][j].position));
    }
  return d;
}

}  // namespace

TEST_CASE("a CMU rest turned 90 degrees about Z retargets like the upright rest (rule RT13)", "[retarget][rest]") {
  const io::BvhFile plain = load("cmu_49_04_run_leap.bvh");
  // The same world motion over a rest lying on its side: every OFFSET (and end site) turned by
  // Q, the root's channel rotation R -> R Q^-1 and every other joint's R -> Q R Q^-1, so each
  // joint's world orientation becomes S Q^-1 and S Q^-1 (Q o) = S o: positions are unchanged.
  const glm::quat q = glm::angleAxis(1.5707963f, glm::vec3(0, 0, 1));
  io::BvhFile turned = plain;
  for (auto& t : turned.skeleton.rest_local) t.position = q * t.position;
  for (auto& e : turned.skeleton.end_sites) e = q * e;
  for (ClipTrack& track : turned.clip.tracks) {
    const int j = turned.skeleton.find(track.name);
    REQUIRE(j >= 0);
    const bool root = turned.skeleton.parents[static_cast<size_t>(j)] < 0;
    for (auto& r : track.rotations) r = root ? r * glm::conjugate(q) : q * r * glm::conjugate(q);
    if (!root)
      for (auto& p : track.translations) p = q * p;
  }
  {  // The construction keeps every world position (checked on a few frames).
    auto a = build_clip_binding(plain.clip, plain.skeleton);
    auto b = build_clip_binding(turned.clip, turned.skeleton);
    REQUIRE(a.ok());
    REQUIRE(b.ok());
    const size_t ns = static_cast<size_t>(plain.skeleton.joint_count());
    std::vector<Transform> la(ns), lb(ns);
    std::vector<float> c(ns);
    for (float t : {0.0f, 1.0f, 2.5f}) {
      sample_clip(plain.clip, a.value(), t, WrapMode::kClamp, la, c);
      sample_clip(turned.clip, b.value(), t, WrapMode::kClamp, lb, c);
      const auto pa = fk(plain.skeleton, la), pb = fk(turned.skeleton, lb);
      for (size_t j = 0; j < ns; ++j) REQUIRE(glm::length(pa[j] - pb[j]) < 1e-3f);
    }
  }
  SourceRestOptions as_is;
  as_is.mode = SourceRestMode::kRest;
  std::vector<std::string> notes;
  const auto reference = play(plain.skeleton, plain.clip, as_is);
  const auto upright = play(turned.skeleton, turned.clip, as_is, &notes);
  const Difference d = compare(reference, upright);
  INFO("turned rest vs upright rest: " << d.degrees << " deg, " << d.studs << " studs");
  CHECK(d.degrees < 0.05f);
  CHECK(d.studs < 2e-3f);
  REQUIRE(notes.size() == 1);
  CHECK(notes[0].find("turned upright") != std::string::npos);
}

TEST_CASE("a rest with the legs pointing up takes frame 0 as its reference (rule RT13)", "[retarget][rest]") {
  const io::BvhFile plain = load("cmu_49_04_run_leap.bvh");
  // Only the rest changes (the hip joints' rest rotation turns the legs up); the motion is the
  // clip's full locals, so it is unchanged.
  SourceSkeleton legs_up = plain.skeleton;
  for (const char* hip : {"LHipJoint", "RHipJoint"})
    legs_up.rest_local[static_cast<size_t>(legs_up.find(hip))].rotation = glm::angleAxis(3.14159265f, glm::vec3(0, 0, 1));
  auto roles = source_roles(legs_up);
  REQUIRE(roles.ok());
  REQUIRE(degenerate_rest(legs_up, roles.value()).has_value());
  CHECK_FALSE(degenerate_rest(plain.skeleton, source_roles(plain.skeleton).value()).has_value());

  SourceRestOptions frame0;
  frame0.mode = SourceRestMode::kFrame;
  frame0.frame = 0;
  std::vector<std::string> notes;
  const auto reference = play(plain.skeleton, plain.clip, frame0);
  const auto automatic = play(legs_up, plain.clip, SourceRestOptions{}, &notes);
  const Difference d = compare(reference, automatic);
  INFO("legs-up rest, auto vs frame 0: " << d.degrees << " deg, " << d.studs << " studs");
  CHECK(d.degrees < 1e-3f);
  CHECK(d.studs < 1e-4f);
  REQUIRE(notes.size() == 1);
  CHECK(notes[0].find("legs are not below its hips") != std::string::npos);
  CHECK(notes[0].find("frame 0") != std::string::npos);

  SourceRestOptions bad;
  bad.mode = SourceRestMode::kFrame;
  bad.frame = 100000;
  auto r = prepare_source(plain.skeleton, plain.clip, bad);
  REQUIRE_FALSE(r.ok());
  CHECK(r.message().find("rest frame 100000 is out of range") != std::string::npos);
}

TEST_CASE("origin first_frame puts frame 0's hips above the root part, keeping the height (rule RT14)",
          "[retarget][rest]") {
  const io::BvhFile mocap = load("bvhpython_mocapbank_3dsmax_names.bvh");
  const Rig rig = r15();
  const int hips = rig.find_joint("LowerTorso").index;
  std::vector<Transform> rest(static_cast<size_t>(rig.joint_count()));
  evaluate_rest_world(rig, Transform::identity(), rest);
  const glm::vec3 rest_pivot = joint_pivot(rig, rest, hips);
  SourceRestOptions clip_origin, first;
  first.origin = SourceOrigin::kFirstFrame;
  const auto a = play(mocap.skeleton, mocap.clip, clip_origin);
  const auto b = play(mocap.skeleton, mocap.clip, first);
  const glm::vec3 pa = joint_pivot(rig, a[0], hips), pb = joint_pivot(rig, b[0], hips);
  INFO("frame 0 hips pivot: origin clip " << pa.x << ", " << pa.y << ", " << pa.z << "; first_frame " << pb.x << ", "
                                          << pb.y << ", " << pb.z);
  // Hand-derived: the file's first root position is (-44.0, 93.6, 229.0) units, far from 0.
  CHECK(glm::length(glm::vec2(pa.x - rest_pivot.x, pa.z - rest_pivot.z)) > 3.0f);
  CHECK(std::fabs(pb.x - rest_pivot.x) < 1e-3f);
  CHECK(std::fabs(pb.z - rest_pivot.z) < 1e-3f);
  CHECK(pb.y == Approx(pa.y).margin(1e-4));
  // Later frames move by the same travel: the difference is a constant horizontal shift.
  const glm::vec3 shift = pa - pb;
  for (size_t f = 0; f < a.size(); f += 37) {
    const glm::vec3 d = joint_pivot(rig, a[f], hips) - joint_pivot(rig, b[f], hips);
    CHECK(glm::length(d - shift) < 1e-2f);
  }
}
