// glTF export (io/gltf_writer.hpp): the written file is re-read with tinygltf (this test
// program compiles its own tinygltf implementation, next to asterune::io's private one) and
// each node's world placement at every keyframe, recomposed from the file's node hierarchy and
// animation keys with glm matrices, must equal the world placement evaluate_world() gives
// (the CLI's `world`) within 1e-5.
#define TINYGLTF_IMPLEMENTATION
#define TINYGLTF_NO_STB_IMAGE
#define TINYGLTF_NO_STB_IMAGE_WRITE
#define TINYGLTF_NO_EXTERNAL_IMAGE
#include <tiny_gltf.h>

#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>

#include "asterune/formats/gltf_writer.hpp"
#include "asterune/rig/builtin.hpp"
#include "asterune/rig/pose.hpp"
#include "asterune/rig/rig.hpp"
#include "asterune/rig/world.hpp"
#include "support/temp_dir.hpp"

using namespace asterune;

namespace {

bool ignore_image(tinygltf::Image*, const int, std::string*, std::string*, int, int, const unsigned char*, int, void*) {
  return true;
}

// Frames of R15 under random motor rotations (and a translated LowerTorso), world placements
// from evaluate_world exactly as the CLI's run loop computes them. The root starts at `root`
// and moves and turns a little every frame (a scene root path), so the root node is keyed too.
std::vector<io::FrameRecord> random_frames(const Rig& rig, const Transform& root, int count) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<io::FrameRecord> frames;
  for (int f = 0; f < count; ++f) {
    io::FrameRecord r;
    r.frame = f;
    r.time = static_cast<float>(f) / 30.0f;
    Pose pose = make_pose(rig);
    for (auto& t : pose.local) {
      t.rotation = glm::angleAxis(1.2f * u(rng), glm::normalize(glm::vec3(u(rng), u(rng), u(rng)) + glm::vec3(0.01f)));
      t.position = glm::vec3(0.3f * u(rng), 0.3f * u(rng), 0.3f * u(rng));
    }
    r.local = pose.local;
    r.coverage = pose.coverage;
    const float k = static_cast<float>(f);
    r.root = Transform{glm::normalize(root.rotation * glm::angleAxis(0.05f * k, glm::vec3(0, 1, 0))),
                       root.position + glm::vec3(0.2f * k, 0.0f, -0.1f * k)};
    r.world.resize(static_cast<size_t>(rig.joint_count()));
    evaluate_world(rig, r.root, pose.local, r.world);
    frames.push_back(std::move(r));
  }
  return frames;
}

// Float accessor element `e` (VEC3/VEC4/SCALAR) read straight from the buffer.
std::vector<float> element(const tinygltf::Model& m, int accessor, size_t e) {
  const tinygltf::Accessor& a = m.accessors[static_cast<size_t>(accessor)];
  REQUIRE(a.componentType == TINYGLTF_COMPONENT_TYPE_FLOAT);
  const tinygltf::BufferView& v = m.bufferViews[static_cast<size_t>(a.bufferView)];
  const int n = tinygltf::GetNumComponentsInType(static_cast<uint32_t>(a.type));
  const int stride = a.ByteStride(v);
  std::vector<float> out(static_cast<size_t>(n));
  std::memcpy(out.data(),
              m.buffers[static_cast<size_t>(v.buffer)].data.data() + v.byteOffset + a.byteOffset +
                  e * static_cast<size_t>(stride),
              static_cast<size_t>(n) * 4);
  return out;
}

