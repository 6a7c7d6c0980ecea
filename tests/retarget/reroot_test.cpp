// Travel through an animated source parent (rule RT6): a source skeleton with a root bone above
// the hips (an "Armature"/"Root" node, common in glTF and FBX exports) must not lose the
// pelvis's motion. The reference is the original CMU clip: a re-rooted copy, built here by
// adding an animated "Root" joint above "Hips" and re-expressing the hips keys under it (so
// every original joint has the same skeleton-space motion), must retarget onto R15 exactly
// like the original, at every key time.
#include <catch2/catch.hpp>

#include <cmath>

#include "asterune/clip/sample.hpp"
#include "asterune/formats/bvh.hpp"
#include "asterune/retarget/animation.hpp"
#include "asterune/retarget/humanoid.hpp"
#include "asterune/rig/builtin.hpp"
#include "asterune/rig/rig.hpp"
#include "asterune/rig/world.hpp"
#include "retarget_support.hpp"

using namespace asterune;

namespace {

struct Source {
  SourceSkeleton skeleton;
  Clip clip;
};

Source load_cmu(const char* file) {
  auto bvh = io::load_bvh(std::string(ASTERUNE_TEST_DATA_DIR) + "/bvh/" + file);
  REQUIRE(bvh.ok());
  bvh.value().skeleton.units_to_studs = io::kCmuUnitsToStuds;
  return {bvh.value().skeleton, bvh.value().clip};
}

// The root bone's motion: the hips' ground travel (x, z) and a slow turn about +Y, so the root
// carries most of the travel and the hips keep the bob and the rest of the turn.
Transform root_motion(const Transform& hips, float t) {
  return Transform{glm::angleAxis(0.3f * std::sin(2.0f * t), glm::vec3(0, 1, 0)),
                   glm::vec3(hips.position.x, 0.0f, hips.position.z)};
}

Source reroot(const Source& in) {
  Source out;
  SourceSkeleton& s = out.skeleton;
  s.name = in.skeleton.name + "_rerooted";
  s.units_to_studs = in.skeleton.units_to_studs;
  s.joint_names.push_back("Root");
  s.parents.push_back(-1);
  s.rest_local.push_back(Transform::identity());
  s.end_sites.emplace_back(0.0f);
  for (size_t j = 0; j < in.skeleton.joint_names.size(); ++j) {
    s.joint_names.push_back(in.skeleton.joint_names[j]);
    s.parents.push_back(in.skeleton.parents[j] < 0 ? 0 : in.skeleton.parents[j] + 1);
    s.rest_local.push_back(in.skeleton.rest_local[j]);
    s.end_sites.push_back(in.skeleton.end_sites[j]);
  }
  out.clip = in.clip;
  out.clip.name += "_rerooted";
  ClipTrack* hips = nullptr;
  for (ClipTrack& t : out.clip.tracks)
    if (t.name == "Hips") hips = &t;
  REQUIRE(hips);
  REQUIRE(hips->rotation_times == hips->translation_times);  // BVH: both channels every frame
  ClipTrack root;
  root.name = "Root";
  root.rotation_times = root.translation_times = hips->rotation_times;
  for (size_t k = 0; k < hips->rotation_times.size(); ++k) {
    const Transform h{hips->rotations[k], hips->translations[k]};
    const Transform r = root_motion(h, hips->rotation_times[k]);
    const Transform local = inverse(r) * h;  // root * local == the original hips
    root.rotations.push_back(r.rotation);
    root.translations.push_back(r.position);
    hips->rotations[k] = glm::normalize(local.rotation);
    hips->translations[k] = local.position;
  }
  out.clip.tracks.insert(out.clip.tracks.begin(), root);
  return out;
}

}  // namespace

