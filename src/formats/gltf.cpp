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

Result<GltfSource> build_source(const tinygltf::Model& model, const std::string& path, const GltfSourceOptions& options) {
  auto fail = [&](const std::string& reason) { return make_error(path + ": " + reason); };
  if (!(options.units_to_studs > 0.0f) || !std::isfinite(options.units_to_studs))
    return fail("units_to_studs must be positive and finite");
  if (model.skins.empty()) return fail("has no skin");
  if (options.skin < 0 || static_cast<size_t>(options.skin) >= model.skins.size())
    return fail("skin " + std::to_string(options.skin) + " does not exist (the file has " +
                std::to_string(model.skins.size()) + ")");
  const tinygltf::Skin& skin = model.skins[static_cast<size_t>(options.skin)];
  if (skin.joints.empty()) return fail("skin " + std::to_string(options.skin) + " has no joints");

  const size_t node_count = model.nodes.size();
  std::vector<int> node_parent(node_count, -1);
  for (size_t n = 0; n < node_count; ++n) {
    for (int c : model.nodes[n].children) {
      if (c < 0 || static_cast<size_t>(c) >= node_count)
        return fail("node " + std::to_string(n) + " has a child index out of range");
      if (node_parent[static_cast<size_t>(c)] >= 0)
        return fail("node " + std::to_string(c) + " has two parents");
      node_parent[static_cast<size_t>(c)] = static_cast<int>(n);
    }
  }
  std::vector<int> joint_of_node(node_count, -1);
  for (size_t k = 0; k < skin.joints.size(); ++k) {
    const int n = skin.joints[k];
    if (n < 0 || static_cast<size_t>(n) >= node_count) return fail("skin joint " + std::to_string(k) + " is not a node");
    if (joint_of_node[static_cast<size_t>(n)] >= 0) return fail("node " + std::to_string(n) + " is listed twice in the skin");
    joint_of_node[static_cast<size_t>(n)] = static_cast<int>(k);
  }
  // Nearest joint ancestor of each skin joint (skin index), and the non-joint nodes in between.
  const size_t jc = skin.joints.size();
  std::vector<int> skin_parent(jc, -1);
  std::vector<Transform> fold(jc, Transform::identity());
  for (size_t k = 0; k < jc; ++k) {
    int n = node_parent[static_cast<size_t>(skin.joints[k])];
    size_t guard = 0;
    while (n >= 0 && joint_of_node[static_cast<size_t>(n)] < 0) {
      Transform t;
      if (auto e = node_transform(model, n, t)) return fail(*e);
      fold[k] = t * fold[k];
      n = node_parent[static_cast<size_t>(n)];
      if (++guard > node_count) return fail("node hierarchy has a cycle");
    }
    skin_parent[k] = n >= 0 ? joint_of_node[static_cast<size_t>(n)] : -1;
  }
  // Parents-first order: the skin's order, moving a joint after its parent when needed.
  std::vector<int> order;  // skin indexes
  std::vector<int> position(jc, -1);
  while (order.size() < jc) {
    const size_t before = order.size();
    for (size_t k = 0; k < jc; ++k) {
      if (position[k] >= 0) continue;
      const int p = skin_parent[k];
      if (p >= 0 && position[static_cast<size_t>(p)] < 0) continue;
      position[k] = static_cast<int>(order.size());
      order.push_back(static_cast<int>(k));
    }
    if (order.size() == before) return fail("skin joints form a cycle");
  }

  GltfSource source;
  SourceSkeleton& sk = source.skeleton;
  sk.name = std::filesystem::path(path).stem().string();
  sk.units_to_studs = options.units_to_studs;
  for (int k : order) {
    const size_t u = static_cast<size_t>(k);
    const int node = skin.joints[u];
    std::string name = node_name(model, node);
    if (sk.find(name) >= 0) return fail("two skin joints are named '" + name + "'");
    Transform local;
    if (auto e = node_transform(model, node, local)) return fail(*e);
    sk.joint_names.push_back(std::move(name));
    sk.parents.push_back(skin_parent[u] >= 0 ? position[static_cast<size_t>(skin_parent[u])] : -1);
    sk.rest_local.push_back(fold[u] * local);
    sk.end_sites.emplace_back(0.0f);
    source.joint_nodes.push_back(node);
  }

  // Animations.
  for (size_t a = 0; a < model.animations.size(); ++a) {
    const tinygltf::Animation& anim = model.animations[a];
    Clip clip;
    clip.name = anim.name.empty() ? "animation" + std::to_string(a) : anim.name;
    const std::string alabel = "animation " + std::to_string(a) + " '" + clip.name + "'";
    std::map<int, size_t> track_of_joint;  // skeleton index -> track
    float duration = 0.0f;
    for (size_t c = 0; c < anim.channels.size(); ++c) {
      const tinygltf::AnimationChannel& ch = anim.channels[c];
      const std::string clabel = alabel + " channel " + std::to_string(c);
      if (ch.target_node < 0 || static_cast<size_t>(ch.target_node) >= node_count) continue;
      const int k = joint_of_node[static_cast<size_t>(ch.target_node)];
      if (k < 0) continue;  // animates a non-joint node: ignored
      const bool is_rotation = ch.target_path == "rotation";
      const bool is_scale = ch.target_path == "scale";
      if (!is_rotation && !is_scale && ch.target_path != "translation") continue;  // weights
      if (ch.sampler < 0 || static_cast<size_t>(ch.sampler) >= anim.samplers.size())
        return fail(clabel + ": sampler does not exist");
      const tinygltf::AnimationSampler& sampler = anim.samplers[static_cast<size_t>(ch.sampler)];
      Interpolation mode = Interpolation::kLinear;
      bool cubic = false;
      if (sampler.interpolation == "STEP") mode = Interpolation::kStep;
      else if (sampler.interpolation == "CUBICSPLINE") {
        mode = Interpolation::kCubicSpline;
        cubic = true;
      }
      else if (!sampler.interpolation.empty() && sampler.interpolation != "LINEAR")
        return fail(clabel + ": unknown interpolation '" + sampler.interpolation + "'");
      std::vector<float> times, values;
      if (auto e = read_floats(model, sampler.input, 1, times)) return fail(clabel + " input: " + *e);
      const int comps = is_rotation ? 4 : 3;
      if (auto e = read_floats(model, sampler.output, comps, values)) return fail(clabel + " output: " + *e);
      const size_t keys = times.size();
      const size_t per_key = cubic ? 3u : 1u;
      if (values.size() != keys * per_key * static_cast<size_t>(comps))
        return fail(clabel + ": " + std::to_string(keys) + " times but " +
                    std::to_string(values.size() / static_cast<size_t>(comps)) + " output values");
      for (size_t i = 0; i < keys; ++i) {
        if (i > 0 && times[i] < times[i - 1]) return fail(clabel + ": key times go backwards at key " + std::to_string(i));
        duration = std::max(duration, times[i]);
      }
      const size_t j = static_cast<size_t>(position[static_cast<size_t>(k)]);
      auto [it, inserted] = track_of_joint.emplace(static_cast<int>(j), clip.tracks.size());
      if (inserted) {
        clip.tracks.emplace_back();
        clip.tracks.back().name = sk.joint_names[j];
      }
      ClipTrack& track = clip.tracks[it->second];
      const Transform& f = fold[static_cast<size_t>(k)];
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
      if (is_rotation) {
        if (!track.rotations.empty()) return fail(clabel + ": joint '" + track.name + "' has two rotation channels");
        track.rotation_times = times;
        track.rotation_interpolation = mode;
        for (size_t i = 0; i < keys; ++i) {
          std::optional<glm::quat> q = normalized_rotation(quat_at(i, middle));
          if (!q) return fail(clabel + ": rotation key " + std::to_string(i) + " has zero length");
          track.rotations.push_back(glm::normalize(f.rotation * *q));
          if (cubic) {
            track.rotation_in_tangents.push_back(f.rotation * quat_at(i, 0));
            track.rotation_out_tangents.push_back(f.rotation * quat_at(i, 2));
          }
        }
      } else if (is_scale) {
        if (!track.scales.empty()) return fail(clabel + ": joint '" + track.name + "' has two scale channels");
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
        if (!track.translations.empty())
          return fail(clabel + ": joint '" + track.name + "' has two translation channels");
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
    }
    clip.duration = duration;
    if (Status s = validate_clip(clip); !s) return fail(s.message());
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

}  // namespace asterune::io
