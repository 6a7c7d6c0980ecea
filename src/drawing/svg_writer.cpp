// SVG drawings of solved frames (svg_writer.hpp). Built as a pugixml DOM so the output is
// always well-formed and every label is escaped.
#include "asterune/drawing/svg_writer.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <sstream>

#include <pugixml.hpp>

#include "asterune/rig/pose.hpp"
#include "asterune/rig/world.hpp"
#include "formats/json_read.hpp"

namespace asterune::io {
namespace {

std::string num(float v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", static_cast<double>(v));
  std::string s = buf;
  if (s == "-0.000") s = "0.000";
  return s;
}

struct Bounds {
  glm::vec3 lo{std::numeric_limits<float>::max()};
  glm::vec3 hi{std::numeric_limits<float>::lowest()};
  void add(const glm::vec3& p) {
    if (!is_finite(p)) return;
    lo = glm::min(lo, p);
    hi = glm::max(hi, p);
  }
  bool valid() const { return lo.x <= hi.x; }
};

/// The 8 corners of a part box of `size` placed at `t`.
std::array<glm::vec3, 8> box_corners(const Transform& t, const glm::vec3& size) {
  std::array<glm::vec3, 8> c;
  const glm::vec3 h = 0.5f * size;
  for (int i = 0; i < 8; ++i) {
    const glm::vec3 local((i & 1) ? h.x : -h.x, (i & 2) ? h.y : -h.y, (i & 4) ? h.z : -h.z);
    c[static_cast<size_t>(i)] = transform_point(t, local);
  }
  return c;
}

enum class View { kFront, kSide };

struct Layout {
  float width = 800.0f, height = 600.0f, scale = 1.0f;
  glm::vec3 lo{0.0f}, hi{0.0f};
  float front_x0 = 0.0f, side_x0 = 0.0f;  // px of u = umin in each panel

  glm::vec2 project(View view, const glm::vec3& p) const {
    const float y = kSvgTop + (hi.y - p.y) * scale;
    if (view == View::kFront) return {front_x0 + (hi.x - p.x) * scale, y};
    return {side_x0 + (hi.z - p.z) * scale, y};
  }
  /// The world point drawn at pixel q in the section through the middle of the depth.
  glm::vec3 unproject(View view, glm::vec2 q) const {
    const float y = hi.y - (q.y - kSvgTop) / scale;
    if (view == View::kFront) return {hi.x - (q.x - front_x0) / scale, y, 0.5f * (lo.z + hi.z)};
    return {0.5f * (lo.x + hi.x), y, hi.z - (q.x - side_x0) / scale};
  }
  /// The panel's clip rectangle, corners in order (top left, top right, bottom right, bottom left).
  std::array<glm::vec2, 4> panel_rect(View view) const {
    const float x0 = view == View::kFront ? 0.0f : 0.5f * width, x1 = x0 + 0.5f * width;
    const float y0 = kSvgTop - 8.0f, y1 = height - kSvgBottom + 8.0f;
    return {glm::vec2(x0, y0), glm::vec2(x1, y0), glm::vec2(x1, y1), glm::vec2(x0, y1)};
  }
};

Layout make_layout(const Bounds& bounds_in, float width) {
  Bounds b = bounds_in;
  if (!b.valid()) b.lo = b.hi = glm::vec3(0.0f);
  for (int a = 0; a < 3; ++a) {  // at least 1 stud per axis, grown evenly
    const float extent = b.hi[a] - b.lo[a];
    if (extent < 1.0f) {
      const float grow = 0.5f * (1.0f - extent);
      b.lo[a] -= grow;
      b.hi[a] += grow;
    }
  }
  Layout l;
  l.width = width;
  l.lo = b.lo;
  l.hi = b.hi;
  const glm::vec3 e = b.hi - b.lo;
  const float panel = width / 2.0f;
  l.scale = std::min({(panel - 2.0f * kSvgMargin) / e.x, (panel - 2.0f * kSvgMargin) / e.z, width / e.y});
  l.front_x0 = (panel - e.x * l.scale) / 2.0f;
  l.side_x0 = panel + (panel - e.z * l.scale) / 2.0f;
  l.height = kSvgTop + e.y * l.scale + kSvgBottom;
  return l;
}

/// Convex hull of projected points (Andrew's monotone chain), counter-clockwise.
std::vector<glm::vec2> hull(std::vector<glm::vec2> p) {
  std::sort(p.begin(), p.end(), [](const glm::vec2& a, const glm::vec2& b) { return a.x < b.x || (a.x == b.x && a.y < b.y); });
  if (p.size() < 3) return p;
  auto cross = [](const glm::vec2& o, const glm::vec2& a, const glm::vec2& b) {
    return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
  };
  std::vector<glm::vec2> h(2 * p.size());
  size_t k = 0;
  for (size_t i = 0; i < p.size(); ++i) {
    while (k >= 2 && cross(h[k - 2], h[k - 1], p[i]) <= 0.0f) --k;
    h[k++] = p[i];
  }
  for (size_t i = p.size() - 1, t = k + 1; i > 0; --i) {
    while (k >= t && cross(h[k - 2], h[k - 1], p[i - 1]) <= 0.0f) --k;
    h[k++] = p[i - 1];
  }
  h.resize(k - 1);
  return h;
}

std::string points_attr(const std::vector<glm::vec2>& pts) {
  std::string s;
  for (const glm::vec2& p : pts) {
    if (!s.empty()) s += ' ';
    s += num(p.x) + "," + num(p.y);
  }
  return s;
}

class Drawer {
 public:
  Drawer(const Rig& rig, const Layout& layout) : rig_(rig), l_(layout) {}

