// SVG drawings of solved frames: a front view and a side view of the skeleton (part boxes as
// outlines, joint pivots, bones, the root part), labelled markers (control targets and poles),
// a scale bar in studs and labelled axes. One frame, an onion skin of several frames, or an
// animated SVG that plays the frames in a browser with SMIL <animate> (no script).
//
// Projection (orthographic, rule R0: +Y up, characters face -Z), one scale s (px per stud) for
// both views so the scale bar holds for both:
//
//   front view (seen from -Z, the character faces the viewer):   u = -x, v = y
//   side view  (seen from +X, the character's right; it faces right):  u = -z, v = y
//
//   +------------------ width W ------------------+
//   | title                                       |  kSvgTop px
//   |   front panel (W/2)    |    side panel (W/2) |  drawing: (ymax - ymin) * s px
//   | scale bar, axes                             |  kSvgBottom px
//   +---------------------------------------------+
//
// With B = the bounding box of everything drawn (each part box's 8 corners in every frame, the
// root part's box, and every frame's extra primitives; each side grown to at least 1 stud):
//   s        = min((W/2 - 2 kSvgMargin) / (B.x extent), (W/2 - 2 kSvgMargin) / (B.z extent),
//                  W / (B.y extent))
//   front px = ((W/2 - (xmax - xmin) s) / 2 + (xmax - x) s,      kSvgTop + (ymax - y) s)
//   side px  = (W/2 + (W/2 - (zmax - zmin) s) / 2 + (zmax - z) s, kSvgTop + (ymax - y) s)
//
// Extending (ground, foot rays, hit points): callers add SvgPrimitives, per frame (SvgFrame::extras)
// or once for the whole drawing (SvgOptions::background, drawn under the skeleton and NOT
// counted in the bounds, so an endless ground plane does not shrink the character; each panel
// clips it). Styles are CSS classes; the built-in ones are listed in svg_style. Every
// primitive is projected with the formulas above:
//   - points, lines, polylines and polygons: their corners;
//   - boxes: the outline (convex hull) of the 8 projected corners, like the part boxes;
//   - planes: a plane seen edge-on is a line only in a section, so each view cuts it with the
//     section through the middle of the drawing's depth (front: z = (zmin + zmax) / 2, side:
//     x = (xmin + xmax) / 2); the resulting line is clipped to the panel (x in [0, W/2] for
//     the front panel, [W/2, W] for the side panel; y in [kSvgTop - 8, H - kSvgBottom + 8]) and
//     the solid side (n . (p - point) < 0) is filled. A plane facing the view (its normal
//     within 1e-6 of the view axis) has no line in that view and is not drawn there.
// Extras in SvgFrame::extras count in the bounds (planes excepted: they have no extent).
#pragma once

#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "asterune/core/result.hpp"
#include "asterune/math/transform.hpp"
#include "asterune/rig/rig.hpp"

