#include "asterune/io/bvh.hpp"

namespace asterune::io {

const char* to_string(BvhChannel channel) {
  switch (channel) {
    case BvhChannel::kXposition: return "Xposition";
    case BvhChannel::kYposition: return "Yposition";
    case BvhChannel::kZposition: return "Zposition";
    case BvhChannel::kXrotation: return "Xrotation";
    case BvhChannel::kYrotation: return "Yrotation";
    case BvhChannel::kZrotation: return "Zrotation";
  }
  return "?";
}

}  // namespace asterune::io
