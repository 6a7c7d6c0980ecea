// asterune-solve's exports on real scenes, through the command line's own code (make_run,
// run_frames, write_svg_file, write_out_file): the written files are read back (pugixml for the
// SVG and the KeyframeSequence, nlohmann-json for the glTF) and their numbers compared with
// values worked out here from the scene's numbers and the projection documented in
// include/asterune/drawing/svg_writer.hpp, never with values taken from the writers.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>
#include <pugixml.hpp>

#include "export.hpp"
#include "run.hpp"
#include "scene_run.hpp"
#include "support/base64.hpp"
#include "support/temp_dir.hpp"
#include "../support/svg_points.hpp"

using namespace asterune;

using asterune::test::parse_points;

namespace {

constexpr float kWidth = 800.0f;  // the CLI draws at the writer's default width

// The SVG layout of svg_writer.hpp, computed here from its documented formula: B = the bounds
// of every part box (8 corners), the root part's box and the per-frame extras of every drawn
// frame, each axis grown to at least 1 stud; s = min((W/2 - 48) / B.x, (W/2 - 48) / B.z, W / B.y).
struct HandLayout {
  glm::vec3 lo{std::numeric_limits<float>::max()}, hi{std::numeric_limits<float>::lowest()};
  float s = 0.0f, front_x0 = 0.0f, side_x0 = 0.0f;

  void add(const glm::vec3& p) {
    lo = glm::min(lo, p);
    hi = glm::max(hi, p);
  }
  void add_box(const Transform& t, const glm::vec3& size) {
    for (int i = 0; i < 8; ++i) {
      const glm::vec3 local((i & 1) ? 0.5f * size.x : -0.5f * size.x, (i & 2) ? 0.5f * size.y : -0.5f * size.y,
                            (i & 4) ? 0.5f * size.z : -0.5f * size.z);
      add(t.position + t.rotation * local);
    }
  }
  void add_frame(const Rig& rig, const io::FrameRecord& rec) {
    for (int j = 0; j < rig.joint_count(); ++j)
      add_box(rec.world[static_cast<size_t>(j)], rig.part(rig.part1()[static_cast<size_t>(j)]).size);
    add_box(rec.root, rig.part(rig.root_part()).size);
  }
  void finish() {
    for (int a = 0; a < 3; ++a) {
      const float e = hi[a] - lo[a];
      if (e < 1.0f) {
        lo[a] -= 0.5f * (1.0f - e);
        hi[a] += 0.5f * (1.0f - e);
      }
    }
    const glm::vec3 e = hi - lo;
    const float panel = kWidth / 2.0f;
    s = std::min({(panel - 48.0f) / e.x, (panel - 48.0f) / e.z, kWidth / e.y});
    front_x0 = (panel - e.x * s) / 2.0f;
    side_x0 = panel + (panel - e.z * s) / 2.0f;
  }
  // front: u = -x; side: u = -z; v = y (56 = kSvgTop).
  glm::vec2 front(const glm::vec3& p) const { return {front_x0 + (hi.x - p.x) * s, 56.0f + (hi.y - p.y) * s}; }
  glm::vec2 side(const glm::vec3& p) const { return {side_x0 + (hi.z - p.z) * s, 56.0f + (hi.y - p.y) * s}; }
};

pugi::xml_document load_svg(const std::filesystem::path& path) {
  pugi::xml_document doc;
  const pugi::xml_parse_result r = doc.load_file(path.c_str());
  INFO(path << ": " << r.description());
  REQUIRE(r);
  REQUIRE(std::string(doc.document_element().name()) == "svg");
  return doc;
}

pugi::xml_node select(const pugi::xml_document& doc, const std::string& xpath) {
  const pugi::xpath_node n = doc.select_node(xpath.c_str());
  INFO(xpath);
  REQUIRE(n);
  return n.node();
}

float distance_to_nearest(const std::vector<glm::vec2>& points, glm::vec2 p) {
  float best = std::numeric_limits<float>::max();
  for (const glm::vec2& q : points) best = std::min(best, glm::length(q - p));
  return best;
}

std::vector<io::FrameRecord> run_all(cli::Run& run) {
  std::vector<io::FrameRecord> recs;
  cli::run_frames(run, 0, run.frames - 1, [&](const io::FrameRecord& r) { recs.push_back(r); });
  REQUIRE(recs.size() == static_cast<size_t>(run.frames));
  return recs;
}

// The run of `--rig builtin:r15 --clip` CMU 131_01 (tests/data/bvh/cmu_131_01_start_walk_stop.bvh):
// the whole clip at the default step unless the caller sets frames.
cli::RunRequest cmu_walk_request() {
  cli::RunRequest request;
  request.rig = "builtin:r15";
  request.clip = std::string(ASTERUNE_TEST_DATA_DIR) + "/bvh/cmu_131_01_start_walk_stop.bvh";
  return request;
}

// Writes the unreduced export of the run's frames (every key: OutOptions::tolerance 0), the
// reference of a reduced export, to `path`; returns the keys a reduced export starts from (one
// per joint and frame).
size_t write_every_key(const std::filesystem::path& path, const cli::Run& run, const std::vector<io::FrameRecord>& recs) {
  cli::OutOptions every;
  every.tolerance = 0.0f;
  cli::write_out_file(path.string(), run, recs, every);
  return recs.size() * static_cast<size_t>(run.rig.joint_count());
}

// A reduced export and the unreduced one (the reference) read back the way `--clip FILE.rbxmx`
// reads them on builtin:r15 and played at a quarter of the step of the exported frames `recs`:
// every frame time, every midpoint and quarter point between frames.
struct ReadBack {
  std::vector<io::FrameRecord> want;  // the unreduced file's playback: want[4 * f] is at recs[f].time
  std::vector<io::FrameRecord> got;   // the reduced file's
  float worst = 0.0f;                 // the farthest any part's world position in got is from want
};
ReadBack read_back(const std::filesystem::path& full, const std::filesystem::path& reduced,
                   const std::vector<io::FrameRecord>& recs) {
  auto play = [&](const std::filesystem::path& file) {
    cli::RunRequest back;
    back.rig = "builtin:r15";
    back.clip = file.string();
    back.dt = 0.25f * (recs[1].time - recs[0].time);
    back.frames = 4 * static_cast<int>(recs.size()) - 3;
    cli::Run r = cli::make_run(back);
    return run_all(r);
  };
  ReadBack out;
  out.want = play(full);
  out.got = play(reduced);
  REQUIRE(out.want.size() == out.got.size());
  for (size_t s = 0; s < out.want.size(); ++s)
    for (size_t j = 0; j < out.want[s].world.size(); ++j)
      out.worst = std::max(out.worst, glm::length(out.got[s].world[j].position - out.want[s].world[j].position));
  return out;
}

const io::ControlRecord* feet_record(const io::FrameRecord& rec) {
  for (const io::ControlRecord& c : rec.controls)
    if (c.feet) return &c;
  return nullptr;
}

void write_text(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path);
  out << text;
  REQUIRE(out.good());
}

}  // namespace

