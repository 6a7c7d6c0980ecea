// A program that links asterune::io AND compiles its own tinygltf implementation (as many
// engines do). asterune::io keeps its tinygltf private, so this links without duplicate
// symbols, and both readers work side by side.
#define TINYGLTF_IMPLEMENTATION
#define TINYGLTF_NO_STB_IMAGE
#define TINYGLTF_NO_STB_IMAGE_WRITE
#define TINYGLTF_NO_EXTERNAL_IMAGE
#include <tiny_gltf.h>

#include <cstdio>
#include <string>

#include <asterune/formats/gltf.hpp>

// Images are not decoded (stb is compiled out): accept them undecoded.
static bool ignore_image(tinygltf::Image*, const int, std::string*, std::string*, int, int, const unsigned char*, int,
                         void*) {
  return true;
}

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  const std::string path = argv[1];
  tinygltf::Model model;
  tinygltf::TinyGLTF loader;
  loader.SetImageLoader(&ignore_image, nullptr);
  std::string err, warn;
  if (!loader.LoadBinaryFromFile(&model, &err, &warn, path)) {
    std::printf("tinygltf: %s\n", err.c_str());
    return 1;
  }
  auto source = asterune::io::load_gltf_source(path);
  if (!source) {
    std::printf("asterune: %s\n", source.message().c_str());
    return 1;
  }
  std::printf("nodes=%zu joints=%d\n", model.nodes.size(), source.value().skeleton.joint_count());
  return 0;
}