// World matrices of every node at keyframe k, from the animation's LINEAR keys.
std::vector<glm::mat4> world_at_key(const tinygltf::Model& m, size_t k) {
  std::vector<glm::vec3> t(m.nodes.size());
  std::vector<glm::quat> r(m.nodes.size());
  for (size_t n = 0; n < m.nodes.size(); ++n) {
    const auto& tr = m.nodes[n].translation;
    const auto& ro = m.nodes[n].rotation;
    t[n] = tr.size() == 3 ? glm::vec3(tr[0], tr[1], tr[2]) : glm::vec3(0);
    r[n] = ro.size() == 4 ? glm::quat(static_cast<float>(ro[3]), static_cast<float>(ro[0]), static_cast<float>(ro[1]),
                                      static_cast<float>(ro[2]))
                          : glm::quat(1, 0, 0, 0);
  }
  for (const auto& ch : m.animations[0].channels) {
    const auto& s = m.animations[0].samplers[static_cast<size_t>(ch.sampler)];
    CHECK(s.interpolation == "LINEAR");
    const std::vector<float> v = element(m, s.output, k);
    const auto n = static_cast<size_t>(ch.target_node);
    if (ch.target_path == "translation")
      t[n] = glm::vec3(v[0], v[1], v[2]);
    else if (ch.target_path == "rotation")
      r[n] = glm::quat(v[3], v[0], v[1], v[2]);
  }
  std::vector<int> parent(m.nodes.size(), -1);
  for (size_t n = 0; n < m.nodes.size(); ++n)
    for (int c : m.nodes[n].children) parent[static_cast<size_t>(c)] = static_cast<int>(n);
  std::vector<glm::mat4> world(m.nodes.size());
  for (size_t n = 0; n < m.nodes.size(); ++n) {  // the writer lists parents first
    const glm::mat4 local = glm::translate(glm::mat4(1.0f), t[n]) * glm::mat4_cast(glm::normalize(r[n]));
    world[n] = parent[n] >= 0 ? world[static_cast<size_t>(parent[n])] * local : local;
    if (parent[n] >= 0) REQUIRE(parent[n] < static_cast<int>(n));
  }
  return world;
}

tinygltf::Model load(const std::string& path, bool binary) {
  tinygltf::Model model;
  tinygltf::TinyGLTF loader;
  loader.SetImageLoader(&ignore_image, nullptr);
  std::string err, warn;
  const bool ok = binary ? loader.LoadBinaryFromFile(&model, &err, &warn, path)
                         : loader.LoadASCIIFromFile(&model, &err, &warn, path);
  INFO(err << warn);
  REQUIRE(ok);
  CHECK(warn.empty());
  return model;
}

}  // namespace

