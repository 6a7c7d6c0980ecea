// glTF source import (rule P4 beyond, RT1). References: the PROVENANCE facts, and world
// positions recomputed in this file from the raw glTF JSON/binary with glm::mat4 chains
// (nlohmann-json + hand-read accessors), independent of tinygltf and of the importer's folding.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/type_ptr.hpp>
#include <nlohmann/json.hpp>

#include "asterune/clip/binding.hpp"
#include "asterune/clip/sample.hpp"
#include "asterune/formats/gltf.hpp"
#include "support/temp_dir.hpp"

using namespace asterune;
using nlohmann::json;

namespace {

const std::string kDir = std::string(ASTERUNE_TEST_DATA_DIR) + "/gltf/";
const std::string kCesium = kDir + "CesiumMan.glb";
const std::string kSimple = kDir + "SimpleSkin.gltf";

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Minimal GLB reader for the reference: JSON chunk + BIN chunk, float accessors only.
struct Glb {
  json doc;
  std::string bin;
  std::vector<float> floats(int accessor) const {
    const json& a = doc["accessors"][static_cast<size_t>(accessor)];
    const json& v = doc["bufferViews"][a["bufferView"].get<size_t>()];
    REQUIRE(a["componentType"].get<int>() == 5126);
    const std::string type = a["type"];
    const size_t n = type == "SCALAR" ? 1 : type == "VEC3" ? 3 : type == "VEC4" ? 4 : 16;
    const size_t stride = v.contains("byteStride") ? v["byteStride"].get<size_t>() : 4 * n;
    const size_t start = v.value("byteOffset", size_t{0}) + a.value("byteOffset", size_t{0});
    std::vector<float> out(a["count"].get<size_t>() * n);
    for (size_t e = 0; e < a["count"].get<size_t>(); ++e)
      std::memcpy(&out[e * n], bin.data() + start + e * stride, 4 * n);
    return out;
  }
};

Glb read_glb(const std::string& path) {
  const std::string b = read_bytes(path);
  uint32_t json_len = 0, bin_len = 0;
  std::memcpy(&json_len, b.data() + 12, 4);
  std::memcpy(&bin_len, b.data() + 20 + json_len, 4);
  Glb g;
  g.doc = json::parse(b.substr(20, json_len));
  g.bin = b.substr(20 + json_len + 8, bin_len);
  return g;
}

glm::dmat4 node_matrix(const json& node, const glm::dvec3* t_override = nullptr, const glm::dquat* r_override = nullptr) {
  if (node.contains("matrix")) {
    glm::dmat4 m;
    for (int c = 0; c < 4; ++c)
      for (int r = 0; r < 4; ++r) m[c][r] = node["matrix"][static_cast<size_t>(c * 4 + r)].get<double>();
    return m;
  }
  glm::dvec3 t(0.0);
  glm::dquat q(1, 0, 0, 0);
  glm::dvec3 s(1.0);
  if (node.contains("translation")) t = glm::dvec3(node["translation"][0], node["translation"][1], node["translation"][2]);
  if (node.contains("rotation"))
    q = glm::dquat(node["rotation"][3].get<double>(), node["rotation"][0].get<double>(), node["rotation"][1].get<double>(),
                   node["rotation"][2].get<double>());
  if (node.contains("scale")) s = glm::dvec3(node["scale"][0], node["scale"][1], node["scale"][2]);
  if (t_override) t = *t_override;
  if (r_override) q = *r_override;
  return glm::translate(glm::dmat4(1.0), t) * glm::mat4_cast(glm::normalize(q)) * glm::scale(glm::dmat4(1.0), s);
}

// World matrix of a node, walking up the node tree (with optional per-node overrides).
glm::dmat4 node_world(const json& doc, int node, const std::vector<glm::dvec3>* t = nullptr,
                      const std::vector<glm::dquat>* r = nullptr) {
  std::vector<int> parent(doc["nodes"].size(), -1);
  for (size_t n = 0; n < doc["nodes"].size(); ++n)
    if (doc["nodes"][n].contains("children"))
      for (const json& c : doc["nodes"][n]["children"]) parent[c.get<size_t>()] = static_cast<int>(n);
  glm::dmat4 m(1.0);
  for (int n = node; n >= 0; n = parent[static_cast<size_t>(n)]) {
    const size_t u = static_cast<size_t>(n);
    m = node_matrix(doc["nodes"][u], t ? &(*t)[u] : nullptr, r ? &(*r)[u] : nullptr) * m;
  }
  return m;
}

std::vector<Transform> skeleton_world(const SourceSkeleton& sk, const std::vector<Transform>& local) {
  std::vector<Transform> world(local.size());
  for (size_t j = 0; j < local.size(); ++j)
    world[j] = sk.parents[j] < 0 ? local[j] : world[static_cast<size_t>(sk.parents[j])] * local[j];
  return world;
}

io::GltfSource load(const std::string& path, const io::GltfSourceOptions& options = {}) {
  Result<io::GltfSource> r = io::load_gltf_source(path, options);
  INFO(path << ": " << (r.ok() ? std::string() : r.message()));
  REQUIRE(r.ok());
  return std::move(r).value();
}

}  // namespace

