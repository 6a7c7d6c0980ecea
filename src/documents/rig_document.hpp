// Private: the asterune.rig/1 document reader shared by rig_file.cpp and rig_loader.cpp.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "asterune/rig/rig_desc.hpp"
#include "formats/json_read.hpp"

namespace asterune::io::detail {

/// Reads a parsed `asterune.rig/1` document; throws LoadError on bad input.
RigDesc read_rig_document(const Json& doc, std::string_view default_name);

/// The file name without ".rig.json" / ".json".
std::string default_rig_name(const std::filesystem::path& path);

}  // namespace asterune::io::detail
