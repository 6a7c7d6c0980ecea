// Native binding vs retargeting (rule P3), R15->R15 reproduction, baking (rule RT9) and the
// allocation-free animation path.
#include <catch2/catch.hpp>

#include <cstring>

#include "asterune/formats/bvh.hpp"
#include "asterune/retarget/animation.hpp"
#include "asterune/retarget/bake.hpp"
#include "asterune/retarget/cache.hpp"
#include "asterune/retarget/humanoid.hpp"
#include "asterune/retarget/rig_source.hpp"
#include "asterune/rig/builtin.hpp"
#include "asterune/rig/rig.hpp"
#include "retarget_support.hpp"
#include "support/alloc_counter.hpp"

using namespace asterune;

namespace {

Rig r15() { return std::move(build_rig(*builtin_rig_desc("r15")).value()); }

// A clip authored on R15 names: random rotation keys on every joint, root travel.
Clip r15_clip(const Rig& rig, std::mt19937& rng) {
  Clip c;
  c.name = "r15_wave";
  c.duration = 1.0f;
  for (int j = 0; j < rig.joint_count(); ++j) {
    ClipTrack t;
    t.name = rig.child_name(j);
    for (int k = 0; k <= 4; ++k) {
      t.rotation_times.push_back(0.25f * static_cast<float>(k));
      t.rotations.push_back(test::random_rotation(rng, 1.0f));
    }
    if (t.name == "LowerTorso") {
      t.translation_times = {0.0f, 1.0f};
      t.translations = {glm::vec3(0), glm::vec3(0.5f, 0.2f, -3.0f)};
    }
    c.tracks.push_back(std::move(t));
  }
  return c;
}

io::BvhFile load_cmu(const char* file) {
  auto bvh = io::load_bvh(std::string(ASTERUNE_TEST_DATA_DIR) + "/bvh/" + file);
  REQUIRE(bvh.ok());
  bvh.value().skeleton.units_to_studs = io::kCmuUnitsToStuds;
  return std::move(bvh).value();
}

}  // namespace

TEST_CASE("an R15-named clip binds natively on R15 even with a profile", "[retarget][animation]") {
  // rule P3.
  const Rig rig = r15();
  std::mt19937 rng(21);
  const Clip clip = r15_clip(rig, rng);
  const io::BvhFile cmu = load_cmu("cmu_49_04_run_leap.bvh");
  auto profile = build_auto_profile(cmu.skeleton, rig);
  REQUIRE(profile.ok());
  auto a = build_animation_binding(clip, rig, &cmu.skeleton, &profile.value());
  REQUIRE(a.ok());
  CHECK(a.value().mode == AnimationMode::kNative);
  CHECK(a.value().retarget == nullptr);
  AnimationContext ctx = make_animation_context(a.value());
  std::vector<Transform> local(static_cast<size_t>(rig.joint_count())), direct(local.size());
  std::vector<float> cov(local.size()), cov_direct(local.size());
  auto native = build_clip_binding(clip, rig);
  REQUIRE(native.ok());
  for (float t : {0.0f, 0.3f, 0.77f}) {
    REQUIRE(sample_animation(clip, a.value(), rig, t, WrapMode::kLoop, ctx, local, cov));
    sample_clip(clip, native.value(), t, WrapMode::kLoop, direct, cov_direct);
    for (size_t j = 0; j < local.size(); ++j) {
      CHECK(local[j].rotation == direct[j].rotation);
      CHECK(local[j].position == direct[j].position);
    }
  }
  // The CMU clip does not use R15 names (though some, like Head, coincide): retargeted.
  auto b = build_animation_binding(cmu.clip, rig, &cmu.skeleton, &profile.value());
  REQUIRE(b.ok());
  CHECK(b.value().mode == AnimationMode::kRetarget);
  CHECK_FALSE(build_animation_binding(cmu.clip, rig, nullptr, nullptr).ok());
}