TEST_CASE("glTF CesiumMan: 19 joints, names, order, one animation", "[io][gltf]") {
  const io::GltfSource src = load(kCesium);
  const std::vector<std::string> names = {
      "Skeleton_torso_joint_1", "Skeleton_torso_joint_2", "torso_joint_3", "Skeleton_neck_joint_1",
      "Skeleton_neck_joint_2", "Skeleton_arm_joint_L__4_", "Skeleton_arm_joint_R", "Skeleton_arm_joint_L__3_",
      "Skeleton_arm_joint_R__2_", "Skeleton_arm_joint_L__2_", "Skeleton_arm_joint_R__3_", "leg_joint_L_1",
      "leg_joint_R_1", "leg_joint_L_2", "leg_joint_R_2", "leg_joint_L_3", "leg_joint_R_3", "leg_joint_L_5",
      "leg_joint_R_5"};
  CHECK(src.skeleton.joint_names == names);
  CHECK(src.joint_nodes == std::vector<int>{3, 12, 13, 20, 21, 17, 14, 18, 15, 19, 16, 8, 4, 9, 5, 10, 6, 11, 7});
  CHECK(src.skeleton.name == "CesiumMan");
  CHECK(src.skeleton.units_to_studs == Approx(1.0f / 0.28f));
  CHECK(src.skeleton.parents[0] == -1);
  for (size_t j = 1; j < names.size(); ++j) CHECK(src.skeleton.parents[j] >= 0);
  CHECK(src.skeleton.parents[static_cast<size_t>(src.skeleton.find("leg_joint_L_1"))] == 0);
  CHECK(src.skeleton.parents[static_cast<size_t>(src.skeleton.find("Skeleton_arm_joint_L__4_"))] ==
        src.skeleton.find("torso_joint_3"));
  REQUIRE(src.clips.size() == 1u);
  const Clip& clip = src.clips[0];
  CHECK(clip.name == "animation0");
  CHECK(clip.duration == Approx(2.0f));
  CHECK(clip.tracks.size() == 19u);
  for (const ClipTrack& t : clip.tracks) {
    CHECK(t.rotations.size() == 48u);
    CHECK(t.translations.size() == 48u);
    CHECK(t.rotation_times.front() == Approx(0.0417f).margin(1e-3));
    CHECK(t.rotation_interpolation == Interpolation::kLinear);
  }
  Result<ClipBinding> b = build_clip_binding(clip, src.skeleton);
  REQUIRE(b.ok());
  CHECK(b.value().bound_count() == 19);
  CHECK(b.value().unmatched_tracks().empty());
}

