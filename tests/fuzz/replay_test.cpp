// Replays every file of tests/fuzz/regression/<target>/ (one input per hostile-input finding)
// and tests/fuzz/corpus/<target>/ (the seeds) through the fuzz targets' checks in the normal
// build: each must end with a one-line error naming the input or with finite output.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

#include "fuzz/targets.hpp"
#include "support/temp_dir.hpp"

namespace fs = std::filesystem;
using asterune::fuzz::FuzzTarget;

namespace {

std::vector<fs::path> files_in(const fs::path& dir) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.is_regular_file() && e.path().filename().string().front() != '.') out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::uint8_t> read_bytes(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

size_t replay(const char* folder) {
  const asterune::test::TempDir scratch("fuzz_replay");
  asterune::fuzz::set_fuzz_scratch_dir(scratch.path());
  size_t count = 0;
  for (const FuzzTarget& target : asterune::fuzz::fuzz_targets()) {
    for (const fs::path& file : files_in(fs::path(ASTERUNE_FUZZ_DIR) / folder / target.name)) {
      const std::vector<std::uint8_t> bytes = read_bytes(file);
      INFO(file.string());
      CHECK(target.check(bytes) == "");
      ++count;
    }
  }
  return count;
}

}  // namespace

TEST_CASE("every regression input ends in a one-line error or finite output", "[fuzz][regression]") {
  CHECK(replay("regression") >= 20);
}

TEST_CASE("every seed input ends in a one-line error or finite output", "[fuzz][corpus]") {
  CHECK(replay("corpus") >= 8);
}

TEST_CASE("every fuzz target has a seed corpus and a regression folder", "[fuzz]") {
  for (const FuzzTarget& target : asterune::fuzz::fuzz_targets()) {
    INFO(std::string(target.name));
    CHECK_FALSE(files_in(fs::path(ASTERUNE_FUZZ_DIR) / "corpus" / target.name).empty());
    CHECK(fs::is_directory(fs::path(ASTERUNE_FUZZ_DIR) / "regression" / target.name));
  }
}
