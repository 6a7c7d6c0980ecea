// Rig construction: drop reasons, root choice, layout, lookup, signature (rule R2-R7).
#include <catch2/catch.hpp>

#include <algorithm>

#include "asterune/rig/rig.hpp"

using namespace asterune;

namespace {

PartDesc part(const std::string& id, const std::string& name = "") { return {id, name.empty() ? id : name, {1, 1, 1}, {}}; }

JointDesc joint(const std::string& name, const std::string& p0, const std::string& p1, glm::vec3 offset = {0, -1, 0}) {
  return {name, p0, p1, Transform::from_position(offset), Transform::identity(), true};
}

Rig build_ok(const RigDesc& d) {
  auto r = build_rig(d);
  INFO((r.ok() ? std::string() : r.message()));
  REQUIRE(r.ok());
  return std::move(r).value();
}

const DroppedJoint* find_drop(const Rig& rig, const std::string& name) {
  for (const auto& d : rig.dropped())
    if (d.name == name) return &d;
  return nullptr;
}

// A small humanoid-ish tree: Root -> Torso -> {ArmL -> HandL, ArmR -> HandR}, with two "Hand" names.
RigDesc small_desc() {
  RigDesc d;
  d.name = "small";
  d.parts = {part("Root"), part("Torso"), part("ArmL"), part("HandL", "Hand"), part("ArmR"), part("HandR", "Hand")};
  d.joints = {joint("Waist", "Root", "Torso"), joint("ShoulderL", "Torso", "ArmL", {-1, 0, 0}),
              joint("WristL", "ArmL", "HandL"), joint("ShoulderR", "Torso", "ArmR", {1, 0, 0}),
              joint("WristR", "ArmR", "HandR")};
  return d;
}

}  // namespace

TEST_CASE("layout is parents-first with parent indexes of the joint placing part0 (rule R2)") {
  const Rig rig = build_ok(small_desc());
  REQUIRE(rig.joint_count() == 5);
  for (int j = 0; j < rig.joint_count(); ++j) {
    const int p = rig.parent(j);
    CHECK(p < j);
    if (p >= 0) CHECK(rig.part1()[static_cast<size_t>(p)] == rig.part0()[static_cast<size_t>(j)]);
    else CHECK(rig.part0()[static_cast<size_t>(j)] == rig.root_part());
  }
  // Depth-first pre-order: each subtree is one contiguous range.
  const int shoulder_l = rig.find_joint("ArmL").index;
  CHECK(rig.subtree_end(shoulder_l) == shoulder_l + 2);
  CHECK(rig.subtree_end(0) == 5);
}

TEST_CASE("every dropped joint is reported with its name and reason (rule R3)") {
  RigDesc d = small_desc();
  JointDesc disabled = joint("Off", "Torso", "Extra");
  disabled.enabled = false;
  d.parts.push_back(part("Extra"));
  d.parts.push_back(part("C1"));
  d.parts.push_back(part("C2"));
  d.joints.push_back(disabled);
  d.joints.push_back(joint("Ghost", "Torso", "NoSuchPart"));
  d.joints.push_back(joint("Second", "Root", "ArmL"));  // ArmL is already placed by ShoulderL
  d.joints.push_back(joint("LoopA", "C1", "C2"));
  d.joints.push_back(joint("LoopB", "C2", "C1"));
  d.joints.push_back(joint("Self", "Torso", "Torso"));
  const Rig rig = build_ok(d);
  CHECK(rig.joint_count() == 5);
  REQUIRE(rig.dropped().size() == 6);
  CHECK(find_drop(rig, "Off")->reason == DropReason::kDisabled);
  CHECK(find_drop(rig, "Ghost")->reason == DropReason::kMissingPart);
  CHECK_THAT(find_drop(rig, "Ghost")->detail, Catch::Contains("NoSuchPart"));
  CHECK(find_drop(rig, "Second")->reason == DropReason::kDuplicateChild);
  CHECK_THAT(find_drop(rig, "Second")->detail, Catch::Contains("ShoulderL"));
  CHECK(find_drop(rig, "LoopA")->reason == DropReason::kCycle);
  CHECK(find_drop(rig, "LoopB")->reason == DropReason::kCycle);
  CHECK(find_drop(rig, "Self")->reason == DropReason::kSelfJoint);
  CHECK(std::string(to_string(DropReason::kCycle)) == "cycle");
}

