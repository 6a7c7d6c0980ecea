// io::write_svg: the output is well-formed XML (pugixml), and known pivots land at pixel
// positions computed by hand from the projection documented in svg_writer.hpp (rule R0 axes:
// front view u = -x, side view u = -z, v = y).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include <pugixml.hpp>

#include "asterune/drawing/svg_writer.hpp"
#include "asterune/rig/pose.hpp"
#include "asterune/rig/world.hpp"
#include "../support/svg_points.hpp"

using asterune::test::parse_points;

namespace {

using namespace asterune;

// Base (2 x 1 x 1, the root, at the origin) carries Arm (1 x 2 x 1) on joint Shoulder:
// C0 = (0, 0.5, 0) on Base's top face, C1 = (0, -1, 0) at Arm's bottom face. At rest the pivot
// is (0, 0.5, 0) and Arm's centre (0, 1.5, 0).
Rig two_part_rig() {
  RigDesc d;
  d.name = "TwoPart";
  d.parts = {{"Base", "Base", {2, 1, 1}, Transform{}}, {"Arm", "Arm", {1, 2, 1}, std::nullopt}};
  JointDesc j;
  j.name = "Shoulder";
  j.part0 = "Base";
  j.part1 = "Arm";
  j.c0 = Transform::from_position({0, 0.5f, 0});
  j.c1 = Transform::from_position({0, -1, 0});
  d.joints = {j};
  d.root = "Base";
  auto rig = build_rig(d);
  REQUIRE(rig);
  return std::move(rig.value());
}

io::SvgFrame frame_with(const Rig& rig, const Transform& t, int index = 0) {
  io::SvgFrame f;
  f.frame = index;
  f.time = static_cast<float>(index) / 60.0f;
  std::vector<Transform> local{t};
  f.world.resize(1);
  evaluate_world(rig, f.root, local, f.world);
  return f;
}

pugi::xml_document parse(const std::string& text) {
  pugi::xml_document doc;
  const pugi::xml_parse_result r = doc.load_string(text.c_str());
  INFO(r.description());
  REQUIRE(r);
  REQUIRE(std::string(doc.document_element().name()) == "svg");
  return doc;
}

/// The pivot circle of `joint` in `view` inside the n-th frame group.
glm::vec2 pivot_px(const pugi::xml_document& doc, const char* joint, const char* view, int group = 0) {
  int g = 0;
  for (pugi::xml_node frame : doc.document_element().children("g")) {
    if (std::string(frame.attribute("class").value()) != "frame") continue;
    if (g++ != group) continue;
    for (pugi::xml_node vg : frame.children("g"))
      for (pugi::xml_node c : vg.children("circle"))
        if (std::string(c.attribute("data-joint").value()) == joint && std::string(c.attribute("data-view").value()) == view)
          return {c.attribute("cx").as_float(), c.attribute("cy").as_float()};
  }
  FAIL("no pivot circle for " << joint << " in view " << view);
  return {};
}

int count_frames(const pugi::xml_document& doc) {
  int n = 0;
  for (pugi::xml_node g : doc.document_element().children("g"))
    if (std::string(g.attribute("class").value()) == "frame") ++n;
  return n;
}

}  // namespace

