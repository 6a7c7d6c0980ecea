// Binding cache (rule RT7) and bake cache (rule RT9): hits on the same definition, misses on any change.
#include <catch2/catch.hpp>

#include <thread>

#include "asterune/clip/binding.hpp"
#include "asterune/retarget/bake.hpp"
#include "asterune/retarget/cache.hpp"
#include "asterune/rig/builtin.hpp"
#include "support/r15_rig.hpp"
#include "retarget_support.hpp"

using namespace asterune;

namespace {
RetargetProfile tpose_profile() {
  RetargetProfile p;
  p.name = "tpose";
  p.facing = glm::angleAxis(3.14159265f, glm::vec3(0, 1, 0));
  p.joints = {{"LowerTorso", "Hips"}, {"UpperTorso", "Chest"}, {"LeftUpperArm", "LArm"}};
  return p;
}
}  // namespace

TEST_CASE("profile_key is stable, order-independent and edit-sensitive", "[retarget][cache]") {
  const RetargetProfile a = tpose_profile();
  RetargetProfile b = a;
  std::swap(b.joints[0], b.joints[2]);
  CHECK(profile_key(a) == profile_key(b));
  RetargetProfile c = a;
  c.joints[2].source = "RArm";
  CHECK(profile_key(a) != profile_key(c));
  c = a;
  c.rest_matching = false;
  CHECK(profile_key(a) != profile_key(c));
  c = a;
  c.scale = 2.0f;
  CHECK(profile_key(a) != profile_key(c));
  c = a;
  c.facing = glm::quat(1, 0, 0, 0);
  CHECK(profile_key(a) != profile_key(c));
}

TEST_CASE("same profile and rig hit; edited mapping and renamed rig miss", "[retarget][cache]") {
  // rule RT7, R7.
  const Rig rig = test::r15_rig();
  const SourceSkeleton source = test::tpose_source();
  RetargetCache cache;
  auto a = cache.get(source, rig, tpose_profile());
  auto b = cache.get(source, rig, tpose_profile());
  REQUIRE(a.ok());
  REQUIRE(b.ok());
  CHECK(a.value().get() == b.value().get());
  CHECK(cache.hits() == 1);
  CHECK(cache.misses() == 1);

  RetargetProfile edited = tpose_profile();
  edited.joints[2] = {"LeftUpperArm", "LForeArm"};
  auto c = cache.get(source, rig, edited);
  REQUIRE(c.ok());
  CHECK(c.value().get() != a.value().get());
  CHECK(c.value()->source_index[static_cast<size_t>(rig.find_joint("LeftUpperArm").index)] == source.find("LForeArm"));

  // Same joint count and structure, different names: a different layout.
  RigDesc renamed = test::r15_desc();
  for (auto& p : renamed.parts)
    if (p.id == "Head") p.name = "Skull";
  auto rig2 = build_rig(renamed);
  REQUIRE(rig2.ok());
  REQUIRE(rig2.value().joint_count() == rig.joint_count());
  auto d = cache.get(source, rig2.value(), tpose_profile());
  REQUIRE(d.ok());
  CHECK(d.value().get() != a.value().get());

  // A different source skeleton misses too.
  SourceSkeleton other = source;
  other.rest_local[4].position.x += 1.0f;
  auto e = cache.get(other, rig, tpose_profile());
  REQUIRE(e.ok());
  CHECK(e.value().get() != a.value().get());
  CHECK(cache.size() == 4);

  // Failures are reported and not cached.
  RetargetProfile broken = tpose_profile();
  broken.joints.push_back({"Nope", "Hips"});
  CHECK_FALSE(cache.get(source, rig, broken).ok());
  CHECK(cache.size() == 4);
}

TEST_CASE("cache lookups from several threads share one binding", "[retarget][cache]") {
  // rule RG2: the binding is immutable and shared.
  const Rig rig = test::r15_rig();
  const SourceSkeleton source = test::tpose_source();
  RetargetCache cache;
  const RetargetBinding* seen[4] = {};
  std::vector<std::thread> threads;
  for (int i = 0; i < 4; ++i)
    threads.emplace_back([&, i] {
      auto r = cache.get(source, rig, tpose_profile());
      seen[i] = r.ok() ? r.value().get() : nullptr;
    });
  for (auto& t : threads) t.join();
  CHECK(seen[0] != nullptr);
  for (int i = 1; i < 4; ++i) CHECK(seen[i] == seen[0]);
  CHECK(cache.size() == 1);
}