TEST_CASE("an R15 clip through an R15->R15 profile reproduces itself", "[retarget][animation]") {
  // rule RT2/RT4 with the rig as its own source (rig_source.hpp).
  const Rig rig = r15();
  std::mt19937 rng(22);
  const Clip clip = r15_clip(rig, rng);
  const SourceSkeleton source = source_skeleton_from_rig(rig);
  RetargetProfile p;
  for (int j = 0; j < rig.joint_count(); ++j) p.joints.push_back({rig.child_name(j), source.joint_names[static_cast<size_t>(j)]});
  auto b = build_retarget_binding(source, rig, p);
  REQUIRE(b.ok());
  auto native = build_clip_binding(clip, rig);
  REQUIRE(native.ok());
  const size_t n = static_cast<size_t>(rig.joint_count());
  std::vector<Transform> motor(n), src(n), out(n);
  std::vector<float> cov(n), out_cov(n);
  RetargetContext ctx = make_retarget_context(b.value());
  for (int k = 0; k <= 20; ++k) {
    const float t = 0.05f * static_cast<float>(k);
    sample_clip(clip, native.value(), t, WrapMode::kClamp, motor, cov);
    source_pose_from_rig(rig, motor, src);
    REQUIRE(sample_retarget(b.value(), rig, src, cov, ctx, out, out_cov).ok);
    for (size_t j = 0; j < n; ++j) {
      CHECK(test::angle_between(out[j].rotation, motor[j].rotation) < 1e-4f);
      CHECK(glm::length(out[j].position - motor[j].position) < 1e-4f);
      CHECK(out_cov[j] == cov[j]);
    }
  }
}

TEST_CASE("a baked clip sampled natively equals live retargeting at the key times", "[retarget][bake]") {
  // rule RT9.
  const Rig rig = r15();
  const io::BvhFile cmu = load_cmu("cmu_49_04_run_leap.bvh");
  AutoProfileOptions opt;
  opt.auto_scale = true;
  auto profile = build_auto_profile(cmu.skeleton, rig, opt);
  REQUIRE(profile.ok());
  // Leave the left arm unmapped: its joints must stay uncovered in the baked clip too (RT5).
  auto& joints = profile.value().joints;
  joints.erase(std::remove_if(joints.begin(), joints.end(),
                              [](const JointMapping& m) { return m.target.rfind("LeftLowerArm", 0) == 0; }),
               joints.end());
  auto binding = build_retarget_binding(cmu.skeleton, rig, profile.value());
  REQUIRE(binding.ok());
  auto source_binding = build_clip_binding(cmu.clip, cmu.skeleton);
  REQUIRE(source_binding.ok());
  auto baked = bake_retarget(cmu.clip, source_binding.value(), binding.value(), rig);
  REQUIRE(baked.ok());
  CHECK(baked.value().tracks.size() == 14);
  CHECK(clip_binds_natively(baked.value(), rig));
  auto native = build_clip_binding(baked.value(), rig);
  REQUIRE(native.ok());

  const size_t n = static_cast<size_t>(rig.joint_count());
  std::vector<Transform> live(n), from_bake(n), src(static_cast<size_t>(cmu.skeleton.joint_count()));
  std::vector<float> live_cov(n), bake_cov(n), src_cov(src.size());
  RetargetContext ctx = make_retarget_context(binding.value());
  const int lla = rig.find_joint("LeftLowerArm").index;
  float worst = 0.0f;
  for (float t : clip_key_times(cmu.clip)) {
    sample_clip(cmu.clip, source_binding.value(), t, WrapMode::kClamp, src, src_cov);
    REQUIRE(sample_retarget(binding.value(), rig, src, src_cov, ctx, live, live_cov).ok);
    sample_clip(baked.value(), native.value(), t, WrapMode::kClamp, from_bake, bake_cov);
    for (size_t j = 0; j < n; ++j) {
      worst = std::max(worst, test::angle_between(live[j].rotation, from_bake[j].rotation));
      CHECK(glm::length(live[j].position - from_bake[j].position) < 1e-5f);
      CHECK(live_cov[j] == bake_cov[j]);
    }
    CHECK(bake_cov[static_cast<size_t>(lla)] == 0.0f);
  }
  CHECK(worst < 1e-5f);
}

