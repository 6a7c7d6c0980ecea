#include "asterune/formats/gltf_writer.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <fstream>
#include <string_view>

#include <nlohmann/json.hpp>

#include "asterune/rig/world.hpp"
#include "base64.hpp"

namespace asterune::io {

namespace {

using nlohmann::json;

// Little-endian binary buffer with the accessors and views that describe it.
struct BufferBuilder {
  std::vector<std::uint8_t> bytes;
  json views = json::array();
  json accessors = json::array();

  void align4() {
    while (bytes.size() % 4 != 0) bytes.push_back(0);
  }
  void put_f32(float v) {
    std::uint8_t b[4];
    std::memcpy(b, &v, 4);
    bytes.insert(bytes.end(), b, b + 4);
  }
  void put_u16(std::uint16_t v) {
    bytes.push_back(static_cast<std::uint8_t>(v & 0xff));
    bytes.push_back(static_cast<std::uint8_t>(v >> 8));
  }

  // A float accessor over `values` (components per element = `components`), with min/max
  // when `bounds` (glTF requires them for POSITION and animation inputs).
  int add_floats(const std::vector<float>& values, int components, const char* type, bool bounds, int target = 0) {
    align4();
    const size_t offset = bytes.size();
    for (float v : values) put_f32(v);
    json view = {{"buffer", 0}, {"byteOffset", offset}, {"byteLength", values.size() * 4}};
    if (target != 0) view["target"] = target;
    views.push_back(view);
    const size_t count = values.size() / static_cast<size_t>(components);
    json acc = {{"bufferView", views.size() - 1}, {"componentType", 5126}, {"count", count}, {"type", type}};
    if (bounds && count > 0) {
      std::vector<float> lo(values.begin(), values.begin() + components), hi = lo;  // the first element
      for (size_t e = 0; e < count; ++e)
        for (size_t c = 0; c < static_cast<size_t>(components); ++c) {
          lo[c] = std::min(lo[c], values[e * static_cast<size_t>(components) + c]);
          hi[c] = std::max(hi[c], values[e * static_cast<size_t>(components) + c]);
        }
      acc["min"] = lo;
      acc["max"] = hi;
    }
    accessors.push_back(acc);
    return static_cast<int>(accessors.size()) - 1;
  }