TEST_CASE("a root bone above the hips: the pelvis keeps the root's travel", "[retarget][travel]") {
  const Rig rig = build_rig(*builtin_rig_desc("r15")).value();
  const Source original = load_cmu("cmu_131_01_start_walk_stop.bvh");
  const Source rerooted = reroot(original);
  AutoProfileOptions opt;
  opt.auto_scale = true;
  opt.rest_on_ground = true;
  auto p0 = build_auto_profile(original.skeleton, rig, opt);
  auto p1 = build_auto_profile(rerooted.skeleton, rig, opt);
  REQUIRE(p0.ok());
  REQUIRE(p1.ok());
  auto a0 = build_animation_binding(original.clip, rig, &original.skeleton, &p0.value());
  auto a1 = build_animation_binding(rerooted.clip, rig, &rerooted.skeleton, &p1.value());
  REQUIRE(a0.ok());
  REQUIRE(a1.ok());
  REQUIRE(a1.value().mode == AnimationMode::kRetarget);
  // The root bone is unmapped; the pelvis (LowerTorso, driven by Hips) carries the travel.
  const int pelvis = rig.find_joint("LowerTorso").index;
  CHECK(a1.value().retarget->translates[static_cast<size_t>(pelvis)] == 1);
  CHECK(a1.value().retarget->mapped_count() == a0.value().retarget->mapped_count());

  AnimationContext c0 = make_animation_context(a0.value()), c1 = make_animation_context(a1.value());
  const size_t n = static_cast<size_t>(rig.joint_count());
  std::vector<Transform> l0(n), l1(n);
  std::vector<float> v0(n), v1(n);
  float worst_angle = 0.0f, worst_position = 0.0f, travel = 0.0f;
  const ClipTrack& hips = original.clip.tracks[0];
  REQUIRE(hips.name == "Hips");
  for (size_t k = 0; k < hips.rotation_times.size(); k += 7) {
    const float t = hips.rotation_times[k];
    REQUIRE(sample_animation(original.clip, a0.value(), rig, t, WrapMode::kClamp, c0, l0, v0));
    REQUIRE(sample_animation(rerooted.clip, a1.value(), rig, t, WrapMode::kClamp, c1, l1, v1));
    for (size_t j = 0; j < n; ++j) {
      worst_angle = std::max(worst_angle, test::angle_between(l0[j].rotation, l1[j].rotation));
      worst_position = std::max(worst_position, glm::length(l0[j].position - l1[j].position));
      CHECK(v0[j] == v1[j]);
    }
    travel = std::max(travel, glm::length(l1[static_cast<size_t>(pelvis)].position));
  }
  INFO("worst angle " << worst_angle << " rad, worst position " << worst_position << " studs, travel " << travel);
  CHECK(worst_angle < 1e-4f);
  CHECK(worst_position < 1e-3f);  // studs, over a walk of many studs
  CHECK(travel > 3.0f);           // the walk really travels (the old behaviour kept the pelvis still)
}

TEST_CASE("a limb mapped alone never carries travel", "[retarget][travel]") {
  // Only a source root, or a joint below one through unmapped single-child joints, translates.
  const Rig rig = build_rig(*builtin_rig_desc("r15")).value();
  const SourceSkeleton source = test::tpose_source();
  RetargetProfile p;
  p.joints = {{"LeftUpperArm", "LArm"}, {"UpperTorso", "Chest"}};
  auto b = build_retarget_binding(source, rig, p);
  REQUIRE(b.ok());
  for (unsigned char t : b.value().translates) CHECK(t == 0);
  p.joints.push_back({"LowerTorso", "Hips"});
  b = build_retarget_binding(source, rig, p);
  REQUIRE(b.ok());
  CHECK(b.value().translates[static_cast<size_t>(rig.find_joint("LowerTorso").index)] == 1);
  CHECK(b.value().translates[static_cast<size_t>(rig.find_joint("UpperTorso").index)] == 0);
}

namespace {

// builtin:r15 with a root bone between HumanoidRootPart and LowerTorso, the way glTF and FBX
// exports put an "Armature" at the floor: the joint "Armature" places the part Armature on the
// ground under HumanoidRootPart (3 studs below it), and the R15 "Root" motor now hangs from
// Armature with its pivot where it was (2 studs above the floor). Every other part is unchanged.
RigDesc r15_with_root_bone() {
  RigDesc d = *builtin_rig_desc("r15");
  d.name = "R15WithRootBone";
  d.parts.push_back(PartDesc{"Armature", "Armature", glm::vec3(0.4f, 0.2f, 0.4f), std::nullopt});
  bool found = false;
  for (JointDesc& j : d.joints) {
    if (j.part1 != "LowerTorso") continue;
    REQUIRE(j.part0 == "HumanoidRootPart");
    REQUIRE(j.c0.position == glm::vec3(0.0f, -1.0f, 0.0f));
    j.part0 = "Armature";
    j.c0 = Transform::from_position({0.0f, 2.0f, 0.0f});  // floor + 2 = HumanoidRootPart - 1
    found = true;
  }
  REQUIRE(found);
  JointDesc armature;
  armature.name = "Armature";
  armature.part0 = "HumanoidRootPart";
  armature.part1 = "Armature";
  armature.c0 = Transform::from_position({0.0f, -3.0f, 0.0f});
  d.joints.push_back(armature);
  return d;
}

}  // namespace

