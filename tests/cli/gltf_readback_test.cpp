// `asterune-solve --out FILE.glb` read back (rule F28), through the command line's own code
// (make_run, run_frames, write_out_file): the file is opened with tinygltf and every node's
// world placement is evaluated here from glTF 2.0's CUBICSPLINE formula (Appendix C), not by the
// library's reader; and the file is played again with `--clip FILE.glb`. Both must agree with
// the run's own poses (the `world` that `--format json` prints) within the export's tolerance.
// The run is CMU 131_01 on builtin:r15, whose walk starts 4.6 studs from the origin along z:
// a file whose node rest was its first frame read back shifted by that start (7.9 studs at
// worst), and a part-node skeleton retargeted by scale "auto" came back 1.39 times too large.
// This test program compiles its own tinygltf implementation, next to asterune::io's private one.
#define TINYGLTF_IMPLEMENTATION
#define TINYGLTF_NO_STB_IMAGE
#define TINYGLTF_NO_STB_IMAGE_WRITE
#define TINYGLTF_NO_EXTERNAL_IMAGE
#include <tiny_gltf.h>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>

#include "asterune/rig/world.hpp"
#include "export.hpp"
#include "run.hpp"
#include "scene_run.hpp"
#include "support/temp_dir.hpp"

using namespace asterune;

namespace {

constexpr int kFrames = 240;  // 4 s of the walk at the default 60 Hz

cli::RunRequest walk_request() {
  cli::RunRequest request;
  request.rig = "builtin:r15";
  request.clip = std::string(ASTERUNE_TEST_DATA_DIR) + "/bvh/cmu_131_01_start_walk_stop.bvh";
  request.frames = kFrames;
  return request;
}

std::vector<io::FrameRecord> run_all(cli::Run& run) {
  std::vector<io::FrameRecord> recs;
  cli::run_frames(run, 0, run.frames - 1, [&](const io::FrameRecord& r) { recs.push_back(r); });
  REQUIRE(recs.size() == static_cast<size_t>(run.frames));
  return recs;
}

// The file's nodes and channels, evaluated from the spec.
struct GlbFile {
  tinygltf::Model m;
  std::vector<int> parent;
  std::vector<std::vector<float>> tt, tv, rt, rv;  // per node: translation and rotation inputs, outputs

  explicit GlbFile(const std::string& path) {
    tinygltf::TinyGLTF loader;
    std::string err, warn;
    REQUIRE(loader.LoadBinaryFromFile(&m, &err, &warn, path));
    const size_t nn = m.nodes.size();
    parent.assign(nn, -1);
    for (size_t i = 0; i < nn; ++i)
      for (int c : m.nodes[i].children) parent[static_cast<size_t>(c)] = static_cast<int>(i);
    tt.resize(nn), tv.resize(nn), rt.resize(nn), rv.resize(nn);
    for (const auto& ch : m.animations[0].channels) {
      const auto& smp = m.animations[0].samplers[static_cast<size_t>(ch.sampler)];
      REQUIRE(smp.interpolation == "CUBICSPLINE");
      const auto node = static_cast<size_t>(ch.target_node);
      (ch.target_path == "translation" ? tt : rt)[node] = floats(smp.input);
      (ch.target_path == "translation" ? tv : rv)[node] = floats(smp.output);
    }
  }
  std::vector<float> floats(int accessor) const {
    const tinygltf::Accessor& a = m.accessors[static_cast<size_t>(accessor)];
    const tinygltf::BufferView& v = m.bufferViews[static_cast<size_t>(a.bufferView)];
    const auto comps = static_cast<size_t>(tinygltf::GetNumComponentsInType(static_cast<uint32_t>(a.type)));
    std::vector<float> out(a.count * comps);
    std::memcpy(out.data(), m.buffers[static_cast<size_t>(v.buffer)].data.data() + v.byteOffset + a.byteOffset,
                out.size() * 4);
    return out;
  }
  // p(s) = (2s^3 - 3s^2 + 1) v_k + (s^3 - 2s^2 + s) dt b_k + (-2s^3 + 3s^2) v_k+1 + (s^3 - s^2) dt a_k+1
  // over the (in-tangent a, value v, out-tangent b) triplets; held outside the keys.
  static std::vector<double> spline(const std::vector<float>& times, const std::vector<float>& out, size_t width,
                                    float t) {
    std::vector<double> r(width);
    const size_t keys = times.size();
    auto at = [&](size_t key, size_t slot, size_t c) { return static_cast<double>(out[(3 * key + slot) * width + c]); };
    if (keys == 1 || t <= times[0] || t >= times[keys - 1]) {
      const size_t key = keys == 1 || t <= times[0] ? 0 : keys - 1;
      for (size_t c = 0; c < width; ++c) r[c] = at(key, 1, c);
      return r;
    }
    const size_t k = static_cast<size_t>(std::upper_bound(times.begin(), times.end(), t) - times.begin()) - 1;
    const double dt = times[k + 1] - times[k], s = (t - times[k]) / dt, s2 = s * s, s3 = s2 * s;
    for (size_t c = 0; c < width; ++c)
      r[c] = (2 * s3 - 3 * s2 + 1) * at(k, 1, c) + (s3 - 2 * s2 + s) * dt * at(k, 2, c) +
             (-2 * s3 + 3 * s2) * at(k + 1, 1, c) + (s3 - s2) * dt * at(k + 1, 0, c);
    return r;
  }
  std::vector<glm::dvec3> world_positions(float t) const {
    std::vector<glm::dmat4> world(parent.size());
    std::vector<glm::dvec3> out(parent.size());
    for (size_t i = 0; i < parent.size(); ++i) {
      const std::vector<double> p = spline(tt[i], tv[i], 3, t), q = spline(rt[i], rv[i], 4, t);
      const glm::dquat rot = glm::normalize(glm::dquat(q[3], q[0], q[1], q[2]));
      const glm::dmat4 local = glm::translate(glm::dmat4(1.0), glm::dvec3(p[0], p[1], p[2])) * glm::mat4_cast(rot);
      world[i] = parent[i] >= 0 ? world[static_cast<size_t>(parent[i])] * local : local;
      out[i] = glm::dvec3(world[i][3]);
    }
    return out;
  }
  // The nodes' own TRS composed down the tree (no animation).
  std::vector<glm::dvec3> rest_positions() const {
    std::vector<glm::dmat4> world(parent.size());
    std::vector<glm::dvec3> out(parent.size());
    for (size_t i = 0; i < parent.size(); ++i) {
      const auto& n = m.nodes[i];
      REQUIRE(n.translation.size() == 3);
      REQUIRE(n.rotation.size() == 4);
      const glm::dquat rot(n.rotation[3], n.rotation[0], n.rotation[1], n.rotation[2]);
      const glm::dmat4 local =
          glm::translate(glm::dmat4(1.0), glm::dvec3(n.translation[0], n.translation[1], n.translation[2])) *
          glm::mat4_cast(rot);
      world[i] = parent[i] >= 0 ? world[static_cast<size_t>(parent[i])] * local : local;
      out[i] = glm::dvec3(world[i][3]);
    }
    return out;
  }
};

}  // namespace