TEST_CASE("svg of walk_over_step: ground shapes, foot rays and hit points at hand-computed pixels", "[cli][svg]") {
  cli::RunRequest request;
  request.scene = std::string(ASTERUNE_EXAMPLES_DIR) + "/walk_over_step.scene.json";
  cli::Run run = cli::make_run(request);
  REQUIRE(run.ground);
  const std::vector<io::FrameRecord> recs = run_all(run);

  // From the scene file: the step is box 1, centre (0, 0.125, 1.75), size (6, 0.25, 1.5): its
  // top is at y = 0.25 over x [-3, 3], z [1, 2.5]. The root has no rotation, so every ray is
  // vertical; probe_height 1 makes it 2 studs long.
  constexpr float kStepTop = 0.125f + 0.25f / 2.0f;
  // The first frame in which a foot's ray lands well inside the step's top face.
  size_t pick = recs.size();
  int foot = -1;
  for (size_t f = 0; f < recs.size() && pick == recs.size(); ++f) {
    const io::ControlRecord* feet = feet_record(recs[f]);
    REQUIRE(feet);
    for (int i = 0; i < feet->feet->foot_count; ++i) {
      const FootReport& r = feet->feet->feet[static_cast<size_t>(i)];
      if (r.hit && std::fabs(r.ray_end.x) < 2.9f && r.ray_end.z > 1.1f && r.ray_end.z < 2.4f &&
          std::fabs(r.ray_end.y - kStepTop) < 0.01f) {
        pick = f;
        foot = i;
        break;
      }
    }
  }
  REQUIRE(pick < recs.size());
  const io::FrameRecord& rec = recs[pick];
  const FootReport& on_step = feet_record(rec)->feet->feet[static_cast<size_t>(foot)];
  INFO("frame " << rec.frame << ", foot " << foot);
  // The hit the feet control reports is where the step is: on its top face, straight below
  // the ray's origin, with the face's normal.
  CHECK(on_step.ray_end.y == Approx(kStepTop).margin(1e-5));
  CHECK(on_step.ray_end.x == Approx(on_step.ray_origin.x).margin(1e-5));
  CHECK(on_step.ray_end.z == Approx(on_step.ray_origin.z).margin(1e-5));
  CHECK(on_step.ray_origin.y - on_step.ray_end.y <= 2.0f);
  CHECK(glm::length(on_step.hit_normal - glm::vec3(0, 1, 0)) < 1e-5f);

  const test::TempDir tmp("cli_walk_svg");
  cli::SvgRequest svg;
  svg.path = (tmp / "walk.svg").string();
  cli::write_svg_file(svg, false, run, std::span<const io::FrameRecord>(&rec, 1));
  const pugi::xml_document doc = load_svg(svg.path);

  // The layout by hand: this frame's parts and root, plus its extras (each foot's ray, and at a
  // hit the normal drawn kSvgNormalLength studs long).
  HandLayout l;
  l.add_frame(run.rig, rec);
  const io::ControlRecord& feet = *feet_record(rec);
  for (int i = 0; i < feet.feet->foot_count; ++i) {
    const FootReport& r = feet.feet->feet[static_cast<size_t>(i)];
    l.add(r.ray_origin);
    l.add(r.ray_end);
    if (r.hit) l.add(r.ray_end + cli::kSvgNormalLength * r.hit_normal);
  }
  l.finish();
  INFO("s = " << l.s << " px/stud");

  const std::string frame = "//g[@class='frame']/g[@data-view='";
  const std::string id = "Feet foot " + std::to_string(foot);
  const glm::vec3 hit(on_step.ray_end.x, kStepTop, on_step.ray_end.z);
  for (const bool front : {true, false}) {
    const char* view = front ? "front" : "side";
    INFO(view);
    auto project = [&](const glm::vec3& p) { return front ? l.front(p) : l.side(p); };
    // The hit cross: centred on the projected hit point.
    const pugi::xml_node cross = select(doc, frame + view + "']/g[@class='hit'][@data-id='" + id + " hit']");
    const pugi::xml_node bar = cross.child("line");
    const glm::vec2 centre(0.5f * (bar.attribute("x1").as_float() + bar.attribute("x2").as_float()),
                           0.5f * (bar.attribute("y1").as_float() + bar.attribute("y2").as_float()));
    const glm::vec2 want = project(hit);
    CHECK(centre.x == Approx(want.x).margin(0.01));
    CHECK(centre.y == Approx(want.y).margin(0.01));
    // The ray: from 1 stud (probe_height) above the animated sole down to the hit.
    const pugi::xml_node ray = select(doc, frame + view + "']/line[@class='ray'][@data-id='" + id + " ray']");
    CHECK(ray.attribute("x2").as_float() == Approx(want.x).margin(0.01));
    CHECK(ray.attribute("y2").as_float() == Approx(want.y).margin(0.01));
    CHECK(ray.attribute("x1").as_float() == Approx(want.x).margin(0.01));  // vertical in both views
    CHECK(ray.attribute("y1").as_float() < want.y);

    // The step's corner (3, 0.25, 2.5) is a corner of its outline in both views.
    const std::string bg = std::string("//g[@class='background'][@data-view='") + view + "']";
    const std::vector<glm::vec2> step =
        parse_points(select(doc, bg + "/polygon[@data-id='ground box 1']").attribute("points").value());
    CHECK(step.size() == 4);
    CHECK(distance_to_nearest(step, project({3.0f, kStepTop, 2.5f})) < 0.01f);
    // The slope: heightfield 0 at origin (-3, 0, -4), cell 1.5, heights rising from -0.3 at
    // column 0 to 0.3 at column 4; its row 0 ends at (3, 0.3, -4). 4 rows + 5 columns of lines.
    const std::vector<glm::vec2> row0 =
        parse_points(select(doc, bg + "/polyline[@data-id='ground heightfield 0 row 0']").attribute("points").value());
    REQUIRE(row0.size() == 5);
    CHECK(glm::length(row0.back() - project({3.0f, 0.3f, -4.0f})) < 0.01f);
    CHECK(glm::length(row0.front() - project({-3.0f, -0.3f, -4.0f})) < 0.01f);
    CHECK(doc.select_nodes((bg + "/polyline[starts-with(@data-id,'ground heightfield 0 ')]").c_str()).size() == 9);
    // The floor box (box 0) collides; the last box does not and is drawn dashed.
    CHECK(std::string(select(doc, bg + "/polygon[@data-id='ground box 0']").attribute("class").value()) == "ground");
    CHECK(std::string(select(doc, bg + "/polygon[@data-id='ground box 2']").attribute("class").value()) == "ground-off");
  }
  // A feet control has no target: no "Feet target" marker at the origin.
  CHECK_FALSE(doc.select_node("//text[.='Feet target']"));
}