TEST_CASE("svg: rest pose pivot at hand-computed pixels in both views", "[io][svg]") {
  const Rig rig = two_part_rig();
  const std::vector<io::SvgFrame> frames{frame_with(rig, Transform{})};
  const auto doc = parse(io::write_svg(rig, frames));
  // Bounds: x [-1, 1], y [-0.5, 2.5], z [-0.5, 0.5] (extents 2, 3, 1; all >= 1 stud).
  // s = min((400 - 48) / 2, (400 - 48) / 1, 800 / 3) = 176 px per stud.
  // front: x0 = (400 - 2 * 176) / 2 = 24; side: x0 = 400 + (400 - 176) / 2 = 512.
  // Pivot (0, 0.5, 0): front (24 + (1 - 0) 176, 56 + (2.5 - 0.5) 176) = (200, 408);
  //                    side  (512 + (0.5 - 0) 176, 408) = (600, 408).
  const glm::vec2 front = pivot_px(doc, "Shoulder", "front");
  const glm::vec2 side = pivot_px(doc, "Shoulder", "side");
  CHECK(front.x == Approx(200.0f).margin(0.002));
  CHECK(front.y == Approx(408.0f).margin(0.002));
  CHECK(side.x == Approx(600.0f).margin(0.002));
  CHECK(side.y == Approx(408.0f).margin(0.002));
  // Height = 56 + 3 * 176 + 64.
  CHECK(doc.document_element().attribute("width").as_float() == Approx(800.0f));
  CHECK(doc.document_element().attribute("height").as_float() == Approx(56.0f + 528.0f + 64.0f).margin(0.002));
  // The root part is drawn and labelled.
  CHECK(doc.select_node("//polygon[@class='part root'][@data-part='Base']"));
  CHECK(std::string(doc.select_node("//text[contains(@class,'root-label')]").node().child_value()) == "root: Base");
}

TEST_CASE("svg: a turned joint moves its part, not its pivot, and the bounds follow", "[io][svg]") {
  const Rig rig = two_part_rig();
  // T = +90 degrees about +X: the arm's +Y axis turns to +Z, so Arm's centre goes to
  // (0, 0.5, 0) + (0, 0, 1) and its box spans x [-0.5, 0.5], y [0, 1], z [0, 2].
  const float half = 0.5f * 3.14159265358979f;
  const Transform t = Transform::from_rotation(glm::angleAxis(half, glm::vec3(1, 0, 0)));
  const std::vector<io::SvgFrame> frames{frame_with(rig, t)};
  const auto doc = parse(io::write_svg(rig, frames));
  // Bounds x [-1, 1], y [-0.5, 1], z [-0.5, 2]: s = min(352 / 2, 352 / 2.5, 800 / 1.5) = 140.8.
  // front x0 = (400 - 281.6) / 2 = 59.2; side x0 = 400 + (400 - 352) / 2 = 424.
  // Pivot (0, 0.5, 0): front (59.2 + 140.8, 56 + 0.5 * 140.8) = (200, 126.4);
  //                    side  (424 + 2 * 140.8, 126.4) = (705.6, 126.4).
  const glm::vec2 front = pivot_px(doc, "Shoulder", "front");
  const glm::vec2 side = pivot_px(doc, "Shoulder", "side");
  CHECK(front.x == Approx(200.0f).margin(0.01));
  CHECK(front.y == Approx(126.4f).margin(0.01));
  CHECK(side.x == Approx(705.6f).margin(0.01));
  CHECK(side.y == Approx(126.4f).margin(0.01));
}

TEST_CASE("svg: extras are labelled markers, and the onion skin fades older frames", "[io][svg]") {
  const Rig rig = two_part_rig();
  std::vector<io::SvgFrame> frames;
  for (int i = 0; i < 3; ++i) {
    const float a = 0.3f * static_cast<float>(i);
    frames.push_back(frame_with(rig, Transform::from_rotation(glm::angleAxis(a, glm::vec3(0, 0, 1))), i * 10));
    frames.back().extras.points.push_back({{0, 2, -1}, "Reach target", io::svg_style::kTarget, ""});
    frames.back().extras.points.push_back({{1, 1, 1}, "Reach pole & <hint>", io::svg_style::kPole, ""});
  }
  io::SvgOptions opt;
  opt.background.polygons.push_back({{{-50, 0, -50}, {50, 0, -50}, {50, 0, 50}, {-50, 0, 50}}, "ground", io::svg_style::kGround, ""});
  const auto doc = parse(io::write_svg(rig, frames, opt));
  CHECK(count_frames(doc) == 3);
  std::vector<float> opacity;
  for (pugi::xml_node g : doc.document_element().children("g"))
    if (std::string(g.attribute("class").value()) == "frame") opacity.push_back(g.attribute("opacity").as_float());
  REQUIRE(opacity.size() == 3);
  CHECK(opacity[0] < opacity[1]);
  CHECK(opacity[2] == Approx(1.0f));
  // Labels only on the last frame, once per view; the text is escaped and read back intact.
  CHECK(doc.select_nodes("//text[.='Reach target']").size() == 2);
  CHECK(doc.select_nodes("//text[.='Reach pole & <hint>']").size() == 2);
  CHECK(doc.select_nodes("//g[@class='target']").size() == 6);  // 3 frames x 2 views
  // The background is drawn once per view, clipped, and does not shrink the rig: the rest
  // bounds (plus the extras) still set the scale, so the pivot of frame 0 is where it would
  // be without it.
  CHECK(doc.select_nodes("//g[@class='background']").size() == 2);
  const auto without = parse(io::write_svg(rig, frames));
  CHECK(pivot_px(doc, "Shoulder", "front") == pivot_px(without, "Shoulder", "front"));
}