TEST_CASE("glTF CesiumMan rest: Y-up A-pose in metres, non-joint ancestors folded", "[io][gltf]") {
  const io::GltfSource src = load(kCesium);
  const SourceSkeleton& sk = src.skeleton;
  const std::vector<Transform> world = skeleton_world(sk, sk.rest_local);
  auto pos = [&](const char* n) { return world[static_cast<size_t>(sk.find(n))].position; };
  // Reference: world matrices of the joint nodes from the raw JSON (Z_UP * Armature * ...).
  const Glb glb = read_glb(kCesium);
  for (size_t j = 0; j < world.size(); ++j) {
    const glm::dmat4 m = node_world(glb.doc, src.joint_nodes[j]);
    INFO(sk.joint_names[j]);
    CHECK(glm::length(glm::dvec3(world[j].position) - glm::dvec3(m[3])) < 1e-4);
    // Rotation too (columns; the file's scales are 1 within 1e-7).
    const glm::dmat3 r(rotation_matrix(world[j].rotation));
    for (int c = 0; c < 3; ++c) CHECK(glm::length(r[c] - glm::normalize(glm::dvec3(m[c]))) < 1e-4);
  }
  // Y-up: feet near the ground, neck ~1.2 m up (the mesh top, ~1.5 m, is above the last joint).
  CHECK(pos("leg_joint_L_5").y == Approx(0.0f).margin(0.05f));
  CHECK(pos("Skeleton_neck_joint_2").y == Approx(1.2f).margin(0.1f));
  CHECK(pos("Skeleton_torso_joint_1").y == Approx(0.68f).margin(0.02f));
  // Left at +X; the arms hang ~30 degrees below horizontal (A-pose).
  CHECK(pos("Skeleton_arm_joint_L__2_").x > 0.3f);
  CHECK(pos("Skeleton_arm_joint_R__3_").x < -0.3f);
  const glm::vec3 fore = pos("Skeleton_arm_joint_L__2_") - pos("Skeleton_arm_joint_L__3_");
  const float below = glm::degrees(std::atan2(-fore.y, std::sqrt(fore.x * fore.x + fore.z * fore.z)));
  CHECK(below == Approx(30.0f).margin(8.0f));
  // The bind pose (inverse bind matrices, in the mesh node's space under Z_UP * Armature)
  // places the joints at the same points: rest == bind for this file.
  const json& skin = glb.doc["skins"][0];
  const std::vector<float> ibm = glb.floats(skin["inverseBindMatrices"].get<int>());
  const glm::dmat4 mesh = node_world(glb.doc, 2);
  for (size_t k = 0; k < skin["joints"].size(); ++k) {
    const glm::dmat4 bind = mesh * glm::inverse(glm::dmat4(glm::make_mat4(&ibm[k * 16])));
    const int node = skin["joints"][k].get<int>();
    size_t j = 0;
    while (src.joint_nodes[j] != node) ++j;
    INFO(sk.joint_names[j]);
    CHECK(glm::length(glm::dvec3(world[j].position) - glm::dvec3(bind[3])) < 1e-3);
  }
}

TEST_CASE("glTF CesiumMan animation: sampled world matches raw keys composed with mat4", "[io][gltf]") {
  const io::GltfSource src = load(kCesium);
  const SourceSkeleton& sk = src.skeleton;
  const Clip& clip = src.clips[0];
  Result<ClipBinding> b = build_clip_binding(clip, sk);
  REQUIRE(b.ok());
  const Glb glb = read_glb(kCesium);
  const json& anim = glb.doc["animations"][0];
  const size_t node_count = glb.doc["nodes"].size();
  for (size_t key : {0u, 10u, 25u, 47u}) {
    // Reference: override every animated node's translation/rotation with raw key `key`.
    std::vector<glm::dvec3> t(node_count);
    std::vector<glm::dquat> r(node_count);
    for (size_t n = 0; n < node_count; ++n) {
      const json& node = glb.doc["nodes"][n];
      t[n] = node.contains("translation") ? glm::dvec3(node["translation"][0], node["translation"][1], node["translation"][2])
                                          : glm::dvec3(0.0);
      r[n] = node.contains("rotation") ? glm::dquat(node["rotation"][3].get<double>(), node["rotation"][0].get<double>(),
                                                    node["rotation"][1].get<double>(), node["rotation"][2].get<double>())
                                       : glm::dquat(1, 0, 0, 0);
    }
    float time = 0.0f;
    for (const json& ch : anim["channels"]) {
      const json& sampler = anim["samplers"][ch["sampler"].get<size_t>()];
      const size_t node = ch["target"]["node"].get<size_t>();
      const std::string path = ch["target"]["path"];
      time = glb.floats(sampler["input"].get<int>())[key];
      const std::vector<float> v = glb.floats(sampler["output"].get<int>());
      if (path == "translation") t[node] = glm::dvec3(v[key * 3], v[key * 3 + 1], v[key * 3 + 2]);
      if (path == "rotation") r[node] = glm::dquat(v[key * 4 + 3], v[key * 4], v[key * 4 + 1], v[key * 4 + 2]);
    }
    std::vector<Transform> local(sk.joint_names.size());
    std::vector<float> cov(local.size());
    sample_clip(clip, b.value(), time, WrapMode::kClamp, local, cov);
    const std::vector<Transform> world = skeleton_world(sk, local);
    for (size_t j = 0; j < world.size(); ++j) {
      const glm::dmat4 m = node_world(glb.doc, src.joint_nodes[j], &t, &r);
      INFO("key " << key << " joint " << sk.joint_names[j]);
      CHECK(glm::length(glm::dvec3(world[j].position) - glm::dvec3(m[3])) < 2e-4);
      CHECK(cov[j] == 1.0f);
    }
  }
}

