#include "run.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "asterune/math/scalar.hpp"
#include "asterune/rig/world.hpp"

namespace asterune::cli {

void StaticPoseSource::sample(float, float, std::span<Transform> local, std::span<float> coverage) {
  std::copy(pose_.local.begin(), pose_.local.end(), local.begin());
  std::copy(pose_.coverage.begin(), pose_.coverage.end(), coverage.begin());
}

WaveDemoSource::WaveDemoSource(const Rig& rig) {
  auto find = [&](const char* name) { const JointLookup l = rig.find_joint(name); return l.found() ? l.index : -1; };
  upper_arm_ = find("RightUpperArm");
  lower_arm_ = find("RightLowerArm");
  hand_ = find("RightHand");
  head_ = find("Head");
}

void WaveDemoSource::sample(float time, float, std::span<Transform> local, std::span<float> coverage) {
  const float deg = kDegToRad;
  const float wave = std::sin(2.0f * kPi * 1.5f * time);  // 1.5 waves per second
  auto set = [&](int j, float angle_deg, const glm::vec3& axis) {
    if (j < 0) return;
    local[static_cast<size_t>(j)] = Transform::from_rotation(glm::angleAxis(angle_deg * deg, axis));
    coverage[static_cast<size_t>(j)] = 1.0f;
  };
  // The right arm hangs along -Y at +X; turning about +Z raises it outwards and up.
  set(upper_arm_, 140.0f, {0, 0, 1});
  set(lower_arm_, 25.0f + 25.0f * wave, {0, 0, 1});  // the forearm swings side to side
  set(hand_, 10.0f * wave, {0, 0, 1});
  set(head_, 8.0f * wave, {0, 1, 0});  // the head turns a little with the wave
}

void run_frames(Run& run, int first_recorded, int last_recorded,
                const std::function<void(const io::FrameRecord&)>& sink) {
  const int n = run.rig.joint_count();
  Pose pose = make_pose(run.rig);
  io::FrameRecord rec;
  rec.world.resize(static_cast<size_t>(n));
  std::optional<Transform> motion;  // root motion so far (rule AN9), applied after the scene's root
  if (run.source) run.source->prepare_rollback(run.steps);
  for (int f = 0; f < run.frames; ++f) {
    const float t = static_cast<float>(f) * run.dt;
    reset_pose(pose.local_span(), pose.coverage_span());
    rec.controls.clear();
    rec.tracks.clear();
    rec.events.clear();
    rec.events_dropped = 0;
    if (run.source) {
      run.source->sample(t, f == 0 ? 0.0f : run.dt, pose.local_span(), pose.coverage_span());
      run.source->foot_contacts(t, rec.contacts);
      if (const std::optional<Transform> delta = run.source->finish_frame(rec))
        motion = motion ? *motion * *delta : *delta;
    }
    const Transform base = run.root_path.empty() ? run.root : io::sample_root_path(run.root_path, t);
    const Transform root = motion ? base * *motion : base;
    for (auto& step : run.steps) step->update(t, run.dt, root, pose.local_span(), pose.coverage_span(), rec.controls);
    if (run.source) run.source->finish_rollback(motion, run.steps);
    evaluate_world(run.rig, root, pose.local_span(), rec.world);
    if (f >= first_recorded && f <= last_recorded) {
      rec.frame = f;
      rec.time = t;
      rec.root = root;
      rec.local = pose.local;
      rec.coverage = pose.coverage;
      sink(rec);
    }
  }
}

glm::vec3 euler_xyz_degrees(const glm::quat& q) {
  const glm::mat3 m = rotation_matrix(q);  // m[column][row]
  const float r02 = std::clamp(m[2][0], -1.0f, 1.0f);
  float a, b, c;
  b = std::asin(r02);
  if (std::fabs(r02) < 0.99999f) {
    a = std::atan2(-m[2][1], m[2][2]);  // -R12, R22
    c = std::atan2(-m[1][0], m[0][0]);  // -R01, R00
  } else {
    a = std::atan2(m[1][2], m[1][1]);   // R21, R11
    c = 0.0f;
  }
  const float k = kRadToDeg;
  auto clean = [](float v) { return std::fabs(v) < 5e-5f ? 0.0f : v; };  // no "-0.00"
  return {clean(a * k), clean(b * k), clean(c * k)};
}

namespace {

std::string fmt(const char* format, auto... args) {
  char buf[512];
  std::snprintf(buf, sizeof buf, format, args...);
  return buf;
}

float z(float v) { return std::fabs(v) < 5e-6f ? 0.0f : v; }  // print 0.000, never -0.000

std::string parent_label(const Rig& rig, int j) {
  if (rig.parent(j) >= 0) return rig.joint_name(rig.parent(j));
  return rig.connected(j) ? std::string("(root part)") : std::string("(disconnected)");
}

}  // namespace

std::string format_table_header(const Run& run) {
  const Rig& rig = run.rig;
  std::string s;
  const Transform& r = run.root;
  s += fmt("rig %s: %d joints, root part %s at (%.3f, %.3f, %.3f)%s; %d frame(s), dt %.4f s\n", rig.name().c_str(),
           rig.joint_count(), rig.part(rig.root_part()).name.c_str(), z(r.position.x), z(r.position.y), z(r.position.z),
           run.root_path.empty() ? "" : " (moving along a path from there)", run.frames, run.dt);
  s += "T = the joint's animated transform (child = P * C0 * T * C1^-1); rotation as quaternion [w x y z]\n"
       "and as Euler angles in degrees, XYZ order: R = Rx(x) * Ry(y) * Rz(z) (Roblox CFrame.Angles).\n"
       "world = the child part's world position (studs). cov = coverage.\n";
  for (const std::string& note : run.notes) s += note + "\n";
  return s;
}

std::string format_table_frame(const Run& run, const io::FrameRecord& rec) {
  const Rig& rig = run.rig;
  std::string s;
  {
    s += fmt("\nframe %d  t = %.4f s\n", rec.frame, rec.time);
    if (!rec.contacts.empty()) {  // rule RT17: the source's foot contacts this frame
      s += "contacts:";
      for (const io::FootContactRecord& c : rec.contacts) s += fmt("  %s %s", c.foot.c_str(), c.contact ? "down" : "up");
      s += "\n";
    }
    s += fmt("%3s  %-16s %-16s %-16s %4s  %-24s  %-29s  %-24s    %s\n", "#", "joint", "child part", "parent joint", "cov",
             "T position", "T rotation [w x y z]", "T Euler XYZ (deg)", "world position");
    for (int j = 0; j < rig.joint_count(); ++j) {
      const auto i = static_cast<size_t>(j);
      const Transform& t = rec.local[i];
      const glm::vec3 e = euler_xyz_degrees(t.rotation);
      const glm::vec3& w = rec.world[i].position;
      s += fmt("%3d  %-16s %-16s %-16s %4.2f  (%6.3f, %6.3f, %6.3f)  [%6.3f %6.3f %6.3f %6.3f]  (%6.1f, %6.1f, %6.1f)    (%6.3f, %6.3f, %6.3f)\n",
               j, rig.joint_name(j).c_str(), rig.child_name(j).c_str(), parent_label(rig, j).c_str(),
               rec.coverage[i], z(t.position.x), z(t.position.y), z(t.position.z), z(t.rotation.w), z(t.rotation.x),
               z(t.rotation.y), z(t.rotation.z), e.x, e.y, e.z, z(w.x), z(w.y), z(w.z));
    }
    for (const io::TrackRecord& tr : rec.tracks) {
      s += "track " + tr.name + ": " +
           fmt("%s, weight %.3f (target %.3f), time %.4f s, speed %.3f\n", tr.playing ? "playing" : "stopped",
               z(tr.weight), z(tr.weight_target), z(tr.time), z(tr.speed));
      if (!tr.graph) continue;
      // Rule F11: the parameters on one line, then one line per active node.
      std::string params;
      for (const io::GraphParameterRecord& p : tr.graph->parameters) {
        params += (params.empty() ? "" : ", ") + p.name + " = ";
        if (p.type == io::GraphParameterRecord::Type::kNumber) params += fmt("%.3f", z(p.number));
        else if (p.type == io::GraphParameterRecord::Type::kBool) params += p.boolean ? "true" : "false";
        else params += "'" + p.string + "'";
      }
      if (!params.empty()) s += "  parameters: " + params + "\n";
      for (const io::GraphNodeRecord& n : tr.graph->nodes)
        if (n.weight != 0.0f) {
          s += "  node " + n.id + fmt(": weight %.3f, time %.4f s, phase %.4f\n", z(n.weight), z(n.time), z(n.phase));
          if (n.warp)  // rule LO9
            s += fmt("    warp: stride scale %.3f, play rate %.3f, lower-body yaw %.4f rad, pelvis drop %.4f studs%s\n",
                     z(n.warp->stride_scale), z(n.warp->play_rate), z(n.warp->lower_body_yaw), z(n.warp->pelvis_drop),
                     n.warp->ignored ? " (parameter ignored)" : "");
        }
    }
    for (const io::EventRecord& e : rec.events) {
      s += "event " + e.track + ": " + e.kind;
      if (!e.name.empty()) s += " '" + e.name + "'";
      if (!e.value.empty()) s += " = '" + e.value + "'";
      s += fmt(" at %.4f s", z(e.time));
      if (e.weight) s += fmt(", node %s, weight %.3f", e.node.c_str(), z(*e.weight));  // a graph marker (rule F11)
      s += "\n";
    }
    if (rec.events_dropped > 0) s += fmt("events dropped: %d (the buffer was full)\n", rec.events_dropped);
    for (const io::ControlRecord& c : rec.controls) {
      s += fmt("control %s: %s%s, distance %.4f studs, angle %.4f rad, weight %.3f, passes %d, stretch %.3f (%s)",
               c.name.c_str(), c.reached ? "reached" : "not reached", c.clamped ? ", clamped" : "", c.distance, c.angle,
               c.weight, c.passes, c.stretch, c.status.c_str());
      if (c.spring) s += fmt(", substeps %d, resets %d", c.spring->substeps, c.spring->resets);
      s += "\n";
      if (!c.feet) continue;
      for (int i = 0; i < c.feet->foot_count; ++i) {
        const FootReport& f = c.feet->feet[static_cast<size_t>(i)];
        s += fmt("  foot %d: %s, lift %.4f, tilt %.2f deg, shorten %.4f%s\n", i, f.hit ? "hit" : "missed", z(f.lift),
                 z(f.tilt_deg), z(f.shorten), f.clamped ? ", clamped" : "");
      }
      s += fmt("  pelvis drop %.4f, lean %.2f deg\n", z(c.feet->pelvis_drop), z(c.feet->lean_deg));
    }
  }
  return s;
}

std::string format_csv_header() {
  return "frame,time,index,joint,part0,part1,parent,coverage,tx,ty,tz,qw,qx,qy,qz,euler_x_deg,euler_y_deg,euler_z_deg,"
         "world_x,world_y,world_z,world_qw,world_qx,world_qy,world_qz\n";
}

std::string format_csv_frame(const Run& run, const io::FrameRecord& rec) {
  const Rig& rig = run.rig;
  std::string s;
  auto quoted = [](const std::string& v) {
    if (v.find_first_of(",\"\n") == std::string::npos) return v;
    std::string q = "\"";
    for (char c : v) q += (c == '"') ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
  };
  {
    for (int j = 0; j < rig.joint_count(); ++j) {
      const auto i = static_cast<size_t>(j);
      const Transform& t = rec.local[i];
      const Transform& w = rec.world[i];
      const glm::vec3 e = euler_xyz_degrees(t.rotation);
      s += fmt("%d,%.6g,%d,%s,%s,%s,%d,%.6g,", rec.frame, rec.time, j, quoted(rig.joint_name(j)).c_str(),
               quoted(rig.parent_name(j)).c_str(), quoted(rig.child_name(j)).c_str(), rig.parent(j), rec.coverage[i]);
      s += fmt("%.7g,%.7g,%.7g,%.7g,%.7g,%.7g,%.7g,%.4f,%.4f,%.4f,", z(t.position.x), z(t.position.y), z(t.position.z),
               z(t.rotation.w), z(t.rotation.x), z(t.rotation.y), z(t.rotation.z), e.x, e.y, e.z);
      s += fmt("%.7g,%.7g,%.7g,%.7g,%.7g,%.7g,%.7g\n", z(w.position.x), z(w.position.y), z(w.position.z),
               z(w.rotation.w), z(w.rotation.x), z(w.rotation.y), z(w.rotation.z));
    }
  }
  return s;
}

}  // namespace asterune::cli
