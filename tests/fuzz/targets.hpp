// Fuzz targets: one check per loader (rig JSON, pose, scene, BVH, .rbxmx, .joints.json,
// glTF/GLB, KeyframeSequence .rbxmx, compressed clip .asclip) and one that runs whole frames (retarget sample + control
// stack) on fuzzed numbers.
// Each check feeds bytes to the code under test and returns "" when the outcome keeps the
// hostile-input promise (a Result error with a one-line message naming the input, or a value
// whose numbers are all finite), else a description of the broken promise.
// The libFuzzer harnesses (libfuzzer/fuzz_entry.cpp, `fuzz` preset) abort on a non-empty
// answer; the Catch2 replay (replay_test.cpp) runs every file of regression/<target>/ and
// corpus/<target>/ through the same checks in the normal build.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>

namespace asterune::fuzz {

using Check = std::string (*)(std::span<const std::uint8_t> data);

struct FuzzTarget {
  std::string_view name;  // also the folder name under corpus/ and regression/
  Check check;
};

/// Every target: rig_json, pose_json, scene_json, bvh, rbxmx, joints_json, gltf,
/// keyframe_sequence, frame, compressed_clip.
std::span<const FuzzTarget> fuzz_targets();

/// The target called `name`, or nullptr.
const FuzzTarget* find_fuzz_target(std::string_view name);

/// Folder for the glTF target's scratch file (tinygltf reads files only). Default: the system
/// temp folder; the replay test points it at a unique folder under the build tree.
void set_fuzz_scratch_dir(const std::filesystem::path& dir);

}  // namespace asterune::fuzz