TEST_CASE("svg: animated SVG shows one frame at a time with discrete SMIL, no script", "[io][svg]") {
  const Rig rig = two_part_rig();
  std::vector<io::SvgFrame> frames;
  for (int i = 0; i < 4; ++i)
    frames.push_back(frame_with(rig, Transform::from_rotation(glm::angleAxis(0.2f * static_cast<float>(i), glm::vec3(1, 0, 0))), i));
  io::SvgOptions opt;
  opt.mode = io::SvgMode::kAnimate;
  opt.frame_seconds = 0.5f;
  const std::string text = io::write_svg(rig, frames, opt);
  CHECK(text.find("<script") == std::string::npos);
  const auto doc = parse(text);
  const auto anims = doc.select_nodes("//g[@class='frame']/animate");
  REQUIRE(anims.size() == 4);
  const char* expected_key_times[4] = {"0;0.25", "0;0.25;0.5", "0;0.5;0.75", "0;0.75"};
  int i = 0;
  for (const pugi::xpath_node& a : anims) {
    CHECK(std::string(a.node().attribute("attributeName").value()) == "visibility");
    CHECK(std::string(a.node().attribute("calcMode").value()) == "discrete");
    CHECK(std::string(a.node().attribute("dur").value()) == "2.000s");
    CHECK(std::string(a.node().attribute("keyTimes").value()) == expected_key_times[i]);
    ++i;
  }
}

TEST_CASE("svg: frames of the wrong size are skipped, and with none left the rest pose is drawn", "[io][svg]") {
  const Rig rig = two_part_rig();
  io::SvgFrame bad;
  bad.world.resize(5);
  const std::vector<io::SvgFrame> frames{bad};
  const auto doc = parse(io::write_svg(rig, frames));
  CHECK(count_frames(doc) == 1);
  CHECK(pivot_px(doc, "Shoulder", "front").x == Approx(200.0f).margin(0.002));
}

namespace {

/// The element with data-id `id` in the background group of `view`.
pugi::xml_node background_item(const pugi::xml_document& doc, const char* view, const char* element, const char* id) {
  const std::string xpath = std::string("//g[@class='background'][@data-view='") + view + "']/" + element +
                            "[@data-id='" + id + "']";
  const pugi::xpath_node n = doc.select_node(xpath.c_str());
  INFO(xpath);
  REQUIRE(n);
  return n.node();
}

std::pair<glm::vec2, glm::vec2> line_ends(pugi::xml_node line) {
  return {{line.attribute("x1").as_float(), line.attribute("y1").as_float()},
          {line.attribute("x2").as_float(), line.attribute("y2").as_float()}};
}

/// a and b are the ends of `line` (in either order), each within 0.01 px.
void check_line(pugi::xml_node line, glm::vec2 a, glm::vec2 b) {
  auto [p, q] = line_ends(line);
  if (glm::length(p - a) > glm::length(q - a)) std::swap(p, q);
  INFO("line (" << p.x << ", " << p.y << ") - (" << q.x << ", " << q.y << "), expected (" << a.x << ", " << a.y
                << ") - (" << b.x << ", " << b.y << ")");
  CHECK(glm::length(p - a) < 0.01f);
  CHECK(glm::length(q - b) < 0.01f);
}

}  // namespace

