// Rig: the immutable runtime joint hierarchy built from a RigDesc (rule R1-R7).
//
// Joints are laid out parents-first in depth-first pre-order, so the descendants of joint j
// occupy the contiguous range [j, subtree_end(j)). Each joint records the layout index of the
// joint that places its parent part (part0), or -1 when part0 is the root part or is not
// reached from the root. Per-joint data is stored as parallel arrays (structure of arrays)
// for the forward world walk. A Rig is never modified after build_rig(); share it freely
// between characters and threads (rule RG2).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "asterune/core/result.hpp"
#include "asterune/math/transform.hpp"
#include "asterune/rig/rig_desc.hpp"

namespace asterune {

namespace detail {
struct RigWalkAccess;
struct RigBuilder;
}

/// Why build_rig() left a joint out of the layout (rule R3).
enum class DropReason {
  kDisabled,       // enabled == false
  kMissingPart,    // part0 or part1 is not a part of the rig
  kDuplicateChild, // an earlier joint already places the same child part
  kCycle,          // following part0 upwards comes back to this joint
  kSelfJoint,      // part0 == part1
};

const char* to_string(DropReason reason);

struct DroppedJoint {
  std::string name;
  DropReason reason;
  std::string detail;  // human-readable: which part is missing, which joint came first, ...
};

/// Outcome of a joint lookup by name (rule R6).
enum class LookupStatus { kFound, kNotFound, kAmbiguous };

struct JointLookup {
  int index = -1;
  LookupStatus status = LookupStatus::kNotFound;
  std::string message;  // why it failed; empty when found
  bool found() const { return status == LookupStatus::kFound; }
};

class Rig {
 public:
  Rig() = default;

  const std::string& name() const { return name_; }

  // --- joints, in layout order -------------------------------------------------------
  int joint_count() const { return static_cast<int>(joint_names_.size()); }
  const std::string& joint_name(int j) const { return joint_names_[static_cast<size_t>(j)]; }
  /// Layout index of the joint that places this joint's part0, or -1 (root part or not connected).
  std::span<const int> parents() const { return parents_; }
  int parent(int j) const { return parents_[static_cast<size_t>(j)]; }
  /// One past the last descendant of j in layout order.
  int subtree_end(int j) const { return subtree_end_[static_cast<size_t>(j)]; }
  std::span<const Transform> c0() const { return c0_; }
  std::span<const Transform> c1() const { return c1_; }
  /// inverse(C1) per joint, precomputed for the forward walk.
  std::span<const Transform> c1_inverse() const { return c1_inverse_; }
  /// The full world walk's schedule: the walk_roots() (parent -1) one at a time, then the
  /// other joints four at a time, in blocks of four walk_order() slots where each joint's parent
  /// is a root or sits in an earlier block; a block with fewer than four joints ready repeats
  /// its last one. Both empty when four at a time would not pay (a chain, an R6 whose joints
  /// all hang off the root part); the walk then goes one joint at a time in layout order.
  std::span<const int> walk_roots() const { return walk_roots_; }
  std::span<const int> walk_order() const { return walk_order_; }
  /// Part indexes (into the part table) of each joint's parent and child part.
  std::span<const int> part0() const { return part0_; }
  std::span<const int> part1() const { return part1_; }
  /// For joints with parent -1: placement of part0 relative to the root part. Identity when
  /// part0 is the root part; for a disconnected joint, inverse(root rest) * part0 rest (rule R4).
  std::span<const Transform> anchor() const { return anchor_; }
  /// True when the joint is reached from the root part.
  bool connected(int j) const { return connected_[static_cast<size_t>(j)] != 0; }

  // --- parts ----------------------------------------------------------------------------
  int part_count() const { return static_cast<int>(parts_.size()); }
  const PartDesc& part(int p) const { return parts_[static_cast<size_t>(p)]; }
  int root_part() const { return root_part_; }
  /// Layout index of the joint whose child is part p, or -1 (the root, or an unplaced part).
  int joint_of_part(int p) const { return joint_of_part_[static_cast<size_t>(p)]; }
  /// Part index by id, or -1.
  int find_part_by_id(std::string_view id) const;
  /// Child part name of joint j (the name clips and lookups use).
  const std::string& child_name(int j) const { return parts_[static_cast<size_t>(part1_[static_cast<size_t>(j)])].name; }
  const std::string& parent_name(int j) const { return parts_[static_cast<size_t>(part0_[static_cast<size_t>(j)])].name; }

  /// Finds a joint by its child part's name ("LeftHand") or by a parent-qualified name
  /// ("LeftLowerArm/LeftHand"). A plain name shared by several joints is refused as
  /// ambiguous, with a message suggesting the qualified names (rule R6).
  JointLookup find_joint(std::string_view name) const;
  /// The name find_joint() resolves to joint `j`: the child part name, or the parent-qualified
  /// "Parent/Child" when the child name alone is ambiguous (rule R6). Allocates.
  std::string lookup_name(int j) const;
  /// Finds a joint by its own (Motor6D) name, e.g. "LeftElbow". Ambiguity is refused too.
  JointLookup find_joint_by_joint_name(std::string_view name) const;

  /// Stable 64-bit hash of joint names, part names, parent structure, attachment frames
  /// (rule R7) and the sizes of the parts the joints link (rule R9: the retarget reads them, so
  /// a rig with taller feet gets a fresh cached binding). Equal joint counts do not make two
  /// layouts equal.
  std::uint64_t signature() const { return signature_; }

  /// Joints left out of the layout and why (rule R3).
  std::span<const DroppedJoint> dropped() const { return dropped_; }

  /// Humanoid role overrides from the description (role -> part name).
  const std::map<std::string, std::string>& roles() const { return roles_; }

 private:
  friend Result<Rig> build_rig(const RigDesc& desc);
  friend struct detail::RigBuilder;  // build_rig's stages (src/rig/rig.cpp)
  friend struct detail::RigWalkAccess;  // the walk's lanes (src/rig/walk_schedule.hpp)

  std::string name_;
  std::vector<std::string> joint_names_;
  std::vector<int> parents_;
  std::vector<int> subtree_end_;
  std::vector<Transform> c0_;
  std::vector<Transform> c1_;
  std::vector<Transform> c1_inverse_;
  std::vector<int> walk_roots_;
  std::vector<int> walk_order_;
  std::vector<float> walk_lanes_;  // per block of four slots, FrameLane::kCount lanes of 4 floats
  std::vector<int> walk_parents_;  // per walk_order() slot, its joint's parent
  std::vector<unsigned char> walk_block_bits_;
  std::vector<int> part0_;
  std::vector<int> part1_;
  std::vector<Transform> anchor_;
  std::vector<unsigned char> connected_;
  std::vector<PartDesc> parts_;
  std::vector<int> joint_of_part_;
  int root_part_ = -1;
  std::uint64_t signature_ = 0;
  std::vector<DroppedJoint> dropped_;
  std::map<std::string, std::string> roles_;
};

/// Validates a description and builds the runtime layout (rule R2-R7).
///
/// Fails (never crashes) on: no parts, duplicate or empty part ids, a named root that is not a
/// part, nonfinite attachment frames. Joints that cannot be used are dropped and listed in
/// Rig::dropped() rather than failing the build.
///
/// Root choice when desc.root is empty (rule R5): among parts that are no kept joint's child,
/// the one from which the most joints are reachable; ties go to a part named
/// "HumanoidRootPart", then to the earliest part in the description.
Result<Rig> build_rig(const RigDesc& desc);

}  // namespace asterune
