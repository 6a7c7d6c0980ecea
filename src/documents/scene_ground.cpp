// Reader of the scene's "ground" block (docs/formats.md, rule G1):
//   "ground": [{"type": "plane", "point": p, "normal": n},
//              {"type": "box", "center": c, "size": s, "rotation": [w, x, y, z]},
//              {"type": "heightfield", "origin": o, "cell_size": h, "heights": [[...], ...]}]
// each with an optional "collide" (default true). The result is checked with build_ground, so
// a scene that loads always builds its ground.
#include <string>

#include "asterune/controls/ground.hpp"
#include "scene_blocks.hpp"

namespace asterune::io::detail {

void read_scene_ground(const Json& value, const std::string& pointer, const SceneBlockContext&, SceneDesc& scene) {
  require_array(value, pointer);
  GroundDesc ground;
  for (size_t i = 0; i < value.size(); ++i) {
    const std::string sp = child_pointer(pointer, i);
    const Json& v = value[i];
    require_object(v, sp);
    const std::string type = read_name(require_member(v, sp, "type"), child_pointer(sp, "type"));
    bool collide = true;
    if (const Json* c = find_member(v, "collide")) collide = read_bool(*c, child_pointer(sp, "collide"));
    if (type == "plane") {
      check_keys(v, sp, {"type", "point", "normal", "collide"});
      GroundPlane p;
      p.point = read_vec3(require_member(v, sp, "point"), child_pointer(sp, "point"));
      p.normal = read_vec3(require_member(v, sp, "normal"), child_pointer(sp, "normal"));
      if (!(glm::length(p.normal) > 1e-6f)) fail(child_pointer(sp, "normal"), "the normal must not be zero");
      p.collide = collide;
      ground.planes.push_back(p);
    } else if (type == "box") {
      check_keys(v, sp, {"type", "center", "size", "rotation", "collide"});
      GroundBox b;
      b.center = read_vec3(require_member(v, sp, "center"), child_pointer(sp, "center"));
      b.size = read_vec3(require_member(v, sp, "size"), child_pointer(sp, "size"));
      if (!(b.size.x > 0.0f && b.size.y > 0.0f && b.size.z > 0.0f))
        fail(child_pointer(sp, "size"), "every edge length must be > 0");
      if (const Json* r = find_member(v, "rotation"))
        b.rotation = read_placement(Json{{"rotation", *r}}, child_pointer(sp, "rotation")).rotation;
      b.collide = collide;
      ground.boxes.push_back(b);
    } else if (type == "heightfield") {
      check_keys(v, sp, {"type", "origin", "cell_size", "heights", "collide"});
      GroundHeightField f;
      f.origin = read_vec3(require_member(v, sp, "origin"), child_pointer(sp, "origin"));
      f.cell_size = read_float(require_member(v, sp, "cell_size"), child_pointer(sp, "cell_size"));
      if (!(f.cell_size > 0.0f)) fail(child_pointer(sp, "cell_size"), "must be > 0");
      const std::string hp = child_pointer(sp, "heights");
      const Json& rows = require_member(v, sp, "heights");
      require_array(rows, hp);
      if (rows.size() < 2) fail(hp, "needs at least 2 rows of heights");
      f.rows = static_cast<int>(rows.size());
      for (size_t r = 0; r < rows.size(); ++r) {
        const std::string rp = child_pointer(hp, r);
        require_array(rows[r], rp);
        if (r == 0) {
          if (rows[r].size() < 2) fail(rp, "needs at least 2 heights per row");
          f.columns = static_cast<int>(rows[r].size());
        } else if (rows[r].size() != static_cast<size_t>(f.columns)) {
          fail(rp, "has " + std::to_string(rows[r].size()) + " heights; every row needs " + std::to_string(f.columns));
        }
        for (size_t c = 0; c < rows[r].size(); ++c) f.heights.push_back(read_float(rows[r][c], child_pointer(rp, c)));
      }
      f.collide = collide;
      ground.heightfields.push_back(std::move(f));
    } else {
      fail(child_pointer(sp, "type"), "unknown ground shape '" + type + "' (expected plane, box or heightfield)");
    }
  }
  if (auto built = build_ground(ground); !built) fail(pointer, built.message());
  scene.ground = std::move(ground);
}

}  // namespace asterune::io::detail
