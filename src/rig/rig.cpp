#include "asterune/rig/rig.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <optional>
#include <span>
#include <queue>
#include <unordered_map>

#include "core/hash.hpp"
#include "rig/walk_schedule.hpp"

namespace asterune {
namespace {

using detail::FrameLane;
using detail::WalkBlockBits;

// Layout signature hashing on top of the shared FNV-1a (core/hash.hpp).
struct Hasher {
  detail::Fnv1a fnv;
  void str(const std::string& s) { fnv.str(s); }
  void integer(std::int64_t v) { fnv.u64(static_cast<std::uint64_t>(v)); }
  // Quantized to 1e-5 so that values that print the same hash the same; -0 equals +0.
  void real(float v) { integer(static_cast<std::int64_t>(std::llround(static_cast<double>(v) * 1e5))); }
  void transform(const Transform& t) {
    glm::quat q = t.rotation;
    if (q.w < 0.0f) q = -q;  // q and -q are the same rotation
    real(q.w), real(q.x), real(q.y), real(q.z);
    real(t.position.x), real(t.position.y), real(t.position.z);
  }
  std::uint64_t value() const { return fnv.value(); }
};

}  // namespace

const char* to_string(DropReason reason) {
  switch (reason) {
    case DropReason::kDisabled: return "disabled";
    case DropReason::kMissingPart: return "missing part";
    case DropReason::kDuplicateChild: return "second joint placing the same child";
    case DropReason::kCycle: return "cycle";
    case DropReason::kSelfJoint: return "joins a part to itself";
  }
  return "unknown";
}

int Rig::find_part_by_id(std::string_view id) const {
  for (int p = 0; p < part_count(); ++p)
    if (parts_[static_cast<size_t>(p)].id == id) return p;
  return -1;
}

std::string Rig::lookup_name(int j) const {
  if (find_joint(child_name(j)).found()) return child_name(j);
  return parent_name(j) + "/" + child_name(j);
}

JointLookup Rig::find_joint(std::string_view name) const {
  JointLookup out;
  std::vector<int> hits;
  for (int j = 0; j < joint_count(); ++j)
    if (child_name(j) == name) hits.push_back(j);
  if (hits.empty()) {
    // Parent-qualified form "Parent/Child"; split at the last '/' so names may contain '/'.
    const size_t slash = name.rfind('/');
    if (slash != std::string_view::npos) {
      const std::string_view parent = name.substr(0, slash);
      const std::string_view child = name.substr(slash + 1);
      for (int j = 0; j < joint_count(); ++j)
        if (child_name(j) == child && parent_name(j) == parent) hits.push_back(j);
    }
  }
  if (hits.size() == 1) {
    out.index = hits[0];
    out.status = LookupStatus::kFound;
    return out;
  }
  if (hits.empty()) {
    out.status = LookupStatus::kNotFound;
    out.message = "no joint has a child part named '" + std::string(name) + "'";
    return out;
  }
  out.status = LookupStatus::kAmbiguous;
  out.message = "'" + std::string(name) + "' names the child of " + std::to_string(hits.size()) +
                " joints; use a parent-qualified name:";
  for (int j : hits) out.message += " '" + parent_name(j) + "/" + child_name(j) + "'";
  return out;
}

JointLookup Rig::find_joint_by_joint_name(std::string_view name) const {
  JointLookup out;
  int count = 0;
  for (int j = 0; j < joint_count(); ++j) {
    if (joint_name(j) == name) {
      out.index = j;
      ++count;
    }
  }
  if (count == 1) {
    out.status = LookupStatus::kFound;
  } else if (count == 0) {
    out.index = -1;
    out.message = "no joint is named '" + std::string(name) + "'";
  } else {
    out.index = -1;
    out.status = LookupStatus::kAmbiguous;
    out.message = std::to_string(count) + " joints are named '" + std::string(name) + "'";
  }
  return out;
}

// build_rig's stages, in order (rules R2-R5, R7). A friend of Rig: each stage fills its part
// of the private layout.
struct detail::RigBuilder {
  struct Kept {  // a joint that survived stage 1: its description and its two parts
    size_t desc_index;
    int p0, p1;
  };
  struct Graph {
    std::unordered_map<std::string, int> part_index;
    std::vector<Kept> kept;
    std::vector<int> placing_joint;  // per part: index into kept of the joint placing it, or -1
    std::vector<unsigned char> on_cycle;          // per kept joint
    std::vector<std::vector<int>> children;       // per part: kept joints hanging from it
  };

