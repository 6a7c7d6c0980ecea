// asterune.rig/1 and asterune.pose/1: both placement forms, defaults, the writer's round trip
// and every bad-input case (rule RG3: each a specific message and a failed load).
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "asterune/documents/pose_file.hpp"
#include "asterune/documents/rig_file.hpp"
#include "asterune/documents/rig_loader.hpp"
#include "asterune/formats/roblox.hpp"
#include "asterune/rig/builtin.hpp"
#include "support/reference_data.hpp"
#include "support/temp_dir.hpp"

using namespace asterune;
using Catch::Matchers::Contains;

namespace {

const char* kGoodRig = R"({
  "format": "asterune.rig/1",
  "name": "Mini",
  "root": "Base",
  "parts": [
    {"name": "Base", "size": [2, 2, 1], "placement": {"position": [0, 3, 0]}},
    {"name": "Arm", "size": [1, 2, 1]},
    {"id": "LHand", "name": "Hand"},
    {"id": "RHand", "name": "Hand"}
  ],
  "joints": [
    {"name": "Shoulder", "part0": "Base", "part1": "Arm",
     "c0": {"cframe": [1, 0.5, 0, 0, 0, 1, 0, 1, 0, -1, 0, 0]}, "c1": {"position": [-0.5, 0.5, 0]}},
    {"name": "LWrist", "part0": "Arm", "part1": "LHand",
     "c0": {"position": [0, -1, 0], "rotation": [2, 0, 0, 0]}},
    {"name": "RWrist", "part0": "Base", "part1": "RHand", "c1": {}, "enabled": false}
  ],
  "roles": {"hips": "Base"}
})";

std::string rig_with_joint(const std::string& joint) {
  return R"({"format": "asterune.rig/1", "parts": [{"name": "A"}, {"name": "B"}], "joints": [)" + joint + "]}";
}

std::string load_error(const std::string& text) {
  Result<RigDesc> r = io::parse_rig_json(text, "bad.rig.json");
  REQUIRE_FALSE(r);
  return r.message();
}

bool same(const Transform& a, const Transform& b) {
  return a.position == b.position && a.rotation == b.rotation;
}

}  // namespace

TEST_CASE("asterune.rig/1 reads both placement forms, id defaults and optional keys") {
  Result<RigDesc> r = io::parse_rig_json(kGoodRig, "good.rig.json");
  REQUIRE(r);
  const RigDesc& d = r.value();
  CHECK(d.name == "Mini");
  CHECK(d.root == "Base");
  REQUIRE(d.parts.size() == 4);
  CHECK(d.parts[0].id == "Base");  // id defaults to name
  CHECK(d.parts[2].id == "LHand");
  CHECK(d.parts[2].name == "Hand");
  CHECK(d.parts[1].size == glm::vec3(1, 2, 1));
  CHECK(d.parts[2].size == glm::vec3(0));  // size optional
  REQUIRE(d.parts[0].placement);
  CHECK(d.parts[0].placement->position == glm::vec3(0, 3, 0));
  CHECK_FALSE(d.parts[1].placement);
  REQUIRE(d.joints.size() == 3);
  // cframe form: columns are the local axes. Column X = (R00, R10, R20) = (0, 0, -1).
  const Transform& c0 = d.joints[0].c0;
  CHECK(c0.position == glm::vec3(1, 0.5f, 0));
  const glm::vec3 x = c0.rotation * glm::vec3(1, 0, 0);
  const glm::vec3 z = c0.rotation * glm::vec3(0, 0, 1);
  CHECK(x.z == Approx(-1.0f).margin(1e-6));
  CHECK(z.x == Approx(1.0f).margin(1e-6));
  // position/rotation form: rotation normalized; missing rotation = identity.
  CHECK(d.joints[1].c0.rotation.w == Approx(1.0f));
  CHECK(d.joints[0].c1.rotation == glm::quat(1, 0, 0, 0));
  CHECK(d.joints[1].c1.position == glm::vec3(0));  // missing c1 = identity
  CHECK(d.joints[0].enabled);
  CHECK_FALSE(d.joints[2].enabled);
  CHECK(d.roles.at("hips") == "Base");
}

