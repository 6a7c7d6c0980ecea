// The compressor (rule P8): resampling, range reduction and the per-segment bit-rate search
// against the virtual-vertex metric (rule P7). docs/compression.md explains the search.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "asterune/clip/binding.hpp"
#include "asterune/clip/compressed_clip.hpp"
#include "asterune/clip/error_metric.hpp"
#include "asterune/clip/sample.hpp"
#include "asterune/rig/rig.hpp"
#include "asterune/rig/world.hpp"
#include "compressed_codec.hpp"

namespace asterune {

namespace {

constexpr int kTopLevel = kCompressedBitRateCount - 1;  // raw floats

// One channel's value at a sample: a rotation (x, y, z, w with w >= 0) or a translation (x, y, z).
struct Value {
  float v[4] = {0.0f, 0.0f, 0.0f, 1.0f};
};

Value rotation_value(glm::quat q) {
  if (q.w < 0.0f) q = -q;
  return {{q.x, q.y, q.z, q.w}};
}

Value translation_value(const glm::vec3& p) { return {{p.x, p.y, p.z, 0.0f}}; }

// Appends bits LSB first.
struct BitWriter {
  std::vector<std::uint8_t>& out;
  std::uint64_t position;  // bit position from out's start
  void write(std::uint32_t value, int bits) {
    for (int b = 0; b < bits; ++b, ++position) {
      if ((position >> 3) >= out.size()) out.push_back(0);
      if ((value >> b) & 1u) out[position >> 3] = static_cast<std::uint8_t>(out[position >> 3] | (1u << (position & 7)));
    }
  }
};

// A channel's samples in one segment encoded at one bit-rate level: range bytes, quantized
// values and what the sampler decodes from them.
struct Encoded {
  std::uint8_t range[6] = {0, 0, 0, 0, 0, 0};
  std::vector<std::uint32_t> q;  // samples x components
  std::vector<Value> decoded;
};

std::uint8_t clamp_byte(float x) { return static_cast<std::uint8_t>(std::clamp(x, 0.0f, 255.0f)); }

// The 8-bit segment range of one component: the lowest min at or below `lo` and the smallest
// extent reaching `hi` (as the decoder computes them); at 0 bits, the min nearest the middle.
void segment_range(const CompressedChannel& ch, int m, float lo, float hi, int bits, std::uint8_t& min8,
                   std::uint8_t& ext8) {
  const float cext = ch.range_extent[m];
  if (cext <= 0.0f) {
    min8 = ext8 = 0;
    return;
  }
  if (bits == 0) {
    min8 = clamp_byte(std::round((0.5f * (lo + hi) - ch.range_min[m]) / cext * 255.0f));
    ext8 = 0;
    return;
  }
  min8 = clamp_byte(std::floor((lo - ch.range_min[m]) / cext * 255.0f));
  while (min8 > 0 && detail::component_range(ch, m, min8, 0, 1).min > lo) --min8;
  const float base = detail::component_range(ch, m, min8, 0, 1).min;
  ext8 = clamp_byte(std::ceil((hi - base) / cext * 255.0f));
  while (ext8 < 255 && base + detail::component_range(ch, m, min8, ext8, 1).scale < hi) ++ext8;
}

Encoded encode(const CompressedChannel& ch, const std::vector<Value>& raw, int level) {
  Encoded e;
  const int bits = kCompressedBitRates[level];
  const int comps = detail::channel_components(ch.kind, bits);
  e.decoded.resize(raw.size());
  if (bits == 32) {
    for (size_t i = 0; i < raw.size(); ++i) {
      for (int m = 0; m < comps; ++m) e.q.push_back(std::bit_cast<std::uint32_t>(raw[i].v[m]));
      e.decoded[i] = raw[i];
    }
    return e;
  }
  const std::uint32_t top = (std::uint32_t{1} << bits) - 1u;
  for (int m = 0; m < 3; ++m) {
    float lo = std::numeric_limits<float>::infinity(), hi = -lo;
    for (const Value& v : raw) lo = std::min(lo, v.v[m]), hi = std::max(hi, v.v[m]);
    segment_range(ch, m, lo, hi, bits, e.range[m], e.range[3 + m]);
  }
  for (size_t i = 0; i < raw.size(); ++i) {
    float d[3];
    for (int m = 0; m < 3; ++m) {
      const detail::ComponentRange cr = detail::component_range(ch, m, e.range[m], e.range[3 + m], bits);
      std::uint32_t q = 0;
      if (cr.scale > 0.0f)
        q = static_cast<std::uint32_t>(std::clamp(std::round((raw[i].v[m] - cr.min) / cr.scale), 0.0f, static_cast<float>(top)));
      e.q.push_back(q);
      d[m] = cr.min + cr.scale * static_cast<float>(q);
    }
    if (ch.kind == ChannelKind::kRotation) e.decoded[i] = rotation_value(detail::rebuild_rotation(d[0], d[1], d[2]));
    else e.decoded[i] = translation_value({d[0], d[1], d[2]});
  }
  return e;
}

glm::quat as_quat(const Value& v) { return glm::quat(v.v[3], v.v[0], v.v[1], v.v[2]); }

// Everything the search of one segment needs: the exact vertex positions at each instant and
// each channel's samples at the levels tried so far.
struct SegmentSearch {
  const Rig& rig;
  const VirtualVertices& vertices;
  const std::vector<CompressedChannel>& channels;
  const std::vector<Transform>& constants;
  const std::vector<int>& rotation_channel;     // per joint, -1 when constant
  const std::vector<int>& translation_channel;
  std::uint32_t length = 1;                                 // samples in the segment
  int instants = 1;
  std::vector<glm::vec3> exact_points;       // instants x points
  std::vector<std::vector<Value>> raw;       // per channel, the segment's samples
  std::vector<std::vector<Encoded>> cache;   // per channel, per level (decoded empty: not yet)
  std::vector<int> level;                    // per channel
  std::vector<Transform> world;              // instants x joints, at `level`
  std::vector<Transform> scratch_world;      // same, for a trial