TEST_CASE("glTF export: nodes, boxes and keys re-read with tinygltf match the solved world", "[io][gltf]") {
  const Rig rig = build_rig(*builtin_rig_desc("r15")).value();
  const Transform root{glm::angleAxis(0.4f, glm::vec3(0, 1, 0)), glm::vec3(1.0f, 3.0f, -2.0f)};
  const std::vector<io::FrameRecord> frames = random_frames(rig, root, 12);
  const test::TempDir tmp("gltf_writer");
  for (const char* name : {"run.glb", "run.gltf"}) {
    INFO(name);
    const std::string path = (tmp / name).string();
    REQUIRE(io::write_gltf_file(path, rig, frames, "wave"));
    const tinygltf::Model m = load(path, std::string(name).ends_with(".glb"));
    // One node per part: the root part, then the child part of each joint, named by the part.
    REQUIRE(m.nodes.size() == static_cast<size_t>(rig.joint_count()) + 1);
    CHECK(m.nodes[0].name == rig.part(rig.root_part()).name);
    for (int j = 0; j < rig.joint_count(); ++j) CHECK(m.nodes[static_cast<size_t>(j) + 1].name == rig.child_name(j));
    REQUIRE(m.scenes.size() == 1);
    CHECK(m.scenes[0].nodes == std::vector<int>{0});
    // Rule F25: the root part is a node without a mesh (an opaque box would hide the body).
    CHECK(m.nodes[0].mesh == -1);
    CHECK(m.meshes.size() == static_cast<size_t>(rig.joint_count()));
    // A box mesh of the part's size: the POSITION bounds are +-size/2.
    for (size_t n = 1; n < m.nodes.size(); ++n) {
      const int part = rig.part1()[n - 1];
      const glm::vec3 size = rig.part(part).size;
      const auto& prim = m.meshes[static_cast<size_t>(m.nodes[n].mesh)].primitives.at(0);
      const tinygltf::Accessor& pos = m.accessors[static_cast<size_t>(prim.attributes.at("POSITION"))];
      CHECK(pos.count == 24);
      for (int c = 0; c < 3; ++c) {
        CHECK(pos.maxValues[static_cast<size_t>(c)] == Approx(0.5 * size[c]).margin(1e-6));
        CHECK(pos.minValues[static_cast<size_t>(c)] == Approx(-0.5 * size[c]).margin(1e-6));
      }
      CHECK(m.accessors[static_cast<size_t>(prim.indices)].count == 36);
    }
    // One animation: a translation and a rotation channel per node, keyed at the frame times.
    REQUIRE(m.animations.size() == 1);
    CHECK(m.animations[0].name == "wave");
    CHECK(m.animations[0].channels.size() == 2 * m.nodes.size());
    const int input = m.animations[0].samplers[0].input;
    REQUIRE(m.accessors[static_cast<size_t>(input)].count == frames.size());
    float worst = 0.0f;
    for (size_t k = 0; k < frames.size(); ++k) {
      CHECK(element(m, input, k)[0] == frames[k].time);
      const std::vector<glm::mat4> world = world_at_key(m, k);
      auto compare = [&](const glm::mat4& w, const Transform& want) {
        const glm::mat4 ref = glm::translate(glm::mat4(1.0f), want.position) * glm::mat4_cast(want.rotation);
        for (int c = 0; c < 4; ++c)
          for (int r = 0; r < 4; ++r) worst = std::max(worst, std::fabs(w[c][r] - ref[c][r]));
      };
      compare(world[0], frames[k].root);
      for (size_t j = 0; j < frames[k].world.size(); ++j) compare(world[j + 1], frames[k].world[j]);
    }
    CHECK(worst < 1e-5f);
  }
}

TEST_CASE("glTF export refuses bad frames and unwritable files", "[io][gltf]") {
  const Rig rig = build_rig(*builtin_rig_desc("r6")).value();
  std::vector<io::FrameRecord> frames = random_frames(rig, Transform::identity(), 2);
  CHECK_THAT(io::encode_gltf(rig, {}, {}).message(), Catch::Contains("no frames"));
  auto short_frames = frames;
  short_frames[1].world.pop_back();
  CHECK_THAT(io::encode_gltf(rig, short_frames, {}).message(), Catch::Contains("frame 1 has 5 world placements"));
  auto same_time = frames;
  same_time[1].time = same_time[0].time;
  CHECK_THAT(io::encode_gltf(rig, same_time, {}).message(), Catch::Contains("increasing"));
  auto nan = frames;
  nan[0].world[2].position.x = std::nanf("");
  CHECK_THAT(io::encode_gltf(rig, nan, {}).message(), Catch::Contains("nonfinite"));
  auto nan_root = frames;
  nan_root[1].root.position.y = std::nanf("");
  CHECK_THAT(io::encode_gltf(rig, nan_root, {}).message(), Catch::Contains("frame 1: the root placement is nonfinite"));
  CHECK_THAT(io::write_gltf_file("/nonexistent-dir/x.glb", rig, frames).message(),
             Catch::Contains("/nonexistent-dir/x.glb: cannot open"));
  // The .glb container: magic, version 2, total length, a JSON chunk then a BIN chunk.
  const std::vector<std::uint8_t> glb = io::encode_gltf(rig, frames, {}).value();
  auto u32 = [&](size_t at) {
    std::uint32_t v;
    std::memcpy(&v, glb.data() + at, 4);
    return v;
  };
  CHECK(std::string(glb.begin(), glb.begin() + 4) == "glTF");
  CHECK(u32(4) == 2);
  CHECK(u32(8) == glb.size());
  CHECK(u32(16) == 0x4E4F534Au);
  CHECK(u32(12) % 4 == 0);
  CHECK(u32(20 + u32(12) + 4) == 0x004E4942u);
}
