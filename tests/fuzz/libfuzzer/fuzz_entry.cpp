// libFuzzer entry point for one target of targets.hpp, chosen at build time by
// ASTERUNE_FUZZ_TARGET (tests/CMakeLists.txt builds one fuzz_<target> program each).
#include <cstdio>
#include <cstdlib>

#include "../targets.hpp"

#ifndef ASTERUNE_FUZZ_TARGET
#error "define ASTERUNE_FUZZ_TARGET to a target name of targets.hpp"
#endif

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const asterune::fuzz::FuzzTarget* target = asterune::fuzz::find_fuzz_target(ASTERUNE_FUZZ_TARGET);
  if (!target) {
    std::fprintf(stderr, "unknown fuzz target '%s'\n", ASTERUNE_FUZZ_TARGET);
    std::abort();
  }
  const std::string problem = target->check({data, size});
  if (!problem.empty()) {
    std::fprintf(stderr, "fuzz target %s: %s\n", ASTERUNE_FUZZ_TARGET, problem.c_str());
    std::abort();
  }
  return 0;
}
