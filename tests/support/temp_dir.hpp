// Test helper: a unique temporary folder under the build tree (ASTERUNE_TEST_TMP_DIR), created
// on construction and removed with its contents on destruction. Tests write files only here.
#pragma once

#include <atomic>
#include <chrono>
#include <filesystem>
#include <random>
#include <string>
#include <system_error>

namespace asterune::test {

class TempDir {
 public:
  explicit TempDir(const std::string& prefix = "test") {
    static std::atomic<unsigned> counter{0};
    std::random_device rd;
    const auto stamp = std::chrono::steady_clock::now().time_since_epoch().count();
    for (int attempt = 0; attempt < 100; ++attempt) {
      path_ = std::filesystem::path(ASTERUNE_TEST_TMP_DIR) /
              (prefix + "_" + std::to_string(stamp) + "_" + std::to_string(rd()) + "_" + std::to_string(counter++));
      std::error_code ec;
      std::filesystem::create_directories(path_.parent_path(), ec);
      if (std::filesystem::create_directory(path_, ec)) return;  // false: it existed already
    }
    path_.clear();
  }
  ~TempDir() {
    std::error_code ec;
    if (!path_.empty()) std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  /// path() / name, as a string.
  std::string file(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

}  // namespace asterune::test