  const Encoded& at(int c, int lvl) {
    Encoded& e = cache[static_cast<size_t>(c)][static_cast<size_t>(lvl)];
    if (e.decoded.empty()) e = encode(channels[static_cast<size_t>(c)], raw[static_cast<size_t>(c)], lvl);
    return e;
  }

  Transform local_at(int j, int u, const std::vector<int>& levels) {
    Transform t = constants[static_cast<size_t>(j)];
    std::uint32_t i0 = static_cast<std::uint32_t>(u / 4);
    float alpha = static_cast<float>(u % 4) * 0.25f;
    if (length == 1) i0 = 0, alpha = 0.0f;
    else if (i0 + 1 >= length) i0 = length - 2, alpha = 1.0f;
    const std::uint32_t i1 = length == 1 ? 0 : i0 + 1;
    if (const int c = rotation_channel[static_cast<size_t>(j)]; c >= 0) {
      const Encoded& e = at(c, levels[static_cast<size_t>(c)]);
      t.rotation = nlerp_or_slerp(as_quat(e.decoded[i0]), as_quat(e.decoded[i1]), alpha);
    }
    if (const int c = translation_channel[static_cast<size_t>(j)]; c >= 0) {
      const Encoded& e = at(c, levels[static_cast<size_t>(c)]);
      const float* a = e.decoded[i0].v;
      const float* b = e.decoded[i1].v;
      t.position = glm::vec3(a[0] + (b[0] - a[0]) * alpha, a[1] + (b[1] - a[1]) * alpha, a[2] + (b[2] - a[2]) * alpha);
    }
    return t;
  }