TEST_CASE("playing a BVH clip on R15 allocates nothing per frame", "[retarget][animation]") {
  // rule RG1.
  const Rig rig = r15();
  const io::BvhFile cmu = load_cmu("cmu_131_01_start_walk_stop.bvh");
  auto profile = build_auto_profile(cmu.skeleton, rig);
  REQUIRE(profile.ok());
  RetargetCache cache;
  auto a = build_animation_binding(cmu.clip, rig, &cmu.skeleton, &profile.value(), &cache);
  REQUIRE(a.ok());
  AnimationContext ctx = make_animation_context(a.value());
  std::vector<Transform> local(static_cast<size_t>(rig.joint_count()));
  std::vector<float> cov(local.size());
  bool ok = true;
  {
    test::AllocationScope scope;
    for (int f = 0; f < 200; ++f)
      ok = ok && sample_animation(cmu.clip, a.value(), rig, 0.01f * static_cast<float>(f), WrapMode::kLoop, ctx, local, cov);
    CHECK(scope.count() == 0);
  }
  CHECK(ok);
  for (const auto& t : local) CHECK(is_finite(t));
}

TEST_CASE("a retargeted clip binds only the source joints the retarget reads, same pose bit for bit", "[retarget][animation]") {
  // rule RT4.
  // RetargetBinding::source_needed (docs/retarget.md): CMU's fingers, thumbs and toes drive no
  // R15 joint, so build_animation_binding leaves their tracks out of the clip binding. Second
  // formulation: every source track bound (build_clip_binding to the skeleton), sampled without
  // a cursor, then sample_retarget; the target pose and coverage must be the same bits, at
  // off-grid times, forward, across the loop and backwards (the cursor's search paths).
  const Rig rig = r15();
  const io::BvhFile cmu = load_cmu("cmu_131_01_start_walk_stop.bvh");
  auto profile = build_auto_profile(cmu.skeleton, rig);
  REQUIRE(profile.ok());
  auto a = build_animation_binding(cmu.clip, rig, &cmu.skeleton, &profile.value());
  REQUIRE(a.ok());
  REQUIRE(a.value().mode == AnimationMode::kRetarget);
  auto full = build_clip_binding(cmu.clip, cmu.skeleton);
  REQUIRE(full.ok());
  const RetargetBinding& rb = *a.value().retarget;
  const ClipBinding& bound = a.value().clip_binding;
  REQUIRE(bound.joint_count() == full.value().joint_count());
  int left_out = 0;
  for (int s = 0; s < bound.joint_count(); ++s) {
    if (rb.source_needed[static_cast<size_t>(s)]) {
      CHECK(bound.track_of(s) == full.value().track_of(s));  // every joint the retarget reads keeps its track
    } else {
      CHECK(bound.track_of(s) == -1);
      if (full.value().track_of(s) >= 0) ++left_out;
    }
  }
  CHECK(left_out >= 4);  // fingers, thumbs or toes of both sides
  CHECK(bound.bound_count() + left_out == full.value().bound_count());

  AnimationContext ctx = make_animation_context(a.value());
  const size_t nt = static_cast<size_t>(rig.joint_count()), ns = static_cast<size_t>(cmu.skeleton.joint_count());
  std::vector<Transform> local(nt), ref_local(nt), src(ns);
  std::vector<float> cov(nt), ref_cov(nt), src_cov(ns);
  RetargetContext ref_ctx = make_retarget_context(rb);
  int compared = 0;
  for (int f = 0; f < 240; ++f) {
    const float t = f < 180 ? 0.0173f * static_cast<float>(f) : 0.0173f * static_cast<float>(360 - f);
    REQUIRE(sample_animation(cmu.clip, a.value(), rig, t, WrapMode::kLoop, ctx, local, cov));
    REQUIRE(sample_clip(cmu.clip, full.value(), t, WrapMode::kLoop, src, src_cov));
    REQUIRE(sample_retarget(rb, rig, src, src_cov, ref_ctx, ref_local, ref_cov).ok);
    INFO("frame " << f << " time " << t);
    REQUIRE(std::memcmp(local.data(), ref_local.data(), nt * sizeof(Transform)) == 0);
    REQUIRE(std::memcmp(cov.data(), ref_cov.data(), nt * sizeof(float)) == 0);
    ++compared;
  }
  CHECK(compared == 240);
}