  static pugi::xml_node el(pugi::xml_node parent, const char* name, const char* cls = nullptr) {
    pugi::xml_node n = parent.append_child(name);
    if (cls) n.append_attribute("class") = cls;
    return n;
  }
  static void text(pugi::xml_node parent, glm::vec2 at, const std::string& s, const char* cls,
                   const char* anchor = nullptr) {
    pugi::xml_node t = el(parent, "text", cls);
    t.append_attribute("x") = num(at.x).c_str();
    t.append_attribute("y") = num(at.y).c_str();
    if (anchor) t.append_attribute("text-anchor") = anchor;
    t.text() = s.c_str();
  }
  static pugi::xml_node line(pugi::xml_node parent, glm::vec2 a, glm::vec2 b, const char* cls) {
    pugi::xml_node n = el(parent, "line", cls);
    n.append_attribute("x1") = num(a.x).c_str();
    n.append_attribute("y1") = num(a.y).c_str();
    n.append_attribute("x2") = num(b.x).c_str();
    n.append_attribute("y2") = num(b.y).c_str();
    return n;
  }

  void box(pugi::xml_node g, View v, const Transform& t, const glm::vec3& size, const char* cls,
           const std::string& part_name) const {
    if (!is_finite(t)) return;
    pugi::xml_node n = outline(g, v, t, size, cls);
    n.append_attribute("data-part") = part_name.c_str();
  }

  /// The projected outline (convex hull of the 8 corners) of a box of `size` placed at `t`.
  pugi::xml_node outline(pugi::xml_node g, View v, const Transform& t, const glm::vec3& size, const char* cls) const {
    std::vector<glm::vec2> pts;
    for (const glm::vec3& c : box_corners(t, size)) pts.push_back(l_.project(v, c));
    pugi::xml_node n = el(g, "polygon", cls);
    n.append_attribute("points") = points_attr(hull(std::move(pts))).c_str();
    return n;
  }

  static void set_id(pugi::xml_node n, const std::string& id) {
    if (!id.empty()) n.append_attribute("data-id") = id.c_str();
  }