TEST_CASE("svg and out files use the rig's own root part, where the scene's root path puts it", "[cli][svg][out]") {
  // A rig whose root part is "Base"; a part named HumanoidRootPart hangs at the end of the
  // chain, so nothing may take the root for it. The scene moves the root along a path: from
  // (0, 1, 0) to (4, 1, -2) in 1 s while turning 45 degrees about +Y, then holds.
  const test::TempDir tmp("cli_root_part");
  write_text(tmp / "based.rig.json", R"({
    "format": "asterune.rig/1", "name": "Based", "root": "Base",
    "parts": [{"name": "HumanoidRootPart", "size": [0.5, 0.5, 0.5]},
              {"name": "Base", "size": [2, 1, 1]},
              {"name": "Body", "size": [1, 2, 1]}],
    "joints": [{"name": "Spine", "part0": "Base", "part1": "Body", "c0": {"position": [0, 0.5, 0]}, "c1": {"position": [0, -1, 0]}},
               {"name": "Handle", "part0": "Body", "part1": "HumanoidRootPart", "c0": {"position": [0, 1, 0]}, "c1": {"position": [0, -0.25, 0]}}]
  })");
  write_text(tmp / "based.scene.json", R"({
    "format": "asterune.scene/1", "rig": "based.rig.json",
    "root": {"path": [{"t": 0, "position": [0, 1, 0]},
                      {"t": 1, "position": [4, 1, -2], "rotation": [0.92387953, 0, 0.38268343, 0]}]},
    "frames": 7, "dt": 0.2
  })");
  cli::RunRequest request;
  request.scene = (tmp / "based.scene.json").string();
  cli::Run run = cli::make_run(request);
  REQUIRE(run.rig.part(run.rig.root_part()).name == "Base");
  const std::vector<io::FrameRecord> recs = run_all(run);
  cli::OutOptions every_key;  // no key reduction (rule F7): a key per frame, checked below
  every_key.tolerance = 0.0f;
  // The root at frame k, from the scene's numbers: u = min(0.2 k, 1), position (4u, 1, -2u),
  // rotation u * 45 degrees about +Y.
  auto expected_root = [](int k) {
    const float u = std::min(0.2f * static_cast<float>(k), 1.0f);
    return Transform{glm::angleAxis(u * 0.25f * 3.14159265f, glm::vec3(0, 1, 0)), glm::vec3(4 * u, 1, -2 * u)};
  };
  for (const io::FrameRecord& r : recs) {
    const Transform want = expected_root(r.frame);
    CHECK(glm::length(r.root.position - want.position) < 1e-5f);
    CHECK(std::fabs(glm::dot(r.root.rotation, want.rotation)) > 1.0f - 1e-6f);
  }

  SECTION("--svg --svg-animate: each frame's root part box is Base's, at that frame's root") {
    cli::SvgRequest svg;
    svg.path = (tmp / "based.svg").string();
    svg.animate = true;
    cli::write_svg_file(svg, false, run, recs);
    const pugi::xml_document doc = load_svg(svg.path);
    HandLayout l;
    for (const io::FrameRecord& r : recs) l.add_frame(run.rig, r);
    l.finish();
    for (int k = 0; k < run.frames; ++k) {
      INFO("frame " << k);
      // The outline's pixel bounds are those of the 8 projected corners of Base's 2 x 1 x 1 box.
      std::array<glm::vec2, 8> front{}, side{};
      const Transform root = expected_root(k);
      for (int i = 0; i < 8; ++i) {
        const glm::vec3 local((i & 1) ? 1.0f : -1.0f, (i & 2) ? 0.5f : -0.5f, (i & 4) ? 0.5f : -0.5f);
        const glm::vec3 corner = root.position + root.rotation * local;
        front[static_cast<size_t>(i)] = l.front(corner);
        side[static_cast<size_t>(i)] = l.side(corner);
      }
      for (const bool is_front : {true, false}) {
        const std::string xpath = "//g[@class='frame'][@data-frame='" + std::to_string(k) + "']/g[@data-view='" +
                                  (is_front ? "front" : "side") + "']/polygon[@class='part root']";
        const pugi::xml_node poly = select(doc, xpath);
        CHECK(std::string(poly.attribute("data-part").value()) == "Base");
        const std::vector<glm::vec2> got = parse_points(poly.attribute("points").value());
        REQUIRE(!got.empty());
        const auto& want = is_front ? front : side;
        glm::vec2 glo(1e9f), ghi(-1e9f), wlo(1e9f), whi(-1e9f);
        for (const glm::vec2& p : got) {
          glo = glm::min(glo, p);
          ghi = glm::max(ghi, p);
        }
        for (const glm::vec2& p : want) {
          wlo = glm::min(wlo, p);
          whi = glm::max(whi, p);
        }
        CHECK(glm::length(glo - wlo) < 0.01f);
        CHECK(glm::length(ghi - whi) < 0.01f);
      }
    }
    CHECK(doc.select_node("//text[.='root: Base']"));
  }

  SECTION("--out FILE.rbxmx: every Keyframe's top-level Pose is Base, its CFrame identity (rule F5)") {
    const std::filesystem::path path = tmp / "based.rbxmx";
    cli::write_out_file(path.string(), run, recs, every_key);
    pugi::xml_document doc;
    REQUIRE(doc.load_file(path.c_str()));
    const pugi::xpath_node_set keyframes = doc.select_nodes("/roblox/Item[@class='KeyframeSequence']/Item[@class='Keyframe']");
    REQUIRE(keyframes.size() == recs.size());
    REQUIRE(glm::length(recs.front().root.position - recs.back().root.position) > 0.1f);  // Base travels
    for (const pugi::xpath_node& kf : keyframes) {
      const pugi::xpath_node_set top = kf.node().select_nodes("Item[@class='Pose']");
      REQUIRE(top.size() == 1);
      CHECK(std::string(top.first().node().select_node("Properties/string[@name='Name']").node().child_value()) == "Base");
      // Roblox ignores the root part's Pose (no Motor6D has it as Part1): identity, though the
      // root path moves Base from frame to frame.
      const pugi::xml_node cf = top.first().node().select_node("Properties/CoordinateFrame[@name='CFrame']").node();
      REQUIRE(cf);
      const char* keys[12] = {"X", "Y", "Z", "R00", "R01", "R02", "R10", "R11", "R12", "R20", "R21", "R22"};
      const float identity[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
      for (int i = 0; i < 12; ++i) CHECK(cf.child(keys[i]).text().as_float() == identity[i]);
      CHECK(top.first().node().select_node(
          "Item[@class='Pose'][Properties/string[@name='Name']='Body']/Item[@class='Pose'][Properties/string[@name='Name']='HumanoidRootPart']"));
    }
  }

  SECTION("--out FILE.gltf: the root node is Base, keyed along the root path") {
    const std::filesystem::path path = tmp / "based.gltf";
    cli::write_out_file(path.string(), run, recs, every_key);
    std::ifstream in(path);
    const nlohmann::json gltf = nlohmann::json::parse(in);
    REQUIRE(gltf["nodes"][0]["name"] == "Base");
    REQUIRE(gltf["scenes"][0]["nodes"] == nlohmann::json::array({0}));
    // The embedded buffer (data:...;base64,...) decoded here.
    const std::string uri = gltf["buffers"][0]["uri"];
    const std::string bytes = test::decode_base64(std::string_view(uri).substr(uri.find(',') + 1));
    auto floats = [&](int accessor, size_t element, int width) {
      const nlohmann::json& a = gltf["accessors"][static_cast<size_t>(accessor)];
      const nlohmann::json& v = gltf["bufferViews"][a["bufferView"].get<size_t>()];
      const size_t stride = v.value("byteStride", static_cast<size_t>(width) * 4);
      const size_t at = v.value("byteOffset", size_t{0}) + a.value("byteOffset", size_t{0}) + element * stride;
      std::vector<float> out(static_cast<size_t>(width));
      REQUIRE(at + out.size() * 4 <= bytes.size());
      std::memcpy(out.data(), bytes.data() + at, out.size() * 4);
      return out;
    };
    int translation = -1, rotation = -1;
    for (const nlohmann::json& ch : gltf["animations"][0]["channels"]) {
      if (ch["target"]["node"] != 0) continue;
      const int output = gltf["animations"][0]["samplers"][ch["sampler"].get<size_t>()]["output"];
      (ch["target"]["path"] == "translation" ? translation : rotation) = output;
    }
    REQUIRE(translation >= 0);
    REQUIRE(rotation >= 0);
    for (size_t k = 0; k < recs.size(); ++k) {
      INFO("key " << k);
      const Transform want = expected_root(static_cast<int>(k));
      const std::vector<float> t = floats(translation, k, 3), q = floats(rotation, k, 4);
      CHECK(glm::length(glm::vec3(t[0], t[1], t[2]) - want.position) < 1e-5f);
      CHECK(std::fabs(glm::dot(glm::quat(q[3], q[0], q[1], q[2]), want.rotation)) > 1.0f - 1e-6f);
    }
  }
}