  // Ids unique and non-empty, placements and sizes finite.
  static std::optional<std::string> index_parts(const RigDesc& desc, const std::string& label, Graph& g) {
    for (size_t p = 0; p < desc.parts.size(); ++p) {
      const PartDesc& part = desc.parts[p];
      if (part.id.empty()) return label + ": part #" + std::to_string(p) + " has an empty id";
      if (!g.part_index.emplace(part.id, static_cast<int>(p)).second) return label + ": duplicate part id '" + part.id + "'";
      if (part.placement && !is_finite(*part.placement)) return label + ": part '" + part.id + "' has a nonfinite placement";
      if (!is_finite(part.size)) return label + ": part '" + part.id + "' has a nonfinite size";
    }
    return std::nullopt;
  }

  // 1. Keep enabled joints between two existing, distinct parts; first joint per child wins.
  static std::optional<std::string> keep_joints(const RigDesc& desc, const std::string& label, Graph& g, Rig& rig) {
    g.placing_joint.assign(desc.parts.size(), -1);
    for (size_t i = 0; i < desc.joints.size(); ++i) {
      const JointDesc& jd = desc.joints[i];
      if (!is_finite(jd.c0) || !is_finite(jd.c1))
        return label + ": joint '" + jd.name + "' has a nonfinite attachment frame (C0 or C1)";
      if (!jd.enabled) {
        rig.dropped_.push_back({jd.name, DropReason::kDisabled, "joint is disabled"});
        continue;
      }
      auto it0 = g.part_index.find(jd.part0);
      auto it1 = g.part_index.find(jd.part1);
      if (it0 == g.part_index.end() || it1 == g.part_index.end()) {
        const std::string& missing = it0 == g.part_index.end() ? jd.part0 : jd.part1;
        rig.dropped_.push_back({jd.name, DropReason::kMissingPart,
                                (it0 == g.part_index.end() ? "part0 '" : "part1 '") + missing + "' is not a part of the rig"});
        continue;
      }
      if (it0->second == it1->second) {
        rig.dropped_.push_back({jd.name, DropReason::kSelfJoint, "part0 and part1 are both '" + jd.part0 + "'"});
        continue;
      }
      const int previous = g.placing_joint[static_cast<size_t>(it1->second)];
      if (previous >= 0) {
        rig.dropped_.push_back({jd.name, DropReason::kDuplicateChild,
                                "part '" + jd.part1 + "' is already placed by joint '" +
                                    desc.joints[g.kept[static_cast<size_t>(previous)].desc_index].name + "'"});
        continue;
      }
      g.placing_joint[static_cast<size_t>(it1->second)] = static_cast<int>(g.kept.size());
      g.kept.push_back({i, it0->second, it1->second});
    }
    return std::nullopt;
  }

  // 2. Joints on a cycle: walking part0 upwards returns to the starting joint. Each kept joint
  // has at most one "up" joint, so one walk per unvisited joint, stopping at anything already
  // visited, finds every cycle in linear time (a chain of 200,000 joints must not take minutes).
  static void mark_cycles(Graph& g) {
    g.on_cycle.assign(g.kept.size(), 0);
    std::vector<unsigned char> state(g.kept.size(), 0);  // 0 unvisited, 1 on the current walk, 2 done
    std::vector<int> walk;
    for (size_t start = 0; start < g.kept.size(); ++start) {
      if (state[start] != 0) continue;
      walk.clear();
      int cur = static_cast<int>(start);
      while (cur >= 0 && state[static_cast<size_t>(cur)] == 0) {
        state[static_cast<size_t>(cur)] = 1;
        walk.push_back(cur);
        cur = g.placing_joint[static_cast<size_t>(g.kept[static_cast<size_t>(cur)].p0)];
      }
      if (cur >= 0 && state[static_cast<size_t>(cur)] == 1) {
        // The walk closed on itself: the joints from `cur` to the end of the walk form the cycle.
        for (size_t i = walk.size(); i-- > 0;) {
          g.on_cycle[static_cast<size_t>(walk[i])] = 1;
          if (walk[i] == cur) break;
        }
      }
      for (int k : walk) state[static_cast<size_t>(k)] = 2;
    }
  }