TEST_CASE("a rig file without root or name: root is chosen by build_rig, name from the file") {
  const test::TempDir tmp("rig_file_test");
  const auto dir = tmp.path();
  std::filesystem::create_directories(dir);
  const auto path = dir / "tiny.rig.json";
  {
    std::ofstream(path) << R"({"format": "asterune.rig/1", "parts": [{"name": "A"}, {"name": "B"}],
      "joints": [{"name": "J", "part0": "A", "part1": "B"}]})";
  }
  Result<RigDesc> d = io::read_rig_file(path);
  REQUIRE(d);
  CHECK(d.value().name == "tiny");
  CHECK(d.value().root.empty());
  Result<Rig> rig = io::load_rig(path.string());
  REQUIRE(rig);
  CHECK(rig.value().part(rig.value().root_part()).name == "A");
}

TEST_CASE("the rig writer round-trips exactly") {
  SECTION("built-in R15") {
    const RigDesc in = *builtin_rig_desc("r15");
    Result<RigDesc> out = io::parse_rig_json(io::write_rig_json(in), "roundtrip");
    REQUIRE(out);
    REQUIRE(out.value().parts.size() == in.parts.size());
    for (size_t i = 0; i < in.parts.size(); ++i) {
      CHECK(out.value().parts[i].id == in.parts[i].id);
      CHECK(out.value().parts[i].size == in.parts[i].size);
      REQUIRE(out.value().parts[i].placement);
      CHECK(same(*out.value().parts[i].placement, *in.parts[i].placement));
    }
    CHECK(out.value().root == in.root);
    CHECK(out.value().name == in.name);
  }
  SECTION("ids, disabled joints, roles, rotated frames (R6 and the hand-written rig)") {
    for (const RigDesc& in : {*builtin_rig_desc("r6"), io::parse_rig_json(kGoodRig, "good").value()}) {
      Result<RigDesc> out = io::parse_rig_json(io::write_rig_json(in), "roundtrip");
      REQUIRE(out);
      const RigDesc& o = out.value();
      CHECK(o.roles == in.roles);
      REQUIRE(o.parts.size() == in.parts.size());
      for (size_t i = 0; i < in.parts.size(); ++i) {
        CHECK(o.parts[i].id == in.parts[i].id);
        CHECK(o.parts[i].name == in.parts[i].name);
        CHECK(o.parts[i].placement.has_value() == in.parts[i].placement.has_value());
      }
      REQUIRE(o.joints.size() == in.joints.size());
      for (size_t i = 0; i < in.joints.size(); ++i) {
        CHECK(o.joints[i].name == in.joints[i].name);
        CHECK(o.joints[i].part0 == in.joints[i].part0);
        CHECK(o.joints[i].part1 == in.joints[i].part1);
        CHECK(o.joints[i].enabled == in.joints[i].enabled);
        CHECK(same(o.joints[i].c0, in.joints[i].c0));
        CHECK(same(o.joints[i].c1, in.joints[i].c1));
      }
      // Same layout signature after the round trip.
      CHECK(build_rig(o).value().signature() == build_rig(in).value().signature());
    }
  }
  SECTION("write_rig_file + read_rig_file") {
    const test::TempDir tmp("rig_roundtrip");
    const auto path = tmp / "roundtrip.rig.json";
    REQUIRE(io::write_rig_file(*builtin_rig_desc("r6"), path));
    Result<RigDesc> back = io::read_rig_file(path);
    REQUIRE(back);
    CHECK(back.value().joints.size() == 6);
    CHECK_FALSE(io::write_rig_file(*builtin_rig_desc("r6"), "/nonexistent-dir/x.rig.json"));
  }
}