TEST_CASE("glTF SimpleSkin: two unnamed joints, rotation about Z", "[io][gltf]") {
  const io::GltfSource src = load(kSimple);
  const SourceSkeleton& sk = src.skeleton;
  CHECK(sk.joint_names == std::vector<std::string>{"node1", "node2"});
  CHECK(sk.parents == std::vector<int>{-1, 0});
  CHECK(sk.rest_local[0].position == glm::vec3(0, 1, 0));
  CHECK(sk.rest_local[1].position == glm::vec3(0, 0, 0));
  REQUIRE(src.clips.size() == 1u);
  const Clip& clip = src.clips[0];
  CHECK(clip.duration == Approx(5.5f));
  REQUIRE(clip.tracks.size() == 1u);
  CHECK(clip.tracks[0].name == "node2");
  CHECK(clip.tracks[0].rotations.size() == 12u);
  Result<ClipBinding> b = build_clip_binding(clip, sk);
  REQUIRE(b.ok());
  std::vector<Transform> local(2);
  std::vector<float> cov(2);
  // Keys (PROVENANCE): 0, 45, 90, 90, 45, 0, 0, -45, -90, -90, -45, 0 degrees about +Z every 0.5 s.
  struct Want {
    float t, deg;
  };
  for (const Want& w : {Want{1.0f, 90.0f}, Want{0.75f, 67.5f}, Want{2.25f, 22.5f}, Want{4.0f, -90.0f}, Want{3.25f, -22.5f}}) {
    sample_clip(clip, b.value(), w.t, WrapMode::kLoop, local, cov);
    const glm::vec3 x = local[1].rotation * glm::vec3(1, 0, 0);
    INFO("t = " << w.t);
    CHECK(x.x == Approx(std::cos(glm::radians(w.deg))).margin(2e-3));
    CHECK(x.y == Approx(std::sin(glm::radians(w.deg))).margin(2e-3));
    CHECK(x.z == Approx(0.0f).margin(1e-6));
    CHECK(cov == std::vector<float>{0.0f, 1.0f});
    CHECK(local[0].position == glm::vec3(0, 1, 0));
  }
}

namespace {

std::string base64(const std::string& bytes) {
  static const char* k = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    const uint32_t v = (static_cast<uint8_t>(bytes[i]) << 16) | (static_cast<uint8_t>(bytes[i + 1]) << 8) |
                       static_cast<uint8_t>(bytes[i + 2]);
    out += {k[v >> 18], k[(v >> 12) & 63], k[(v >> 6) & 63], k[v & 63]};
  }
  if (i + 1 == bytes.size()) {
    const uint32_t v = static_cast<uint8_t>(bytes[i]) << 16;
    out += {k[v >> 18], k[(v >> 12) & 63], '=', '='};
  } else if (i + 2 == bytes.size()) {
    const uint32_t v = (static_cast<uint8_t>(bytes[i]) << 16) | (static_cast<uint8_t>(bytes[i + 1]) << 8);
    out += {k[v >> 18], k[(v >> 12) & 63], k[(v >> 6) & 63], '='};
  }
  return out;
}

// One unique folder per test process, removed at exit.
const test::TempDir& temp_folder() {
  static const test::TempDir dir("gltf_test");
  return dir;
}

std::string write_temp(const std::string& name, const std::string& text) {
  const std::filesystem::path p = temp_folder() / name;
  std::ofstream(p, std::ios::binary) << text;
  return p.string();
}

