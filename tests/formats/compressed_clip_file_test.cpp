// The .asclip file (rule P9): a compressed clip written and read back samples bit for bit as it
// did; every truncation, a wrong magic or version, and damaged bytes fail with one line naming
// the file and the item, never a crash.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "asterune/clip/compressed_clip.hpp"
#include "asterune/formats/compressed_clip_file.hpp"
#include "asterune/rig/builtin.hpp"
#include "asterune/rig/rig.hpp"
#include "support/math.hpp"
#include "support/temp_dir.hpp"

using namespace asterune;

namespace {

struct Fixture {
  Rig rig;
  CompressedClip clip;
};

Fixture make_fixture() {
  auto desc = builtin_rig_desc("r15");
  REQUIRE(desc);
  auto rig = build_rig(*desc);
  REQUIRE(rig);
  Clip c;
  c.name = "wave";
  c.duration = 2.0f;
  for (const char* part : {"RightUpperArm", "RightLowerArm", "LowerTorso"}) {
    ClipTrack t;
    t.name = part;
    for (int f = 0; f <= 60; ++f) {
      t.rotation_times.push_back(static_cast<float>(f) / 30.0f);
      t.rotations.push_back(test::axis_angle_deg(50.0f * std::sin(0.15f * static_cast<float>(f)), {1, 0, 0}));
    }
    if (std::string(part) == "LowerTorso") {
      t.translation_times = t.rotation_times;
      for (int f = 0; f <= 60; ++f) t.translations.emplace_back(0.0f, 0.0f, -0.1f * static_cast<float>(f));
    }
    c.tracks.push_back(std::move(t));
  }
  c.markers.push_back(ClipMarker{1.0f, "step", "right", ClipMarkerKind::kMarker});
  auto made = compress_clip(c, rig.value());
  REQUIRE(made);
  return {std::move(rig).value(), std::move(made).value()};
}

}  // namespace

TEST_CASE("an .asclip file reads back the compressed clip it was written from", "[formats][asclip]") {
  const Fixture f = make_fixture();
  const std::vector<std::uint8_t> bytes = io::write_compressed_clip_bytes(f.clip);
  const test::TempDir dir("asclip");
  const auto path = dir.path() / "wave.asclip";
  REQUIRE(io::save_compressed_clip(path, f.clip));
  auto back = io::load_compressed_clip(path);
  REQUIRE(back);
  CHECK(back.value().name() == "wave");
  CHECK(back.value().data().rig_signature == f.rig.signature());
  REQUIRE(back.value().markers().size() == 1);
  CHECK(back.value().markers()[0].value == "right");
  CHECK(io::write_compressed_clip_bytes(back.value()) == bytes);
  const auto n = static_cast<size_t>(f.rig.joint_count());
  std::vector<Transform> a(n), b(n);
  std::vector<float> ca(n), cb(n);
  for (float t = -0.5f; t < 2.5f; t += 0.01f) {
    REQUIRE(sample_compressed_clip(f.clip, t, WrapMode::kLoop, a, ca));
    REQUIRE(sample_compressed_clip(back.value(), t, WrapMode::kLoop, b, cb));
    for (size_t j = 0; j < n; ++j) {
      REQUIRE(a[j].rotation == b[j].rotation);
      REQUIRE(a[j].position == b[j].position);
      REQUIRE(ca[j] == cb[j]);
    }
  }
}

TEST_CASE("a truncated, foreign or damaged .asclip file is a one-line error", "[formats][asclip]") {
  const Fixture f = make_fixture();
  const std::vector<std::uint8_t> bytes = io::write_compressed_clip_bytes(f.clip);
  auto one_line_error = [](const Result<CompressedClip>& r) {
    REQUIRE_FALSE(r);
    CHECK(r.message().rfind("x.asclip: ", 0) == 0);
    CHECK(r.message().find('\n') == std::string::npos);
  };
  for (size_t len = 0; len < bytes.size(); ++len)
    one_line_error(io::parse_compressed_clip(std::span(bytes).first(len), "x.asclip"));
  std::vector<std::uint8_t> v = bytes;
  v[0] = 'B';
  auto magic = io::parse_compressed_clip(v, "x.asclip");
  one_line_error(magic);
  CHECK(magic.message().find("magic") != std::string::npos);
  v = bytes;
  v[8] = 2;
  auto version = io::parse_compressed_clip(v, "x.asclip");
  one_line_error(version);
  CHECK(version.message().find("version 2") != std::string::npos);
  for (size_t at = 16; at < bytes.size(); at += 7) {
    v = bytes;
    v[at] ^= 0x5a;
    one_line_error(io::parse_compressed_clip(v, "x.asclip"));
  }
  // A count far past the end is refused before anything is allocated for it.
  v = bytes;
  v[16] = v[17] = v[18] = 0xff;
  one_line_error(io::parse_compressed_clip(v, "x.asclip"));
  CHECK_FALSE(io::load_compressed_clip("/nonexistent/x.asclip"));
}