TEST_CASE("a joint below a cycle stays as a disconnected joint, not dropped (rule R3, R4)") {
  RigDesc d = small_desc();
  d.parts.push_back(part("C1"));
  d.parts.push_back(part("C2"));
  d.parts.push_back(part("Leaf"));
  d.joints.push_back(joint("LoopA", "C1", "C2"));
  d.joints.push_back(joint("LoopB", "C2", "C1"));
  d.joints.push_back(joint("Hang", "C2", "Leaf"));
  const Rig rig = build_ok(d);
  const JointLookup leaf = rig.find_joint("Leaf");
  REQUIRE(leaf.found());
  CHECK(rig.parent(leaf.index) == -1);
  CHECK_FALSE(rig.connected(leaf.index));
}

TEST_CASE("disconnected joints keep no parent index and sit at their rest placement relative to the root (rule R4)") {
  RigDesc d = small_desc();
  d.parts[0].placement = Transform::from_position({0, 3, 0});
  PartDesc floating = part("Floating");
  floating.placement = Transform{glm::angleAxis(glm::radians(90.0f), glm::vec3(0, 1, 0)), {5, 3, 0}};
  d.parts.push_back(floating);
  d.parts.push_back(part("Orbiter"));
  d.joints.push_back(joint("Orbit", "Floating", "Orbiter", {0, 0, -2}));
  const Rig rig = build_ok(d);
  const JointLookup orbit = rig.find_joint("Orbiter");
  REQUIRE(orbit.found());
  CHECK(rig.parent(orbit.index) == -1);
  CHECK_FALSE(rig.connected(orbit.index));
  CHECK(rig.connected(0));
  // anchor = inverse(root rest) * part0 rest = translate (5, 0, 0), rotate 90 deg about Y.
  const Transform a = rig.anchor()[static_cast<size_t>(orbit.index)];
  CHECK(a.position.x == Approx(5.0f));
  CHECK(a.position.y == Approx(0.0f).margin(1e-6));
}

TEST_CASE("root choice is deterministic: most joints reachable, HumanoidRootPart wins ties (rule R5)") {
  RigDesc d;
  d.parts = {part("A"), part("B"), part("HumanoidRootPart"), part("C"), part("D"), part("E")};
  d.joints = {joint("j1", "A", "B"), joint("j2", "HumanoidRootPart", "C"), joint("j3", "D", "E")};
  // Three candidate roots reach one joint each: HumanoidRootPart wins the tie.
  CHECK(build_ok(d).part(build_ok(d).root_part()).name == "HumanoidRootPart");
  // A part that reaches more joints beats the name.
  d.parts.push_back(part("F"));
  d.joints.push_back(joint("j4", "B", "F"));
  CHECK(build_ok(d).part(build_ok(d).root_part()).id == "A");
  // Ties without HumanoidRootPart go to the earliest part in the description.
  RigDesc e;
  e.parts = {part("X"), part("Y"), part("P"), part("Q")};
  e.joints = {joint("a", "P", "Q"), joint("b", "X", "Y")};
  CHECK(build_ok(e).part(build_ok(e).root_part()).id == "X");
  // A named root is obeyed.
  d.root = "D";
  const Rig named = build_ok(d);
  CHECK(named.part(named.root_part()).id == "D");
  CHECK_FALSE(named.connected(named.find_joint("B").index));
}

TEST_CASE("a named root that is missing or placed by a joint fails with the reason (rule R5, RG3)") {
  RigDesc d = small_desc();
  d.root = "Nope";
  auto missing = build_rig(d);
  REQUIRE_FALSE(missing.ok());
  CHECK_THAT(missing.message(), Catch::Contains("'Nope' is not a part"));
  d.root = "Torso";
  auto child = build_rig(d);
  REQUIRE_FALSE(child.ok());
  CHECK_THAT(child.message(), Catch::Contains("child of joint 'Waist'"));
}