TEST_CASE("bake cache: same clip and binding hit, an edited clip or binding misses, clear empties", "[retarget][cache][bake]") {
  // rule RT9: bake once per (clip, binding), cached with an explicit clear.
  const Rig rig = test::r15_rig();
  const SourceSkeleton source = test::tpose_source();
  Clip clip;
  clip.name = "wave";
  clip.duration = 1.0f;
  ClipTrack arm;
  arm.name = "LArm";
  arm.rotation_times = {0.0f, 1.0f};
  arm.rotations = {glm::quat(1, 0, 0, 0), glm::angleAxis(1.0f, glm::vec3(0, 0, 1))};
  clip.tracks.push_back(arm);
  auto source_binding = build_clip_binding(clip, source);
  REQUIRE(source_binding.ok());
  auto binding = build_retarget_binding(source, rig, tpose_profile());
  REQUIRE(binding.ok());

  BakeCache cache;
  auto a = cache.get(clip, source_binding.value(), binding.value(), rig);
  auto b = cache.get(clip, source_binding.value(), binding.value(), rig);
  REQUIRE(a.ok());
  REQUIRE(b.ok());
  CHECK(a.value().get() == b.value().get());
  CHECK(cache.hits() == 1);
  CHECK(cache.misses() == 1);
  CHECK(a.value()->name == "wave@" + rig.name());

  // An edited key is another clip; another profile is another binding.
  Clip edited = clip;
  edited.tracks[0].rotations[1] = glm::angleAxis(0.5f, glm::vec3(0, 0, 1));
  CHECK(clip_key(edited) != clip_key(clip));
  auto c = cache.get(edited, source_binding.value(), binding.value(), rig);
  REQUIRE(c.ok());
  CHECK(c.value().get() != a.value().get());
  RetargetProfile other = tpose_profile();
  other.rest_matching = false;
  auto binding2 = build_retarget_binding(source, rig, other);
  REQUIRE(binding2.ok());
  auto d = cache.get(clip, source_binding.value(), binding2.value(), rig);
  REQUIRE(d.ok());
  CHECK(d.value().get() != a.value().get());
  CHECK(cache.size() == 3);

  // Explicit clears: one entry, then all; holders keep their clip.
  CHECK(cache.erase(edited, binding.value()));
  CHECK_FALSE(cache.erase(edited, binding.value()));
  CHECK(cache.size() == 2);
  cache.clear();
  CHECK(cache.size() == 0);
  CHECK(a.value()->tracks.size() == 1);
  auto e = cache.get(clip, source_binding.value(), binding.value(), rig);
  REQUIRE(e.ok());
  CHECK(e.value().get() != a.value().get());
  CHECK(cache.misses() == 4);

  // A bake failure (a binding for another rig) is returned and not cached.
  const Rig r6 = build_rig(*builtin_rig_desc("r6")).value();
  CHECK_FALSE(cache.get(clip, source_binding.value(), binding.value(), r6).ok());
  CHECK(cache.size() == 1);
}

TEST_CASE("R9: a rig with other part sizes is another layout and gets its own binding", "[retarget][cache]") {
  // The retarget reads part sizes (the feet's soles, the legs for scale "auto"): a rig whose feet
  // are taller must not be handed the binding of the rig it otherwise equals.
  const Rig rig = test::r15_rig();
  RigDesc taller = test::r15_desc();
  for (auto& p : taller.parts)
    if (p.name == "LeftFoot" || p.name == "RightFoot") p.size.y *= 2.0f;
  auto rig2 = build_rig(taller);
  REQUIRE(rig2.ok());
  CHECK(rig2.value().signature() != rig.signature());
  const SourceSkeleton source = test::tpose_source();
  RetargetCache cache;
  auto a = cache.get(source, rig, tpose_profile());
  auto b = cache.get(source, rig2.value(), tpose_profile());
  REQUIRE(a.ok());
  REQUIRE(b.ok());
  CHECK(a.value().get() != b.value().get());
  CHECK(cache.misses() == 2);
}