namespace asterune::io {

inline constexpr float kSvgTop = 56.0f;      // px above the drawing (title, view names)
inline constexpr float kSvgBottom = 64.0f;   // px below it (scale bar, axes)
inline constexpr float kSvgMargin = 24.0f;   // px kept free on each side of a panel

/// CSS class names with a built-in look (any other class name is emitted as is, unstyled).
namespace svg_style {
inline constexpr const char* kTarget = "target";  // control target: red cross
inline constexpr const char* kPole = "pole";      // IK pole: blue diamond
inline constexpr const char* kGround = "ground";         // ground shape: grey fill, grey outline
inline constexpr const char* kGroundOff = "ground-off";  // non-colliding ground: dashed outline, no fill
inline constexpr const char* kRay = "ray";               // foot ray: dashed green line
inline constexpr const char* kHit = "hit";               // ray hit point: small green cross (+)
inline constexpr const char* kNormal = "normal";         // ground normal at a hit: short green line
inline constexpr const char* kNote = "note";             // anything else: dark dot / line
}  // namespace svg_style

// Every primitive has an optional label (empty: no text) and an optional id, written as the
// element's data-id attribute (empty: none), so tools and tests can find it.

/// A world-space segment (studs).
struct SvgLine {
  glm::vec3 from{0.0f}, to{0.0f};
  std::string label;
  std::string style = svg_style::kRay;
  std::string id;
};
/// A world-space point marker: a cross for kTarget and kHit, a diamond for kPole, else a dot.
struct SvgPoint {
  glm::vec3 at{0.0f};
  std::string label;
  std::string style = svg_style::kNote;
  std::string id;
};
/// A world-space polygon (its corners in order; drawn as the projected outline, filled).
struct SvgPolygon {
  std::vector<glm::vec3> corners;
  std::string label;
  std::string style = svg_style::kGround;
  std::string id;
};
/// An open world-space polyline (at least 2 points; drawn unfilled), e.g. a height-field profile.
struct SvgPolyline {
  std::vector<glm::vec3> points;
  std::string label;
  std::string style = svg_style::kGround;
  std::string id;
};
/// A box of full edge lengths `size` at `placement` (centre and axes), drawn as its outline.
struct SvgBox {
  Transform placement;
  glm::vec3 size{1.0f};
  std::string label;
  std::string style = svg_style::kGround;
  std::string id;
};
/// An infinite plane through `point` with normal `normal` (need not be unit; solid below it),
/// drawn as its section line in each view and clipped to the panel (see the header comment).
struct SvgPlane {
  glm::vec3 point{0.0f};
  glm::vec3 normal{0.0f, 1.0f, 0.0f};
  std::string label;
  std::string style = svg_style::kGround;
  std::string id;
};
/// The hook for everything that is not the rig: targets, poles, ground, rays, hits.
/// Drawn in this order: planes, boxes, polygons, polylines, lines, points.
struct SvgPrimitives {
  std::vector<SvgLine> lines;
  std::vector<SvgPoint> points;
  std::vector<SvgPolygon> polygons;
  std::vector<SvgPolyline> polylines;
  std::vector<SvgBox> boxes;
  std::vector<SvgPlane> planes;
  bool empty() const {
    return lines.empty() && points.empty() && polygons.empty() && polylines.empty() && boxes.empty() && planes.empty();
  }
};

/// One frame to draw: the root part placement and each joint's child-part world placement
/// (layout order, rig.joint_count() entries, as FrameRecord::world), plus per-frame extras.
struct SvgFrame {
  int frame = 0;
  float time = 0.0f;
  Transform root;
  std::vector<Transform> world;
  SvgPrimitives extras;
};

enum class SvgMode {
  kStill,    // every frame drawn on top of each other; older frames fainter (onion skin)
  kAnimate,  // one frame visible at a time, looping, frame_seconds per frame (SMIL, no script)
};

struct SvgOptions {
  float width = 800.0f;          // px; the height follows from the bounds
  SvgMode mode = SvgMode::kStill;
  float frame_seconds = 1.0f / 60.0f;  // kAnimate: how long each drawn frame is shown
  std::string title;             // first line of the caption (e.g. the rig and the command)
  SvgPrimitives background;      // drawn once under all frames, not part of the bounds
};

/// Writes the SVG document (UTF-8 text). Frames whose world has the wrong size are skipped; with
/// no usable frame the drawing shows the rig at rest at the identity root. Labels (joint names are
/// not drawn; the root part, targets, poles and labelled extras are) are drawn for the last frame
/// only in kStill mode, for every frame in kAnimate mode. Pivots are <circle class="pivot"
/// data-joint="NAME" data-view="front|side">; the root part is <polygon class="part root">.
/// Nonfinite coordinates are not drawn. Allocates; export time only.
std::string write_svg(const Rig& rig, std::span<const SvgFrame> frames, const SvgOptions& options = {});

/// write_svg() to a file; fails naming the file when it cannot be written.
Status write_svg_file(const std::filesystem::path& path, const Rig& rig, std::span<const SvgFrame> frames,
                      const SvgOptions& options = {});

}  // namespace asterune::io