TEST_CASE("bad rig files fail whole with the file, the JSON path and the reason") {
  SECTION("truncated JSON") {
    const std::string m = load_error(R"({"format": "asterune.rig/1", "parts": [{"name": "A"})");
    CHECK_THAT(m, Contains("bad.rig.json: line 1, column") && Contains("invalid JSON"));
  }
  SECTION("truncated on a later line") {
    const std::string m = load_error("{\n\"format\": \"asterune.rig/1\",\n\"parts\": [\n");
    CHECK_THAT(m, Contains("line 4") && Contains("invalid JSON"));
  }
  SECTION("wrong format tag") {
    const std::string m = load_error(R"({"format": "asterune.rig/2", "parts": [{"name": "A"}]})");
    CHECK_THAT(m, Contains("bad.rig.json: /format: unsupported format 'asterune.rig/2'"));
  }
  SECTION("missing format tag") {
    CHECK_THAT(load_error(R"({"parts": [{"name": "A"}]})"), Contains("missing required key 'format'"));
  }
  SECTION("unknown part reference") {
    const std::string m = load_error(rig_with_joint(R"({"name": "J", "part0": "A", "part1": "Nope"})"));
    CHECK_THAT(m, Contains("bad.rig.json: /joints/0/part1: unknown part 'Nope'"));
  }
  SECTION("non-rotation matrix") {
    const std::string m = load_error(
        rig_with_joint(R"({"name": "J", "part0": "A", "part1": "B", "c0": {"cframe": [0,0,0, 2,0,0, 0,1,0, 0,0,1]}})"));
    CHECK_THAT(m, Contains("bad.rig.json: /joints/0/c0/cframe: not a valid CFrame"));
  }
  SECTION("reflection is not a rotation") {
    const std::string m = load_error(
        rig_with_joint(R"({"name": "J", "part0": "A", "part1": "B", "c1": {"cframe": [0,0,0, -1,0,0, 0,1,0, 0,0,1]}})"));
    CHECK_THAT(m, Contains("/joints/0/c1/cframe: not a valid CFrame"));
  }
  SECTION("NaN-like value in a CFrame (JSON has no NaN: an overflowing number)") {
    const std::string m = load_error(
        rig_with_joint(R"({"name": "J", "part0": "A", "part1": "B", "c0": {"cframe": [0,1e39,0, 1,0,0, 0,1,0, 0,0,1]}})"));
    CHECK_THAT(m, Contains("/joints/0/c0/cframe/1: number is not finite"));
  }
  SECTION("a number beyond double range") {
    const std::string m = load_error(
        rig_with_joint(R"({"name": "J", "part0": "A", "part1": "B", "c0": {"cframe": [0,1e999,0, 1,0,0, 0,1,0, 0,0,1]}})"));
    CHECK_THAT(m, Contains("bad.rig.json: invalid JSON: number overflow"));
  }
  SECTION("a NaN token is a JSON syntax error") {
    const std::string m = load_error(
        rig_with_joint(R"({"name": "J", "part0": "A", "part1": "B", "c0": {"cframe": [0,NaN,0, 1,0,0, 0,1,0, 0,0,1]}})"));
    CHECK_THAT(m, Contains("invalid JSON"));
  }
  SECTION("zero quaternion") {
    const std::string m =
        load_error(rig_with_joint(R"({"name": "J", "part0": "A", "part1": "B", "c0": {"rotation": [0,0,0,0]}})"));
    CHECK_THAT(m, Contains("/joints/0/c0/rotation: rotation quaternion [w, x, y, z] has zero length"));
  }
  SECTION("duplicate ids") {
    const std::string m =
        load_error(R"({"format": "asterune.rig/1", "parts": [{"name": "A"}, {"id": "A", "name": "B"}]})");
    CHECK_THAT(m, Contains("bad.rig.json: /parts/1/id: duplicate part id 'A' (already used by /parts/0)"));
  }
  SECTION("duplicate names without ids are duplicate ids") {
    const std::string m = load_error(R"({"format": "asterune.rig/1", "parts": [{"name": "A"}, {"name": "A"}]})");
    CHECK_THAT(m, Contains("/parts/1/name: duplicate part id 'A'"));
  }
  SECTION("empty rig") {
    CHECK_THAT(load_error(R"({"format": "asterune.rig/1", "parts": []})"),
               Contains("bad.rig.json: /parts: the rig has no parts (empty rig)"));
  }
  SECTION("unknown key (a typo) is not ignored") {
    const std::string m = load_error(
        rig_with_joint(R"({"name": "J", "part0": "A", "part1": "B", "c0": {"positon": [0, 1, 0]}})"));
    CHECK_THAT(m, Contains("/joints/0/c0/positon: unknown key 'positon'"));
  }
  SECTION("both placement forms at once") {
    const std::string m = load_error(rig_with_joint(
        R"({"name": "J", "part0": "A", "part1": "B", "c0": {"position": [0,1,0], "cframe": [0,0,0, 1,0,0, 0,1,0, 0,0,1]}})"));
    CHECK_THAT(m, Contains("/joints/0/c0: give either 'cframe' or 'position'/'rotation'"));
  }
  SECTION("wrong types and sizes") {
    CHECK_THAT(load_error(R"({"format": "asterune.rig/1", "parts": [{"name": "A", "size": [1, 2]}]})"),
               Contains("/parts/0/size: expected 3 numbers, found 2"));
    CHECK_THAT(load_error(R"({"format": "asterune.rig/1", "parts": [{"name": 3}]})"),
               Contains("/parts/0/name: expected a string, found a number"));
    CHECK_THAT(load_error(R"({"format": "asterune.rig/1", "parts": {}})"), Contains("/parts: expected an array"));
    CHECK_THAT(load_error(R"([1, 2])"), Contains("bad.rig.json: /: expected an object"));
  }
  SECTION("root must be a part") {
    CHECK_THAT(load_error(R"({"format": "asterune.rig/1", "root": "X", "parts": [{"name": "A"}]})"),
               Contains("/root: unknown part 'X'"));
  }
  SECTION("missing file") {
    Result<RigDesc> r = io::read_rig_file("/nonexistent/hero.rig.json");
    REQUIRE_FALSE(r);
    CHECK_THAT(r.message(), Contains("/nonexistent/hero.rig.json: cannot open file"));
  }
}