TEST_CASE("export: --out FILE.rbxmx writes each foot contact start as a Footstep KeyframeMarker, read back (rule RT17)",
          "[cli][out][contacts]") {
  // CMU 131_01 on builtin:r15: the run's frames carry the feet's contact states; every frame where
  // a foot goes down (or is down at the first frame) must come back from the file as a Footstep
  // marker at that frame's time with the foot's side as value, and no other Footstep.
  const test::TempDir tmp("cli_footsteps");
  cli::RunRequest request = cmu_walk_request();
  request.frames = 240;
  cli::Run run = cli::make_run(request);
  const std::vector<io::FrameRecord> recs = run_all(run);
  std::vector<std::pair<float, std::string>> want;
  for (size_t f = 0; f < recs.size(); ++f)
    for (size_t i = 0; i < recs[f].contacts.size(); ++i) {
      const bool down = recs[f].contacts[i].contact;
      const bool was = f > 0 && recs[f - 1].contacts[i].contact;
      if (down && !was)
        want.emplace_back(recs[f].time, recs[f].contacts[i].foot.substr(0, recs[f].contacts[i].foot.find("Foot")));
    }
  REQUIRE(want.size() >= 3);  // the walk starts within these 4 s: several steps
  const std::filesystem::path path = tmp / "walk.rbxmx";
  cli::write_out_file(path.string(), run, recs, cli::OutOptions{});
  Result<io::KeyframeSequenceClip> back = io::read_keyframe_sequence_file(path);
  REQUIRE(back.ok());
  std::vector<std::pair<float, std::string>> got;
  for (const ClipMarker& m : back.value().clip.markers)
    if (m.kind == ClipMarkerKind::kMarker && m.name == "Footstep") got.emplace_back(m.time, m.value);
  REQUIRE(got.size() == want.size());
  for (size_t k = 0; k < got.size(); ++k) {
    CHECK(got[k].first == Approx(want[k].first).margin(1e-6));
    CHECK(got[k].second == want[k].second);
  }
}

