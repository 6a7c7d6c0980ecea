// Compressed clips (rule P8): a clip bound to a rig, resampled on a uniform grid and stored in a
// few bits per value, with every part's error bounded by the virtual-vertex metric (rule P7,
// clip/error_metric.hpp) at every sample and every quarter between samples. Built once at setup
// (compress_clip), shared read-only, sampled without allocation into the same local-pose spans
// as a float clip (sample_compressed_clip), forward, backward or at random.
//
// Layout (docs/compression.md): joints whose channel never moves keep one constant; the other
// channels (a joint's rotation, its translation) are "animated". The samples are cut into
// segments of segment_samples intervals (each segment also stores the next segment's first
// sample, so two neighbouring samples always sit in one segment). Per segment and animated
// channel: one bit-rate index (kCompressedBitRates), each component's range inside the
// channel's clip-wide range in 8 bits (min, extent), then every sample's components quantized
// to that many bits. Rotations drop w (stored with w >= 0, rebuilt as sqrt(1 - |xyz|^2)),
// except at 32 bits, where all four floats are stored as they are.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "asterune/clip/clip.hpp"
#include "asterune/clip/sample.hpp"
#include "asterune/core/result.hpp"
#include "asterune/math/transform.hpp"

namespace asterune {

class Rig;

/// Bits per component of each bit-rate index. 0: the segment's min for every sample (the channel
/// holds still in the segment); 32: raw floats.
inline constexpr std::uint8_t kCompressedBitRates[] = {0, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 32};
inline constexpr int kCompressedBitRateCount = static_cast<int>(sizeof(kCompressedBitRates));

enum class ChannelKind : std::uint8_t { kRotation = 0, kTranslation = 1 };

/// One animated channel: the joint it drives and its components' clip-wide range (rotation: x, y,
/// z of the w >= 0 quaternion; translation: x, y, z in studs).
struct CompressedChannel {
  std::uint32_t joint = 0;
  ChannelKind kind = ChannelKind::kRotation;
  float range_min[3] = {0.0f, 0.0f, 0.0f};
  float range_extent[3] = {0.0f, 0.0f, 0.0f};  // >= 0
};

/// The stored form, field for field what the .asclip file holds (formats/compressed_clip_file.hpp).
/// Plain data; make_compressed_clip() checks it before anything samples it.
struct CompressedClipData {
  std::string name;
  float duration = 0.0f;          // seconds (the float clip's)
  float sample_rate = 30.0f;      // samples per second
  std::uint32_t sample_count = 1; // samples at 0, 1 / rate, ... (sample_count - 1) / rate
  std::uint32_t segment_samples = 32;  // sample intervals per segment
  std::uint64_t rig_signature = 0;     // Rig::signature() of the rig it was compressed for (rule R7)
  float tolerance = 0.0018f;           // the bound it was built against (studs)
  std::vector<std::uint8_t> coverage;  // per joint: 1 when the clip drives it, 0 otherwise
  std::vector<Transform> constants;    // per joint: the value of each channel that is not animated
  std::vector<CompressedChannel> channels;
  /// segment_count() + 1 byte offsets into `bytes`, ascending: segment k is
  /// [segment_offsets[k], segment_offsets[k + 1]).
  std::vector<std::uint32_t> segment_offsets;
  /// Every segment: channels.size() bit-rate indexes, 6 range bytes per channel (min x, y, z,
  /// extent x, y, z, in 255ths of the clip-wide range), then the packed samples (LSB first,
  /// channel after channel, sample after sample, component after component); then 8 zero bytes,
  /// so a decoder may read a 64-bit word at any bit of the last segment.
  std::vector<std::uint8_t> bytes;
  std::vector<ClipMarker> markers;  // the float clip's, kept for playback events (rule AN7)
};

/// Number of segments of a clip of `sample_count` samples cut every `segment_samples` intervals
/// (1 for a single sample).
std::uint32_t compressed_segment_count(std::uint32_t sample_count, std::uint32_t segment_samples);

/// A checked CompressedClipData, ready to sample. Copies share nothing and cost the data's size.
class CompressedClip {
 public:
  CompressedClip() = default;
  const CompressedClipData& data() const { return data_; }
  const std::string& name() const { return data_.name; }
  float duration() const { return data_.duration; }
  int joint_count() const { return static_cast<int>(data_.coverage.size()); }
  std::span<const ClipMarker> markers() const { return data_.markers; }
  /// Bytes of compressed animation: segments, channel table, constants and coverage (what ACL
  /// counts as the compressed size; names and markers left out).
  std::size_t byte_size() const;
  /// ACL's raw size: 10 floats (rotation, translation, scale) per joint per sample.
  std::size_t raw_byte_size() const;

