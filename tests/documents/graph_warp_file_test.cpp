// The asterune.graph/1 reader's warp nodes (docs/formats.md "Graph"; rules F9, LO6, LO8):
// StrideWarp and OrientationWarp read into the desc with literals and parameter bindings, and
// each bad input refused in one line naming the file, the JSON path and the node.
#include <catch2/catch.hpp>

#include <string>

#include "asterune/documents/graph_file.hpp"

using namespace asterune;
using Catch::Matchers::Contains;

namespace {

const std::string kLabel = "/g/dir/warp.graph.json";

std::string graph(const std::string& nodes, const std::string& output) {
  return R"({"format": "asterune.graph/1", "parameters": {"speed": {"type": "number", "default": 3},
             "dir": {"type": "number"}, "flag": {"type": "bool"}}, "nodes": {"walk": {"type": "Clip", "clip": "w.bvh"}, )" +
         nodes + R"(}, "output": ")" + output + "\"}";
}
std::string error_of(const std::string& text) {
  Result<GraphDesc> r = io::parse_graph(text, kLabel);
  return r.ok() ? std::string() : r.message();
}

}  // namespace

TEST_CASE("graph file: StrideWarp and OrientationWarp read into the desc (rules F9, LO6, LO8)", "[documents][warp]") {
  const std::string text = graph(R"("stride": {"type": "StrideWarp", "pose": "walk", "speed": {"parameter": "speed"},
                                                "clamp": [0.75, 1.5]},
                                    "turn": {"type": "OrientationWarp", "pose": "stride", "direction": 0.25})",
                                 "turn");
  Result<GraphDesc> r = io::parse_graph(text, kLabel);
  INFO((r.ok() ? std::string() : r.message()));
  REQUIRE(r.ok());
  const GraphDesc& d = r.value();
  REQUIRE(d.nodes.size() == 3);
  CHECK(d.nodes[1].type == GraphNodeType::kStrideWarp);
  CHECK(d.nodes[1].pose == 0);
  CHECK(d.nodes[1].speed.parameter == "speed");
  CHECK(d.nodes[1].clamp_min == 0.75f);
  CHECK(d.nodes[1].clamp_max == 1.5f);
  CHECK(d.nodes[2].type == GraphNodeType::kOrientationWarp);
  CHECK(d.nodes[2].pose == 1);
  CHECK(d.nodes[2].direction.value == 0.25f);
  CHECK(d.nodes[2].direction.parameter.empty());
  CHECK(d.output == 2);
  // Without a clamp: the default [0.5, 2].
  Result<GraphDesc> plain = io::parse_graph(graph(R"("s": {"type": "StrideWarp", "pose": "walk", "speed": 2})", "s"), kLabel);
  REQUIRE(plain.ok());
  CHECK(plain.value().nodes[1].clamp_min == 0.5f);
  CHECK(plain.value().nodes[1].clamp_max == 2.0f);
  CHECK(plain.value().nodes[1].speed.value == 2.0f);
}

TEST_CASE("graph file: bad warp nodes are one line naming the file, the path and the node (rules F3, F9)",
          "[documents][warp]") {
  const auto stride = [](const std::string& body) { return graph(R"("s": {"type": "StrideWarp", )" + body + "}", "s"); };
  CHECK_THAT(error_of(stride(R"("pose": "walk")")), Contains("warp.graph.json") && Contains("/nodes/s") &&
                                                      Contains("node 's'") && Contains("speed"));
  CHECK_THAT(error_of(stride(R"("speed": 1)")), Contains("/nodes/s") && Contains("pose"));
  CHECK_THAT(error_of(stride(R"("pose": "walk", "speed": 1, "clamp": [2, 1])")),
             Contains("/nodes/s/clamp") && Contains("0 < min <= max"));
  CHECK_THAT(error_of(stride(R"("pose": "walk", "speed": 1, "clamp": [0.5])")), Contains("/nodes/s/clamp"));
  CHECK_THAT(error_of(stride(R"("pose": "walk", "speed": 1, "clamp": [{"parameter": "speed"}, 2])")),
             Contains("/nodes/s/clamp/0") && Contains("fixed when the graph is built"));
  CHECK_THAT(error_of(stride(R"("pose": "walk", "speed": {"parameter": "flag"})")),
             Contains("/nodes/s/speed/parameter") && Contains("is a bool"));
  CHECK_THAT(error_of(stride(R"("pose": "walk", "speed": 1, "direction": 0)")), Contains("/nodes/s") && Contains("direction"));
  CHECK_THAT(error_of(graph(R"("t": {"type": "OrientationWarp", "pose": "walk"})", "t")),
             Contains("/nodes/t") && Contains("direction"));
  CHECK_THAT(error_of(graph(R"("t": {"type": "OrientationWarp", "pose": "nobody", "direction": 0})", "t")),
             Contains("/nodes/t/pose") && Contains("nobody"));
  CHECK(error_of(graph(R"("t": {"type": "OrientationWarp", "pose": "walk", "direction": {"parameter": "dir"}})", "t")).empty());
}
