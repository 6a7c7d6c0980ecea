// Compressed clip checks and sampling (rule P8). The compressor is src/clip/compress.cpp.
#include "asterune/clip/compressed_clip.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "asterune/core/assert.hpp"
#include "asterune/rig/rig.hpp"
#include "compressed_codec.hpp"

namespace asterune {

std::uint32_t compressed_segment_count(std::uint32_t sample_count, std::uint32_t segment_samples) {
  if (sample_count <= 1 || segment_samples == 0) return 1;
  return (sample_count - 2) / segment_samples + 1;
}

std::size_t CompressedClip::byte_size() const {
  return data_.bytes.size() + data_.segment_offsets.size() * sizeof(std::uint32_t) +
         data_.channels.size() * (sizeof(std::uint32_t) + 1 + 6 * sizeof(float)) +
         data_.constants.size() * sizeof(Transform) + data_.coverage.size();
}

std::size_t CompressedClip::raw_byte_size() const {
  return static_cast<std::size_t>(data_.sample_count) * data_.coverage.size() * 10 * sizeof(float);
}

namespace {

Error bad(const CompressedClipData& d, const std::string& what) {
  return make_error("compressed clip '" + d.name + "': " + what);
}

bool finite_range(const CompressedChannel& c) {
  for (int k = 0; k < 3; ++k)
    if (!std::isfinite(c.range_min[k]) || !std::isfinite(c.range_extent[k]) || c.range_extent[k] < 0.0f ||
        std::fabs(c.range_min[k]) + c.range_extent[k] > 1e30f)
      return false;
  return true;
}

bool unit(const glm::quat& q) {
  const float n = q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z;
  return std::isfinite(n) && std::fabs(n - 1.0f) <= 2e-3f;
}

// Samples of segment k (its intervals + 1, or 1 for a one-sample clip).
std::uint32_t segment_length(const CompressedClipData& d, std::uint32_t k) {
  if (d.sample_count <= 1) return 1;
  const std::uint32_t first = k * d.segment_samples;
  return std::min(d.segment_samples, d.sample_count - 1 - first) + 1;
}

// Raw (32-bit) values in segment k must be finite and raw rotations unit: the sampler reads them
// as they are, and a pose must never turn NaN (rule P8).
Status check_segment(const CompressedClipData& d, std::uint32_t k) {
  const std::uint8_t* seg = d.bytes.data() + d.segment_offsets[k];
  const std::uint64_t size = d.segment_offsets[k + 1] - d.segment_offsets[k];
  const std::size_t c_count = d.channels.size();
  if (size < 7 * c_count) return bad(d, "segment " + std::to_string(k) + " is shorter than its header");
  const std::uint32_t len = segment_length(d, k);
  std::uint64_t position = 7 * c_count * 8;
  for (std::size_t c = 0; c < c_count; ++c) {
    if (seg[c] >= kCompressedBitRateCount)
      return bad(d, "segment " + std::to_string(k) + " channel " + std::to_string(c) + " has an unknown bit rate " +
                        std::to_string(seg[c]));
    const int bits = kCompressedBitRates[seg[c]];
    const ChannelKind kind = d.channels[c].kind;
    const std::uint64_t stream = detail::channel_stream_bits(kind, bits, len);
    if (position + stream > size * 8)
      return bad(d, "segment " + std::to_string(k) + " is shorter than its samples (channel " + std::to_string(c) + ")");
    if (bits == 32) {
      const int comps = detail::channel_components(kind, bits);
      for (std::uint32_t i = 0; i < len; ++i) {
        float v[4];
        for (int m = 0; m < comps; ++m) {
          v[m] = std::bit_cast<float>(detail::read_bits(seg, position + (static_cast<std::uint64_t>(i) * comps + m) * 32, 32));
          if (!std::isfinite(v[m]) || std::fabs(v[m]) > 1e30f)
            return bad(d, "segment " + std::to_string(k) + " channel " + std::to_string(c) + " has a nonfinite value");
        }
        if (comps == 4 && !unit(glm::quat(v[3], v[0], v[1], v[2])))
          return bad(d, "segment " + std::to_string(k) + " channel " + std::to_string(c) + " has a rotation not of unit length");
      }
    }
    position += stream;
  }
  return Success{};
}

Status check_tables(const CompressedClipData& d) {
  const std::size_t n = d.coverage.size();
  if (n == 0 || n > 65535) return bad(d, "joint count " + std::to_string(n) + " is outside [1, 65535]");
  if (d.constants.size() != n) return bad(d, "constants and coverage differ in size");
  if (!std::isfinite(d.duration) || d.duration < 0.0f) return bad(d, "duration is negative or not finite");
  if (!std::isfinite(d.sample_rate) || d.sample_rate <= 0.0f || d.sample_rate > 1e6f)
    return bad(d, "sample rate is not in (0, 1e6]");
  if (d.sample_count == 0 || d.sample_count >= (1u << 24)) return bad(d, "sample count is not in [1, 2^24)");
  if (d.segment_samples == 0 || d.segment_samples > 1024) return bad(d, "segment length is not in [1, 1024]");
  if (!std::isfinite(d.tolerance) || d.tolerance < 0.0f) return bad(d, "tolerance is negative or not finite");
  for (std::size_t j = 0; j < n; ++j) {
    if (d.coverage[j] > 1) return bad(d, "coverage of joint " + std::to_string(j) + " is neither 0 nor 1");
    if (!is_finite(d.constants[j].position) || !unit(d.constants[j].rotation))
      return bad(d, "constant of joint " + std::to_string(j) + " is not finite or not a unit rotation");
  }
  std::vector<std::uint8_t> seen(2 * n, 0);
  for (std::size_t c = 0; c < d.channels.size(); ++c) {
    const CompressedChannel& ch = d.channels[c];
    if (ch.joint >= n || (ch.kind != ChannelKind::kRotation && ch.kind != ChannelKind::kTranslation))
      return bad(d, "channel " + std::to_string(c) + " names no joint or an unknown kind");
    auto& s = seen[2 * ch.joint + static_cast<std::size_t>(ch.kind)];
    if (s) return bad(d, "channel " + std::to_string(c) + " repeats a joint's channel");
    s = 1;
    if (!finite_range(ch)) return bad(d, "channel " + std::to_string(c) + " has a nonfinite or negative range");
  }
  const std::uint32_t segments = compressed_segment_count(d.sample_count, d.segment_samples);
  if (d.segment_offsets.size() != static_cast<std::size_t>(segments) + 1)
    return bad(d, "has " + std::to_string(d.segment_offsets.size()) + " segment offsets, expected " +
                      std::to_string(segments + 1));
  for (std::uint32_t k = 0; k < segments; ++k)
    if (d.segment_offsets[k] > d.segment_offsets[k + 1]) return bad(d, "segment offsets are not ascending");
  if (d.segment_offsets.front() != 0 || static_cast<std::uint64_t>(d.segment_offsets.back()) + 8 > d.bytes.size())
    return bad(d, "segments do not fit the sample bytes (which end in 8 bytes of padding)");
  for (const ClipMarker& m : d.markers)
    if (!std::isfinite(m.time)) return bad(d, "marker '" + m.name + "' has a nonfinite time");
  return Success{};
}

}  // namespace

Result<CompressedClip> make_compressed_clip(CompressedClipData data) {
  if (Status s = check_tables(data); !s) return s.error();
  const std::uint32_t segments = compressed_segment_count(data.sample_count, data.segment_samples);
  for (std::uint32_t k = 0; k < segments; ++k)
    if (Status s = check_segment(data, k); !s) return s.error();
  CompressedClip out;
  out.data_ = std::move(data);
  return out;
}

namespace {

struct SampleCursor {
  const std::uint8_t* seg;
  std::uint32_t i0;
  std::uint32_t length;  // samples stored in the segment
  float alpha;
};

// The sample pair around `time`: segment, first sample inside it, blend factor.
SampleCursor locate(const CompressedClipData& d, float time, WrapMode wrap) {
  const float t = wrap_clip_time(time, d.duration, wrap);
  const std::uint32_t last = d.sample_count - 1;
  if (last == 0) return {d.bytes.data(), 0, 1, 0.0f};
  float s = t * d.sample_rate;
  if (!(s > 0.0f)) s = 0.0f;
  if (s > static_cast<float>(last)) s = static_cast<float>(last);
  std::uint32_t f = static_cast<std::uint32_t>(s);
  if (f >= last) f = last - 1;
  const float alpha = std::min(s - static_cast<float>(f), 1.0f);
  const std::uint32_t k = f / d.segment_samples;
  return {d.bytes.data() + d.segment_offsets[k], f - k * d.segment_samples, segment_length(d, k), alpha};
}

}  // namespace

namespace {

// Channel c's header in the segment at `at`: its bit rate, its components' ranges and where its
// samples start (`position`, bits from the segment's start, advanced past the channel).
CompressedChannelHeader channel_header(const CompressedChannel& ch, const std::uint8_t* seg, std::size_t c,
                                       std::size_t c_count, std::uint32_t length, std::uint64_t& position) {
  CompressedChannelHeader h;
  const int bits = kCompressedBitRates[seg[c]];
  const int comps = detail::channel_components(ch.kind, bits);
  const std::uint8_t* r = seg + c_count + 6 * c;
  h.bits = static_cast<std::uint8_t>(bits);
  h.sample_bits = static_cast<std::uint32_t>(comps * bits);
  h.position = position;
  if (bits < 32)
    for (int m = 0; m < 3; ++m) {
      const detail::ComponentRange cr = detail::component_range(ch, m, r[m], r[3 + m], bits);
      h.min[m] = cr.min;
      h.scale[m] = cr.scale;
    }
  position += detail::channel_stream_bits(ch.kind, bits, length);
  return h;
}

// Channels are sampled in chunks, each step a loop over the chunk whose iterations do not depend
// on each other (read the samples, rebuild w, blend): one channel alone is a chain of dependent
// steps (bits, scale, square root, dot, square root, divide) that keeps the processor waiting,
// while the chunk's channels overlap.
constexpr std::size_t kChunk = 16;

struct ChunkValues {
  float a[kChunk][4];
  float b[kChunk][4];
};

// Samples i0 and i1 of one channel, decoded to floats (rotations: x, y, z; w when raw).
inline void read_samples(const CompressedChannelHeader& h, const std::uint8_t* seg, std::uint32_t i0, std::uint32_t i1,
                         float* a, float* b) {
  const std::uint64_t p0 = h.position + static_cast<std::uint64_t>(i0) * h.sample_bits;
  const std::uint64_t p1 = h.position + static_cast<std::uint64_t>(i1) * h.sample_bits;
  if (h.bits == 32) {
    for (std::uint32_t m = 0; m * 32 < h.sample_bits; ++m) {
      a[m] = std::bit_cast<float>(detail::read_bits(seg, p0 + 32 * static_cast<std::uint64_t>(m), 32));
      b[m] = std::bit_cast<float>(detail::read_bits(seg, p1 + 32 * static_cast<std::uint64_t>(m), 32));
    }
    return;
  }
  // A sample's three components are 3 x bits <= 57 consecutive bits: one 64-bit read each for
  // the two samples, then shifts and a mask (the bit rates stop at 19 below raw).
  const std::uint64_t w0 = detail::read_word(seg, p0), w1 = detail::read_word(seg, p1);
  const std::uint64_t mask = (std::uint64_t{1} << h.bits) - 1u;
  for (int m = 0; m < 3; ++m) {
    const int shift = m * h.bits;
    a[m] = h.min[m] + h.scale[m] * static_cast<float>((w0 >> shift) & mask);
    b[m] = h.min[m] + h.scale[m] * static_cast<float>((w1 >> shift) & mask);
  }
}

// Channels [first, first + count) of the segment at `seg`, headers given, written into `local`.
void sample_chunk(const CompressedClipData& d, const CompressedChannelHeader* h, std::size_t first, std::size_t count,
                  const std::uint8_t* seg, std::uint32_t i0, std::uint32_t i1, float alpha, std::span<Transform> local) {
  ChunkValues v;
  for (std::size_t k = 0; k < count; ++k) read_samples(h[k], seg, i0, i1, v.a[k], v.b[k]);
  glm::quat qa[kChunk], qb[kChunk];
  for (std::size_t k = 0; k < count; ++k) {
    if (d.channels[first + k].kind != ChannelKind::kRotation) continue;
    const bool four = h[k].sample_bits == 128;
    qa[k] = four ? glm::quat(v.a[k][3], v.a[k][0], v.a[k][1], v.a[k][2]) : detail::rebuild_rotation(v.a[k][0], v.a[k][1], v.a[k][2]);
    qb[k] = four ? glm::quat(v.b[k][3], v.b[k][0], v.b[k][1], v.b[k][2]) : detail::rebuild_rotation(v.b[k][0], v.b[k][1], v.b[k][2]);
  }
  for (std::size_t k = 0; k < count; ++k) {
    const CompressedChannel& ch = d.channels[first + k];
    Transform& out = local[ch.joint];
    if (ch.kind == ChannelKind::kRotation) {
      out.rotation = nlerp_or_slerp(qa[k], qb[k], alpha);
    } else {
      const float* a = v.a[k];
      const float* b = v.b[k];
      out.position = glm::vec3(a[0] + (b[0] - a[0]) * alpha, a[1] + (b[1] - a[1]) * alpha, a[2] + (b[2] - a[2]) * alpha);
    }
  }
}

// The constants and coverage every sample starts from.
void write_constants(const CompressedClipData& d, std::span<Transform> local, std::span<float> coverage) {
  for (std::size_t j = 0; j < d.coverage.size(); ++j) {
    local[j] = d.constants[j];
    coverage[j] = static_cast<float>(d.coverage[j]);
  }
}

}  // namespace

CompressedClipCursor make_compressed_clip_cursor(const CompressedClip& clip) {
  CompressedClipCursor c;
  c.headers.resize(clip.data().channels.size());
  return c;
}

bool sample_compressed_clip(const CompressedClip& clip, float time, WrapMode wrap, std::span<Transform> local,
                            std::span<float> coverage) {
  const CompressedClipData& d = clip.data();
  const std::size_t n = d.coverage.size();
  ASTERUNE_EXPECT_OR_RETURN(local.size() == n && coverage.size() == n && n > 0,
                            "local and coverage hold clip.joint_count() entries", false);
  write_constants(d, local, coverage);
  const SampleCursor at = locate(d, time, wrap);
  const std::size_t c_count = d.channels.size();
  const std::uint32_t i1 = d.sample_count > 1 ? at.i0 + 1 : 0;
  std::uint64_t position = 7 * c_count * 8;
  CompressedChannelHeader h[kChunk];
  for (std::size_t first = 0; first < c_count; first += kChunk) {
    const std::size_t count = std::min(kChunk, c_count - first);
    for (std::size_t k = 0; k < count; ++k)
      h[k] = channel_header(d.channels[first + k], at.seg, first + k, c_count, at.length, position);
    sample_chunk(d, h, first, count, at.seg, at.i0, i1, at.alpha, local);
  }
  return true;
}

bool sample_compressed_clip(const CompressedClip& clip, float time, WrapMode wrap, CompressedClipCursor& cursor,
                            std::span<Transform> local, std::span<float> coverage) {
  const CompressedClipData& d = clip.data();
  const std::size_t c_count = d.channels.size();
  if (cursor.headers.size() != c_count) return sample_compressed_clip(clip, time, wrap, local, coverage);
  const std::size_t n = d.coverage.size();
  ASTERUNE_EXPECT_OR_RETURN(local.size() == n && coverage.size() == n && n > 0,
                            "local and coverage hold clip.joint_count() entries", false);
  write_constants(d, local, coverage);
  const SampleCursor at = locate(d, time, wrap);
  // The headers are decoded once per segment (a segment is 32 samples: many frames forward).
  if (cursor.segment != at.seg || cursor.clip != &d) {
    std::uint64_t position = 7 * c_count * 8;
    for (std::size_t c = 0; c < c_count; ++c)
      cursor.headers[c] = channel_header(d.channels[c], at.seg, c, c_count, at.length, position);
    cursor.segment = at.seg;
    cursor.clip = &d;
  }
  const std::uint32_t i1 = d.sample_count > 1 ? at.i0 + 1 : 0;
  for (std::size_t first = 0; first < c_count; first += kChunk)
    sample_chunk(d, cursor.headers.data() + first, first, std::min(kChunk, c_count - first), at.seg, at.i0, i1, at.alpha,
                 local);
  return true;
}

Clip compressed_clip_shell(const CompressedClip& clip, const Rig& rig) {
  Clip shell;
  shell.name = clip.name();
  shell.duration = clip.duration();
  shell.markers.assign(clip.markers().begin(), clip.markers().end());
  const auto& cov = clip.data().coverage;
  for (int j = 0; j < rig.joint_count() && static_cast<std::size_t>(j) < cov.size(); ++j)
    if (cov[static_cast<std::size_t>(j)]) {
      ClipTrack t;
      t.name = rig.lookup_name(j);
      shell.tracks.push_back(std::move(t));
    }
  return shell;
}

}  // namespace asterune