  // Places joints [b, e) (one subtree, or all) at `levels` over every instant into `out`
  // (other joints copied from `world`), and returns the largest vertex error per joint in `err`.
  void measure(int b, int e, const std::vector<int>& levels, std::vector<Transform>& out, std::vector<float>& err) {
    const int n = rig.joint_count();
    const auto parents = rig.parents();
    for (int j = b; j < e; ++j) err[static_cast<size_t>(j)] = 0.0f;
    for (int u = 0; u < instants; ++u) {
      Transform* w = out.data() + static_cast<size_t>(u) * static_cast<size_t>(n);
      const Transform* base = world.data() + static_cast<size_t>(u) * static_cast<size_t>(n);
      for (int j = b; j < e; ++j) {
        const int p = parents[static_cast<size_t>(j)];
        const Transform& parent = p < 0 ? rig.anchor()[static_cast<size_t>(j)] : (p >= b ? w[p] : base[p]);
        w[j] = parent * rig.c0()[static_cast<size_t>(j)] * local_at(j, u, levels) * rig.c1_inverse()[static_cast<size_t>(j)];
        float worst = 0.0f;
        for (std::uint32_t k = vertices.begin[static_cast<size_t>(j)]; k < vertices.begin[static_cast<size_t>(j) + 1]; ++k) {
          const glm::vec3 exact = exact_points[static_cast<size_t>(u) * vertices.points.size() + k];
          const float d = glm::length(transform_point(w[j], vertices.points[k]) - exact);
          worst = std::isfinite(d) ? std::max(worst, d) : std::numeric_limits<float>::infinity();
        }
        err[static_cast<size_t>(j)] = std::max(err[static_cast<size_t>(j)], worst);
      }
    }
  }
};

int channel_joint(const SegmentSearch& s, int c) { return static_cast<int>(s.channels[static_cast<size_t>(c)].joint); }

float subtree_max(const Rig& rig, int j, const std::vector<float>& err) {
  float m = 0.0f;
  for (int k = j; k < rig.subtree_end(j); ++k) m = std::max(m, err[static_cast<size_t>(k)]);
  return m;
}

// Phase 3: phase 2 raises greedily, so some channel may now hold more bits than the whole
// needs: lower each (widest first) while every joint of its subtree stays within `tolerance`.
void trim_levels(SegmentSearch& s, float tolerance, std::vector<float>& err) {
  const Rig& rig = s.rig;
  const int c_count = static_cast<int>(s.channels.size());
  std::vector<int> order(static_cast<size_t>(c_count));
  for (int c = 0; c < c_count; ++c) order[static_cast<size_t>(c)] = c;
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return s.level[static_cast<size_t>(a)] > s.level[static_cast<size_t>(b)]; });
  std::vector<float> trial_err(err);
  for (int c : order) {
    const int a = channel_joint(s, c);
    while (s.level[static_cast<size_t>(c)] > 0) {
      std::vector<int> trial = s.level;
      --trial[static_cast<size_t>(c)];
      s.measure(a, rig.subtree_end(a), trial, s.scratch_world, trial_err);
      if (!(subtree_max(rig, a, trial_err) <= tolerance)) break;
      s.level = std::move(trial);
      s.measure(a, rig.subtree_end(a), s.level, s.world, err);
    }
  }
}

// Phase 1: each channel alone (every other channel raw), the lowest level whose subtree stays
// within `target`. Phase 2: while some joint is over `tolerance`, raise by one level the channel
// on its chain whose raise lowers the chain's error most. Leaves s.world at the final levels.
// Returns the error of the raw samples alone; over `raw_limit`, it stops there (the caller
// resamples faster).
float search_levels(SegmentSearch& s, float target, float tolerance, float raw_limit) {
  const Rig& rig = s.rig;
  const int n = rig.joint_count();
  const int c_count = static_cast<int>(s.channels.size());
  std::vector<float> err(static_cast<size_t>(n), 0.0f);
  std::vector<int> raw_levels(static_cast<size_t>(c_count), kTopLevel);
  s.world.assign(static_cast<size_t>(s.instants) * static_cast<size_t>(n), Transform{});
  s.scratch_world = s.world;
  s.measure(0, n, raw_levels, s.world, err);  // every joint placed from the raw samples
  s.level.assign(static_cast<size_t>(c_count), kTopLevel);
  const float raw_error = *std::max_element(err.begin(), err.end());
  if (raw_error > raw_limit) return raw_error;
  for (int c = 0; c < c_count; ++c) {
    const int j = channel_joint(s, c);
    std::vector<int> trial = raw_levels;
    int lo = 0, hi = kTopLevel;  // hi always meets the target (or nothing does)
    while (lo < hi) {
      const int mid = (lo + hi) / 2;
      trial[static_cast<size_t>(c)] = mid;
      s.measure(j, rig.subtree_end(j), trial, s.scratch_world, err);
      if (subtree_max(rig, j, err) <= target) hi = mid;
      else lo = mid + 1;
    }
    s.level[static_cast<size_t>(c)] = lo;
  }
  s.measure(0, n, s.level, s.world, err);
  std::vector<float> trial_err(err);
  for (int guard = 0; guard < c_count * kCompressedBitRateCount; ++guard) {
    int worst = 0;
    for (int j = 1; j < n; ++j)
      if (err[static_cast<size_t>(j)] > err[static_cast<size_t>(worst)]) worst = j;
    if (!(err[static_cast<size_t>(worst)] > tolerance)) break;
    int best = -1;
    float best_err = std::numeric_limits<float>::infinity();
    for (int a = worst; a >= 0; a = rig.parent(a))
      for (int c : {s.rotation_channel[static_cast<size_t>(a)], s.translation_channel[static_cast<size_t>(a)]}) {
        if (c < 0 || s.level[static_cast<size_t>(c)] >= kTopLevel) continue;
        std::vector<int> trial = s.level;
        ++trial[static_cast<size_t>(c)];
        s.measure(a, rig.subtree_end(a), trial, s.scratch_world, trial_err);
        const float e = trial_err[static_cast<size_t>(worst)];
        if (e < best_err) best_err = e, best = c;
      }
    if (best < 0) break;  // everything on the chain is raw: the resampling alone is over
    ++s.level[static_cast<size_t>(best)];
    const int a = channel_joint(s, best);
    s.measure(a, rig.subtree_end(a), s.level, s.world, err);
  }
  trim_levels(s, tolerance, err);
  return raw_error;
}