// A hand-made file: non-joint "Holder" (translation (0,0,5), 90 deg about +Y) > joint "A" >
// joint "B"; the skin lists B before A; A has a STEP translation channel, B a CUBICSPLINE
// rotation channel and a scale channel, and a channel on Holder must be ignored.
std::string handmade_gltf(const std::string& interpolation_b = "CUBICSPLINE") {
  std::vector<float> f;
  auto push = [&](std::initializer_list<float> v) { f.insert(f.end(), v); };
  push({0.0f, 1.0f});                                  // 0: times (2)
  push({1, 0, 0, 3, 0, 0});                            // 8: A translations (2 x vec3)
  const float s = std::sqrt(0.5f);
  push({9, 9, 9, 9, 0, 0, 0, 1, 7, 7, 7, 7,            // 32: B cubic rotations: in, value, out per key
        9, 9, 9, 9, s, 0, 0, s, 7, 7, 7, 7});
  push({2, 2, 2, 2, 2, 2});                            // 128: scales (2 x vec3)
  std::string bytes(f.size() * 4, '\0');
  std::memcpy(bytes.data(), f.data(), bytes.size());
  const json doc = {
      {"asset", {{"version", "2.0"}}},
      {"scene", 0},
      {"scenes", {{{"nodes", {0}}}}},
      {"nodes",
       {{{"name", "Holder"}, {"children", {1}}, {"translation", {0, 0, 5}}, {"rotation", {0, s, 0, s}}},
        {{"name", "A"}, {"children", {2}}, {"translation", {0, 1, 0}}},
        {{"name", "B"}, {"translation", {0, 2, 0}}}}},
      {"skins", {{{"joints", {2, 1}}}}},
      {"buffers", {{{"byteLength", bytes.size()}, {"uri", "data:application/octet-stream;base64," + base64(bytes)}}}},
      {"bufferViews", {{{"buffer", 0}, {"byteLength", bytes.size()}}}},
      {"accessors",
       {{{"bufferView", 0}, {"byteOffset", 0}, {"componentType", 5126}, {"count", 2}, {"type", "SCALAR"}, {"min", {0.0}}, {"max", {1.0}}},
        {{"bufferView", 0}, {"byteOffset", 8}, {"componentType", 5126}, {"count", 2}, {"type", "VEC3"}},
        {{"bufferView", 0}, {"byteOffset", 32}, {"componentType", 5126}, {"count", 6}, {"type", "VEC4"}},
        {{"bufferView", 0}, {"byteOffset", 128}, {"componentType", 5126}, {"count", 2}, {"type", "VEC3"}}}},
      {"animations",
       {{{"name", "hand"},
         {"samplers",
          {{{"input", 0}, {"output", 1}, {"interpolation", "STEP"}},
           {{"input", 0}, {"output", 2}, {"interpolation", interpolation_b}},
           {{"input", 0}, {"output", 3}, {"interpolation", "LINEAR"}}}},
         {"channels",
          {{{"sampler", 0}, {"target", {{"node", 1}, {"path", "translation"}}}},
           {{"sampler", 1}, {"target", {{"node", 2}, {"path", "rotation"}}}},
           {{"sampler", 2}, {"target", {{"node", 2}, {"path", "scale"}}}},
           {{"sampler", 0}, {"target", {{"node", 0}, {"path", "translation"}}}}}}}}}};
  return doc.dump();
}

}  // namespace