TEST_CASE("svg: ground planes are section lines clipped to each panel, the solid side filled", "[io][svg]") {
  // The rest two-part rig: s = 176 px per stud, front x0 = 24, side x0 = 512, hi = (1, 2.5, 0.5),
  // height 648 (first test case). Panel clips: front x [0, 400], side [400, 800], y [48, 592].
  // Sections: front at z = 0, side at x = 0 (the middle of the depth bounds).
  const Rig rig = two_part_rig();
  const std::vector<io::SvgFrame> frames{frame_with(rig, Transform{})};
  io::SvgOptions opt;
  // Floor y = 0: v = 56 + 2.5 * 176 = 496 across both panels.
  opt.background.planes.push_back({{3, 0, -7}, {0, 2, 0}, "", io::svg_style::kGround, "floor"});
  // x + y = 0.5 (a 45-degree slope, solid below): front pixels satisfy (X - 24) + (Y - 56) = 3 * 176,
  // i.e. X + Y = 608; inside the clip it runs from the bottom edge (16, 592) to the right edge
  // (400, 208). The side section x = 0 gives y = 0.5: v = 56 + 2 * 176 = 408 across the side panel.
  opt.background.planes.push_back({{0, 0.5f, 0}, {1, 1, 0}, "", io::svg_style::kGround, "slope"});
  // A wall z = 0 faces the front view (no line there); from the side it is the vertical u = -z
  // line X = 512 + 0.5 * 176 = 600, clipped to y [48, 592].
  opt.background.planes.push_back({{0, 0, 0}, {0, 0, -1}, "", io::svg_style::kGroundOff, "wall"});
  const auto doc = parse(io::write_svg(rig, frames, opt));
  check_line(background_item(doc, "front", "line", "floor"), {0, 496}, {400, 496});
  check_line(background_item(doc, "side", "line", "floor"), {400, 496}, {800, 496});
  check_line(background_item(doc, "front", "line", "slope"), {16, 592}, {400, 208});
  check_line(background_item(doc, "side", "line", "slope"), {400, 408}, {800, 408});
  check_line(background_item(doc, "side", "line", "wall"), {600, 48}, {600, 592});
  CHECK_FALSE(doc.select_node("//g[@class='background'][@data-view='front']/line[@data-id='wall']"));
  CHECK(std::string(background_item(doc, "side", "line", "wall").attribute("class").value()) == "ground-off");
  // The floor's solid side is the panel below the line: (400, 496) (400, 592) (0, 592) (0, 496).
  const std::vector<glm::vec2> solid =
      parse_points(background_item(doc, "front", "polygon", "floor").attribute("points").value());
  const std::vector<glm::vec2> want{{400, 496}, {400, 592}, {0, 592}, {0, 496}};
  REQUIRE(solid.size() == want.size());
  for (size_t i = 0; i < want.size(); ++i) CHECK(glm::length(solid[i] - want[i]) < 0.01f);
}

