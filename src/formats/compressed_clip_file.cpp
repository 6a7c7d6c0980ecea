// .asclip reading and writing (rule P9).
#include "asterune/formats/compressed_clip_file.hpp"

#include <bit>
#include <cstring>
#include <string_view>

#include "formats/json_read.hpp"

namespace asterune::io {

namespace {

constexpr char kMagic[8] = {'A', 'S', 'C', 'L', 'I', 'P', '\r', '\n'};

std::uint64_t fnv1a(std::span<const std::uint8_t> bytes) {
  std::uint64_t h = 1469598103934665603ull;
  for (std::uint8_t b : bytes) h = (h ^ b) * 1099511628211ull;
  return h;
}

struct Writer {
  std::vector<std::uint8_t> out;
  void u8(std::uint8_t v) { out.push_back(v); }
  void u32(std::uint32_t v) {
    for (int k = 0; k < 4; ++k) out.push_back(static_cast<std::uint8_t>(v >> (8 * k)));
  }
  void u64(std::uint64_t v) {
    for (int k = 0; k < 8; ++k) out.push_back(static_cast<std::uint8_t>(v >> (8 * k)));
  }
  void f32(float v) { u32(std::bit_cast<std::uint32_t>(v)); }
  void text(const std::string& s) {
    u32(static_cast<std::uint32_t>(s.size()));
    out.insert(out.end(), s.begin(), s.end());
  }
};

// Reads in order; every read checks the bytes left and throws LoadError{item, reason}.
struct Reader {
  std::span<const std::uint8_t> in;
  std::size_t at = 0;
  std::size_t left() const { return in.size() - at; }
  void need(std::size_t n, const char* item) {
    if (n > left()) throw detail::LoadError{item, "the file ends early (truncated)"};
  }
  std::uint8_t u8(const char* item) {
    need(1, item);
    return in[at++];
  }
  std::uint32_t u32(const char* item) {
    need(4, item);
    std::uint32_t v = 0;
    for (int k = 0; k < 4; ++k) v |= static_cast<std::uint32_t>(in[at++]) << (8 * k);
    return v;
  }
  std::uint64_t u64(const char* item) {
    const std::uint64_t lo = u32(item);
    return lo | (static_cast<std::uint64_t>(u32(item)) << 32);
  }
  float f32(const char* item) { return std::bit_cast<float>(u32(item)); }
  // A count of items of at least `min_bytes` each, checked against the bytes left.
  std::uint32_t count(const char* item, std::size_t min_bytes) {
    const std::uint32_t n = u32(item);
    if (static_cast<std::uint64_t>(n) * min_bytes > left())
      throw detail::LoadError{item, "count " + std::to_string(n) + " is larger than the rest of the file"};
    return n;
  }
  std::string text(const char* item) {
    const std::uint32_t n = count(item, 1);
    std::string s(reinterpret_cast<const char*>(in.data() + at), n);
    at += n;
    return s;
  }
};

CompressedClipData read_data(Reader& r) {
  r.need(sizeof kMagic, "magic");
  if (std::memcmp(r.in.data(), kMagic, sizeof kMagic) != 0)
    throw detail::LoadError{"magic", "not a compressed clip file (.asclip)"};
  r.at = sizeof kMagic;
  const std::uint32_t version = r.u32("version");
  if (version != kCompressedClipFileVersion)
    throw detail::LoadError{"version", "version " + std::to_string(version) + " is not the supported " +
                                           std::to_string(kCompressedClipFileVersion)};
  if (r.u32("flags") != 0) throw detail::LoadError{"flags", "unknown flags (a newer writer?)"};
  CompressedClipData d;
  d.name = r.text("name");
  d.rig_signature = r.u64("rig signature");
  d.duration = r.f32("duration");
  d.sample_rate = r.f32("sample rate");
  d.tolerance = r.f32("tolerance");
  d.sample_count = r.u32("sample count");
  d.segment_samples = r.u32("segment length");
  const std::uint32_t joints = r.count("joints", 29);
  for (std::uint32_t j = 0; j < joints; ++j) {
    d.coverage.push_back(r.u8("joints"));
    Transform t;
    t.rotation.w = r.f32("joints");
    t.rotation.x = r.f32("joints");
    t.rotation.y = r.f32("joints");
    t.rotation.z = r.f32("joints");
    t.position.x = r.f32("joints");
    t.position.y = r.f32("joints");
    t.position.z = r.f32("joints");
    d.constants.push_back(t);
  }
  const std::uint32_t channels = r.count("channels", 29);
  for (std::uint32_t c = 0; c < channels; ++c) {
    CompressedChannel ch;
    ch.joint = r.u32("channels");
    const std::uint8_t kind = r.u8("channels");
    if (kind > 1) throw detail::LoadError{"channels", "channel " + std::to_string(c) + " has an unknown kind"};
    ch.kind = static_cast<ChannelKind>(kind);
    for (float& v : ch.range_min) v = r.f32("channels");
    for (float& v : ch.range_extent) v = r.f32("channels");
    d.channels.push_back(ch);
  }
  const std::uint32_t offsets = r.count("segment offsets", 4);
  for (std::uint32_t k = 0; k < offsets; ++k) d.segment_offsets.push_back(r.u32("segment offsets"));
  const std::uint32_t bytes = r.count("segment bytes", 1);
  d.bytes.assign(r.in.begin() + static_cast<std::ptrdiff_t>(r.at), r.in.begin() + static_cast<std::ptrdiff_t>(r.at + bytes));
  r.at += bytes;
  const std::uint32_t markers = r.count("markers", 13);
  for (std::uint32_t m = 0; m < markers; ++m) {
    ClipMarker mk;
    mk.time = r.f32("markers");
    const std::uint8_t kind = r.u8("markers");
    if (kind > 1) throw detail::LoadError{"markers", "marker " + std::to_string(m) + " has an unknown kind"};
    mk.kind = static_cast<ClipMarkerKind>(kind);
    mk.name = r.text("markers");
    mk.value = r.text("markers");
    d.markers.push_back(std::move(mk));
  }
  return d;
}

}  // namespace

std::vector<std::uint8_t> write_compressed_clip_bytes(const CompressedClip& clip) {
  const CompressedClipData& d = clip.data();
  Writer w;
  w.out.assign(kMagic, kMagic + sizeof kMagic);
  w.u32(kCompressedClipFileVersion);
  w.u32(0);
  w.text(d.name);
  w.u64(d.rig_signature);
  w.f32(d.duration);
  w.f32(d.sample_rate);
  w.f32(d.tolerance);
  w.u32(d.sample_count);
  w.u32(d.segment_samples);
  w.u32(static_cast<std::uint32_t>(d.coverage.size()));
  for (std::size_t j = 0; j < d.coverage.size(); ++j) {
    w.u8(d.coverage[j]);
    const Transform& t = d.constants[j];
    for (float v : {t.rotation.w, t.rotation.x, t.rotation.y, t.rotation.z, t.position.x, t.position.y, t.position.z}) w.f32(v);
  }
  w.u32(static_cast<std::uint32_t>(d.channels.size()));
  for (const CompressedChannel& c : d.channels) {
    w.u32(c.joint);
    w.u8(static_cast<std::uint8_t>(c.kind));
    for (float v : c.range_min) w.f32(v);
    for (float v : c.range_extent) w.f32(v);
  }
  w.u32(static_cast<std::uint32_t>(d.segment_offsets.size()));
  for (std::uint32_t o : d.segment_offsets) w.u32(o);
  w.u32(static_cast<std::uint32_t>(d.bytes.size()));
  w.out.insert(w.out.end(), d.bytes.begin(), d.bytes.end());
  w.u32(static_cast<std::uint32_t>(d.markers.size()));
  for (const ClipMarker& m : d.markers) {
    w.f32(m.time);
    w.u8(static_cast<std::uint8_t>(m.kind));
    w.text(m.name);
    w.text(m.value);
  }
  w.u64(fnv1a(w.out));
  return std::move(w.out);
}

Result<CompressedClip> parse_compressed_clip(std::span<const std::uint8_t> bytes, const std::string& label) {
  try {
    if (bytes.size() < sizeof kMagic + 8) throw detail::LoadError{"magic", "the file is too short for a compressed clip"};
    std::uint64_t stored = 0;
    for (int k = 0; k < 8; ++k) stored |= static_cast<std::uint64_t>(bytes[bytes.size() - 8 + static_cast<std::size_t>(k)]) << (8 * k);
    Reader r{bytes.first(bytes.size() - 8)};
    CompressedClipData d = read_data(r);
    if (r.left() != 0) throw detail::LoadError{"checksum", std::to_string(r.left()) + " unexpected bytes before the checksum"};
    if (fnv1a(r.in) != stored) throw detail::LoadError{"checksum", "the checksum does not match (a damaged file)"};
    auto made = make_compressed_clip(std::move(d));
    if (!made) return make_error(label + ": " + made.message());
    return made;
  } catch (const detail::LoadError& e) {
    return detail::to_error(label, e);
  }
}

Result<CompressedClip> load_compressed_clip(const std::filesystem::path& path) {
  return detail::parse_text_file(path, [](std::string_view text, const std::string& label) {
    return parse_compressed_clip(std::span(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()), label);
  });
}

Status save_compressed_clip(const std::filesystem::path& path, const CompressedClip& clip) {
  const std::vector<std::uint8_t> bytes = write_compressed_clip_bytes(clip);
  return detail::write_text_file(path, std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

}  // namespace asterune::io