  // Drops the cycles' joints (rule R3) and lists each part's children in description order.
  static void drop_cycles(const RigDesc& desc, Graph& g, Rig& rig) {
    mark_cycles(g);
    for (size_t k = 0; k < g.kept.size(); ++k) {
      if (!g.on_cycle[k]) continue;
      const JointDesc& jd = desc.joints[g.kept[k].desc_index];
      rig.dropped_.push_back({jd.name, DropReason::kCycle, "following part0 upwards from '" + jd.part1 + "' returns to it"});
      g.placing_joint[static_cast<size_t>(g.kept[k].p1)] = -1;
    }
    g.children.assign(desc.parts.size(), {});
    for (size_t k = 0; k < g.kept.size(); ++k)
      if (!g.on_cycle[k]) g.children[static_cast<size_t>(g.kept[k].p0)].push_back(static_cast<int>(k));
  }

  static int count_reachable(const Graph& g, int part) {
    int count = 0;
    std::vector<int> stack{part};
    while (!stack.empty()) {
      const int p = stack.back();
      stack.pop_back();
      for (int k : g.children[static_cast<size_t>(p)]) {
        ++count;
        stack.push_back(g.kept[static_cast<size_t>(k)].p1);
      }
    }
    return count;
  }

  // 3. The root (rule R5): the named one, else the unplaced part reaching the most joints.
  static Result<int> choose_root(const RigDesc& desc, const std::string& label, const Graph& g) {
    if (!desc.root.empty()) {
      auto it = g.part_index.find(desc.root);
      if (it == g.part_index.end()) return make_error(label + ": root '" + desc.root + "' is not a part of the rig");
      const int placer = g.placing_joint[static_cast<size_t>(it->second)];
      if (placer >= 0)
        return make_error(label + ": root '" + desc.root + "' is the child of joint '" +
                          desc.joints[g.kept[static_cast<size_t>(placer)].desc_index].name +
                          "'; the root must be a part no joint places");
      return it->second;
    }
    int root = -1, best_count = -1;
    for (int p = 0; p < static_cast<int>(desc.parts.size()); ++p) {
      if (g.placing_joint[static_cast<size_t>(p)] >= 0) continue;
      const int count = count_reachable(g, p);
      const bool better = count > best_count ||
                          (count == best_count && desc.parts[static_cast<size_t>(p)].name == "HumanoidRootPart" &&
                           desc.parts[static_cast<size_t>(root)].name != "HumanoidRootPart");
      if (better) {
        best_count = count;
        root = p;
      }
    }
    return root < 0 ? 0 : root;  // root < 0 is unreachable: some part is always no kept joint's child
  }

  // 4. Depth-first pre-order layout from the root, then the disconnected subtrees (rules R2,
  // R4). Returns the kept index of each layout slot; fills joint_of_part_ and connected_.
  static std::vector<int> lay_out(const Graph& g, int root, Rig& rig) {
    const int part_count = static_cast<int>(g.children.size());
    rig.joint_of_part_.assign(static_cast<size_t>(part_count), -1);
    std::vector<int> layout_kept;
    auto lay_out_from = [&](int top_part, bool is_connected) {
      // Explicit stack; children pushed in reverse so they come out in description order.
      std::vector<int> stack;
      const auto& top_children = g.children[static_cast<size_t>(top_part)];
      for (auto it = top_children.rbegin(); it != top_children.rend(); ++it) stack.push_back(*it);
      while (!stack.empty()) {
        const int k = stack.back();
        stack.pop_back();
        rig.joint_of_part_[static_cast<size_t>(g.kept[static_cast<size_t>(k)].p1)] = static_cast<int>(layout_kept.size());
        layout_kept.push_back(k);
        rig.connected_.push_back(is_connected ? 1 : 0);
        const auto& ch = g.children[static_cast<size_t>(g.kept[static_cast<size_t>(k)].p1)];
        for (auto it = ch.rbegin(); it != ch.rend(); ++it) stack.push_back(*it);
      }
    };
    lay_out_from(root, true);
    for (int p = 0; p < part_count; ++p) {
      if (p == root || g.placing_joint[static_cast<size_t>(p)] >= 0) continue;
      lay_out_from(p, false);
    }
    return layout_kept;
  }