// The channel plan and the uniform samples of a clip at one rate.
struct Plan {
  float rate = 30.0f;
  std::uint32_t sample_count = 1;
  std::vector<std::uint8_t> coverage;
  std::vector<Transform> constants;
  std::vector<CompressedChannel> channels;
  std::vector<int> rotation_channel, translation_channel;
  std::vector<std::vector<Value>> samples;  // per channel, every sample
};

// The clip's key rate: 1 / the median spacing of its bound tracks' distinct key times (30 when
// it has fewer than two).
float key_rate(const Clip& clip, const ClipBinding& binding) {
  std::vector<float> times;
  for (int j = 0; j < binding.joint_count(); ++j)
    if (const int t = binding.track_of(j); t >= 0) {
      const ClipTrack& track = clip.tracks[static_cast<size_t>(t)];
      times.insert(times.end(), track.rotation_times.begin(), track.rotation_times.end());
      times.insert(times.end(), track.translation_times.begin(), track.translation_times.end());
    }
  std::sort(times.begin(), times.end());
  times.erase(std::unique(times.begin(), times.end()), times.end());
  std::vector<float> gaps;
  for (size_t i = 1; i < times.size(); ++i) gaps.push_back(times[i] - times[i - 1]);
  if (gaps.empty()) return 30.0f;
  std::nth_element(gaps.begin(), gaps.begin() + static_cast<std::ptrdiff_t>(gaps.size() / 2), gaps.end());
  const float g = gaps[gaps.size() / 2];
  return g > 1e-4f ? 1.0f / g : 1e4f;
}

bool same_value(const Value& a, const Value& b) {
  for (int m = 0; m < 4; ++m)
    if (std::fabs(a.v[m] - b.v[m]) > 1e-6f) return false;
  return true;
}

Plan make_plan(const Clip& clip, const Rig& rig, const ClipBinding& binding, float rate) {
  Plan p;
  const size_t n = static_cast<size_t>(rig.joint_count());
  const float duration = std::isfinite(clip.duration) && clip.duration > 0.0f ? clip.duration : 0.0f;
  p.sample_count = duration > 0.0f ? std::max<std::uint32_t>(2, static_cast<std::uint32_t>(std::lround(duration * rate)) + 1) : 1;
  p.rate = duration > 0.0f ? static_cast<float>(p.sample_count - 1) / duration : rate;
  std::vector<std::vector<Value>> rot(n), pos(n);
  std::vector<Transform> local(n);
  std::vector<float> cov(n);
  for (std::uint32_t i = 0; i < p.sample_count; ++i) {
    const float t = std::min(static_cast<float>(i) / p.rate, duration);
    sample_clip(clip, binding, t, WrapMode::kClamp, local, cov);
    if (i == 0) {
      p.constants = local;
      for (float c : cov) p.coverage.push_back(c > 0.5f ? 1 : 0);
    }
    for (size_t j = 0; j < n; ++j) {
      rot[j].push_back(rotation_value(local[j].rotation));
      pos[j].push_back(translation_value(local[j].position));
    }
  }
  p.rotation_channel.assign(n, -1);
  p.translation_channel.assign(n, -1);
  for (size_t j = 0; j < n; ++j)
    for (ChannelKind kind : {ChannelKind::kRotation, ChannelKind::kTranslation}) {
      std::vector<Value>& v = kind == ChannelKind::kRotation ? rot[j] : pos[j];
      if (!p.coverage[j] || std::all_of(v.begin(), v.end(), [&](const Value& x) { return same_value(x, v[0]); })) continue;
      CompressedChannel ch;
      ch.joint = static_cast<std::uint32_t>(j);
      ch.kind = kind;
      for (int m = 0; m < 3; ++m) {
        float lo = v[0].v[m], hi = v[0].v[m];
        for (const Value& x : v) lo = std::min(lo, x.v[m]), hi = std::max(hi, x.v[m]);
        ch.range_min[m] = lo;
        ch.range_extent[m] = hi - lo;
      }
      (kind == ChannelKind::kRotation ? p.rotation_channel : p.translation_channel)[j] = static_cast<int>(p.channels.size());
      p.channels.push_back(ch);
      p.samples.push_back(std::move(v));
    }
  return p;
}