TEST_CASE("export: --out FILE.rbxmx --tolerance 0.005 on CMU 131_01 at 60 Hz: at most 59% of the keys, read back with --clip "
          "within the tolerance at every frame and every quarter frame (rule F7)",
          "[cli][out][keys]") {
  // The reduced file and the unreduced one (every key: OutOptions::tolerance 0) are both read
  // back the way `--clip FILE.rbxmx` reads them (Pose easing included) and played at a quarter
  // of the step (1/240 s): every frame time of the export, every midpoint and quarter point
  // between frames, and so every key and every midpoint between two keys. Every part's world
  // position must agree within the tolerance. Keys: the issue's goal is 15%, out of reach of a
  // slerp between two Pose values, however eased, at 0.005 studs (docs/cli.md); the fitted
  // reducer with per-segment easing kept 36.8%; with the feet levelled in stance (rule RT22, the
  // calibration turns the feet between contacts) 41.9%. Bounded on every part's box corners
  // (rule P10) instead of part centres it keeps 57.7%, held at 59% against regressions.
  const test::TempDir tmp("cli_keys");
  cli::Run run = cli::make_run(cmu_walk_request());
  REQUIRE(run.frames > 400);  // the whole clip (--all-frames)
  const std::vector<io::FrameRecord> recs = run_all(run);
  const std::filesystem::path reduced = tmp / "walk.rbxmx", full = tmp / "walk_full.rbxmx";
  const cli::OutReport report = cli::write_out_file(reduced.string(), run, recs, cli::OutOptions{});
  const size_t all = write_every_key(full, run, recs);
  CHECK(report.keys_before == all);

  // Keys in the file: Poses with Weight 1 (an unkeyed parent of a keyed Pose has Weight 0).
  pugi::xml_document doc;
  REQUIRE(doc.load_file(reduced.c_str()));
  size_t keys = 0;
  for (const pugi::xpath_node& p : doc.select_nodes("//Item[@class='Pose']")) {
    const pugi::xml_node w = p.node().select_node("Properties/float[@name='Weight']").node();
    const pugi::xml_node name = p.node().select_node("Properties/string[@name='Name']").node();
    if (w && std::string(w.child_value()) == "1" && std::string(name.child_value()) != "HumanoidRootPart") ++keys;
  }
  CHECK(keys == report.keys_after);
  CHECK(static_cast<double>(keys) <= 0.59 * static_cast<double>(all));

  const ReadBack back = read_back(full, reduced, recs);
  CHECK(back.worst <= cli::OutOptions::kDefaultTolerance);
  // And the unreduced file replays the run itself at its frames (the reference is the export).
  for (size_t f = 0; f < recs.size(); f += 7)
    for (size_t j = 0; j < recs[f].world.size(); ++j)
      CHECK(glm::length(back.want[4 * f].world[j].position - recs[f].world[j].position) <= 1e-3f);
}

