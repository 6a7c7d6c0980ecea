// Every benchmark program's main: the paired measurement of paired_main.cpp. CMake force-includes
// this header into each bench/*_bench.cpp (bench/CMakeLists.txt), so the usual BENCHMARK_MAIN()
// at the end of a benchmark file starts the paired run, and a new benchmark file gets it with no
// code of its own. How the pairing works and why: docs/performance.md, "How speed is measured".
#pragma once

#include <benchmark/benchmark.h>

namespace asterune::bench {

/// Runs the registered benchmarks that the command line selects, each in blocks alternating with
/// the reference kernel (reference_kernel.hpp), and prints each case's ns and its ratios to the
/// reference (median of the paired ratios, with their spread). Flags of its own (the rest go to
/// Google Benchmark): --paired_pairs=N (case blocks per case, default 15), --paired_out=FILE (the
/// results as JSON, read by scripts/bench_report.py), --paired=false (Google Benchmark's own
/// run, e.g. for a profile). Returns the process exit code.
int paired_main(int argc, char** argv);

}  // namespace asterune::bench

#undef BENCHMARK_MAIN
// The trailing declaration takes the semicolon after BENCHMARK_MAIN(), as the original macro does.
#define BENCHMARK_MAIN()                                                                    \
  int main(int argc, char** argv) { return ::asterune::bench::paired_main(argc, argv); } \
  int main(int, char**)
