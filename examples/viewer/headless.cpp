#include "headless.hpp"

#define GL_GLEXT_PROTOTYPES
#include <GL/glcorearb.h>

#include <stb_image_write.h>

#include <algorithm>

namespace asterune::viewer {

OffscreenTarget::OffscreenTarget(int width, int height) : width_(width), height_(height) {
  glGenFramebuffers(1, &framebuffer_);
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_);
  glGenRenderbuffers(1, &colour_);
  glBindRenderbuffer(GL_RENDERBUFFER, colour_);
  glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, colour_);
  glGenRenderbuffers(1, &depth_);
  glBindRenderbuffer(GL_RENDERBUFFER, depth_);
  glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT24, width, height);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, depth_);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

OffscreenTarget::~OffscreenTarget() {
  glDeleteFramebuffers(1, &framebuffer_);
  glDeleteRenderbuffers(1, &colour_);
  glDeleteRenderbuffers(1, &depth_);
}

void OffscreenTarget::bind() const { glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_); }
void OffscreenTarget::unbind() const { glBindFramebuffer(GL_FRAMEBUFFER, 0); }

std::string OffscreenTarget::write_png(const std::string& path) const {
  if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) return "the offscreen framebuffer is incomplete";
  const size_t row = static_cast<size_t>(width_) * 3;
  std::vector<unsigned char> pixels(row * static_cast<size_t>(height_)), flipped(pixels.size());
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadBuffer(GL_COLOR_ATTACHMENT0);
  glReadPixels(0, 0, width_, height_, GL_RGB, GL_UNSIGNED_BYTE, pixels.data());
  for (int y = 0; y < height_; ++y)  // GL's first row is the bottom one
    std::copy_n(pixels.begin() + static_cast<std::ptrdiff_t>(row * static_cast<size_t>(height_ - 1 - y)), row,
                flipped.begin() + static_cast<std::ptrdiff_t>(row * static_cast<size_t>(y)));
  if (!stbi_write_png(path.c_str(), width_, height_, 3, flipped.data(), static_cast<int>(row)))
    return path + ": cannot write the PNG";
  return {};
}

}  // namespace asterune::viewer
