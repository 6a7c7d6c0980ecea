// asterune-viewer: offscreen rendering for --screenshot. The frame is drawn into a framebuffer
// object of the requested size (the window, hidden, only provides the GL context), read back
// and written as a PNG with stb_image_write (Debian's libstb), top row first.
#pragma once

#include <string>
#include <vector>

namespace asterune::viewer {

class OffscreenTarget {
 public:
  /// A colour + depth framebuffer of width x height (needs a current GL context).
  OffscreenTarget(int width, int height);
  ~OffscreenTarget();
  OffscreenTarget(const OffscreenTarget&) = delete;
  OffscreenTarget& operator=(const OffscreenTarget&) = delete;

  void bind() const;    // draw into it
  void unbind() const;  // back to the window
  /// Reads the pixels back (RGB, top row first) and writes them to `path` as PNG; returns an
  /// error message, or "" on success.
  std::string write_png(const std::string& path) const;

  int width() const { return width_; }
  int height() const { return height_; }

 private:
  int width_ = 0, height_ = 0;
  unsigned framebuffer_ = 0, colour_ = 0, depth_ = 0;
};

}  // namespace asterune::viewer
