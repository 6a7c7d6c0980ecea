#include "export.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "asterune/io/gltf_writer.hpp"

namespace asterune::cli {

void write_out_file(const std::string& path, const Run& run, std::span<const io::FrameRecord> frames) {
  std::string ext = std::filesystem::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (ext == ".glb" || ext == ".gltf") {
    if (Status s = io::write_gltf_file(path, run.rig, run.root, frames); !s) throw CliError(s.message());
    return;
  }
  throw CliError("--out " + path + ": unknown output format '" + ext + "' (use .glb or .gltf)");
}

}  // namespace asterune::cli