TEST_CASE("the rig loader accepts built-in names, rig files, Roblox JSON and .rbxmx") {
  CHECK(io::load_rig("builtin:r15").value().joint_count() == 15);
  CHECK(io::load_rig("builtin:r6").value().joint_count() == 6);
  Result<Rig> bad = io::load_rig("builtin:r16");
  REQUIRE_FALSE(bad);
  CHECK_THAT(bad.message(), Contains("unknown built-in rig 'builtin:r16' (built-in rigs: builtin:r15, builtin:r6)"));
  CHECK(io::load_rig(test::data_path("roblox/r6_block_rig.json")).value().joint_count() == 6);
  CHECK(io::load_rig(test::data_path("roblox/ccdik_DummyR6.rbxmx")).value().joint_count() == 6);
  Result<Rig> missing = io::load_rig("/nonexistent/model.rbxmx");
  REQUIRE_FALSE(missing);
  CHECK_THAT(missing.message(), Contains("/nonexistent/model.rbxmx: cannot open file"));
}

TEST_CASE("bad .rbxmx models fail with the file, the item and the reason") {
  const std::string motor_head =
      R"(<roblox version="4"><Item class="Model" referent="M"><Properties><string name="Name">M</string></Properties>
      <Item class="Part" referent="RA"><Properties><string name="Name">A</string>
        <CoordinateFrame name="CFrame"><X>0</X><Y>0</Y><Z>0</Z><R00>1</R00><R01>0</R01><R02>0</R02><R10>0</R10><R11>1</R11><R12>0</R12><R20>0</R20><R21>0</R21><R22>1</R22></CoordinateFrame>
        <Vector3 name="size"><X>1</X><Y>1</Y><Z>1</Z></Vector3></Properties>
        <Item class="Motor6D" referent="J1"><Properties><string name="Name">Joint</string>
          <Ref name="Part0">RA</Ref><Ref name="Part1">RB</Ref>
          <CoordinateFrame name="C0"><X>0</X><Y>0</Y><Z>0</Z><R00>1</R00><R01>0</R01><R02>0</R02><R10>0</R10><R11>1</R11><R12>0</R12><R20>0</R20><R21>0</R21><R22>1</R22></CoordinateFrame>
          <CoordinateFrame name="C1"><X>0</X><Y>C1Y</Y><Z>0</Z><R00>1</R00><R01>0</R01><R02>0</R02><R10>0</R10><R11>1</R11><R12>0</R12><R20>0</R20><R21>0</R21><R22>C1R22</R22></CoordinateFrame>
        </Properties></Item></Item>
      <Item class="Part" referent="RB"><Properties><string name="Name">B</string>
        <CoordinateFrame name="CFrame"><X>0</X><Y>-1</Y><Z>0</Z><R00>1</R00><R01>0</R01><R02>0</R02><R10>0</R10><R11>1</R11><R12>0</R12><R20>0</R20><R21>0</R21><R22>1</R22></CoordinateFrame>
      </Properties></Item></Item></roblox>)";
  auto with = [&](const std::string& y, const std::string& r22) {
    std::string s = motor_head;
    s.replace(s.find("C1Y"), 3, y);
    s.replace(s.find("C1R22"), 5, r22);
    return s;
  };
  SECTION("a good model imports") {
    Result<RigDesc> r = io::parse_rbxmx(with("1", "1"), "m.rbxmx");
    REQUIRE(r);
    CHECK(r.value().name == "M");
    REQUIRE(r.value().joints.size() == 1);
    CHECK(r.value().joints[0].part0 == "A");
    CHECK(r.value().joints[0].part1 == "B");
    CHECK(r.value().joints[0].c1.position.y == 1.0f);
  }
  SECTION("NaN in a CFrame") {
    Result<RigDesc> r = io::parse_rbxmx(with("NAN", "1"), "m.rbxmx");
    REQUIRE_FALSE(r);
    CHECK_THAT(r.message(), Contains("m.rbxmx: Motor6D 'Joint' (referent J1) C1: not a valid CFrame"));
  }
  SECTION("non-rotation matrix") {
    Result<RigDesc> r = io::parse_rbxmx(with("0", "3"), "m.rbxmx");
    REQUIRE_FALSE(r);
    CHECK_THAT(r.message(), Contains("Motor6D 'Joint' (referent J1) C1: not a valid CFrame"));
  }
  SECTION("not a number") {
    Result<RigDesc> r = io::parse_rbxmx(with("abc", "1"), "m.rbxmx");
    REQUIRE_FALSE(r);
    CHECK_THAT(r.message(), Contains("C1.Y: not a number: 'abc'"));
  }
  SECTION("truncated XML") {
    const std::string s = with("1", "1");
    Result<RigDesc> r = io::parse_rbxmx(s.substr(0, s.size() / 2), "m.rbxmx");
    REQUIRE_FALSE(r);
    CHECK_THAT(r.message(), Contains("m.rbxmx: line") && Contains("invalid XML"));
  }
  SECTION("empty rig") {
    Result<RigDesc> r = io::parse_rbxmx(R"(<roblox version="4"><Item class="Model" referent="M"/></roblox>)", "m.rbxmx");
    REQUIRE_FALSE(r);
    CHECK_THAT(r.message(), Contains("m.rbxmx: no parts"));
  }
  SECTION("unknown part reference: kept, then dropped by build_rig as a missing part (rule R3)") {
    std::string s = with("1", "1");
    s.replace(s.find(">RB</Ref>"), 9, ">RBX404</Ref>");
    Result<RigDesc> r = io::parse_rbxmx(s, "m.rbxmx");
    REQUIRE(r);
    Result<Rig> rig = build_rig(r.value());
    REQUIRE(rig);
    REQUIRE(rig.value().dropped().size() == 1);
    CHECK(rig.value().dropped()[0].reason == DropReason::kMissingPart);
  }
  SECTION("duplicate part names get their referents as ids") {
    std::string s = with("1", "1");
    s.replace(s.find(">B</string>"), 11, ">A</string>");
    Result<RigDesc> r = io::parse_rbxmx(s, "m.rbxmx");
    REQUIRE(r);
    CHECK(r.value().parts[0].id == "RA");
    CHECK(r.value().parts[1].id == "RB");
    CHECK(r.value().joints[0].part1 == "RB");
  }
}