// Share of the tolerance each channel may use alone (phase 1): the rest is left for the
// errors of a chain's joints adding up, which phase 2 settles.
constexpr float kIsolationShare = 0.8f;

// The segment's exact vertex positions: the float clip sampled at every instant.
void exact_points(const Clip& clip, const ClipBinding& binding, const Rig& rig, const VirtualVertices& vertices,
                  float rate, float duration, std::uint32_t first, SegmentSearch& s) {
  const size_t n = static_cast<size_t>(rig.joint_count());
  std::vector<Transform> local(n), world(n);
  std::vector<float> cov(n);
  s.exact_points.resize(static_cast<size_t>(s.instants) * vertices.points.size());
  for (int u = 0; u < s.instants; ++u) {
    const float t = std::min((static_cast<float>(first) + 0.25f * static_cast<float>(u)) / rate, duration);
    sample_clip(clip, binding, t, WrapMode::kClamp, local, cov);
    evaluate_world(rig, Transform{}, local, world);
    for (size_t j = 0; j < n; ++j)
      for (std::uint32_t k = vertices.begin[j]; k < vertices.begin[j + 1]; ++k)
        s.exact_points[static_cast<size_t>(u) * vertices.points.size() + k] = transform_point(world[j], vertices.points[k]);
  }
}

void write_segment(SegmentSearch& s, std::vector<std::uint8_t>& bytes) {
  const size_t c_count = s.channels.size();
  for (size_t c = 0; c < c_count; ++c) bytes.push_back(static_cast<std::uint8_t>(s.level[c]));
  for (size_t c = 0; c < c_count; ++c) {
    const Encoded& e = s.at(static_cast<int>(c), s.level[c]);
    bytes.insert(bytes.end(), e.range, e.range + 6);
  }
  BitWriter w{bytes, static_cast<std::uint64_t>(bytes.size()) * 8};
  for (size_t c = 0; c < c_count; ++c) {
    const int bits = kCompressedBitRates[s.level[c]];
    for (std::uint32_t q : s.at(static_cast<int>(c), s.level[c]).q) w.write(q, bits);
  }
}

Status check_settings(const Clip& clip, const CompressionSettings& st) {
  if (!std::isfinite(st.tolerance) || st.tolerance <= 0.0f)
    return make_error("compressing clip '" + clip.name + "': the tolerance must be a positive number of studs");
  if (!std::isfinite(st.sample_rate) || st.sample_rate < 0.0f || st.sample_rate > 1e4f)
    return make_error("compressing clip '" + clip.name + "': the sample rate must be 0 (the clip's) or in (0, 10000]");
  if (st.segment_samples == 0 || st.segment_samples > 1024)
    return make_error("compressing clip '" + clip.name + "': segments hold 1 to 1024 sample intervals");
  if (!std::isfinite(st.min_part_size) || st.min_part_size <= 0.0f)
    return make_error("compressing clip '" + clip.name + "': the small-part size must be positive");
  return Success{};
}

// Every sample and quarter sample measured with the metric's own functions (rule P7).
CompressionReport measure_all(const Clip& clip, const ClipBinding& binding, const CompressedClip& out, const Rig& rig,
                              const VirtualVertices& vertices) {
  const size_t n = static_cast<size_t>(rig.joint_count());
  std::vector<Transform> exact(n), approx(n);
  std::vector<float> c0(n), c1(n);
  VertexErrorScratch scratch = make_vertex_error_scratch(rig);
  const CompressedClipData& d = out.data();
  const std::uint32_t instants = d.sample_count > 1 ? 4 * (d.sample_count - 1) + 1 : 1;
  std::vector<float> errors;
  errors.reserve(instants);
  CompressionReport r;
  for (std::uint32_t u = 0; u < instants; ++u) {
    const float t = std::min(0.25f * static_cast<float>(u) / d.sample_rate, d.duration);
    sample_clip(clip, binding, t, WrapMode::kClamp, exact, c0);
    sample_compressed_clip(out, t, WrapMode::kClamp, approx, c1);
    VertexError e;
    pose_vertex_error(rig, vertices, exact, approx, scratch, e);
    errors.push_back(e.distance);
    if (e.distance > r.worst_error || e.nonfinite) r.worst_error = e.distance, r.worst_time = t, r.worst_joint = e.joint;
  }
  r.instants = static_cast<int>(instants);
  const size_t k = std::min(errors.size() - 1, static_cast<size_t>(0.99 * static_cast<double>(errors.size())));
  std::nth_element(errors.begin(), errors.begin() + static_cast<std::ptrdiff_t>(k), errors.end());
  r.p99_error = errors[k];
  return r;
}

}  // namespace

