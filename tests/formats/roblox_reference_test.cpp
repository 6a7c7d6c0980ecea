// Reference poses: world evaluation of every Roblox rig in tests/data/roblox (rest pose,
// T = identity, root at the saved root CFrame) must reproduce every part CFrame Roblox Studio
// saved (the *.joints.json files, read here with nlohmann directly). rule R1, R2.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>

#include "asterune/documents/rig_file.hpp"
#include "asterune/documents/rig_loader.hpp"
#include "asterune/formats/roblox.hpp"
#include "asterune/rig/world.hpp"
#include "asterune/math/cframe.hpp"
#include "support/reference_data.hpp"

using namespace asterune;
using asterune::test::data_path;
using asterune::test::load_json;
using asterune::test::saved_cframe;

namespace {

struct Errors {
  double position = 0.0;
  double axis = 0.0;
};

// Places the rig with its root part at the saved CFrame and compares every other part.
Errors compare_with_saved(const Rig& rig, const nlohmann::json& saved_parts) {
  const std::string root_name = rig.part(rig.root_part()).name;
  REQUIRE(root_name == "HumanoidRootPart");
  const auto rc = saved_parts[root_name]["CFrame"];
  CFrameComponents c{};
  for (size_t i = 0; i < 12; ++i) c[i] = rc[i].get<float>();
  Result<Transform> root = from_cframe(c);
  REQUIRE(root);

  std::vector<Transform> world(static_cast<size_t>(rig.joint_count()));
  evaluate_rest_world(rig, root.value(), world);
  Errors err;
  REQUIRE(static_cast<size_t>(rig.joint_count()) + 1 == saved_parts.size());
  for (int j = 0; j < rig.joint_count(); ++j) {
    const std::string& name = rig.child_name(j);
    REQUIRE(saved_parts.contains(name));
    const auto expected = saved_cframe(saved_parts[name]["CFrame"]);
    const Transform& w = world[static_cast<size_t>(j)];
    err.position = std::max(err.position, glm::length(glm::dvec3(w.position) - expected.position));
    for (int a = 0; a < 3; ++a) {
      glm::vec3 unit(0.0f);
      unit[a] = 1.0f;
      err.axis = std::max(err.axis, glm::length(glm::dvec3(w.rotation * unit) - expected.axis[a]));
    }
  }
  return err;
}

struct Case {
  const char* stem;
  double tolerance;
};

constexpr Case kCases[] = {
    {"ccdik_Dummy", 1e-3},  // x4.32 scaled: positions up to ~100 studs from the origin
    {"ccdik_DummyWithConstraints", 1e-3},
    {"ccdik_DummyR6", 1e-4},
    {"ccdik_HumanMale_Model", 1e-4},
};

}  // namespace

TEST_CASE("every shared Roblox rig imported from .rbxmx reproduces the saved part CFrames") {
  for (const Case& c : kCases) {
    INFO(c.stem);
    const nlohmann::json saved = load_json(data_path(std::string("roblox/") + c.stem + ".joints.json"));
    Result<Rig> rig = io::load_rig(data_path(std::string("roblox/") + c.stem + ".rbxmx"));
    REQUIRE(rig);
    CHECK(rig.value().dropped().empty());
    CHECK(rig.value().joint_count() == static_cast<int>(saved["joints"].size()));
    const Errors e = compare_with_saved(rig.value(), saved["parts"]);
    char figures[256];  // measured figures, shown when a check below fails
    std::snprintf(figures, sizeof figures, "[reference] %-28s .rbxmx       max position error %.3g studs, max axis error %.3g", c.stem,
                  e.position, e.axis);
    INFO(figures);
    CHECK(e.position <= c.tolerance);
    CHECK(e.axis <= 1e-4);
  }
}

TEST_CASE("every shared Roblox rig read from its .joints.json reproduces the saved part CFrames") {
  for (const Case& c : kCases) {
    INFO(c.stem);
    const std::string path = data_path(std::string("roblox/") + c.stem + ".joints.json");
    const nlohmann::json saved = load_json(path);
    Result<Rig> rig = io::load_rig(path);
    REQUIRE(rig);
    CHECK(rig.value().dropped().empty());
    const Errors e = compare_with_saved(rig.value(), saved["parts"]);
    char figures[256];  // measured figures, shown when a check below fails
    std::snprintf(figures, sizeof figures, "[reference] %-28s .joints.json max position error %.3g studs, max axis error %.3g", c.stem,
                  e.position, e.axis);
    INFO(figures);
    CHECK(e.position <= c.tolerance);
    CHECK(e.axis <= 1e-4);
  }
}

TEST_CASE(".rbxmx import reads motors, C0/C1, sizes and names as saved") {
  Result<RigDesc> desc = io::read_rbxmx_file(data_path("roblox/ccdik_DummyR6.rbxmx"));
  REQUIRE(desc);
  CHECK(desc.value().name == "DummyR6");
  CHECK(desc.value().parts.size() == 7);
  CHECK(desc.value().joints.size() == 6);
  const nlohmann::json saved = load_json(data_path("roblox/ccdik_DummyR6.joints.json"));
  for (const auto& sj : saved["joints"]) {
    const JointDesc* found = nullptr;
    for (const JointDesc& j : desc.value().joints)
      if (j.name == sj["name"].get<std::string>()) found = &j;
    REQUIRE(found);
    INFO(found->name);
    CHECK(found->part0 == sj["Part0"].get<std::string>());
    CHECK(found->part1 == sj["Part1"].get<std::string>());
    const CFrameComponents c0 = to_cframe(found->c0), c1 = to_cframe(found->c1);
    for (size_t k = 0; k < 12; ++k) {
      CHECK(c0[k] == Approx(sj["C0"][k].get<double>()).margin(1e-5));
      CHECK(c1[k] == Approx(sj["C1"][k].get<double>()).margin(1e-5));
    }
  }
  for (const PartDesc& p : desc.value().parts) {
    INFO(p.name);
    const auto& size = saved["parts"][p.name]["size"];
    for (size_t i = 0; i < 3; ++i) CHECK(p.size[static_cast<int>(i)] == Approx(size[i].get<double>()));
  }
}

TEST_CASE("DummyWithConstraints imports all 15 Motor6Ds and ignores its disabled constraints") {
  Result<RigDesc> desc = io::read_rbxmx_file(data_path("roblox/ccdik_DummyWithConstraints.rbxmx"));
  REQUIRE(desc);
  CHECK(desc.value().joints.size() == 15);
  CHECK(desc.value().parts.size() == 16);
}

TEST_CASE("a Roblox rig converted to asterune.rig/1 still reproduces the saved part CFrames") {
  for (const Case& c : kCases) {
    INFO(c.stem);
    const nlohmann::json saved = load_json(data_path(std::string("roblox/") + c.stem + ".joints.json"));
    Result<RigDesc> imported = io::read_rbxmx_file(data_path(std::string("roblox/") + c.stem + ".rbxmx"));
    REQUIRE(imported);
    Result<RigDesc> converted = io::parse_rig_json(io::write_rig_json(imported.value()), "converted.rig.json");
    REQUIRE(converted);
    Result<Rig> rig = build_rig(converted.value());
    REQUIRE(rig);
    const Errors e = compare_with_saved(rig.value(), saved["parts"]);
    CHECK(e.position <= c.tolerance);
    CHECK(e.axis <= 1e-4);
  }
}