TEST_CASE("asterune.pose/1: names, qualified names, coverage") {
  Rig rig = build_rig(io::parse_rig_json(kGoodRig, "good").value()).value();
  SECTION("listed joints get T and coverage 1, others identity and 0") {
    Result<Pose> p = io::parse_pose_json(
        R"({"format": "asterune.pose/1", "joints": {"Arm": {"rotation": [0.7071068, 0.7071068, 0, 0]},
            "Arm/Hand": {"cframe": [0,1,0, 1,0,0, 0,1,0, 0,0,1]}}})",
        rig, "p.pose.json");
    REQUIRE(p);
    const int arm = rig.find_joint("Arm").index;
    const int hand = rig.find_joint("Arm/Hand").index;
    CHECK(p.value().coverage[static_cast<size_t>(arm)] == 1.0f);
    CHECK(p.value().local[static_cast<size_t>(arm)].rotation.x == Approx(0.7071068f));
    CHECK(p.value().coverage[static_cast<size_t>(hand)] == 1.0f);
    CHECK(p.value().local[static_cast<size_t>(hand)].position == glm::vec3(0, 1, 0));
    for (int j = 0; j < rig.joint_count(); ++j) {
      if (j == arm || j == hand) continue;
      CHECK(p.value().coverage[static_cast<size_t>(j)] == 0.0f);
      CHECK(p.value().local[static_cast<size_t>(j)].rotation == glm::quat(1, 0, 0, 0));
    }
  }
  SECTION("errors") {
    auto err = [&](const std::string& text) {
      Result<Pose> p = io::parse_pose_json(text, rig, "p.pose.json");
      REQUIRE_FALSE(p);
      return p.message();
    };
    CHECK_THAT(err(R"({"format": "asterune.pose/1", "joints": {"Tail": {}}})"),
               Contains("p.pose.json: /joints/Tail: no joint has a child part named 'Tail'"));
    CHECK_THAT(err(R"({"format": "asterune.rig/1", "joints": {}})"), Contains("/format: unsupported format"));
    CHECK_THAT(err(R"({"format": "asterune.pose/1", "joints": {"Arm": {"rotation": [0, 0, 0, 0]}}})"),
               Contains("/joints/Arm/rotation: rotation quaternion"));
    CHECK_THAT(err(R"({"format": "asterune.pose/1", "joints": {"Arm": {}, "Base/Arm": {}}})"),
               Contains("/joints/Base~1Arm: joint 'Shoulder' is already set by /joints/Arm"));
    CHECK_THAT(err(R"({"format": "asterune.pose/1", "joints": )"), Contains("invalid JSON"));
  }
  SECTION("ambiguous names are refused; qualified names work (rule R6)") {
    RigDesc d = io::parse_rig_json(kGoodRig, "good").value();
    d.joints[2].enabled = true;  // now two joints place a part named "Hand"
    Rig two = build_rig(d).value();
    Result<Pose> p = io::parse_pose_json(R"({"format": "asterune.pose/1", "joints": {"Hand": {}}})", two, "p");
    REQUIRE_FALSE(p);
    CHECK_THAT(p.message(), Contains("p: /joints/Hand:"));
    CHECK(io::parse_pose_json(R"({"format": "asterune.pose/1", "joints": {"Base/Hand": {}}})", two, "p"));
  }
}