TEST_CASE("a source root bone mapped onto a target root bone: the pelvis still follows the hips",
          "[retarget][travel]") {
  // The re-rooted CMU walk on a rig that has a root bone of its own, with the profile mapping
  // the source's extra Root bone onto the target's Armature joint (Hips still drives the
  // pelvis). The Armature then takes the Root's turn and travel, and the pelvis's offset from
  // it must be re-expressed through the Armature's animated frame (rules RT6, RT10): every R15
  // part must land where the original clip puts it on plain R15, frame by frame.
  const Rig plain = build_rig(*builtin_rig_desc("r15")).value();
  auto built = build_rig(r15_with_root_bone());
  REQUIRE(built.ok());
  const Rig& boned = built.value();
  REQUIRE(boned.joint_count() == plain.joint_count() + 1);
  const Source original = load_cmu("cmu_131_01_start_walk_stop.bvh");
  const Source rerooted = reroot(original);
  AutoProfileOptions opt;
  opt.auto_scale = true;
  opt.rest_on_ground = true;
  auto p0 = build_auto_profile(original.skeleton, plain, opt);
  auto p1 = build_auto_profile(rerooted.skeleton, boned, opt);
  REQUIRE(p0.ok());
  REQUIRE(p1.ok());
  for (const JointMapping& m : p1.value().joints) REQUIRE(m.target != "Armature");  // no humanoid role
  p1.value().joints.push_back({"Armature", "Root"});
  auto a0 = build_animation_binding(original.clip, plain, &original.skeleton, &p0.value());
  auto a1 = build_animation_binding(rerooted.clip, boned, &rerooted.skeleton, &p1.value());
  REQUIRE(a0.ok());
  REQUIRE(a1.ok());
  REQUIRE(a1.value().mode == AnimationMode::kRetarget);
  const RetargetBinding& b1 = *a1.value().retarget;
  const int armature = boned.find_joint("Armature").index;
  const int pelvis1 = boned.find_joint("LowerTorso").index;
  CHECK(b1.translates[static_cast<size_t>(armature)] == 1);
  CHECK(b1.translates[static_cast<size_t>(pelvis1)] == 1);
  CHECK(b1.mapped_count() == a0.value().retarget->mapped_count() + 1);
  CHECK(b1.scale == Approx(a0.value().retarget->scale).epsilon(1e-6));  // same legs on both rigs

  // Part k of the plain rig is part index_in_boned[k] of the boned one (matched by part name).
  const size_t n0 = static_cast<size_t>(plain.joint_count()), n1 = static_cast<size_t>(boned.joint_count());
  std::vector<size_t> index_in_boned(n0);
  for (size_t j = 0; j < n0; ++j) {
    const JointLookup l = boned.find_joint(plain.part(plain.part1()[j]).name);
    REQUIRE(l.found());
    index_in_boned[j] = static_cast<size_t>(l.index);
  }
  AnimationContext c0 = make_animation_context(a0.value()), c1 = make_animation_context(a1.value());
  std::vector<Transform> l0(n0), w0(n0), l1(n1), w1(n1);
  std::vector<float> v0(n0), v1(n1);
  float worst_hips = 0.0f, worst_part = 0.0f, worst_angle = 0.0f, armature_turn = 0.0f, hips_travel = 0.0f;
  const size_t pelvis0 = static_cast<size_t>(plain.find_joint("LowerTorso").index);
  std::vector<Transform> rest0(n0);
  evaluate_rest_world(plain, Transform::identity(), rest0);
  const glm::vec3 hips_rest = joint_pivot(plain, rest0, static_cast<int>(pelvis0));
  const ClipTrack& hips = original.clip.tracks[0];
  REQUIRE(hips.name == "Hips");
  for (size_t k = 0; k < hips.rotation_times.size(); k += 5) {
    const float t = hips.rotation_times[k];
    REQUIRE(sample_animation(original.clip, a0.value(), plain, t, WrapMode::kClamp, c0, l0, v0));
    REQUIRE(sample_animation(rerooted.clip, a1.value(), boned, t, WrapMode::kClamp, c1, l1, v1));
    REQUIRE(evaluate_world(plain, Transform::identity(), l0, w0));
    REQUIRE(evaluate_world(boned, Transform::identity(), l1, w1));
    const glm::vec3 hips0 = joint_pivot(plain, w0, static_cast<int>(pelvis0));
    const glm::vec3 hips1 = joint_pivot(boned, w1, pelvis1);
    worst_hips = std::max(worst_hips, glm::length(hips0 - hips1));
    for (size_t j = 0; j < n0; ++j) {
      const Transform& a = w0[j];
      const Transform& b = w1[index_in_boned[j]];
      worst_part = std::max(worst_part, glm::length(a.position - b.position));
      worst_angle = std::max(worst_angle, test::angle_between(a.rotation, b.rotation));
    }
    armature_turn = std::max(armature_turn, test::angle_between(w1[static_cast<size_t>(armature)].rotation, glm::quat(1, 0, 0, 0)));
    hips_travel = std::max(hips_travel, glm::length(hips0 - hips_rest));
  }
  INFO("worst hips pivot " << worst_hips << " studs, worst part " << worst_part << " studs, worst angle "
                           << worst_angle << " rad, armature turn " << armature_turn << " rad, hips travel "
                           << hips_travel << " studs");
  // Float noise of the two paths (an extra rotation on the source side, the Armature's frame on
  // the target side) is ~1e-6 of the ~10-stud magnitudes; what is at stake is the hips' bob
  // (tenths of a stud) and the Armature's 2-stud offset and turn.
  CHECK(worst_hips < 1e-3f);
  CHECK(worst_part < 1e-3f);
  CHECK(worst_angle < 1e-4f);
  CHECK(armature_turn > 0.2f);  // the Armature really turns with the source Root (0.3 rad peak)
  CHECK(hips_travel > 3.0f);    // and the walk really travels
}
