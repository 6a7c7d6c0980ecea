// Graph test fixtures: the hand-typed R15 rig, constant and linear clips (tests/anim's
// helpers) with native bindings, and small builders for GraphDesc nodes, so each expected
// weight, time and pose is derived by hand.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "anim/anim_support.hpp"
#include "asterune/graph/graph.hpp"
#include "support/math.hpp"

namespace asterune::test {

/// Owns the rig, the clips and their bindings (stable addresses) and the description.
struct GraphFixture {
  Rig rig = r15_rig();
  std::vector<std::unique_ptr<Clip>> clips;
  std::vector<std::unique_ptr<AnimationBinding>> bindings;
  GraphDesc desc;

  /// A Clip node over a clip that holds LowerTorso's motor at `deg` degrees about +Y (so a
  /// blended pose's angle tells the weights) for `length` seconds; returns its index.
  int clip(const std::string& id, float deg, float length = 1.0f, std::vector<ClipMarker> markers = {}) {
    auto c = std::make_unique<Clip>(const_clip(id, {{"LowerTorso", axis_angle_deg(deg, {0, 1, 0})},
                                                    {"LeftUpperArm", axis_angle_deg(deg, {1, 0, 0})}},
                                               length));
    c->markers = std::move(markers);
    bindings.push_back(native_binding(*c, rig));
    GraphNodeDesc n;
    n.id = id;
    n.type = GraphNodeType::kClip;
    n.clip = c.get();
    n.binding = bindings.back().get();
    clips.push_back(std::move(c));
    desc.nodes.push_back(std::move(n));
    return static_cast<int>(desc.nodes.size()) - 1;
  }
  GraphNodeDesc& node(int i) { return desc.nodes[static_cast<size_t>(i)]; }
  int add(GraphNodeDesc n) {
    desc.nodes.push_back(std::move(n));
    return static_cast<int>(desc.nodes.size()) - 1;
  }
  int param(const std::string& name, GraphParameterType type, float number = 0.0f, bool flag = false,
            const std::string& str = {}) {
    desc.parameters.push_back(GraphParameterDesc{name, type, number, flag, str});
    return static_cast<int>(desc.parameters.size()) - 1;
  }
  GraphInstance build(int output) {
    desc.output = output;
    auto g = build_graph(desc, rig);
    INFO((g.ok() ? std::string() : g.message()));
    REQUIRE(g.ok());
    return std::move(g).value();
  }
  std::string error(int output) {
    desc.output = output;
    auto g = build_graph(desc, rig);
    REQUIRE_FALSE(g.ok());
    return g.message();
  }
};

inline GraphInputDesc input(int node, const std::string& name = {}) {
  GraphInputDesc in;
  in.node = node;
  in.name = name;
  return in;
}

inline GraphNodeDesc node_of(const std::string& id, GraphNodeType type, std::vector<GraphInputDesc> inputs = {}) {
  GraphNodeDesc n;
  n.id = id;
  n.type = type;
  n.inputs = std::move(inputs);
  return n;
}

inline GraphNumber bound(const std::string& parameter) { return GraphNumber{0.0f, parameter}; }

/// LowerTorso's yaw in degrees in a pose (the clips above only turn it about +Y).
inline float yaw_deg(const Rig& rig, const std::vector<Transform>& local) {
  const glm::quat q = local[static_cast<size_t>(joint_index(rig, "LowerTorso"))].rotation;
  return glm::degrees(2.0f * std::atan2(q.y, q.w));
}

}  // namespace asterune::test

namespace asterune::test {

/// One update of `g` on the fixture's rig; the pose and the events.
struct Frame {
  std::vector<Transform> local;
  std::vector<float> coverage;
  std::vector<GraphEvent> events;
  GraphReport report;
};
inline Frame step(GraphFixture& f, GraphInstance& g, float dt, int event_room = 16) {
  Frame fr;
  fr.local.resize(static_cast<size_t>(f.rig.joint_count()));
  fr.coverage.resize(fr.local.size());
  fr.events.resize(static_cast<size_t>(event_room));
  fr.report = g.update(f.rig, dt, fr.local, fr.coverage, fr.events);
  REQUIRE(fr.report.ok);
  fr.events.resize(static_cast<size_t>(fr.report.events_written));
  return fr;
}

}  // namespace asterune::test