  /// A plane in view v: its section line through the middle of the depth, clipped to the panel,
  /// with the solid side (n . (p - point) < 0) filled. Returns the line's first end (for the
  /// label), or nothing when the plane has no line in this panel.
  std::optional<glm::vec2> plane(pugi::xml_node g, View v, const SvgPlane& pl, bool shapes) const {
    const float len = glm::length(pl.normal);
    if (!is_finite(pl.point) || !is_finite(pl.normal) || !(len > 0.0f) || !std::isfinite(len)) return std::nullopt;
    const glm::vec3 n = pl.normal / len;
    const float in_view = std::hypot(v == View::kFront ? n.x : n.z, n.y);  // the part of n the view shows
    if (!(in_view > 1e-6f)) return std::nullopt;
    const auto f = [&](glm::vec2 q) { return glm::dot(n, l_.unproject(v, q) - pl.point); };
    // One Sutherland-Hodgman pass of the panel rectangle against f <= 0; the crossings of the
    // rectangle's edges with f = 0 are the clipped line's ends.
    const std::array<glm::vec2, 4> rect = l_.panel_rect(v);
    std::vector<glm::vec2> solid, ends;
    for (size_t i = 0; i < rect.size(); ++i) {
      const glm::vec2 a = rect[i], b = rect[(i + 1) % rect.size()];
      const float fa = f(a), fb = f(b);
      if (!std::isfinite(fa) || !std::isfinite(fb)) return std::nullopt;
      if (fa <= 0.0f) solid.push_back(a);
      if (fa == 0.0f) ends.push_back(a);
      if ((fa < 0.0f && fb > 0.0f) || (fa > 0.0f && fb < 0.0f)) {
        const glm::vec2 c = a + (fa / (fa - fb)) * (b - a);
        solid.push_back(c);
        ends.push_back(c);
      }
    }
    if (shapes && solid.size() >= 3) {
      pugi::xml_node fill = el(g, "polygon", (pl.style + " plane-solid").c_str());
      fill.append_attribute("points") = points_attr(solid).c_str();
      set_id(fill, pl.id);
    }
    if (ends.size() < 2) return std::nullopt;
    // The two ends farthest apart (a corner on the line is found from both its edges).
    glm::vec2 a = ends.front(), b = ends.front();
    for (const glm::vec2& e : ends)
      if (glm::length(e - a) > glm::length(b - a)) b = e;
    if (!(glm::length(b - a) > 0.0f)) return std::nullopt;
    if (shapes) {
      pugi::xml_node n2 = line(g, a, b, pl.style.c_str());
      set_id(n2, pl.id);
    }
    return a;
  }

  /// Draws the shapes (`shapes`) and/or the labels (`labels`) of `prims`.
  void primitives(pugi::xml_node g, View v, const SvgPrimitives& prims, bool shapes, bool labels) const {
    for (const SvgPlane& pl : prims.planes) {
      const std::optional<glm::vec2> at = plane(g, v, pl, shapes);
      if (labels && at && !pl.label.empty()) label(g, v, *at, pl.label, "label");
    }
    for (const SvgBox& bx : prims.boxes) {
      if (!is_finite(bx.placement) || !is_finite(bx.size)) continue;
      if (shapes) set_id(outline(g, v, bx.placement, bx.size, bx.style.c_str()), bx.id);
      if (labels && !bx.label.empty()) label(g, v, l_.project(v, bx.placement.position), bx.label, "label");
    }
    for (const SvgPolygon& poly : prims.polygons) {
      std::vector<glm::vec2> pts;
      bool ok = poly.corners.size() >= 2;
      for (const glm::vec3& c : poly.corners) {
        ok = ok && is_finite(c);
        pts.push_back(l_.project(v, c));
      }
      if (!ok) continue;
      if (shapes) {
        pugi::xml_node n = el(g, "polygon", poly.style.c_str());
        n.append_attribute("points") = points_attr(pts).c_str();
        set_id(n, poly.id);
      }
      if (labels && !poly.label.empty()) label(g, v, pts.front(), poly.label, "label");
    }
    for (const SvgPolyline& pl : prims.polylines) {
      std::vector<glm::vec2> pts;
      bool ok = pl.points.size() >= 2;
      for (const glm::vec3& c : pl.points) {
        ok = ok && is_finite(c);
        pts.push_back(l_.project(v, c));
      }
      if (!ok) continue;
      if (shapes) {
        pugi::xml_node n = el(g, "polyline", pl.style.c_str());
        n.append_attribute("points") = points_attr(pts).c_str();
        set_id(n, pl.id);
      }
      if (labels && !pl.label.empty()) label(g, v, pts.front(), pl.label, "label");
    }
    for (const SvgLine& ln : prims.lines) {
      if (!is_finite(ln.from) || !is_finite(ln.to)) continue;
      const glm::vec2 a = l_.project(v, ln.from), b = l_.project(v, ln.to);
      if (shapes) set_id(line(g, a, b, ln.style.c_str()), ln.id);
      if (labels && !ln.label.empty()) label(g, v, b, ln.label, "label");
    }
    for (const SvgPoint& pt : prims.points) {
      if (!is_finite(pt.at)) continue;
      const glm::vec2 p = l_.project(v, pt.at);
      if (shapes) set_id(marker(g, p, pt.style), pt.id);
      if (labels && !pt.label.empty()) label(g, v, p, pt.label, "label");
    }
  }