TEST_CASE("export: --out FILE.rbxmx --rbxmx-kind curves on CMU 131_01 at 60 Hz: at most 22% of the keys, read back "
          "with --clip within the tolerance at every frame and every quarter frame (rule F8)",
          "[cli][out][keys][curves]") {
  // The CurveAnimation and the unreduced KeyframeSequence (every key, the reference: the frames
  // slerped) are both read back the way `--clip FILE.rbxmx` reads them and played at a quarter
  // of the step: every frame, every midpoint and quarter point between frames, so every key and
  // every midpoint between two keys. The first goal was at most 15% of the keys at 0.005 studs
  // (14.4% on part centres); on the box corners (rule P10) it keeps 20.7%, held at 22%.
  const test::TempDir tmp("cli_curves");
  cli::Run run = cli::make_run(cmu_walk_request());
  const std::vector<io::FrameRecord> recs = run_all(run);
  const std::filesystem::path curves = tmp / "walk_curves.rbxmx", full = tmp / "walk_full.rbxmx";
  cli::OutOptions options;
  options.curves = true;
  const cli::OutReport report = cli::write_out_file(curves.string(), run, recs, options);
  const size_t all = write_every_key(full, run, recs);
  CHECK(report.keys_before == all);
  CHECK(static_cast<double>(report.keys_after) <= 0.22 * static_cast<double>(all));

  // The file is a CurveAnimation whose FloatCurves hold the reported keys (per joint, its key
  // times: the X position curve's count; the key count is the u32 after the first word).
  pugi::xml_document doc;
  REQUIRE(doc.load_file(curves.c_str()));
  REQUIRE(doc.select_node("/roblox/Item[@class='CurveAnimation']"));
  size_t keys = 0;
  for (const pugi::xpath_node& x :
       doc.select_nodes("//Item[@class='Vector3Curve']/Item[@class='FloatCurve'][Properties/string[@name='Name']='X']")) {
    const std::string text = x.node().select_node("Properties/BinaryString").node().child_value();
    REQUIRE(text.size() >= 12);
    // bytes 4..7: the first 12 base64 characters hold bytes 0..8
    const std::string bytes = test::decode_base64(std::string_view(text).substr(0, 12));
    REQUIRE(bytes.size() == 9);
    auto byte = [&](size_t i) { return static_cast<size_t>(static_cast<unsigned char>(bytes[i])); };
    keys += byte(4) | byte(5) << 8 | byte(6) << 16 | byte(7) << 24;
  }
  CHECK(keys == report.keys_after);

  CHECK(read_back(full, curves, recs).worst <= cli::OutOptions::kDefaultTolerance);
}