TEST_CASE("every truncation of a rig file, a pose file and a .rbxmx fails cleanly (rule RG3)") {
  const std::string rig_text = kGoodRig;
  for (size_t n = 0; n < rig_text.size(); ++n) {
    Result<RigDesc> r = io::parse_rig_json(rig_text.substr(0, n), "cut.rig.json");
    REQUIRE_FALSE(r);
    CHECK_THAT(r.message(), Contains("cut.rig.json: "));
  }
  Rig rig = build_rig(io::parse_rig_json(kGoodRig, "good").value()).value();
  const std::string pose_text = R"({"format": "asterune.pose/1", "joints": {"Arm": {"rotation": [1, 0, 0, 0]}}})";
  for (size_t n = 0; n < pose_text.size(); ++n) CHECK_FALSE(io::parse_pose_json(pose_text.substr(0, n), rig, "cut"));

  std::ifstream in(test::data_path("roblox/ccdik_DummyR6.rbxmx"));
  const std::string xml((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  REQUIRE(xml.size() > 1000);
  for (size_t n = 0; n < xml.size(); n += 61) {
    Result<RigDesc> r = io::parse_rbxmx(std::string_view(xml).substr(0, n), "cut.rbxmx");
    // A prefix may still be well-formed up to a complete item; either way it never crashes and
    // any result it gives builds (or fails to build) without crashing.
    if (r) (void)build_rig(r.value());
    else CHECK_THAT(r.message(), Contains("cut.rbxmx"));
  }
}