  /// A label beside point p, on the side of p facing its panel's centre (so it stays inside).
  void label(pugi::xml_node g, View v, glm::vec2 p, const std::string& s, const char* cls) const {
    const float centre = (v == View::kFront ? 0.25f : 0.75f) * l_.width;
    if (p.x > centre) text(g, p + glm::vec2(-8.0f, -6.0f), s, cls, "end");
    else text(g, p + glm::vec2(8.0f, -6.0f), s, cls);
  }

  /// A point marker centred on p: target = red X, hit = small green +, pole = blue diamond,
  /// anything else a dot. Returns the element.
  static pugi::xml_node marker(pugi::xml_node g, glm::vec2 p, const std::string& style) {
    constexpr float r = 6.0f;
    if (style == svg_style::kTarget) {
      pugi::xml_node m = el(g, "g", "target");
      line(m, p + glm::vec2(-r, -r), p + glm::vec2(r, r), nullptr);
      line(m, p + glm::vec2(-r, r), p + glm::vec2(r, -r), nullptr);
      return m;
    }
    if (style == svg_style::kHit) {
      constexpr float h = 4.0f;
      pugi::xml_node m = el(g, "g", "hit");
      line(m, p + glm::vec2(-h, 0), p + glm::vec2(h, 0), nullptr);
      line(m, p + glm::vec2(0, -h), p + glm::vec2(0, h), nullptr);
      return m;
    }
    if (style == svg_style::kPole) {
      pugi::xml_node n = el(g, "polygon", "pole");
      n.append_attribute("points") =
          points_attr({p + glm::vec2(0, -r), p + glm::vec2(r, 0), p + glm::vec2(0, r), p + glm::vec2(-r, 0)}).c_str();
      return n;
    }
    pugi::xml_node n = el(g, "circle", style.c_str());
    n.append_attribute("cx") = num(p.x).c_str();
    n.append_attribute("cy") = num(p.y).c_str();
    n.append_attribute("r") = "3";
    return n;
  }

