// asterune-viewer headless (--frames N --screenshot PNG) under Xvfb with Mesa's software
// rasteriser, checked pixel by pixel against the library: where a part is drawn comes from the
// world transforms asterune-solve's own frame loop computes for the same scene and frame
// (cli::make_run + run_frames, not the viewer's batch path), projected with the viewer's camera
// matrices (examples/viewer/camera.hpp): the camera the screenshot opens with, moved by the
// pelvis's travel when it follows the character (the default), unmoved with --no-follow.
#include <cstdlib>
#include <filesystem>
#include <string>

#include <catch2/catch.hpp>
#include <stb_image.h>

#include "asterune/rig/world.hpp"
#include "camera.hpp"
#include "palette.hpp"
#include "run.hpp"
#include "scene_run.hpp"

namespace {

using namespace asterune;
namespace fs = std::filesystem;

constexpr int kWidth = 960, kHeight = 540, kFrames = 120;
// The feet control lifts the soles onto the step from frame 136 on (t = 4.5 s; before that the
// character walks on the flat floor and the control lifts by 0): its test looks at frame 150.
constexpr int kOnStepFrames = 150;
const std::string kScene = ASTERUNE_EXAMPLES_DIR "/walk_over_step.scene.json";

struct Image {
  int width = 0, height = 0;
  std::vector<unsigned char> rgb;
  glm::ivec3 at(int x, int y) const {
    const size_t i = 3 * (static_cast<size_t>(y) * static_cast<size_t>(width) + static_cast<size_t>(x));
    return {rgb[i], rgb[i + 1], rgb[i + 2]};
  }
};

// Runs the viewer headless under xvfb-run (24-bit screen; -a picks a free display) and loads the PNG.
Image render(const std::string& name, int frames, const std::string& extra = "") {
  const fs::path dir = fs::path(ASTERUNE_TEST_TMP_DIR) / "viewer";
  fs::create_directories(dir);
  const fs::path png = dir / (name + ".png");
  fs::remove(png);
  const std::string command = std::string(ASTERUNE_XVFB_RUN) + " -a -s '-screen 0 1280x1024x24' " +
                              ASTERUNE_VIEWER_BIN + " " + kScene + " --frames " + std::to_string(frames) +
                              " --screenshot " + png.string() + " --size " + std::to_string(kWidth) + "x" +
                              std::to_string(kHeight) + " --no-ui " + extra;
  INFO(command);
  REQUIRE(std::system(command.c_str()) == 0);
  Image img;
  int channels = 0;
  unsigned char* data = stbi_load(png.string().c_str(), &img.width, &img.height, &channels, 3);
  REQUIRE(data != nullptr);
  img.rgb.assign(data, data + static_cast<size_t>(img.width) * static_cast<size_t>(img.height) * 3);
  stbi_image_free(data);
  REQUIRE(img.width == kWidth);
  REQUIRE(img.height == kHeight);
  return img;
}

// The last frame's world placements from asterune-solve's frame loop.
struct Solved {
  cli::Run run;
  std::vector<Transform> world;  // the last frame's
  glm::vec3 first_pelvis{0.0f};  // frame 0's placement of the first joint's part
  glm::vec3 part(const char* name) const {
    const JointLookup j = run.rig.find_joint(name);
    REQUIRE(j.found());
    return world[static_cast<size_t>(j.index)].position;
  }
};

Solved solve(int frames) {
  Solved s{cli::make_run(cli::RunRequest{kScene, "", "", "", frames, std::nullopt, false}), {}, {}};
  cli::run_frames(s.run, 0, frames - 1, [&](const io::FrameRecord& f) {
    if (f.frame == 0) s.first_pelvis = f.world.front().position;
    s.world = f.world;
  });
  REQUIRE(s.world.size() == static_cast<size_t>(s.run.rig.joint_count()));
  return s;
}

// The camera the viewer opens with.
viewer::OrbitCamera opening_camera(const Solved& s) {
  const Transform root = s.run.root_path.empty() ? s.run.root : io::sample_root_path(s.run.root_path, 0.0f);
  return viewer::default_camera(root.position);
}

// The camera after following the character (the default): the opening one moved by the
// pelvis's horizontal travel from frame 0 to the last, as asterune-solve places it.
viewer::OrbitCamera followed_camera(const Solved& s) {
  viewer::OrbitCamera cam = opening_camera(s);
  const glm::vec3 travel = s.world.front().position - s.first_pelvis;
  cam.focus += glm::vec3(travel.x, 0.0f, travel.z);
  return cam;
}

glm::ivec2 pixel_of(const viewer::OrbitCamera& cam, const glm::vec3& world) {
  const glm::vec3 p = viewer::project_to_pixel(cam, kWidth, kHeight, world);
  REQUIRE(p.z > 0.0f);
  REQUIRE(p.z < 1.0f);
  return {static_cast<int>(p.x), static_cast<int>(p.y)};
}

// A part box: lit blue (blue well above red); the ground: warm grey (red above blue, darker
// than the background); the background: the palette's colour.
bool is_part(glm::ivec3 c) { return c.b > c.r + 40 && c.b > c.g + 15; }
bool is_ground(glm::ivec3 c) { return c.r >= c.b && c.r - c.b < 30 && c.r < 200 && c.r > 60; }

// Joint pivots are 5 px white dots drawn over everything; nothing else in the scene is white.
bool is_pivot(glm::ivec3 c) { return c.r >= 250 && c.g >= 250 && c.b >= 250; }

template <class Test>
bool found_near(const Image& img, glm::ivec2 p, int radius, Test test) {
  for (int y = p.y - radius; y <= p.y + radius; ++y)
    for (int x = p.x - radius; x <= p.x + radius; ++x)
      if (x >= 0 && y >= 0 && x < img.width && y < img.height && test(img.at(x, y))) return true;
  return false;
}
bool part_near(const Image& img, glm::ivec2 p, int radius) { return found_near(img, p, radius, is_part); }

}  // namespace