TEST_CASE("svg: ground boxes are outlined, polylines drawn open, hit points crossed", "[io][svg]") {
  const Rig rig = two_part_rig();
  std::vector<io::SvgFrame> frames{frame_with(rig, Transform{})};
  // Extras inside the rest bounds (x [-1, 1], y [-0.5, 2.5], z [-0.5, 0.5]), so the layout is
  // that of the first test case: a hit at (0.5, 0, 0.25) with its normal up to (0.5, 0.5, 0.25).
  frames[0].extras.points.push_back({{0.5f, 0, 0.25f}, "", io::svg_style::kHit, "hit"});
  frames[0].extras.lines.push_back({{0.5f, 0, 0.25f}, {0.5f, 0.5f, 0.25f}, "", io::svg_style::kNormal, "normal"});
  io::SvgOptions opt;
  // A 4 x 0.5 x 0.5 box turned 90 degrees about +Y (its long side along Z), centred at
  // (0, -0.25, 0): x [-0.25, 0.25], y [-0.5, 0], z [-2, 2]. Front: X = 24 + (1 - x) 176 in
  // [156, 244], Y = 56 + (2.5 - y) 176 in [496, 584]; side: X = 512 + (0.5 - z) 176 in [248, 952].
  opt.background.boxes.push_back({Transform{glm::angleAxis(0.5f * 3.14159265f, glm::vec3(0, 1, 0)), {0, -0.25f, 0}},
                                  {4, 0.5f, 0.5f}, "", io::svg_style::kGround, "step"});
  // A profile polyline: (1, 0, 0) -> (0, 0.25, 0) -> (-1, 0, 0): front X 24, 200, 376; Y 496, 452, 496.
  opt.background.polylines.push_back({{{1, 0, 0}, {0, 0.25f, 0}, {-1, 0, 0}}, "", io::svg_style::kGround, "profile"});
  const auto doc = parse(io::write_svg(rig, frames, opt));

  auto corners = [](pugi::xml_node polygon) {
    const std::vector<glm::vec2> pts = parse_points(polygon.attribute("points").value());
    glm::vec2 lo(1e9f), hi(-1e9f);
    for (const glm::vec2& p : pts) {
      lo = glm::min(lo, p);
      hi = glm::max(hi, p);
    }
    return std::make_pair(lo, hi);
  };
  const auto [flo, fhi] = corners(background_item(doc, "front", "polygon", "step"));
  CHECK(flo.x == Approx(156.0f).margin(0.01));
  CHECK(fhi.x == Approx(244.0f).margin(0.01));
  CHECK(flo.y == Approx(496.0f).margin(0.01));
  CHECK(fhi.y == Approx(584.0f).margin(0.01));
  const auto [slo, shi] = corners(background_item(doc, "side", "polygon", "step"));
  CHECK(slo.x == Approx(248.0f).margin(0.01));
  CHECK(shi.x == Approx(952.0f).margin(0.01));
  CHECK(parse_points(background_item(doc, "front", "polygon", "step").attribute("points").value()).size() == 4);

  const std::vector<glm::vec2> profile =
      parse_points(background_item(doc, "front", "polyline", "profile").attribute("points").value());
  REQUIRE(profile.size() == 3);
  CHECK(glm::length(profile[0] - glm::vec2(24, 496)) < 0.01f);
  CHECK(glm::length(profile[1] - glm::vec2(200, 452)) < 0.01f);
  CHECK(glm::length(profile[2] - glm::vec2(376, 496)) < 0.01f);

  // The hit marker: a + of two 8 px lines centred on front (24 + 0.5 * 176, 496) = (112, 496)
  // and side (512 + 0.25 * 176, 496) = (556, 496); the normal rises 0.5 studs = 88 px.
  for (const auto& [view, x] : {std::make_pair("front", 112.0f), std::make_pair("side", 556.0f)}) {
    INFO(view);
    const std::string at = std::string("//g[@class='frame']/g[@data-view='") + view + "']";
    const pugi::xpath_node hit = doc.select_node((at + "/g[@class='hit'][@data-id='hit']").c_str());
    REQUIRE(hit);
    std::vector<pugi::xml_node> lines;
    for (pugi::xml_node l : hit.node().children("line")) lines.push_back(l);
    REQUIRE(lines.size() == 2);
    check_line(lines[0], {x - 4, 496}, {x + 4, 496});
    check_line(lines[1], {x, 492}, {x, 500});
    const pugi::xpath_node normal = doc.select_node((at + "/line[@class='normal'][@data-id='normal']").c_str());
    REQUIRE(normal);
    check_line(normal.node(), {x, 496}, {x, 408});
  }
}