Result<CompressedClip> compress_clip(const Clip& clip, const Rig& rig, const CompressionSettings& settings,
                                     CompressionReport* report) {
  if (Status ok = check_settings(clip, settings); !ok) return ok.error();
  auto bound = build_clip_binding(clip, rig);
  if (!bound) return bound.error();
  const ClipBinding& binding = bound.value();
  if (binding.bound_count() == 0)
    return make_error("compressing clip '" + clip.name + "': none of its tracks names a joint of rig '" + rig.name() + "'");
  const VirtualVertices vertices = make_virtual_vertices(rig, settings.min_part_size);
  const float duration = std::isfinite(clip.duration) && clip.duration > 0.0f ? clip.duration : 0.0f;
  float rate = settings.sample_rate > 0.0f ? settings.sample_rate : key_rate(clip, binding);
  for (int doubling = 0;; ++doubling) {
    const bool may_double = settings.sample_rate == 0.0f && doubling < 3 && duration > 0.0f;
    Plan plan = make_plan(clip, rig, binding, rate);
    CompressedClipData d;
    d.name = clip.name;
    d.duration = duration;
    d.sample_rate = plan.rate;
    d.sample_count = plan.sample_count;
    d.segment_samples = settings.segment_samples;
    d.rig_signature = rig.signature();
    d.tolerance = settings.tolerance;
    d.markers = clip.markers;
    const std::uint32_t segments = compressed_segment_count(plan.sample_count, settings.segment_samples);
    bool redo = false;
    for (std::uint32_t k = 0; k < segments && !redo; ++k) {
      SegmentSearch s{rig, vertices, plan.channels, plan.constants, plan.rotation_channel, plan.translation_channel, 1, 1,
                      {}, {}, {}, {}, {}, {}};
      const std::uint32_t first = k * settings.segment_samples;
      s.length = plan.sample_count <= 1 ? 1 : std::min(settings.segment_samples, plan.sample_count - 1 - first) + 1;
      s.instants = s.length == 1 ? 1 : 4 * static_cast<int>(s.length - 1) + 1;
      for (const auto& all : plan.samples) s.raw.emplace_back(all.begin() + first, all.begin() + first + s.length);
      s.cache.assign(plan.channels.size(), std::vector<Encoded>(kCompressedBitRateCount));
      exact_points(clip, binding, rig, vertices, plan.rate, duration, first, s);
      const float raw_limit = may_double ? 0.5f * settings.tolerance : std::numeric_limits<float>::infinity();
      if (search_levels(s, kIsolationShare * settings.tolerance, 0.999f * settings.tolerance, raw_limit) > raw_limit) {
        redo = true;
        break;
      }
      d.segment_offsets.push_back(static_cast<std::uint32_t>(d.bytes.size()));
      write_segment(s, d.bytes);
    }
    if (redo) {
      rate *= 2.0f;
      continue;
    }
    d.segment_offsets.push_back(static_cast<std::uint32_t>(d.bytes.size()));
    d.bytes.insert(d.bytes.end(), 8, 0);
    d.coverage = std::move(plan.coverage);
    d.constants = std::move(plan.constants);
    d.channels = std::move(plan.channels);
    auto made = make_compressed_clip(std::move(d));
    if (!made) return made.error();
    const CompressionReport r = measure_all(clip, binding, made.value(), rig, vertices);
    if (report) *report = r;
    if (!(r.worst_error <= settings.tolerance))
      return make_error("compressing clip '" + clip.name + "': joint " +
                        (r.worst_joint >= 0 ? rig.lookup_name(r.worst_joint) : std::string("?")) + " errs " +
                        std::to_string(r.worst_error) + " studs at " + std::to_string(r.worst_time) +
                        " s, over the tolerance even with raw samples at " + std::to_string(plan.rate) +
                        " Hz; give a higher sample rate");
    return made;
  }
}

}  // namespace asterune
