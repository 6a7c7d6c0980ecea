// The built-in rigs (a core table generated once by scripts/gen_builtin_rigs.py) must equal
// the Roblox data files they were generated from, and stand where Roblox saved them.
#include <catch2/catch.hpp>

#include <set>

#include "asterune/rig/builtin.hpp"
#include "asterune/rig/rig.hpp"
#include "asterune/rig/world.hpp"
#include "asterune/math/cframe.hpp"
#include "support/reference_data.hpp"

using namespace asterune;
using asterune::test::data_path;
using asterune::test::load_json;

namespace {

void check_builtin_against_json(const std::string& name, const std::string& file) {
  INFO("builtin " << name << " vs " << file);
  const auto desc = builtin_rig_desc(name);
  REQUIRE(desc);
  const nlohmann::json ref = load_json(data_path("roblox/" + file));
  CHECK(desc->root == "HumanoidRootPart");

  // Parts: same set, sizes and rest positions, identity rest rotation.
  REQUIRE(desc->parts.size() == ref["parts"].size());
  for (const PartDesc& part : desc->parts) {
    INFO("part " << part.name);
    REQUIRE(ref["parts"].contains(part.name));
    CHECK(part.id == part.name);
    const auto& rp = ref["parts"][part.name];
    for (int i = 0; i < 3; ++i) {
      CHECK(part.size[i] == Approx(rp["size"][static_cast<size_t>(i)].get<double>()).margin(1e-6));
      REQUIRE(part.placement);
      CHECK(part.placement->position[i] == Approx(rp["rest_position"][static_cast<size_t>(i)].get<double>()).margin(1e-6));
    }
    CHECK(std::abs(part.placement->rotation.w) == Approx(1.0));
  }

  // Joints: same names, parts and C0/C1 (compared as raw CFrame numbers).
  REQUIRE(desc->joints.size() == ref["joints"].size());
  for (size_t i = 0; i < desc->joints.size(); ++i) {
    const JointDesc& j = desc->joints[i];
    const auto& rj = ref["joints"][i];
    INFO("joint " << j.name);
    CHECK(j.name == rj["name"].get<std::string>());
    CHECK(j.part0 == rj["Part0"].get<std::string>());
    CHECK(j.part1 == rj["Part1"].get<std::string>());
    CHECK(j.enabled);
    const CFrameComponents c0 = to_cframe(j.c0), c1 = to_cframe(j.c1);
    for (size_t k = 0; k < 12; ++k) {
      CHECK(c0[k] == Approx(rj["C0"][k].get<double>()).margin(1e-6));
      CHECK(c1[k] == Approx(rj["C1"][k].get<double>()).margin(1e-6));
    }
  }

  // Rest world evaluation with the root at the HRP rest placement reproduces every saved
  // rest position (the JSON positions come from Roblox, not from this walk).
  Result<Rig> rig = build_rig(*desc);
  REQUIRE(rig);
  CHECK(rig.value().dropped().empty());
  CHECK(rig.value().part(rig.value().root_part()).name == "HumanoidRootPart");
  const auto& hrp = ref["parts"]["HumanoidRootPart"]["rest_position"];
  const Transform root = Transform::from_position({hrp[0].get<float>(), hrp[1].get<float>(), hrp[2].get<float>()});
  std::vector<Transform> world(static_cast<size_t>(rig.value().joint_count()));
  evaluate_rest_world(rig.value(), root, world);
  std::set<std::string> placed;
  for (int j = 0; j < rig.value().joint_count(); ++j) {
    const std::string& part = rig.value().child_name(j);
    placed.insert(part);
    const auto& rp = ref["parts"][part]["rest_position"];
    INFO("part " << part);
    for (int i = 0; i < 3; ++i)
      CHECK(world[static_cast<size_t>(j)].position[i] == Approx(rp[static_cast<size_t>(i)].get<double>()).margin(1e-4));
  }
  CHECK(placed.size() + 1 == ref["parts"].size());  // every part but the root
}

}  // namespace

TEST_CASE("builtin:r15 equals r15_block_rig_normalized.json and stands at its saved rest positions") {
  check_builtin_against_json("r15", "r15_block_rig_normalized.json");
  check_builtin_against_json("builtin:r15", "r15_block_rig_normalized.json");
}

TEST_CASE("builtin:r6 equals r6_block_rig.json and stands at its saved rest positions") {
  check_builtin_against_json("r6", "r6_block_rig.json");
}

TEST_CASE("builtin_rig_desc refuses unknown names") {
  CHECK_FALSE(builtin_rig_desc("r16"));
  CHECK_FALSE(builtin_rig_desc("builtin:"));
  CHECK_FALSE(builtin_rig_desc("R15"));
  CHECK(builtin_rig_names().size() == 2);
}