  // 5. The per-joint arrays in layout order: names, parts, normalised attachment frames,
  // parents, and a disconnected joint's anchor at its parent part's rest (rule R4).
  static void fill_joints(const RigDesc& desc, const Graph& g, std::span<const int> layout_kept, int root, Rig& rig) {
    const size_t n = layout_kept.size();
    rig.joint_names_.resize(n);
    rig.parents_.resize(n);
    rig.subtree_end_.resize(n);
    rig.c0_.resize(n);
    rig.c1_.resize(n);
    rig.c1_inverse_.resize(n);
    rig.part0_.resize(n);
    rig.part1_.resize(n);
    rig.anchor_.resize(n);
    const std::optional<Transform>& root_rest = desc.parts[static_cast<size_t>(root)].placement;
    for (size_t j = 0; j < n; ++j) {
      const Kept& k = g.kept[static_cast<size_t>(layout_kept[j])];
      const JointDesc& jd = desc.joints[k.desc_index];
      rig.joint_names_[j] = jd.name;
      rig.part0_[j] = k.p0;
      rig.part1_[j] = k.p1;
      rig.c0_[j] = Transform{glm::normalize(jd.c0.rotation), jd.c0.position};
      rig.c1_[j] = Transform{glm::normalize(jd.c1.rotation), jd.c1.position};
      rig.c1_inverse_[j] = inverse(rig.c1_[j]);
      rig.parents_[j] = rig.joint_of_part_[static_cast<size_t>(k.p0)];
      if (rig.parents_[j] < 0 && k.p0 != root) {
        const std::optional<Transform>& rest = desc.parts[static_cast<size_t>(k.p0)].placement;
        if (rest) rig.anchor_[j] = root_rest ? inverse(*root_rest) * *rest : *rest;
      }
    }
  }

  // 6. The world walk's four-wide schedule (world.cpp): blocks of four with no joint's parent
  // in its own or a later block. List scheduling with the longest path below a joint first
  // (Hu's rule) keeps blocks full: a depth per block would leave a third of the lanes idle on a
  // humanoid.
  static void schedule_walk(Rig& rig) {
    const size_t n = rig.parents_.size();
    std::vector<int> height(n, 0), child_start(n + 1, 0), children(n);
    for (size_t j = n; j-- > 0;) {
      const int p = rig.parents_[j];
      if (p < 0) continue;
      height[static_cast<size_t>(p)] = std::max(height[static_cast<size_t>(p)], height[j] + 1);
      ++child_start[static_cast<size_t>(p) + 1];
    }
    for (size_t j = 0; j < n; ++j) child_start[j + 1] += child_start[j];
    {
      std::vector<int> fill(child_start.begin(), child_start.end() - 1);
      for (size_t j = 0; j < n; ++j) {
        const int p = rig.parents_[j];
        if (p >= 0) children[static_cast<size_t>(fill[static_cast<size_t>(p)]++)] = static_cast<int>(j);
      }
    }
    auto later = [&](int a, int b) {  // priority_queue pops the largest: tallest, then first in layout
      const int ha = height[static_cast<size_t>(a)], hb = height[static_cast<size_t>(b)];
      return ha != hb ? ha < hb : a > b;
    };
    std::priority_queue<int, std::vector<int>, decltype(later)> ready(later);
    for (size_t j = 0; j < n; ++j) {
      if (rig.parents_[j] >= 0) continue;
      rig.walk_roots_.push_back(static_cast<int>(j));
      for (int c = child_start[j]; c < child_start[j + 1]; ++c) ready.push(children[static_cast<size_t>(c)]);
    }
    while (!ready.empty()) {
      int block[4];
      int count = 0;
      while (count < 4 && !ready.empty()) {
        block[count++] = ready.top();
        ready.pop();
      }
      for (int k = 0; k < 4; ++k) rig.walk_order_.push_back(block[k < count ? k : count - 1]);
      for (int k = 0; k < count; ++k) {
        const size_t j = static_cast<size_t>(block[k]);
        for (int c = child_start[j]; c < child_start[j + 1]; ++c) ready.push(children[static_cast<size_t>(c)]);
      }
    }
    // A block of four costs about three joints placed one at a time (measured, humanoid60 and
    // R15 on x86-64 SSE2): on an R15 (1 root, 4 blocks for 14 joints) it pays, on a chain not.
    if (rig.walk_roots_.size() + 3 * (rig.walk_order_.size() / 4) >= n) {
      rig.walk_roots_.clear();
      rig.walk_order_.clear();
      rig.walk_roots_.shrink_to_fit();
      rig.walk_order_.shrink_to_fit();
    }
    fill_walk_lanes(rig);
  }