  /// One frame in one view: extras under the rig, part boxes, bones, pivots, labels.
  void frame(pugi::xml_node g, View v, const SvgFrame& f, bool labels) const {
    const int n = rig_.joint_count();
    const int root = rig_.root_part();
    primitives(g, v, f.extras, true, false);
    if (root >= 0) box(g, v, f.root, rig_.part(root).size, "part root", rig_.part(root).name);
    for (int j = 0; j < n; ++j) {
      const PartDesc& part = rig_.part(rig_.part1()[static_cast<size_t>(j)]);
      box(g, v, f.world[static_cast<size_t>(j)], part.size, "part", part.name);
    }
    // Bones: parent pivot (or the parent part's origin for the root's joints) to pivot, and
    // pivot to part origin for parts that carry no further joint.
    std::vector<char> has_child(static_cast<size_t>(n), 0);
    for (int j = 0; j < n; ++j)
      if (rig_.parent(j) >= 0) has_child[static_cast<size_t>(rig_.parent(j))] = 1;
    for (int j = 0; j < n; ++j) {
      const glm::vec3 pivot = joint_pivot(rig_, f.world, j);
      const int p = rig_.parent(j);
      const glm::vec3 from = p >= 0 ? joint_pivot(rig_, f.world, p) : parent_placement(rig_, f.root, f.world, j).position;
      if (is_finite(from) && is_finite(pivot)) line(g, l_.project(v, from), l_.project(v, pivot), "bone");
      const glm::vec3 end = f.world[static_cast<size_t>(j)].position;
      if (!has_child[static_cast<size_t>(j)] && is_finite(end) && is_finite(pivot))
        line(g, l_.project(v, pivot), l_.project(v, end), "bone");
    }
    for (int j = 0; j < n; ++j) {
      const glm::vec3 pivot = joint_pivot(rig_, f.world, j);
      if (!is_finite(pivot)) continue;
      const glm::vec2 p = l_.project(v, pivot);
      pugi::xml_node c = el(g, "circle", "pivot");
      c.append_attribute("cx") = num(p.x).c_str();
      c.append_attribute("cy") = num(p.y).c_str();
      c.append_attribute("r") = "2.5";
      c.append_attribute("data-joint") = rig_.joint_name(j).c_str();
      c.append_attribute("data-view") = v == View::kFront ? "front" : "side";
    }
    if (root >= 0 && is_finite(f.root.position)) {
      pugi::xml_node c = el(g, "circle", "root-mark");
      const glm::vec2 p = l_.project(v, f.root.position);
      c.append_attribute("cx") = num(p.x).c_str();
      c.append_attribute("cy") = num(p.y).c_str();
      c.append_attribute("r") = "4";
      if (labels) label(g, v, p + glm::vec2(0.0f, 10.0f), "root: " + rig_.part(root).name, "label root-label");
    }
    // Labels of the extras go on top of the rig.
    if (labels) primitives(g, v, f.extras, false, true);
  }

