// Private: the asterune.graph/1 document reader (graph_file.cpp), for readers that meet a graph
// inside another document (a scene track's inline "graph" object) as well as in its own file.
#pragma once

#include <filesystem>
#include <string>

#include "asterune/documents/graph_file.hpp"
#include "formats/json_read.hpp"

namespace asterune::io::detail {

/// Reads a parsed asterune.graph/1 object found at JSON pointer `pointer` ("" for a whole file;
/// error paths start there); relative clip paths resolve against `folder`. Throws LoadError on
/// bad input (graph_file.hpp lists what is refused).
GraphDocument read_graph_document(const Json& root, const std::string& pointer, const std::filesystem::path& folder);

}  // namespace asterune::io::detail