TEST_CASE("glTF hand-made file: fold, parents-first order, STEP, CUBICSPLINE, scale", "[io][gltf]") {
  const std::string path = write_temp("handmade.gltf", handmade_gltf());
  const io::GltfSource src = load(path);
  const SourceSkeleton& sk = src.skeleton;
  CHECK(sk.joint_names == std::vector<std::string>{"A", "B"});  // B listed first but is A's child
  CHECK(src.joint_nodes == std::vector<int>{1, 2});
  CHECK(sk.parents == std::vector<int>{-1, 0});
  // Holder folded into A: (0,0,5) + Ry(90) * (0,1,0) = (0,1,5); rotation Ry(90).
  CHECK(glm::length(sk.rest_local[0].position - glm::vec3(0, 1, 5)) < 1e-5f);
  CHECK(glm::length(sk.rest_local[0].rotation * glm::vec3(1, 0, 0) - glm::vec3(0, 0, -1)) < 1e-5f);
  CHECK(sk.rest_local[1].position == glm::vec3(0, 2, 0));
  REQUIRE(src.clips.size() == 1u);
  const Clip& clip = src.clips[0];
  CHECK(clip.name == "hand");
  REQUIRE(clip.tracks.size() == 2u);  // B's scale joins B's track; the Holder channel is ignored
  Result<ClipBinding> b = build_clip_binding(clip, sk);
  REQUIRE(b.ok());
  std::vector<Transform> local(2);
  std::vector<float> cov(2);
  // STEP: A's key 0 = (1,0,0) held until t = 1; folded: (0,0,5) + Ry(90)*(1,0,0) = (0,0,4).
  sample_clip(clip, b.value(), 0.9f, WrapMode::kClamp, local, cov);
  CHECK(glm::length(local[0].position - glm::vec3(0, 0, 4)) < 1e-5f);
  // A has no rotation channel: its folded rest rotation stays.
  CHECK(glm::length(local[0].rotation * glm::vec3(1, 0, 0) - glm::vec3(0, 0, -1)) < 1e-5f);
  // CUBICSPLINE at s = 0.9 (dt 1): Hermite weights h00 = 0.028, h10 = 0.009, h01 = 0.972,
  // h11 = -0.081 on v0 = (0,0,0,1), out-tangent b0 = (7,7,7,7), v1 = (r,0,0,r) with r = sqrt(1/2),
  // in-tangent a1 = (9,9,9,9): [x y z w] = [0.972 r + 0.063 - 0.729, -0.666, -0.666,
  // 0.028 + 0.972 r + 0.063 - 0.729], then normalized (glTF).
  const glm::quat cubic = glm::normalize(glm::quat(0.04930779f, 0.02130779f, -0.666f, -0.666f));
  CHECK(std::fabs(glm::dot(local[1].rotation, cubic)) == Approx(1.0f).margin(1e-5));
  CHECK(clip.tracks[1].scales == std::vector<glm::vec3>{glm::vec3(2), glm::vec3(2)});
  CHECK(clip.tracks[1].scale_times == std::vector<float>{0.0f, 1.0f});
  sample_clip(clip, b.value(), 1.0f, WrapMode::kClamp, local, cov);
  CHECK(glm::length(local[0].position - glm::vec3(0, 0, 2)) < 1e-5f);  // (0,0,5) + Ry(90)*(3,0,0)
  CHECK(clip.tracks[1].rotation_interpolation == Interpolation::kCubicSpline);
  CHECK(clip.tracks[0].translation_interpolation == Interpolation::kStep);
  std::filesystem::remove(path);
}

TEST_CASE("glTF errors name the file and the reason", "[io][gltf]") {
  auto fails_with = [](const std::string& path, const io::GltfSourceOptions& options, const char* reason) {
    Result<io::GltfSource> r = io::load_gltf_source(path, options);
    REQUIRE_FALSE(r.ok());
    INFO(r.message());
    CHECK_THAT(r.message(), Catch::StartsWith(path + ": "));
    CHECK_THAT(r.message(), Catch::Contains(reason));
  };
  fails_with(kDir + "missing.glb", {}, "cannot open");
  const std::string garbage = write_temp("garbage.gltf", "{ this is not json");
  fails_with(garbage, {}, "parse error");
  const std::string no_skin = write_temp("noskin.gltf", R"({"asset":{"version":"2.0"},"nodes":[{"name":"n"}]})");
  fails_with(no_skin, {}, "has no skin");
  io::GltfSourceOptions bad_skin;
  bad_skin.skin = 3;
  fails_with(kSimple, bad_skin, "skin 3 does not exist");
  io::GltfSourceOptions bad_units;
  bad_units.units_to_studs = -1.0f;
  fails_with(kSimple, bad_units, "units_to_studs");
  const std::string bad_interp = write_temp("badinterp.gltf", handmade_gltf("BOUNCY"));
  fails_with(bad_interp, {}, "unknown interpolation 'BOUNCY'");
  // LINEAR with 6 outputs for 2 times: count mismatch.
  const std::string bad_count = write_temp("badcount.gltf", handmade_gltf("LINEAR"));
  fails_with(bad_count, {}, "2 times but 6 output values");
  for (const std::string& p : {garbage, no_skin, bad_interp, bad_count}) std::filesystem::remove(p);
}
