// The asterune.graph/1 reader's locomotion keys on a Clip node (rules LO12, LO16, F9): "cycle"
// goes to the loader (GraphDocument::clip_cycle), "distance_matching" and "distance" to the
// GraphDesc; bad values are one line naming the file, the JSON path and the value.
#include <catch2/catch.hpp>

#include <string>

#include "asterune/documents/graph_file.hpp"

using namespace asterune;
using Catch::Matchers::Contains;

namespace {

const std::string kLabel = "/g/dir/loco.graph.json";

std::string graph(const std::string& clip_keys) {
  return R"({"format": "asterune.graph/1", "parameters": {"d": {"type": "number", "default": 2}},
    "nodes": {"walk": {"type": "Clip", "clip": "walk.bvh"},
              "stop": {"type": "Clip", "clip": "stop.bvh")" + clip_keys + R"(},
              "pick": {"type": "Select", "inputs": [{"name": "walk", "node": "walk"}, {"name": "stop", "node": "stop"}]}},
    "output": "pick"})";
}

}  // namespace

TEST_CASE("graph file: a Clip node's cycle, distance_matching and distance (rules LO12, LO16)", "[documents][graph]") {
  const Result<io::GraphDocument> doc = io::parse_graph_document(
      graph(R"(, "cycle": "auto", "play_mode": "OnceAndHold", "distance_matching": "stop", "distance": {"parameter": "d"})"),
      kLabel);
  INFO((doc.ok() ? std::string() : doc.message()));
  REQUIRE(doc.ok());
  const io::GraphDocument& d = doc.value();
  REQUIRE(d.clip_cycle.size() == 3);
  CHECK(d.clip_cycle[0] == io::ClipCycle::kNone);
  CHECK(d.clip_cycle[1] == io::ClipCycle::kAuto);
  CHECK(d.clip_cycle[2] == io::ClipCycle::kNone);
  CHECK(d.desc.nodes[0].distance_matching == GraphDistanceMatching::kNone);
  CHECK(d.desc.nodes[1].distance_matching == GraphDistanceMatching::kStop);
  CHECK(d.desc.nodes[1].distance.parameter == "d");
  const Result<io::GraphDocument> literal = io::parse_graph_document(graph(R"(, "distance_matching": "start", "distance": 1.5)"), kLabel);
  REQUIRE(literal.ok());
  CHECK(literal.value().desc.nodes[1].distance_matching == GraphDistanceMatching::kStart);
  CHECK(literal.value().desc.nodes[1].distance.value == 1.5f);
  CHECK(literal.value().desc.nodes[1].distance.parameter.empty());
}

TEST_CASE("graph file: bad locomotion values name the file, the path and the value (rules F3, LO12, LO16)",
          "[documents][graph]") {
  const auto error_of = [](const std::string& keys) {
    const Result<io::GraphDocument> doc = io::parse_graph_document(graph(keys), kLabel);
    return doc.ok() ? std::string() : doc.message();
  };
  CHECK_THAT(error_of(R"(, "cycle": "always")"), Contains(kLabel) && Contains("/nodes/stop/cycle") && Contains("'always'"));
  CHECK_THAT(error_of(R"(, "distance_matching": "middle")"),
             Contains("/nodes/stop/distance_matching") && Contains("middle") && Contains("start"));
  CHECK_THAT(error_of(R"(, "distance": "far")"), Contains("/nodes/stop/distance"));
  CHECK_THAT(error_of(R"(, "distance": {"parameter": "nope"})"), Contains("/nodes/stop/distance") && Contains("'nope'"));
}