 private:
  const Rig& rig_;
  const Layout& l_;
};

constexpr const char* kCss = R"(
text { font-family: 'DejaVu Sans', Arial, sans-serif; font-size: 12px; fill: #222; }
.title { font-size: 14px; font-weight: bold; }
.view { font-size: 13px; fill: #444; }
.label { font-size: 11px; fill: #111; paint-order: stroke; stroke: #fff; stroke-width: 3px; }
.root-label { fill: #a05a00; }
.part { fill: #dfe7f2; fill-opacity: 0.35; stroke: #4a6a8a; stroke-width: 1; }
.part.root { fill: #ffd9a0; fill-opacity: 0.5; stroke: #a05a00; stroke-width: 2; stroke-dasharray: 6 3; }
.bone { stroke: #1d3557; stroke-width: 2.5; stroke-linecap: round; }
.pivot { fill: #fff; stroke: #1d3557; stroke-width: 1.5; }
.root-mark { fill: #a05a00; }
.target line { stroke: #d62828; stroke-width: 2.5; }
.pole { fill: #fff; stroke: #1f77b4; stroke-width: 2; }
.ground { fill: #bbb; fill-opacity: 0.5; stroke: #777; }
.ground-off { fill: none; stroke: #999; stroke-dasharray: 5 4; }
.plane-solid { stroke: none; fill-opacity: 0.3; }
polyline { fill: none; }
.ray { stroke: #2a9d3f; stroke-width: 1.5; stroke-dasharray: 4 3; }
.hit line { stroke: #2a9d3f; stroke-width: 2; }
.normal { stroke: #2a9d3f; stroke-width: 1.5; }
.note { fill: #333; stroke: #333; }
.axis { stroke: #333; stroke-width: 1.5; }
.axis-head { fill: #333; }
.scalebar { stroke: #111; stroke-width: 3; }
.divider { stroke: #ccc; stroke-width: 1; }
)";

/// Largest 1/2/5 x 10^k studs whose bar fits in `max_px`.
float scale_bar_studs(float px_per_stud, float max_px) {
  float best = 0.01f;
  for (float decade = 0.01f; decade < 1e6f; decade *= 10.0f)
    for (float m : {1.0f, 2.0f, 5.0f})
      if (m * decade * px_per_stud <= max_px) best = m * decade;
  return best;
}

void arrow(pugi::xml_node g, glm::vec2 from, glm::vec2 to, const std::string& label, glm::vec2 label_offset,
           const char* anchor) {
  Drawer::line(g, from, to, "axis");
  const glm::vec2 d = glm::normalize(to - from), n(-d.y, d.x);
  pugi::xml_node head = Drawer::el(g, "polygon", "axis-head");
  head.append_attribute("points") = points_attr({to, to - 8.0f * d + 4.0f * n, to - 8.0f * d - 4.0f * n}).c_str();
  Drawer::text(g, to + label_offset, label, "view", anchor);
}

// The box of everything drawn over all frames: parts, the root part and the extras.
Bounds drawing_bounds(const Rig& rig, std::span<const SvgFrame* const> frames) {
  const int n = rig.joint_count();
  Bounds b;
  for (const SvgFrame* f : frames) {
    for (int j = 0; j < n; ++j)
      for (const glm::vec3& c : box_corners(f->world[static_cast<size_t>(j)], rig.part(rig.part1()[static_cast<size_t>(j)]).size))
        b.add(c);
    if (rig.root_part() >= 0)
      for (const glm::vec3& c : box_corners(f->root, rig.part(rig.root_part()).size)) b.add(c);
    for (const SvgLine& ln : f->extras.lines) {
      b.add(ln.from);
      b.add(ln.to);
    }
    for (const SvgPoint& pt : f->extras.points) b.add(pt.at);
    for (const SvgPolygon& poly : f->extras.polygons)
      for (const glm::vec3& c : poly.corners) b.add(c);
    for (const SvgPolyline& pl : f->extras.polylines)
      for (const glm::vec3& c : pl.points) b.add(c);
    for (const SvgBox& bx : f->extras.boxes)
      if (is_finite(bx.placement) && is_finite(bx.size))
        for (const glm::vec3& c : box_corners(bx.placement, bx.size)) b.add(c);
  }
  return b;
}

// The <svg> element with its style and white background.
pugi::xml_node svg_root(pugi::xml_document& doc, float width, float height) {
  pugi::xml_node svg = doc.append_child("svg");
  svg.append_attribute("xmlns") = "http://www.w3.org/2000/svg";
  svg.append_attribute("width") = num(width).c_str();
  svg.append_attribute("height") = num(height).c_str();
  svg.append_attribute("viewBox") = ("0 0 " + num(width) + " " + num(height)).c_str();
  Drawer::el(svg, "style").text() = kCss;
  pugi::xml_node bg = Drawer::el(svg, "rect");
  bg.append_attribute("width") = "100%";
  bg.append_attribute("height") = "100%";
  bg.append_attribute("fill") = "#fff";
  return svg;
}

// Caption, view names and the divider between the two panels.
void caption(pugi::xml_node svg, const Rig& rig, std::span<const SvgFrame* const> frames, const SvgOptions& options,
             const Layout& l, float width) {
  const float panel = width / 2.0f;
  const std::string title = options.title.empty() ? "rig " + rig.name() : options.title;
  const SvgFrame& last = *frames.back();
  char when[96];
  if (frames.size() == 1)
    std::snprintf(when, sizeof when, "  (frame %d, t = %.3f s)", last.frame, static_cast<double>(last.time));
  else
    std::snprintf(when, sizeof when, "  (%zu frames, %d..%d, %s)", frames.size(), frames.front()->frame, last.frame,
                  options.mode == SvgMode::kAnimate ? "animated" : "older frames fainter");
  Drawer::text(svg, {kSvgMargin / 2.0f, 20.0f}, title + when, "title");
  Drawer::text(svg, {panel / 2.0f, 42.0f}, "front: seen from \u2212Z (the character faces you)", "view", "middle");
  Drawer::text(svg, {panel * 1.5f, 42.0f}, "side: seen from +X (the character faces right)", "view", "middle");
  Drawer::line(svg, {panel, kSvgTop - 8.0f}, {panel, l.height - kSvgBottom + 8.0f}, "divider");
}

// Panel clips (the background may be larger than the drawing).
void panel_clips(pugi::xml_node svg, const Layout& l) {
  pugi::xml_node defs = Drawer::el(svg, "defs");
  for (View v : {View::kFront, View::kSide}) {
    pugi::xml_node clip = defs.append_child("clipPath");
    clip.append_attribute("id") = v == View::kFront ? "clip-front" : "clip-side";
    const std::array<glm::vec2, 4> rect = l.panel_rect(v);  // the rectangle planes are clipped to
    pugi::xml_node r = clip.append_child("rect");
    r.append_attribute("x") = num(rect[0].x).c_str();
    r.append_attribute("y") = num(rect[0].y).c_str();
    r.append_attribute("width") = num(rect[2].x - rect[0].x).c_str();
    r.append_attribute("height") = num(rect[2].y - rect[0].y).c_str();
  }
}

// One <g> per view under `parent`, each filled by body(g, view).
template <class Body>
void panels(pugi::xml_node parent, const char* cls, bool clip, Body&& body) {
  for (View v : {View::kFront, View::kSide}) {
    pugi::xml_node g = Drawer::el(parent, "g", cls);
    g.append_attribute("data-view") = v == View::kFront ? "front" : "side";
    if (clip) g.append_attribute("clip-path") = v == View::kFront ? "url(#clip-front)" : "url(#clip-side)";
    body(g, v);
  }
}

// Frame i of count shows only during its own share of the loop (discrete visibility steps).
void animate_visibility(pugi::xml_node g, size_t i, size_t count, float frame_s) {
  const bool is_last = i + 1 == count;
  g.append_attribute("visibility") = is_last ? "visible" : "hidden";  // what a static viewer shows
  pugi::xml_node a = g.append_child("animate");
  a.append_attribute("attributeName") = "visibility";
  a.append_attribute("calcMode") = "discrete";
  a.append_attribute("dur") = (num(frame_s * static_cast<float>(count)) + "s").c_str();
  a.append_attribute("repeatCount") = "indefinite";
  char k0[32], k1[32];
  std::snprintf(k0, sizeof k0, "%.6g", static_cast<double>(i) / static_cast<double>(count));
  std::snprintf(k1, sizeof k1, "%.6g", static_cast<double>(i + 1) / static_cast<double>(count));
  if (i == 0) {
    a.append_attribute("values") = "visible;hidden";
    a.append_attribute("keyTimes") = (std::string("0;") + k1).c_str();
  } else if (is_last) {
    a.append_attribute("values") = "hidden;visible";
    a.append_attribute("keyTimes") = (std::string("0;") + k0).c_str();
  } else {
    a.append_attribute("values") = "hidden;visible;hidden";
    a.append_attribute("keyTimes") = (std::string("0;") + k0 + ";" + k1).c_str();
  }
}

// Every frame: an onion skin (older frames fainter) or, animated, one frame at a time.
void draw_frames(pugi::xml_node svg, const Drawer& draw, std::span<const SvgFrame* const> frames,
                 const SvgOptions& options, float width) {
  const size_t count = frames.size();
  const bool animate = options.mode == SvgMode::kAnimate && count > 1;
  const float frame_s = options.frame_seconds > 0.0f && std::isfinite(options.frame_seconds) ? options.frame_seconds : 1.0f / 60.0f;
  for (size_t i = 0; i < count; ++i) {
    const SvgFrame& f = *frames[i];
    pugi::xml_node g = Drawer::el(svg, "g", "frame");
    g.append_attribute("data-frame") = f.frame;
    const bool is_last = i + 1 == count;
    if (animate) {
      animate_visibility(g, i, count, frame_s);
    } else if (count > 1) {
      const float opacity = 0.2f + 0.8f * static_cast<float>(i) / static_cast<float>(count - 1);
      g.append_attribute("opacity") = num(opacity).c_str();
    }
    const bool labels = animate || is_last;
    panels(g, "view-group", false, [&](pugi::xml_node vg, View v) { draw.frame(vg, v, f, labels); });
    if (animate) {
      char t[64];
      std::snprintf(t, sizeof t, "frame %d  t = %.3f s", f.frame, static_cast<double>(f.time));
      Drawer::text(g, {width - kSvgMargin / 2.0f, 20.0f}, t, "view", "end");
    }
  }
}

// Scale bar (studs; the same scale in both views) and axes.
void legend(pugi::xml_node svg, const Layout& l, float width) {
  const float panel = width / 2.0f;
  const float bar = scale_bar_studs(l.scale, width / 4.0f);
  const float bar_y = l.height - 26.0f;
  Drawer::line(svg, {kSvgMargin, bar_y}, {kSvgMargin + bar * l.scale, bar_y}, "scalebar");
  char bar_text[48];
  std::snprintf(bar_text, sizeof bar_text, "%g stud%s", static_cast<double>(bar), bar == 1.0f ? "" : "s");
  Drawer::text(svg, {kSvgMargin, bar_y + 16.0f}, bar_text, "view");
  const float ay = l.height - 14.0f;
  const glm::vec2 fo(panel - 70.0f, ay), so(width - 30.0f, ay);
  arrow(svg, fo, fo + glm::vec2(0, -34), "+Y up", {4, -2}, nullptr);
  arrow(svg, fo, fo + glm::vec2(-34, 0), "+X", {-4, 4}, "end");
  arrow(svg, {so.x - 100.0f, ay}, {so.x - 100.0f, ay - 34.0f}, "+Y up", {4, -2}, nullptr);
  arrow(svg, {so.x - 100.0f, ay}, {so.x - 66.0f, ay}, "\u2212Z (facing)", {4, 4}, nullptr);
}

}  // namespace

std::string write_svg(const Rig& rig, std::span<const SvgFrame> frames_in, const SvgOptions& options) {
  const int n = rig.joint_count();
  std::vector<SvgFrame> rest;  // fallback: the rest pose at the identity root
  std::vector<const SvgFrame*> frames;
  for (const SvgFrame& f : frames_in)
    if (f.world.size() == static_cast<size_t>(n)) frames.push_back(&f);
  if (frames.empty()) {
    SvgFrame f;
    f.world.resize(static_cast<size_t>(n));
    evaluate_rest_world(rig, f.root, f.world);
    rest.push_back(std::move(f));
    frames.push_back(&rest.front());
  }
  const float width = options.width > 100.0f ? options.width : 800.0f;
  const Layout l = make_layout(drawing_bounds(rig, frames), width);
  const Drawer draw(rig, l);

  pugi::xml_document doc;
  pugi::xml_node svg = svg_root(doc, width, l.height);
  caption(svg, rig, frames, options, l, width);
  panel_clips(svg, l);
  if (!options.background.empty())
    panels(svg, "background", true, [&](pugi::xml_node g, View v) { draw.primitives(g, v, options.background, true, true); });
  draw_frames(svg, draw, frames, options, width);
  legend(svg, l, width);

  std::ostringstream out;
  doc.save(out, "  ", pugi::format_default, pugi::encoding_utf8);
  return out.str();
}

Status write_svg_file(const std::filesystem::path& path, const Rig& rig, std::span<const SvgFrame> frames,
                      const SvgOptions& options) {
  return detail::write_text_file(path, write_svg(rig, frames, options));
}

}  // namespace asterune::io