  int add_indices(const std::vector<std::uint16_t>& values) {
    align4();
    const size_t offset = bytes.size();
    for (std::uint16_t v : values) put_u16(v);
    views.push_back({{"buffer", 0}, {"byteOffset", offset}, {"byteLength", values.size() * 2}, {"target", 34963}});
    accessors.push_back(
        {{"bufferView", views.size() - 1}, {"componentType", 5123}, {"count", values.size()}, {"type", "SCALAR"}});
    return static_cast<int>(accessors.size()) - 1;
  }
};

// A box of `size` centred on the origin: 24 vertices (4 per face, flat normals), 36 indices.
void box_geometry(const glm::vec3& size, std::vector<float>& positions, std::vector<float>& normals,
                  std::vector<std::uint16_t>& indices) {
  const glm::vec3 h = 0.5f * size;
  for (int axis = 0; axis < 3; ++axis) {
    for (int sign = -1; sign <= 1; sign += 2) {
      glm::vec3 n(0.0f);
      n[axis] = static_cast<float>(sign);
      const int u = (axis + 1) % 3, v = (axis + 2) % 3;
      const auto base = static_cast<std::uint16_t>(positions.size() / 3);
      const float corners[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
      for (const auto& c : corners) {
        glm::vec3 p(0.0f);
        p[axis] = static_cast<float>(sign) * h[axis];
        p[u] = c[0] * h[u];
        p[v] = c[1] * h[v];
        positions.insert(positions.end(), {p.x, p.y, p.z});
        normals.insert(normals.end(), {n.x, n.y, n.z});
      }
      // Counter-clockwise seen from outside: (u, v, n) is right-handed, so flip for -n.
      if (sign > 0)
        indices.insert(indices.end(),
                       {base, static_cast<std::uint16_t>(base + 1), static_cast<std::uint16_t>(base + 2), base,
                        static_cast<std::uint16_t>(base + 2), static_cast<std::uint16_t>(base + 3)});
      else
        indices.insert(indices.end(),
                       {base, static_cast<std::uint16_t>(base + 2), static_cast<std::uint16_t>(base + 1), base,
                        static_cast<std::uint16_t>(base + 3), static_cast<std::uint16_t>(base + 2)});
    }
  }
}

void put_u32(std::vector<std::uint8_t>& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<std::uint8_t>((v >> (8 * i)) & 0xff));
}

// Rule F28: each node's own TRS is the rig's rest (every T identity) under the first frame's
// root placement, not a frame of the motion. Every node is animated, so players never show it;
// a reader that takes node TRS as the skeleton's rest (ours, Blender's, a retarget) measures
// the travel from the rest pelvis, so a frame-0 rest would zero the start's offset and the
// file would read back shifted by where the motion began.
void put_rest_pose(const Rig& rig, const Transform& root, std::span<const int> node_parent, json& nodes) {
  std::vector<Transform> world(static_cast<size_t>(rig.joint_count()) + 1);
  world[0] = root;
  evaluate_rest_world(rig, root, std::span<Transform>(world).subspan(1));
  for (size_t n = 0; n < world.size(); ++n) {
    const int p = node_parent[n];
    const Transform local = p >= 0 ? inverse(world[static_cast<size_t>(p)]) * world[n] : world[n];
    const glm::quat q = glm::normalize(local.rotation);
    nodes[n]["translation"] = {local.position.x, local.position.y, local.position.z};
    nodes[n]["rotation"] = {q.x, q.y, q.z, q.w};
  }
}

}  // namespace

Result<std::vector<std::uint8_t>> encode_gltf(const Rig& rig, std::span<const FrameRecord> frames,
                                              const GltfWriteOptions& options) {
  const auto nj = static_cast<size_t>(rig.joint_count());
  if (frames.empty()) return make_error("glTF export: no frames to write");
  if (rig.root_part() < 0) return make_error("glTF export: the rig has no root part");
  for (size_t f = 0; f < frames.size(); ++f) {
    const FrameRecord& r = frames[f];
    const std::string label = "glTF export: frame " + std::to_string(r.frame);
    if (!is_finite(r.root)) return make_error(label + ": the root placement is nonfinite");
    if (r.world.size() != nj)
      return make_error(label + " has " + std::to_string(r.world.size()) + " world placements for " +
                        std::to_string(nj) + " joints");
    if (!std::isfinite(r.time) || (f > 0 && !(r.time > frames[f - 1].time)))
      return make_error(label + ": frame times must be finite and increasing");
    for (size_t j = 0; j < nj; ++j)
      if (!is_finite(r.world[j]))
        return make_error(label + ": joint '" + rig.joint_name(static_cast<int>(j)) +
                          "' has a nonfinite world placement");
  }

  // Node 0: the root part; node 1 + j: the child part of joint j. Parents come first in the
  // layout, so a joint's parent node already exists.
  BufferBuilder buf;
  json nodes = json::array();
  json meshes = json::array();
  std::vector<int> node_parent(nj + 1, -1);
  auto add_node = [&](int part, int parent) {
    const PartDesc& p = rig.part(part);
    if (parent < 0) {  // rule F25: the root part (HumanoidRootPart) is an invisible mover, no mesh
      nodes.push_back({{"name", p.name}});
      node_parent[0] = -1;
      return;
    }
    std::vector<float> pos, nrm;
    std::vector<std::uint16_t> idx;
    box_geometry(p.size, pos, nrm, idx);
    const int a_pos = buf.add_floats(pos, 3, "VEC3", true, 34962);
    const int a_nrm = buf.add_floats(nrm, 3, "VEC3", false, 34962);
    const int a_idx = buf.add_indices(idx);
    meshes.push_back({{"name", p.name},
                      {"primitives",
                       json::array({{{"attributes", {{"POSITION", a_pos}, {"NORMAL", a_nrm}}}, {"indices", a_idx}}})}});
    json node = {{"name", p.name}, {"mesh", meshes.size() - 1}};
    nodes.push_back(node);
    const int index = static_cast<int>(nodes.size()) - 1;
    node_parent[static_cast<size_t>(index)] = parent;
    if (parent >= 0) nodes[static_cast<size_t>(parent)]["children"].push_back(index);
  };
  add_node(rig.root_part(), -1);
  for (size_t j = 0; j < nj; ++j) {
    const int pj = rig.parent(static_cast<int>(j));
    add_node(rig.part1()[j], pj >= 0 ? 1 + pj : 0);
  }

  // Per frame, each node's local = parent world^-1 * world (the root's parent is the scene).
  const size_t nn = nj + 1;
  std::vector<float> times;
  std::vector<std::vector<float>> translations(nn), rotations(nn);
  std::vector<glm::quat> last(nn);
  std::vector<Transform> world(nn);
  for (size_t f = 0; f < frames.size(); ++f) {
    times.push_back(frames[f].time);
    world[0] = frames[f].root;
    for (size_t j = 0; j < nj; ++j) world[j + 1] = frames[f].world[j];
    for (size_t n = 0; n < nn; ++n) {
      const int p = node_parent[n];
      const Transform local = p >= 0 ? inverse(world[static_cast<size_t>(p)]) * world[n] : world[n];
      glm::quat q = glm::normalize(local.rotation);
      if (f > 0 && glm::dot(last[n], q) < 0.0f) q = -q;  // LINEAR keys in one hemisphere
      last[n] = q;
      translations[n].insert(translations[n].end(), {local.position.x, local.position.y, local.position.z});
      rotations[n].insert(rotations[n].end(), {q.x, q.y, q.z, q.w});
    }
  }
  put_rest_pose(rig, frames[0].root, node_parent, nodes);
  const int a_time = buf.add_floats(times, 1, "SCALAR", true);
  json samplers = json::array(), channels = json::array();
  const bool sparse = options.node_keys.size() == nn;
  // CUBICSPLINE (rule F7, key_reduction.hpp): every node's tangents given with its keys.
  bool cubic = sparse && options.node_key_tangents.size() == nn && options.node_key_values.size() == nn;
  for (size_t n = 0; cubic && n < nn; ++n)
    cubic = options.node_key_tangents[n].size() == options.node_keys[n].size() &&
            options.node_key_values[n].size() == options.node_keys[n].size();
  for (size_t n = 0; n < nn; ++n) {
    int a_input = a_time;
    if (sparse) {  // rule F7: this node's kept keys only, rotations kept in one hemisphere
      std::vector<float> kt, kp, kr;
      glm::vec4 prev(0.0f);
      const auto& keys = options.node_keys[n];
      // The reduction's fitted values when given, else the frame's own local.
      const bool fitted = options.node_key_values.size() == nn && options.node_key_values[n].size() == keys.size();
      for (size_t m = 0; m < keys.size(); ++m) {
        const int f = keys[m];
        if (f < 0 || static_cast<size_t>(f) >= frames.size()) return make_error("glTF export: node key out of range");
        const auto uf = static_cast<size_t>(f);
        kt.push_back(times[uf]);
        glm::vec4 q(rotations[n][4 * uf], rotations[n][4 * uf + 1], rotations[n][4 * uf + 2], rotations[n][4 * uf + 3]);
        if (fitted) {
          const Transform& v = options.node_key_values[n][m];
          if (!is_finite(v)) return make_error("glTF export: node key value is not finite");
          const glm::quat r = glm::normalize(v.rotation);
          kp.insert(kp.end(), {v.position.x, v.position.y, v.position.z});
          q = glm::vec4(r.x, r.y, r.z, r.w);
        } else {
          const auto from = translations[n].begin() + static_cast<long>(3 * uf);
          kp.insert(kp.end(), from, from + 3);
        }
        // LINEAR plays the shortest arc, so a key may flip; a Hermite spline is of the
        // 4-vectors as written, so cubic keys keep the signs they were fitted with.
        if (!cubic && kt.size() > 1 && glm::dot(prev, q) < 0.0f) q = -q;
        prev = q;
        kr.insert(kr.end(), {q.x, q.y, q.z, q.w});
      }
      if (kt.empty() || (kt.size() > 1 && !std::is_sorted(kt.begin(), kt.end())))
        return make_error("glTF export: node keys must be increasing and not empty");
      if (cubic) {  // per key: in-tangent, value, out-tangent (glTF 2.0 CUBICSPLINE)
        std::vector<float> cp, cr;
        for (size_t m = 0; m < keys.size(); ++m) {
          const KeyTangents& t = options.node_key_tangents[n][m];
          for (float x : {t.in_position.x, t.in_position.y, t.in_position.z, kp[3 * m], kp[3 * m + 1], kp[3 * m + 2],
                          t.out_position.x, t.out_position.y, t.out_position.z})
            cp.push_back(x);
          for (float x : {t.in_rotation.x, t.in_rotation.y, t.in_rotation.z, t.in_rotation.w, kr[4 * m], kr[4 * m + 1],
                          kr[4 * m + 2], kr[4 * m + 3], t.out_rotation.x, t.out_rotation.y, t.out_rotation.z,
                          t.out_rotation.w})
            cr.push_back(x);
        }
        for (float x : cp)
          if (!std::isfinite(x)) return make_error("glTF export: node key tangent is not finite");
        for (float x : cr)
          if (!std::isfinite(x)) return make_error("glTF export: node key tangent is not finite");
        kp = std::move(cp);
        kr = std::move(cr);
      }
      a_input = buf.add_floats(kt, 1, "SCALAR", true);
      translations[n] = std::move(kp);
      rotations[n] = std::move(kr);
    }
    const char* interpolation = cubic ? "CUBICSPLINE" : "LINEAR";
    const int a_t = buf.add_floats(translations[n], 3, "VEC3", false);
    const int a_r = buf.add_floats(rotations[n], 4, "VEC4", false);
    samplers.push_back({{"input", a_input}, {"output", a_t}, {"interpolation", interpolation}});
    channels.push_back({{"sampler", samplers.size() - 1}, {"target", {{"node", n}, {"path", "translation"}}}});
    samplers.push_back({{"input", a_input}, {"output", a_r}, {"interpolation", interpolation}});
    channels.push_back({{"sampler", samplers.size() - 1}, {"target", {{"node", n}, {"path", "rotation"}}}});
  }
  buf.align4();

  json doc;
  doc["asset"] = {{"version", "2.0"}, {"generator", kAsteruneGenerator}};
  doc["scene"] = 0;
  doc["scenes"] = json::array({{{"name", rig.name()}, {"nodes", json::array({0})}}});
  doc["nodes"] = nodes;
  doc["meshes"] = meshes;
  doc["accessors"] = buf.accessors;
  doc["bufferViews"] = buf.views;
  doc["animations"] = json::array({{{"name", options.animation_name}, {"samplers", samplers}, {"channels", channels}}});
  json buffer = {{"byteLength", buf.bytes.size()}};
  if (!options.binary) {
    const std::string_view bytes(reinterpret_cast<const char*>(buf.bytes.data()), buf.bytes.size());
    buffer["uri"] = "data:application/octet-stream;base64," + detail::base64_encode(bytes);
  }
  doc["buffers"] = json::array({buffer});

  std::vector<std::uint8_t> out;
  if (!options.binary) {
    const std::string text = doc.dump(1) + "\n";
    out.assign(text.begin(), text.end());
    return out;
  }
  std::string text = doc.dump();
  while (text.size() % 4 != 0) text += ' ';  // the JSON chunk is padded with spaces
  const auto total = static_cast<std::uint32_t>(12 + 8 + text.size() + 8 + buf.bytes.size());
  put_u32(out, 0x46546C67u);  // "glTF"
  put_u32(out, 2);
  put_u32(out, total);
  put_u32(out, static_cast<std::uint32_t>(text.size()));
  put_u32(out, 0x4E4F534Au);  // "JSON"
  out.insert(out.end(), text.begin(), text.end());
  put_u32(out, static_cast<std::uint32_t>(buf.bytes.size()));
  put_u32(out, 0x004E4942u);  // "BIN\0"
  out.insert(out.end(), buf.bytes.begin(), buf.bytes.end());
  return out;
}

Status write_gltf_file(const std::filesystem::path& path, const Rig& rig, std::span<const FrameRecord> frames,
                       const std::string& animation_name) {
  GltfWriteOptions options;
  options.animation_name = animation_name;
  return write_gltf_file(path, rig, frames, std::move(options));
}

Status write_gltf_file(const std::filesystem::path& path, const Rig& rig, std::span<const FrameRecord> frames,
                       GltfWriteOptions options) {
  std::string ext = path.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  options.binary = ext == ".glb";
  auto bytes = encode_gltf(rig, frames, options);
  if (!bytes) return make_error(path.string() + ": " + bytes.message());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return make_error(path.string() + ": cannot open file for writing");
  out.write(reinterpret_cast<const char*>(bytes.value().data()), static_cast<std::streamsize>(bytes.value().size()));
  out.flush();
  if (!out) return make_error(path.string() + ": write failed");
  return Success{};
}

}  // namespace asterune::io
