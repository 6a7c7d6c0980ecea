// glTF source import. The only translation unit that includes tinygltf, and it instantiates it
// under a private namespace name, so a program linking asterune::io can compile its own
// tinygltf implementation without duplicate symbols (tests/consumer proves it). stb image
// support is compiled out (images are never decoded: the loader installs a no-op callback).
#define tinygltf asterune_private_tinygltf
#define TINYGLTF_IMPLEMENTATION
#define TINYGLTF_NO_STB_IMAGE
#define TINYGLTF_NO_STB_IMAGE_WRITE
#define TINYGLTF_NO_EXTERNAL_IMAGE
#include <tiny_gltf.h>

#include "asterune/formats/gltf.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>

#include "asterune/clip/binding.hpp"
#include "asterune/formats/gltf_writer.hpp"
#include "asterune/retarget/humanoid.hpp"
#include "asterune/math/cframe.hpp"
#include "json_read.hpp"

namespace asterune::io {

namespace {

bool ignore_image(tinygltf::Image*, const int, std::string*, std::string*, int, int, const unsigned char*, int,
                  void*) {
  return true;
}

std::string node_name(const tinygltf::Model& model, int node) {
  const std::string& n = model.nodes[static_cast<size_t>(node)].name;
  return n.empty() ? "node" + std::to_string(node) : n;
}

// Reads an accessor as floats (components per element = `components`). Supports FLOAT and
// the normalized integer types glTF allows for animation outputs. Fails on sparse accessors,
// out-of-range views and nonfinite values.
std::optional<std::string> read_floats(const tinygltf::Model& model, int accessor_index, int components,
                                       std::vector<float>& out) {
  if (accessor_index < 0 || static_cast<size_t>(accessor_index) >= model.accessors.size())
    return "accessor " + std::to_string(accessor_index) + " does not exist";
  const tinygltf::Accessor& acc = model.accessors[static_cast<size_t>(accessor_index)];
  const std::string label = "accessor " + std::to_string(accessor_index);
  if (acc.sparse.isSparse) return label + " is sparse (not supported)";
  const int have = tinygltf::GetNumComponentsInType(static_cast<uint32_t>(acc.type));
  if (have != components)
    return label + " has " + std::to_string(have) + " components per element, expected " + std::to_string(components);
  if (acc.bufferView < 0 || static_cast<size_t>(acc.bufferView) >= model.bufferViews.size())
    return label + " has no buffer view";
  const tinygltf::BufferView& view = model.bufferViews[static_cast<size_t>(acc.bufferView)];
  if (view.buffer < 0 || static_cast<size_t>(view.buffer) >= model.buffers.size()) return label + " has no buffer";
  const tinygltf::Buffer& buffer = model.buffers[static_cast<size_t>(view.buffer)];
  const int component_size = tinygltf::GetComponentSizeInBytes(static_cast<uint32_t>(acc.componentType));
  if (component_size <= 0) return label + " has an unknown component type";
  const int stride = acc.ByteStride(view);
  if (stride <= 0) return label + " has an invalid byte stride";
  const size_t element_size = static_cast<size_t>(component_size) * static_cast<size_t>(components);
  // Every size and offset comes from the file: checked arithmetic, so nothing wraps around.
  size_t start = 0, view_end = 0, span = 0, last = 0;
  if (__builtin_add_overflow(view.byteOffset, acc.byteOffset, &start) ||
      __builtin_add_overflow(view.byteOffset, view.byteLength, &view_end))
    return label + " has a byte offset or length out of range";
  if (acc.count > 0) {
    if (__builtin_mul_overflow(acc.count - 1, static_cast<size_t>(stride), &span) ||
        __builtin_add_overflow(start, span, &last) || __builtin_add_overflow(last, element_size, &last) ||
        last > view_end || last > buffer.data.size())
      return label + " reads past the end of its buffer";
  }
  // The bounds check above caps count * stride by the buffer size, so this cannot wrap.
  out.resize(acc.count * static_cast<size_t>(components));
  for (size_t e = 0; e < acc.count; ++e) {
    const unsigned char* p = buffer.data.data() + start + e * static_cast<size_t>(stride);
    for (int c = 0; c < components; ++c) {
      const unsigned char* q = p + static_cast<size_t>(c * component_size);
      float v = 0.0f;
      switch (acc.componentType) {
        case TINYGLTF_COMPONENT_TYPE_FLOAT: std::memcpy(&v, q, 4); break;
        case TINYGLTF_COMPONENT_TYPE_BYTE: {
          int8_t x;
          std::memcpy(&x, q, 1);
          v = std::max(static_cast<float>(x) / 127.0f, -1.0f);
          break;
        }
        case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE: v = static_cast<float>(*q) / 255.0f; break;
        case TINYGLTF_COMPONENT_TYPE_SHORT: {
          int16_t x;
          std::memcpy(&x, q, 2);
          v = std::max(static_cast<float>(x) / 32767.0f, -1.0f);
          break;
        }
        case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT: {
          uint16_t x;
          std::memcpy(&x, q, 2);
          v = static_cast<float>(x) / 65535.0f;
          break;
        }
        default: return label + " has an unsupported component type";
      }
      if (!std::isfinite(v)) return label + " holds a nonfinite value at element " + std::to_string(e);
      out[e * static_cast<size_t>(components) + static_cast<size_t>(c)] = v;
    }
  }
  return std::nullopt;
}

// A node's own transform (TRS or matrix) as a rigid Transform; scale is dropped.
std::optional<std::string> node_transform(const tinygltf::Model& model, int index, Transform& out) {
  const tinygltf::Node& node = model.nodes[static_cast<size_t>(index)];
  const std::string label = "node " + std::to_string(index) + " '" + node_name(model, index) + "'";
  out = Transform::identity();
  if (node.matrix.size() == 16) {
    glm::mat3 r;
    for (int c = 0; c < 3; ++c) {
      glm::vec3 col(static_cast<float>(node.matrix[static_cast<size_t>(c * 4)]),
                    static_cast<float>(node.matrix[static_cast<size_t>(c * 4 + 1)]),
                    static_cast<float>(node.matrix[static_cast<size_t>(c * 4 + 2)]));
      const float len = glm::length(col);
      if (!(len > 1e-8f) || !std::isfinite(len)) return label + ": matrix has a degenerate or nonfinite column";
      r[c] = col / len;
    }
    Result<glm::quat> q = rotation_from_matrix(r, 1e-3f);
    if (!q) return label + ": matrix is not a rotation with scale (" + q.message() + ")";
    out.rotation = q.value();
    out.position = glm::vec3(static_cast<float>(node.matrix[12]), static_cast<float>(node.matrix[13]),
                             static_cast<float>(node.matrix[14]));
  } else if (!node.matrix.empty()) {
    return label + ": matrix must have 16 values";
  } else {
    if (node.translation.size() == 3)
      out.position = glm::vec3(static_cast<float>(node.translation[0]), static_cast<float>(node.translation[1]),
                               static_cast<float>(node.translation[2]));
    else if (!node.translation.empty())
      return label + ": translation must have 3 values";
    if (node.rotation.size() == 4) {
      const glm::quat q(static_cast<float>(node.rotation[3]), static_cast<float>(node.rotation[0]),
                        static_cast<float>(node.rotation[1]), static_cast<float>(node.rotation[2]));
      std::optional<glm::quat> n = normalized_rotation(q);
      if (!n) return label + ": rotation is zero or nonfinite";
      out.rotation = *n;
    } else if (!node.rotation.empty()) {
      return label + ": rotation must have 4 values";
    }
  }
  if (!is_finite(out)) return label + ": transform is nonfinite";
  return std::nullopt;
}

// The node hierarchy: each node's parent (-1 for a scene root) and a preorder of every node
// (a node before its children). Fails on a child index out of range, a node with two parents
// and a cycle (nodes no root reaches). Linear in the node count.
std::optional<std::string> node_hierarchy(const tinygltf::Model& model, std::vector<int>& parent,
                                          std::vector<int>& preorder) {
  const size_t count = model.nodes.size();
  parent.assign(count, -1);
  for (size_t n = 0; n < count; ++n) {
    for (int c : model.nodes[n].children) {
      if (c < 0 || static_cast<size_t>(c) >= count) return "node " + std::to_string(n) + " has a child index out of range";
      if (parent[static_cast<size_t>(c)] >= 0) return "node " + std::to_string(c) + " has two parents";
      parent[static_cast<size_t>(c)] = static_cast<int>(n);
    }
  }
  preorder.clear();
  std::vector<int> stack;
  for (size_t r = 0; r < count; ++r) {
    if (parent[r] >= 0) continue;
    stack.push_back(static_cast<int>(r));
    while (!stack.empty()) {
      const int n = stack.back();
      stack.pop_back();
      preorder.push_back(n);
      const auto& children = model.nodes[static_cast<size_t>(n)].children;
      for (auto it = children.rbegin(); it != children.rend(); ++it) stack.push_back(*it);
    }
  }
  if (preorder.size() != count) return "node hierarchy has a cycle";
  return std::nullopt;
}

// A node index in a VRM extension object ({"node": i}), or -1.
int vrm_node(const tinygltf::Value& v, size_t node_count) {
  if (!v.IsObject() || !v.Has("node") || !v.Get("node").IsNumber()) return -1;
  const int n = v.Get("node").GetNumberAsInt();
  return n >= 0 && static_cast<size_t>(n) < node_count ? n : -1;
}

// The humanoid bone map of a VRM file: VRMC_vrm_animation (.vrma) or VRMC_vrm (VRM 1.0), both
// {"humanoid": {"humanBones": {"hips": {"node": i}, ...}}}, or VRM 0.x's "VRM" extension, an
// array of {"bone": "hips", "node": i}. A VRM Animation's expression and lookAt nodes carry
// weights and a gaze target in their transforms, not bones: they are listed in not_bones.
struct VrmMap {
  std::vector<std::pair<std::string, int>> bones;  // VRM bone name, node
  std::vector<int> not_bones;
};

VrmMap read_vrm_map(const tinygltf::Model& model) {
  VrmMap out;
  const size_t count = model.nodes.size();
  for (const char* ext : {"VRMC_vrm_animation", "VRMC_vrm"}) {
    const auto it = model.extensions.find(ext);
    if (it == model.extensions.end() || !it->second.IsObject()) continue;
    const tinygltf::Value& root = it->second;
    if (root.Has("humanoid") && root.Get("humanoid").Has("humanBones")) {
      const tinygltf::Value& bones = root.Get("humanoid").Get("humanBones");
      for (const std::string& name : bones.Keys())
        if (const int n = vrm_node(bones.Get(name), count); n >= 0) out.bones.emplace_back(name, n);
    }
    if (std::string(ext) != "VRMC_vrm_animation") continue;
    if (const int n = root.Has("lookAt") ? vrm_node(root.Get("lookAt"), count) : -1; n >= 0) out.not_bones.push_back(n);
    if (root.Has("expressions") && root.Get("expressions").IsObject()) {
      const tinygltf::Value& groups = root.Get("expressions");
      for (const std::string& g : groups.Keys())
        if (groups.Get(g).IsObject())
          for (const std::string& e : groups.Get(g).Keys())
            if (const int n = vrm_node(groups.Get(g).Get(e), count); n >= 0) out.not_bones.push_back(n);
    }
  }
  const auto vrm0 = model.extensions.find("VRM");
  if (out.bones.empty() && vrm0 != model.extensions.end() && vrm0->second.Has("humanoid") &&
      vrm0->second.Get("humanoid").Has("humanBones")) {
    const tinygltf::Value& bones = vrm0->second.Get("humanoid").Get("humanBones");
    for (size_t i = 0; i < bones.ArrayLen(); ++i) {
      const tinygltf::Value& b = bones.Get(static_cast<int>(i));
      if (b.Has("bone") && b.Get("bone").IsString())
        if (const int n = vrm_node(b, count); n >= 0) out.bones.emplace_back(b.Get("bone").Get<std::string>(), n);
    }
  }
  return out;
}

bool is_transform_path(const std::string& path) {
  return path == "translation" || path == "rotation" || path == "scale";
}

// The nodes that become joints, in the order they are listed (gltf.hpp): one skin when
// options.skin >= 0; else the union of every skin (skin 0's joints first); else, for an
// animation-only file, every node of the trees that hold an animated node or a VRM bone (a
// VRM Animation's expression and lookAt nodes left out), in preorder.
std::optional<std::string> pick_joint_nodes(const tinygltf::Model& model, const std::vector<int>& parent,
                                            const std::vector<int>& preorder, const GltfSourceOptions& options,
                                            const VrmMap& vrm, std::vector<int>& joints) {
  const size_t count = model.nodes.size();
  std::vector<char> taken(count, 0);
  joints.clear();
  auto take_skin = [&](size_t s) -> std::optional<std::string> {
    const tinygltf::Skin& skin = model.skins[s];
    for (size_t k = 0; k < skin.joints.size(); ++k) {
      const int n = skin.joints[k];
      if (n < 0 || static_cast<size_t>(n) >= count)
        return "skin " + std::to_string(s) + " joint " + std::to_string(k) + " is not a node";
      if (taken[static_cast<size_t>(n)]) {
        if (options.skin >= 0) return "node " + std::to_string(n) + " is listed twice in the skin";
        continue;  // shared by two skins
      }
      taken[static_cast<size_t>(n)] = 1;
      joints.push_back(n);
    }
    return std::nullopt;
  };
  if (options.skin >= 0) {
    if (static_cast<size_t>(options.skin) >= model.skins.size())
      return "skin " + std::to_string(options.skin) + " does not exist (the file has " +
             std::to_string(model.skins.size()) + ")";
    if (auto e = take_skin(static_cast<size_t>(options.skin))) return e;
    if (joints.empty()) return "skin " + std::to_string(options.skin) + " has no joints";
    return std::nullopt;
  }
  for (size_t s = 0; s < model.skins.size(); ++s)
    if (auto e = take_skin(s)) return e;
  if (!joints.empty()) return std::nullopt;
  // No skin: the node trees of the animated nodes and of the VRM bones.
  std::vector<char> excluded(count, 0), root_used(count, 0);
  for (int n : vrm.not_bones) excluded[static_cast<size_t>(n)] = 1;
  auto use_tree_of = [&](int n) {
    if (n < 0 || static_cast<size_t>(n) >= count || excluded[static_cast<size_t>(n)]) return;
    while (parent[static_cast<size_t>(n)] >= 0) n = parent[static_cast<size_t>(n)];  // no cycle: checked
    root_used[static_cast<size_t>(n)] = 1;
  };
  for (const tinygltf::Animation& a : model.animations)
    for (const tinygltf::AnimationChannel& ch : a.channels)
      if (is_transform_path(ch.target_path)) use_tree_of(ch.target_node);
  for (const auto& bone : vrm.bones) use_tree_of(bone.second);
  // In preorder a node's tree is its root's: mark down from the used roots.
  std::vector<char> inside(count, 0);
  for (int n : preorder) {
    const int p = parent[static_cast<size_t>(n)];
    const bool in = p < 0 ? root_used[static_cast<size_t>(n)] != 0 : inside[static_cast<size_t>(p)] != 0;
    inside[static_cast<size_t>(n)] = in && !excluded[static_cast<size_t>(n)];
    if (inside[static_cast<size_t>(n)]) joints.push_back(n);
  }
  if (joints.empty()) return "has no skin and no animated node (nothing to take a skeleton from)";
  return std::nullopt;
}

// Per listed joint k: its joint parent (listed index, the nearest ancestor node that is a
// joint), the transforms of the non-joint nodes in between folded into one, and its place in
// the skeleton (listed order, a joint moved after its parent when listed before it).
struct JointTable {
  std::vector<int> nodes;          // k -> node
  std::vector<int> joint_of_node;  // node -> k, or -1
  std::vector<int> parent;         // k -> k of the joint parent, or -1
  std::vector<Transform> fold;     // k -> the folded non-joint ancestors
  std::vector<int> position;       // k -> skeleton index
  std::vector<int> order;          // skeleton index -> k
};

std::optional<std::string> build_joint_table(const tinygltf::Model& model, const std::vector<int>& node_parent,
                                             const std::vector<int>& preorder, JointTable& t) {
  const size_t count = model.nodes.size(), jc = t.nodes.size();
  t.joint_of_node.assign(count, -1);
  for (size_t k = 0; k < jc; ++k) t.joint_of_node[static_cast<size_t>(t.nodes[k])] = static_cast<int>(k);
  // Down the preorder: each node's nearest joint ancestor and the fold of the non-joint nodes
  // between them, from its parent's (linear, however deep the tree).
  std::vector<int> up_joint(count, -1);
  std::vector<Transform> chain(count, Transform::identity());
  for (int n : preorder) {
    const int p = node_parent[static_cast<size_t>(n)];
    if (p < 0) continue;
    const auto up = static_cast<size_t>(p);
    if (t.joint_of_node[up] >= 0) {
      up_joint[static_cast<size_t>(n)] = t.joint_of_node[up];
      continue;
    }
    Transform local;
    if (auto e = node_transform(model, p, local)) return e;
    up_joint[static_cast<size_t>(n)] = up_joint[up];
    chain[static_cast<size_t>(n)] = chain[up] * local;
  }
  t.parent.resize(jc);
  t.fold.resize(jc);
  for (size_t k = 0; k < jc; ++k) {
    t.parent[k] = up_joint[static_cast<size_t>(t.nodes[k])];
    t.fold[k] = chain[static_cast<size_t>(t.nodes[k])];
  }
  // Parents first, else listed order: each joint after its unplaced ancestors (a tree: no cycle).
  t.position.assign(jc, -1);
  t.order.clear();
  std::vector<int> pending;
  for (size_t k = 0; k < jc; ++k) {
    for (int a = static_cast<int>(k); a >= 0 && t.position[static_cast<size_t>(a)] < 0; a = t.parent[static_cast<size_t>(a)])
      pending.push_back(a);
    for (auto it = pending.rbegin(); it != pending.rend(); ++it) {
      t.position[static_cast<size_t>(*it)] = static_cast<int>(t.order.size());
      t.order.push_back(*it);
    }
    pending.clear();
  }
  return std::nullopt;
}

// The skeleton of the table's joints (skeleton order), named by their nodes.
std::optional<std::string> fill_skeleton(const tinygltf::Model& model, const JointTable& t, GltfSource& source) {
  SourceSkeleton& sk = source.skeleton;
  for (int k : t.order) {
    const auto u = static_cast<size_t>(k);
    const int node = t.nodes[u];
    std::string name = node_name(model, node);
    if (sk.find(name) >= 0) return "two skeleton joints are named '" + name + "'";
    Transform local;
    if (auto e = node_transform(model, node, local)) return e;
    sk.joint_names.push_back(std::move(name));
    sk.parents.push_back(t.parent[u] >= 0 ? t.position[static_cast<size_t>(t.parent[u])] : -1);
    sk.rest_local.push_back(t.fold[u] * local);
    sk.end_sites.emplace_back(0.0f);
    source.joint_nodes.push_back(node);
  }
  return std::nullopt;
}

// One channel's keys into `track` (values mapped by the joint's fold `f`, see gltf.hpp).
std::optional<std::string> add_channel_keys(const tinygltf::Model& model, const tinygltf::Animation& anim,
                                            const tinygltf::AnimationChannel& ch, const Transform& f, ClipTrack& track,
                                            float& duration) {
  const bool is_rotation = ch.target_path == "rotation";
  const bool is_scale = ch.target_path == "scale";
  if (ch.sampler < 0 || static_cast<size_t>(ch.sampler) >= anim.samplers.size()) return std::string("sampler does not exist");
  const tinygltf::AnimationSampler& sampler = anim.samplers[static_cast<size_t>(ch.sampler)];
  Interpolation mode = Interpolation::kLinear;
  const bool cubic = sampler.interpolation == "CUBICSPLINE";
  if (sampler.interpolation == "STEP") mode = Interpolation::kStep;
  else if (cubic) mode = Interpolation::kCubicSpline;
  else if (!sampler.interpolation.empty() && sampler.interpolation != "LINEAR")
    return "unknown interpolation '" + sampler.interpolation + "'";
  std::vector<float> times, values;
  if (auto e = read_floats(model, sampler.input, 1, times)) return "input: " + *e;
  const int comps = is_rotation ? 4 : 3;
  if (auto e = read_floats(model, sampler.output, comps, values)) return "output: " + *e;
  const size_t keys = times.size();
  const size_t per_key = cubic ? 3u : 1u;
  if (values.size() != keys * per_key * static_cast<size_t>(comps))
    return std::to_string(keys) + " times but " + std::to_string(values.size() / static_cast<size_t>(comps)) +
           " output values";
  for (size_t i = 0; i < keys; ++i) {
    if (i > 0 && times[i] < times[i - 1]) return "key times go backwards at key " + std::to_string(i);
    duration = std::max(duration, times[i]);
  }
  // CUBICSPLINE: per key an in-tangent, the value, an out-tangent. The fold (rigid) maps
  // values as before; tangents are derivatives, so only its rotation applies to them (for
  // rotations, left-multiplying by the fold rotation is linear in the 4 components).
  const size_t middle = cubic ? 1u : 0u;
  auto vec3_at = [&](size_t i, size_t slot) {
    const float* v = &values[(i * per_key + slot) * 3];
    return glm::vec3(v[0], v[1], v[2]);
  };
  auto quat_at = [&](size_t i, size_t slot) {
    const float* v = &values[(i * per_key + slot) * 4];
    return glm::quat(v[3], v[0], v[1], v[2]);
  };
  const std::string twice = "joint '" + track.name + "' has two " + ch.target_path + " channels";
  if (is_rotation) {
    if (!track.rotations.empty()) return twice;
    track.rotation_times = times;
    track.rotation_interpolation = mode;
    for (size_t i = 0; i < keys; ++i) {
      std::optional<glm::quat> q = normalized_rotation(quat_at(i, middle));
      if (!q) return "rotation key " + std::to_string(i) + " has zero length";
      track.rotations.push_back(glm::normalize(f.rotation * *q));
      if (cubic) {
        track.rotation_in_tangents.push_back(f.rotation * quat_at(i, 0));
        track.rotation_out_tangents.push_back(f.rotation * quat_at(i, 2));
      }
    }
  } else if (is_scale) {
    if (!track.scales.empty()) return twice;
    track.scale_times = times;
    track.scale_interpolation = mode;
    for (size_t i = 0; i < keys; ++i) {
      track.scales.push_back(vec3_at(i, middle));
      if (cubic) {
        track.scale_in_tangents.push_back(vec3_at(i, 0));
        track.scale_out_tangents.push_back(vec3_at(i, 2));
      }
    }
  } else {
    if (!track.translations.empty()) return twice;
    track.translation_times = times;
    track.translation_interpolation = mode;
    for (size_t i = 0; i < keys; ++i) {
      track.translations.push_back(transform_point(f, vec3_at(i, middle)));
      if (cubic) {
        track.translation_in_tangents.push_back(f.rotation * vec3_at(i, 0));
        track.translation_out_tangents.push_back(f.rotation * vec3_at(i, 2));
      }
    }
  }
  return std::nullopt;
}

// Animation `a` as a Clip over the skeleton: channels of non-joint nodes and weights ignored.
std::optional<std::string> read_animation(const tinygltf::Model& model, size_t a, const JointTable& t,
                                          const SourceSkeleton& sk, Clip& clip) {
  const tinygltf::Animation& anim = model.animations[a];
  clip.name = anim.name.empty() ? "animation" + std::to_string(a) : anim.name;
  const std::string alabel = "animation " + std::to_string(a) + " '" + clip.name + "'";
  std::map<int, size_t> track_of_joint;  // skeleton index -> track
  float duration = 0.0f;
  for (size_t c = 0; c < anim.channels.size(); ++c) {
    const tinygltf::AnimationChannel& ch = anim.channels[c];
    if (ch.target_node < 0 || static_cast<size_t>(ch.target_node) >= model.nodes.size()) continue;
    const int k = t.joint_of_node[static_cast<size_t>(ch.target_node)];
    if (k < 0 || !is_transform_path(ch.target_path)) continue;  // a non-joint node, or weights
    const auto j = static_cast<size_t>(t.position[static_cast<size_t>(k)]);
    auto [it, inserted] = track_of_joint.emplace(static_cast<int>(j), clip.tracks.size());
    if (inserted) {
      clip.tracks.emplace_back();
      clip.tracks.back().name = sk.joint_names[j];
    }
    if (auto e = add_channel_keys(model, anim, ch, t.fold[static_cast<size_t>(k)], clip.tracks[it->second], duration))
      return alabel + " channel " + std::to_string(c) + ": " + *e;
  }
  clip.duration = duration;
  if (Status s = validate_clip(clip); !s) return s.message();
  return std::nullopt;
}

Result<GltfSource> build_source(const tinygltf::Model& model, const std::string& path, const GltfSourceOptions& options) {
  auto fail = [&](const std::string& reason) { return make_error(path + ": " + reason); };
  if (!(options.units_to_studs > 0.0f) || !std::isfinite(options.units_to_studs))
    return fail("units_to_studs must be positive and finite");
  std::vector<int> node_parent, preorder;
  if (auto e = node_hierarchy(model, node_parent, preorder)) return fail(*e);
  const VrmMap vrm = read_vrm_map(model);
  JointTable table;
  if (auto e = pick_joint_nodes(model, node_parent, preorder, options, vrm, table.nodes)) return fail(*e);
  if (auto e = build_joint_table(model, node_parent, preorder, table)) return fail(*e);

  GltfSource source;
  source.skeleton.name = std::filesystem::path(path).stem().string();
  // Our own exports (gltf_writer.hpp) are in studs; every other glTF is in metres.
  const bool ours = model.asset.generator == kAsteruneGenerator;
  source.asterune_export = ours;
  source.skeleton.units_to_studs = ours && options.units_to_studs == GltfSourceOptions{}.units_to_studs
                                       ? 1.0f
                                       : options.units_to_studs;
  if (auto e = fill_skeleton(model, table, source)) return fail(*e);
  for (const auto& [bone, node] : vrm.bones) {  // VRM humanoid bones are roles (rule F20)
    const int k = table.joint_of_node[static_cast<size_t>(node)];
    if (k >= 0 && parse_role(bone))
      source.skeleton.roles[bone] = source.skeleton.joint_names[static_cast<size_t>(table.position[static_cast<size_t>(k)])];
  }
  for (size_t a = 0; a < model.animations.size(); ++a) {
    Clip clip;
    if (auto e = read_animation(model, a, table, source.skeleton, clip)) return fail(*e);
    source.clips.push_back(std::move(clip));
  }
  return source;
}

// The JSON text of a .gltf file, or the JSON chunk of a .glb (empty when the GLB header is too
// short to name one: tinygltf then refuses the file with its own message).
std::string_view gltf_json_text(std::string_view bytes, bool binary) {
  if (!binary) return bytes;
  if (bytes.size() < 20) return {};
  std::uint32_t chunk_length = 0;
  std::memcpy(&chunk_length, bytes.data() + 12, 4);  // GLB is little-endian, as are our targets
  return bytes.substr(20, std::min<size_t>(chunk_length, bytes.size() - 20));
}

// The file's bytes (JSON or GLB) through tinygltf into a GltfSource. The JSON nesting check
// throws its LoadError to load_gltf_source's parse_text_file, which names the file.
Result<GltfSource> parse_gltf_bytes(std::string_view bytes, const std::string& path, const GltfSourceOptions& options) {
  const bool binary = bytes.size() >= 4 && bytes.compare(0, 4, "glTF") == 0;
  detail::check_json_depth(gltf_json_text(bytes, binary), detail::kMaxJsonDepth);

  tinygltf::Model model;
  std::string err, warn;
  bool ok = false;
  const std::string base_dir = std::filesystem::path(path).parent_path().string();
  try {
    tinygltf::TinyGLTF loader;
    loader.SetImageLoader(&ignore_image, nullptr);
    ok = binary ? loader.LoadBinaryFromMemory(&model, &err, &warn,
                                               reinterpret_cast<const unsigned char*>(bytes.data()),
                                               static_cast<unsigned int>(bytes.size()), base_dir)
                : loader.LoadASCIIFromString(&model, &err, &warn, bytes.data(),
                                             static_cast<unsigned int>(bytes.size()), base_dir);
  } catch (const std::exception& e) {
    return make_error(path + ": glTF parse error: " + e.what());
  }
  if (!ok) {
    // tinygltf ends each of its messages with a line break: keep the refusal on one line.
    std::string reason = err.empty() ? std::string("unknown") : err;
    while (!reason.empty() && (reason.back() == '\n' || reason.back() == '\r')) reason.pop_back();
    std::replace(reason.begin(), reason.end(), '\n', ' ');
    return make_error(path + ": glTF parse error: " + reason);
  }
  try {
    return build_source(model, path, options);
  } catch (const std::exception& e) {
    return make_error(path + ": " + e.what());
  }
}

}  // namespace

Result<GltfSource> load_gltf_source(const std::string& path, const GltfSourceOptions& options) {
  // Read it ourselves so the same file rules as every other reader apply (regular file, size
  // limit) and so the JSON nesting is checked before tinygltf's recursive parser sees it.
  return detail::parse_text_file(path, [&](std::string_view bytes, const std::string&) {
    return parse_gltf_bytes(bytes, path, options);
  });
}

Result<size_t> find_gltf_clip(const std::vector<Clip>& clips, const std::string& which) {
  for (size_t i = 0; i < clips.size(); ++i)
    if (clips[i].name == which) return i;
  if (!which.empty() && which.size() < 10 && std::all_of(which.begin(), which.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    const size_t i = std::stoul(which);
    if (i < clips.size()) return i;
  }
  std::string names;
  for (size_t i = 0; i < clips.size() && i < 20; ++i) names += (i ? ", " : "") + std::to_string(i) + " '" + clips[i].name + "'";
  if (clips.size() > 20) names += ", ...";
  return make_error("no animation named or numbered '" + which + "' (the file has " + std::to_string(clips.size()) +
                    (clips.empty() ? "" : ": " + names) + ")");
}

}  // namespace asterune::io