TEST_CASE("name lookup refuses ambiguous child names; parent-qualified names resolve (rule R6)") {
  const Rig rig = build_ok(small_desc());
  const JointLookup plain = rig.find_joint("Hand");
  CHECK(plain.status == LookupStatus::kAmbiguous);
  CHECK(plain.index == -1);
  CHECK_THAT(plain.message, Catch::Contains("ArmL/Hand") && Catch::Contains("ArmR/Hand"));
  const JointLookup left = rig.find_joint("ArmL/Hand");
  const JointLookup right = rig.find_joint("ArmR/Hand");
  REQUIRE(left.found());
  REQUIRE(right.found());
  CHECK(rig.joint_name(left.index) == "WristL");
  CHECK(rig.joint_name(right.index) == "WristR");
  CHECK(rig.find_joint("ArmL").found());
  CHECK(rig.find_joint("Torso/ArmL").found());
  CHECK(rig.find_joint("Nothing").status == LookupStatus::kNotFound);
  CHECK(rig.find_joint("ArmR/ArmL").status == LookupStatus::kNotFound);
  CHECK(rig.find_joint_by_joint_name("WristR").index == right.index);
}

TEST_CASE("the layout signature changes with names, parents, frames and part sizes, and nothing else (rules R7, R9)") {
  const RigDesc base = small_desc();
  const std::uint64_t s0 = build_ok(base).signature();
  CHECK(build_ok(base).signature() == s0);  // stable across builds

  RigDesc placed = base;  // rest placements are not part of the layout
  placed.parts[2].placement = Transform::from_position({9, 9, 9});
  CHECK(build_ok(placed).signature() == s0);
  RigDesc sizes = base;  // rule R9: part sizes are (the retarget reads them)
  sizes.parts[2].size = {3, 3, 3};
  CHECK(build_ok(sizes).signature() != s0);

  RigDesc renamed = base;
  renamed.joints[2].name = "WristLeft";
  CHECK(build_ok(renamed).signature() != s0);

  RigDesc renamed_part = base;
  renamed_part.parts[3].name = "LeftHand";
  CHECK(build_ok(renamed_part).signature() != s0);

  RigDesc reparented = base;  // same joint count, different structure
  reparented.joints[3].part0 = "Root";
  CHECK(build_ok(reparented).signature() != s0);

  RigDesc moved = base;
  moved.joints[1].c0.position.x += 0.01f;
  CHECK(build_ok(moved).signature() != s0);

  RigDesc turned = base;
  turned.joints[4].c1.rotation = glm::angleAxis(glm::radians(5.0f), glm::vec3(0, 0, 1));
  CHECK(build_ok(turned).signature() != s0);

  RigDesc negated = base;  // -q is the same rotation
  negated.joints[4].c1.rotation = -negated.joints[4].c1.rotation;
  CHECK(build_ok(negated).signature() == s0);
}

TEST_CASE("impossible rigs fail at build with a message naming the item (rule RG3)") {
  RigDesc empty;
  empty.name = "nothing";
  auto e = build_rig(empty);
  REQUIRE_FALSE(e.ok());
  CHECK_THAT(e.message(), Catch::Contains("no parts"));

  RigDesc dup = small_desc();
  dup.parts.push_back(part("Torso"));
  auto d = build_rig(dup);
  REQUIRE_FALSE(d.ok());
  CHECK_THAT(d.message(), Catch::Contains("duplicate part id 'Torso'"));

  RigDesc bad_frame = small_desc();
  bad_frame.joints[1].c0.position.y = std::numeric_limits<float>::quiet_NaN();
  auto b = build_rig(bad_frame);
  REQUIRE_FALSE(b.ok());
  CHECK_THAT(b.message(), Catch::Contains("ShoulderL") && Catch::Contains("nonfinite"));
}
