// Test helper: a fresh, uniquely named folder under the build tree (ASTERUNE_TEST_TMP_DIR),
// removed with everything in it when the object goes out of scope. Tests that write files use
// one of these, never a fixed name, so parallel test processes cannot collide.
#pragma once

#include <chrono>
#include <filesystem>
#include <random>
#include <string>
#include <system_error>

#include <catch2/catch.hpp>

namespace asterune::test {

class TempDir {
 public:
  /// `tag` names the test in the folder name (letters, digits, '_'), for a reader of the tree.
  explicit TempDir(const std::string& tag) {
    const std::filesystem::path base = ASTERUNE_TEST_TMP_DIR;
    std::error_code ec;
    std::filesystem::create_directories(base, ec);
    std::mt19937_64 rng(std::random_device{}() ^
                        static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()));
    for (int attempt = 0; attempt < 100 && path_.empty(); ++attempt) {
      const std::filesystem::path candidate = base / (tag + "_" + std::to_string(rng()));
      if (std::filesystem::create_directory(candidate, ec)) path_ = candidate;  // false: taken
    }
    REQUIRE(!path_.empty());
  }
  ~TempDir() {
    std::error_code ec;
    if (!path_.empty()) std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

 private:
  std::filesystem::path path_;
};

}  // namespace asterune::test