 private:
  friend Result<CompressedClip> make_compressed_clip(CompressedClipData data);
  CompressedClipData data_;
};

/// Checks `data` (sizes agree, offsets ascending and inside `bytes`, each segment long enough for
/// its bit rates, indexes known, values finite, rotations unit within 1e-3, joints below 65536,
/// sample_count below 2^24, segment_samples in [1, 1024]) and wraps it. Fails naming the item and
/// the reason; what it accepts samples safely (no read outside the data).
Result<CompressedClip> make_compressed_clip(CompressedClipData data);

/// How compress_clip works.
struct CompressionSettings {
  float tolerance = 0.0018f;  // studs: the largest virtual-vertex error allowed (0.05 cm)
  /// Samples per second; 0: the clip's own key rate (the median spacing of its key times),
  /// doubled while the resampling alone errs by more than half the tolerance (up to 8 times).
  float sample_rate = 0.0f;
  std::uint32_t segment_samples = 32;
  float min_part_size = 0.1f;  // make_virtual_vertices' threshold
};

/// What compression found, measured against the float clip sampled at every sample and every
/// quarter between samples.
struct CompressionReport {
  float worst_error = 0.0f;  // studs
  float worst_time = 0.0f;   // seconds
  int worst_joint = -1;
  float p99_error = 0.0f;    // 99th percentile of each instant's worst vertex error
  int instants = 0;          // instants measured
};

/// Compresses `clip` for `rig` (it must bind to the rig natively: build_clip_binding) so that
/// every virtual vertex (make_virtual_vertices(rig, settings.min_part_size)) of every part stays
/// within settings.tolerance of the float clip at every sample and quarter sample (rule P8).
/// Fails naming the clip and the reason: no track bound, bad keys, a bad setting, or a joint the
/// resampling cannot bring within the tolerance even with raw values (a remedy: a higher
/// sample_rate). Setup: allocates, seconds for a long mocap clip.
Result<CompressedClip> compress_clip(const Clip& clip, const Rig& rig, const CompressionSettings& settings = {},
                                     CompressionReport* report = nullptr);

/// Samples `clip` at `time` (wrapped as wrap_clip_time does) into local[j] / coverage[j], as
/// sample_clip() does for the float clip: joints it does not drive get identity and coverage 0.
/// `local` and `coverage` must hold clip.joint_count() entries; otherwise nothing is written and
/// false is returned (rule RG4). Allocation-free, never throws, deterministic; any time order.
bool sample_compressed_clip(const CompressedClip& clip, float time, WrapMode wrap, std::span<Transform> local,
                            std::span<float> coverage);

/// One channel's header in one segment, decoded: what sampling reads before the samples.
struct CompressedChannelHeader {
  float min[3] = {0.0f, 0.0f, 0.0f};
  float scale[3] = {0.0f, 0.0f, 0.0f};
  std::uint64_t position = 0;     // the channel's first sample, in bits from the segment's start
  std::uint32_t sample_bits = 0;  // bits per sample (components x bits)
  std::uint8_t bits = 0;          // per component
};

/// A playback cursor for one compressed clip (rule P11; caller-owned, one per playback): the last
/// segment's channel headers, decoded once, so sampling forward within a segment (32 samples,
/// many frames) only reads and blends samples. Sampling through it gives bit for bit what
/// sampling without it gives, for any order of times; a cursor that does not fit the clip (made
/// for another) is ignored.
struct CompressedClipCursor {
  const void* segment = nullptr;  // the segment the headers are of; null: none yet
  const CompressedClipData* clip = nullptr;
  std::vector<CompressedChannelHeader> headers;  // per channel
};

/// A cursor sized for `clip` (setup: allocates).
CompressedClipCursor make_compressed_clip_cursor(const CompressedClip& clip);

/// sample_compressed_clip() through `cursor`: the same result; allocation-free.
bool sample_compressed_clip(const CompressedClip& clip, float time, WrapMode wrap, CompressedClipCursor& cursor,
                            std::span<Transform> local, std::span<float> coverage);

/// A float clip with the compressed clip's name, duration and markers and one keyless track per
/// joint it drives (named by Rig::lookup_name): what the animator and graph need beside the
/// samples (length, events, a native binding to the rig) without the keys. Setup: allocates.
Clip compressed_clip_shell(const CompressedClip& clip, const Rig& rig);

}  // namespace asterune