TEST_CASE("the walk-over-step screenshot shows the background, the parts and joints where the library places them, and the step") {
  const Solved s = solve(kFrames);
  const viewer::OrbitCamera cam = followed_camera(s);
  const Image img = render("walk_over_step", kFrames);
  // The walk has travelled far enough that a camera left where it opened would put the head
  // elsewhere: the checks below see the follow.
  const glm::ivec2 head_followed = pixel_of(cam, s.part("Head"));
  const glm::ivec2 head_unfollowed = pixel_of(opening_camera(s), s.part("Head"));
  REQUIRE(std::abs(head_followed.x - head_unfollowed.x) + std::abs(head_followed.y - head_unfollowed.y) > 12);

  // Background at the top right corner (above the horizon: the camera looks down 15 degrees).
  const glm::ivec3 bg = img.at(kWidth - 2, 1);
  const glm::ivec3 want = glm::ivec3(glm::round(viewer::colour::kBackground * 255.0f));
  CHECK(std::abs(bg.r - want.r) <= 2);
  CHECK(std::abs(bg.g - want.g) <= 2);
  CHECK(std::abs(bg.b - want.b) <= 2);

  // Parts: their centres, projected from the library's world transforms, within 3 px.
  for (const char* part : {"Head", "UpperTorso", "LowerTorso", "LeftUpperLeg", "RightUpperLeg", "LeftHand", "RightFoot"}) {
    INFO(part);
    const glm::ivec2 p = pixel_of(cam, s.part(part));
    INFO("pixel " << p.x << ", " << p.y);
    CHECK(part_near(img, p, 3));
  }
  // Every joint pivot (rig/world.hpp's joint_pivot of the library's world transforms) is a
  // white dot within 2 px of its projection.
  for (int j = 0; j < s.run.rig.joint_count(); ++j) {
    INFO("pivot of " << s.run.rig.joint_name(j));
    const glm::ivec2 p = pixel_of(cam, joint_pivot(s.run.rig, s.world, j));
    INFO("pixel " << p.x << ", " << p.y);
    CHECK(found_near(img, p, 2, is_pivot));
  }
  // A point 1.5 studs above the head is not a part (the parts are where the library says,
  // not everywhere).
  CHECK_FALSE(part_near(img, pixel_of(cam, s.part("Head") + glm::vec3(0.0f, 1.5f, 0.0f)), 2));
  CHECK_FALSE(found_near(img, pixel_of(cam, s.part("Head") + glm::vec3(0.0f, 1.5f, 0.0f)), 2, is_pivot));

  // The step box (x -3..3, y 0..0.25, z 1..2.5): its front face (facing -Z, toward the camera)
  // is ground-coloured but a darker shade than the floor's top just in front of it, which a
  // missing step would show there instead.
  const glm::ivec3 face = img.at(pixel_of(cam, {2.2f, 0.125f, 1.0f}).x, pixel_of(cam, {2.2f, 0.125f, 1.0f}).y);
  const glm::ivec3 floor = img.at(pixel_of(cam, {2.2f, 0.0f, 0.6f}).x, pixel_of(cam, {2.2f, 0.0f, 0.6f}).y);
  INFO("step face " << face.r << "," << face.g << "," << face.b << "; floor " << floor.r << "," << floor.g << "," << floor.b);
  CHECK(is_ground(face));
  CHECK(is_ground(floor));
  CHECK(floor.r - face.r >= 12);
}

TEST_CASE("disabling the Feet control (--disable Feet) changes the pixels of the legs and nothing far from the character") {
  const Solved s = solve(kOnStepFrames);
  const viewer::OrbitCamera cam = opening_camera(s);  // --no-follow: the camera stays where it opened
  const Image on = render("feet_on", kOnStepFrames, "--no-follow");
  const Image off = render("feet_off", kOnStepFrames, "--no-follow --disable Feet");
  auto changed_in = [&](glm::ivec2 centre, int half) {
    int n = 0;
    for (int y = std::max(0, centre.y - half); y < std::min(kHeight, centre.y + half); ++y)
      for (int x = std::max(0, centre.x - half); x < std::min(kWidth, centre.x + half); ++x) {
        const glm::ivec3 d = glm::abs(on.at(x, y) - off.at(x, y));
        n += (d.r + d.g + d.b) > 30 ? 1 : 0;
      }
    return n;
  };
  const int at_feet = changed_in(pixel_of(cam, s.part("LeftFoot")), 25) + changed_in(pixel_of(cam, s.part("RightFoot")), 25);
  INFO("pixels changed around the feet: " << at_feet);
  CHECK(at_feet >= 30);
  CHECK(changed_in({kWidth - 60, 60}, 50) == 0);  // the sky in the top right corner
}