  // The scheduled slots' C0 and inverse(C1), one lane per component, and the blocks' flags.
  static void fill_walk_lanes(Rig& rig) {
    const size_t slots = rig.walk_order_.size();
    rig.walk_lanes_.assign(detail::kWalkBlockFloats * (slots / 4), 0.0f);
    rig.walk_parents_.resize(slots);
    rig.walk_block_bits_.assign(
        slots / 4, static_cast<unsigned char>(detail::bit(WalkBlockBits::kC0Identity) | detail::bit(WalkBlockBits::kC1Identity)));
    const glm::quat id(1.0f, 0.0f, 0.0f, 0.0f);
    for (size_t s = 0; s < slots; ++s) {
      const size_t j = static_cast<size_t>(rig.walk_order_[s]);
      const Transform& c0 = rig.c0_[j];
      const Transform& c1i = rig.c1_inverse_[j];
      const float v[] = {c0.rotation.x,  c0.rotation.y,  c0.rotation.z,  c0.rotation.w,  c0.position.x,
                         c0.position.y, c0.position.z, c1i.rotation.x, c1i.rotation.y, c1i.rotation.z,
                         c1i.rotation.w, c1i.position.x, c1i.position.y, c1i.position.z};
      static_assert(std::size(v) == static_cast<size_t>(FrameLane::kCount));
      for (size_t k = 0; k < std::size(v); ++k) rig.walk_lanes_[(s / 4) * detail::kWalkBlockFloats + 4 * k + s % 4] = v[k];
      rig.walk_parents_[s] = rig.parents_[j];
      unsigned char& bits = rig.walk_block_bits_[s / 4];
      if (c0.rotation != id) bits = static_cast<unsigned char>(bits & ~detail::bit(WalkBlockBits::kC0Identity));
      if (c1i.rotation != id) bits = static_cast<unsigned char>(bits & ~detail::bit(WalkBlockBits::kC1Identity));
    }
  }

  // 7. Subtree ranges: in pre-order a joint's subtree ends where the next non-descendant starts.
  static void subtree_ranges(Rig& rig) {
    const size_t n = rig.parents_.size();
    for (size_t j = n; j-- > 0;) {
      int end = static_cast<int>(j) + 1;
      while (static_cast<size_t>(end) < n) {
        int a = rig.parents_[static_cast<size_t>(end)];
        while (a > static_cast<int>(j)) a = rig.parents_[static_cast<size_t>(a)];
        if (a != static_cast<int>(j)) break;
        end = rig.subtree_end_[static_cast<size_t>(end)];
      }
      rig.subtree_end_[j] = end;
    }
  }

  // 8. The layout signature (rules R7, R9).
  static std::uint64_t signature(const Rig& rig) {
    const size_t n = rig.parents_.size();
    Hasher h;
    h.integer(static_cast<std::int64_t>(n));
    for (size_t j = 0; j < n; ++j) {
      h.str(rig.joint_names_[j]);
      h.str(rig.parts_[static_cast<size_t>(rig.part0_[j])].name);
      h.str(rig.parts_[static_cast<size_t>(rig.part1_[j])].name);
      h.integer(rig.parents_[j]);
      h.transform(rig.c0_[j]);
      h.transform(rig.c1_[j]);
      // Rule R9: the part sizes too (the retarget measures legs and soles from them).
      for (int part : {rig.part0_[j], rig.part1_[j]}) {
        const glm::vec3& size = rig.parts_[static_cast<size_t>(part)].size;
        h.real(size.x), h.real(size.y), h.real(size.z);
      }
    }
    return h.value();
  }
};

Result<Rig> build_rig(const RigDesc& desc) {
  using Builder = detail::RigBuilder;
  const std::string rig_label = "rig '" + desc.name + "'";
  if (desc.parts.empty()) return make_error(rig_label + ": has no parts");
  Builder::Graph g;
  if (auto error = Builder::index_parts(desc, rig_label, g)) return make_error(*error);
  Rig rig;
  rig.name_ = desc.name;
  rig.parts_ = desc.parts;
  rig.roles_ = desc.roles;
  if (auto error = Builder::keep_joints(desc, rig_label, g, rig)) return make_error(*error);
  Builder::drop_cycles(desc, g, rig);
  Result<int> root = Builder::choose_root(desc, rig_label, g);
  if (!root) return make_error(root.message());
  rig.root_part_ = root.value();
  const std::vector<int> layout_kept = Builder::lay_out(g, rig.root_part_, rig);
  Builder::fill_joints(desc, g, layout_kept, rig.root_part_, rig);
  Builder::schedule_walk(rig);
  Builder::subtree_ranges(rig);
  rig.signature_ = Builder::signature(rig);
  return rig;
}

}  // namespace asterune