TEST_CASE("F28: --out FILE.glb read back with tinygltf and with --clip FILE.glb gives the run's own world positions",
          "[cli][out][gltf]") {
  const test::TempDir tmp("cli_glb_back");
  cli::Run run = cli::make_run(walk_request());
  const std::vector<io::FrameRecord> recs = run_all(run);
  REQUIRE(recs[0].world[0].position.z > 4.0f);  // the walk starts away from the origin
  const std::string path = (tmp / "walk.glb").string();
  const cli::OutReport report = cli::write_out_file(path, run, recs, cli::OutOptions{});
  REQUIRE(report.keys_after > 0);
  constexpr float kTolerance = cli::OutOptions::kDefaultTolerance;

  const GlbFile file(path);
  REQUIRE(file.parent.size() == recs[0].world.size() + 1);  // node 0: the root part, 1 + j: joint j's part

  SECTION("tinygltf: every node's world position at every frame time is the run's, within the tolerance") {
    double worst = 0.0;
    for (const io::FrameRecord& r : recs) {
      const std::vector<glm::dvec3> got = file.world_positions(r.time);
      worst = std::max(worst, glm::length(got[0] - glm::dvec3(r.root.position)));
      for (size_t j = 0; j < r.world.size(); ++j)
        worst = std::max(worst, glm::length(got[j + 1] - glm::dvec3(r.world[j].position)));
    }
    CHECK(worst <= kTolerance);
  }

  SECTION("the nodes' own TRS is the rig's rest under the first frame's root, not a frame of the motion") {
    std::vector<Transform> rest(recs[0].world.size());
    REQUIRE(evaluate_rest_world(run.rig, recs[0].root, rest));
    const std::vector<glm::dvec3> got = file.rest_positions();
    CHECK(glm::length(got[0] - glm::dvec3(recs[0].root.position)) < 1e-5);
    for (size_t j = 0; j < rest.size(); ++j) CHECK(glm::length(got[j + 1] - glm::dvec3(rest[j].position)) < 1e-4);
  }

  SECTION("--clip FILE.glb on the same rig plays natively and reproduces the run within the tolerance") {
    cli::RunRequest back;
    back.rig = "builtin:r15";
    back.clip = path;
    back.frames = kFrames;
    cli::Run again = cli::make_run(back);
    const std::vector<io::FrameRecord> got = run_all(again);
    float worst = 0.0f;
    for (size_t f = 0; f < recs.size(); ++f) {
      REQUIRE(got[f].time == Approx(recs[f].time).margin(1e-6));
      for (size_t j = 0; j < recs[f].world.size(); ++j)
        worst = std::max(worst, glm::length(got[f].world[j].position - recs[f].world[j].position));
    }
    CHECK(worst <= kTolerance);
  }
}
