// The paired measurement (paired_main.hpp). Each selected case runs in short Google Benchmark
// blocks that alternate with blocks of the reference kernel, round by round over the cases:
// R C1 R C2 ... R Cn R C1 R C2 ... R. Each case block is
// divided by the mean of the two reference blocks beside it, and a case is reported as the median
// of these ratios with their spread. Load from other processes on a shared machine (a busy sibling
// core, cache and memory traffic, a lower clock) slows both sides of a pair about alike within a
// fraction of a second, so the ratios hold still where nanoseconds measured minutes apart do not.
#include "paired_main.hpp"

#include <time.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <map>
#include <string>
#include <vector>

#include "reference_kernel.hpp"

namespace asterune::bench {

namespace {

struct Options {
  bool paired = true;
  int pairs = 15;
  std::string out;
  double block_seconds = 0.05;  // Google Benchmark's --benchmark_min_time for each block
  bool has_min_time = false;
};

bool starts_with(const char* text, const char* prefix) { return std::strncmp(text, prefix, std::strlen(prefix)) == 0; }

double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

double wall_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// One reference block's ns per joint, in the thread's CPU time (what the cases report by default,
// as Google Benchmark measures them) and in wall-clock time (for cases timed with UseRealTime).
struct RefBlock {
  double cpu_ns = 0.0;
  double real_ns = 0.0;
};

class Reference {
 public:
  // Sizes a block to about `seconds` of CPU time, the length Google Benchmark gives a case block.
  void calibrate(double seconds) {
    iterations_ = 1;
    for (;;) {
      const double start = thread_cpu_seconds();
      kernel_.run(iterations_);
      const double spent = thread_cpu_seconds() - start;
      if (spent >= seconds / 8.0 || iterations_ > (1L << 40)) {
        iterations_ = std::max(1L, static_cast<long>(static_cast<double>(iterations_) * seconds / std::max(spent, 1e-9)));
        return;
      }
      iterations_ *= 4;
    }
  }

  RefBlock block() {
    const double cpu0 = thread_cpu_seconds(), wall0 = wall_seconds();
    kernel_.run(iterations_);
    const double cpu1 = thread_cpu_seconds(), wall1 = wall_seconds();
    const double joints = static_cast<double>(iterations_) * ReferenceKernel::kJoints;
    return {1e9 * (cpu1 - cpu0) / joints, 1e9 * (wall1 - wall0) / joints};
  }

  ReferenceKernel& kernel() { return kernel_; }

 private:
  ReferenceKernel kernel_;
  long iterations_ = 1;
};

// Keeps the runs of one RunSpecifiedBenchmarks call instead of printing them.
class Capture : public benchmark::BenchmarkReporter {
 public:
  bool ReportContext(const Context& context) override {
    if (host.empty()) {
      host = context.sys_info.name;
      cpus = context.cpu_info.num_cpus;
      mhz = context.cpu_info.cycles_per_second / 1e6;
    }
    return true;
  }
  void ReportRuns(const std::vector<Run>& reports) override {
    for (const Run& r : reports)
      if (r.run_type == Run::RT_Iteration) runs.push_back(r);
  }

  std::vector<Run> runs;
  std::string host;
  int cpus = 0;
  double mhz = 0.0;
};

bool timed_by_wall_clock(const benchmark::BenchmarkReporter::Run& run) { return !run.run_name.time_type.empty(); }

double run_ns(const benchmark::BenchmarkReporter::Run& run) {
  const double per_iteration = timed_by_wall_clock(run) ? run.GetAdjustedRealTime() : run.GetAdjustedCPUTime();
  return per_iteration * 1e9 / benchmark::GetTimeUnitMultiplier(run.time_unit);
}

// A counter named "<ns|us|ms|s>_per_<unit>" is a time per unit: its factor to nanoseconds, else 0.
double counter_to_ns(const std::string& name) {
  const size_t at = name.find("_per_");
  if (at == std::string::npos) return 0.0;
  const std::string unit = name.substr(0, at);
  if (unit == "ns") return 1.0;
  if (unit == "us") return 1e3;
  if (unit == "ms") return 1e6;
  if (unit == "s") return 1e9;
  return 0.0;
}

// A benchmark name as an exact (extended) regular expression for --benchmark_filter.
std::string exact_filter(const std::string& name) {
  std::string out = "^";
  for (const char c : name) {
    if (std::strchr(".[]{}()*+?^$|\\", c) != nullptr) out += '\\';
    out += c;
  }
  return out + "$";
}

struct Spread {
  double median = 0.0, q1 = 0.0, q3 = 0.0, min = 0.0, max = 0.0;
};

double quantile(const std::vector<double>& sorted, double q) {
  const double at = q * static_cast<double>(sorted.size() - 1);
  const size_t lo = static_cast<size_t>(at);
  const size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (at - static_cast<double>(lo)) * (sorted[hi] - sorted[lo]);
}

Spread spread(std::vector<double> values) {
  if (values.empty()) return {};
  std::sort(values.begin(), values.end());
  return {quantile(values, 0.5), quantile(values, 0.25), quantile(values, 0.75), values.front(), values.back()};
}

// A time per something: its value per block and its ratio to the adjacent reference blocks.
struct Series {
  std::vector<double> values;
  std::vector<double> ratios;  // empty for a counter that is not a time
};

struct CaseResult {
  std::string name;
  bool wall_clock = false;
  std::string error;
  Series time;                             // ns per iteration
  std::map<std::string, Series> counters;  // as the case reports them (a time counter in its own unit)
};

std::string format(double v) {
  char text[32];
  const double a = std::abs(v);
  if (a >= 100.0 || a == 0.0)
    std::snprintf(text, sizeof text, "%.0f", v);
  else if (a >= 10.0)
    std::snprintf(text, sizeof text, "%.1f", v);
  else
    std::snprintf(text, sizeof text, "%.3g", v);
  return text;
}

std::string ratio_text(const std::vector<double>& ratios) {
  const Spread s = spread(ratios);
  return format(s.median) + " Y [" + format(s.min) + "-" + format(s.max) + "]";
}

void print_case(const CaseResult& c, size_t width) {
  if (!c.error.empty()) {
    std::printf("%-*s  ERROR: %s\n", static_cast<int>(width), c.name.c_str(), c.error.c_str());
    std::fflush(stdout);
    return;
  }
  std::string line = format(spread(c.time.values).median) + " ns  " + ratio_text(c.time.ratios);
  for (const auto& [name, series] : c.counters) {
    line += "  " + name + " " + format(spread(series.values).median);
    if (!series.ratios.empty()) line += " = " + ratio_text(series.ratios);
  }
  std::printf("%-*s  %s%s\n", static_cast<int>(width), c.name.c_str(), line.c_str(), c.wall_clock ? "  (wall clock)" : "");
  std::fflush(stdout);
}

std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) >= 0x20) out += c;
  }
  return out + "\"";
}

std::string json_number(double v) {
  if (!std::isfinite(v)) return "null";
  char text[40];
  std::snprintf(text, sizeof text, "%.6g", v);
  return text;
}

std::string json_spread(const std::vector<double>& values) {
  const Spread s = spread(values);
  std::string out = "{\"median\": " + json_number(s.median) + ", \"q1\": " + json_number(s.q1) + ", \"q3\": " +
                    json_number(s.q3) + ", \"min\": " + json_number(s.min) + ", \"max\": " + json_number(s.max) +
                    ", \"values\": [";
  for (size_t i = 0; i < values.size(); ++i) out += (i ? ", " : "") + json_number(values[i]);
  return out + "]}";
}

std::string json_series(const Series& s) {
  std::string out = "{\"value\": " + json_spread(s.values);
  if (!s.ratios.empty()) out += ", \"ratio\": " + json_spread(s.ratios);
  return out + "}";
}

bool write_json(const std::string& path, const char* program, const Capture& capture, const Options& options,
                const std::vector<RefBlock>& reference, const std::vector<CaseResult>& cases) {
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (f == nullptr) return false;
  char date[40];
  const std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  std::vector<double> cpu, real;
  for (const RefBlock& r : reference) {
    cpu.push_back(r.cpu_ns);
    real.push_back(r.real_ns);
  }
  std::fprintf(f, "{\n  \"context\": {\"program\": %s, \"date\": %s, \"host_name\": %s, \"num_cpus\": %d, "
               "\"mhz_per_cpu\": %s, \"pairs\": %d, \"block_seconds\": %s},\n",
               json_string(program).c_str(), json_string(date).c_str(), json_string(capture.host).c_str(), capture.cpus,
               json_number(capture.mhz).c_str(), options.pairs, json_number(options.block_seconds).c_str());
  std::fprintf(f, "  \"reference\": {\"joints\": %d, \"cpu_ns_per_joint\": %s,\n    \"real_ns_per_joint\": %s},\n",
               ReferenceKernel::kJoints, json_spread(cpu).c_str(), json_spread(real).c_str());
  std::fprintf(f, "  \"benchmarks\": [");
  for (size_t i = 0; i < cases.size(); ++i) {
    const CaseResult& c = cases[i];
    std::fprintf(f, "%s\n    {\"name\": %s, \"clock\": %s", i ? "," : "", json_string(c.name).c_str(),
                 c.wall_clock ? "\"real\"" : "\"cpu\"");
    if (!c.error.empty()) {
      std::fprintf(f, ", \"error\": %s}", json_string(c.error).c_str());
      continue;
    }
    std::fprintf(f, ",\n     \"ns_per_iteration\": %s", json_series(c.time).c_str());
    std::fprintf(f, ",\n     \"counters\": {");
    bool first = true;
    for (const auto& [name, series] : c.counters) {
      std::fprintf(f, "%s\n       %s: %s", first ? "" : ",", json_string(name).c_str(), json_series(series).c_str());
      first = false;
    }
    std::fprintf(f, "}}");
  }
  std::fprintf(f, "\n  ]\n}\n");
  return std::fclose(f) == 0;
}

// One block of one case; false (and the error) when it did not run or reported an error.
bool case_block(const std::string& name, Capture& capture, benchmark::BenchmarkReporter::Run& run, std::string& error) {
  capture.runs.clear();
  benchmark::RunSpecifiedBenchmarks(&capture, exact_filter(name));
  if (capture.runs.size() != 1) {
    error = "expected one run of the exact name, got " + std::to_string(capture.runs.size());
    return false;
  }
  run = capture.runs.front();
  if (run.error_occurred) {
    error = run.error_message;
    return false;
  }
  return true;
}

}  // namespace

int paired_main(int argc, char** argv) {
  Options options;
  std::vector<char*> args;
  for (int i = 0; i < argc; ++i) {
    const char* a = argv[i];
    if (i > 0 && starts_with(a, "--paired_pairs=")) {
      options.pairs = std::atoi(a + std::strlen("--paired_pairs="));
      if (options.pairs < 1) {
        std::fprintf(stderr, "%s: --paired_pairs wants a count of at least 1\n", argv[0]);
        return 1;
      }
      continue;
    }
    if (i > 0 && starts_with(a, "--paired_out=")) {
      options.out = a + std::strlen("--paired_out=");
      continue;
    }
    if (i > 0 && starts_with(a, "--paired=")) {
      options.paired = std::strcmp(a + std::strlen("--paired="), "false") != 0;
      continue;
    }
    if (starts_with(a, "--benchmark_min_time=")) {
      options.block_seconds = std::atof(a + std::strlen("--benchmark_min_time="));
      options.has_min_time = true;
    }
    if (starts_with(a, "--benchmark_list_tests")) options.paired = false;
    args.push_back(argv[i]);
  }
  if (options.paired) {
    for (char* a : args) {
      // Every block would rewrite Google Benchmark's own output file, and repetitions are the pairs.
      if (starts_with(a, "--benchmark_out") || starts_with(a, "--benchmark_repetitions")) {
        std::fprintf(stderr, "%s: %s does not apply to the paired run: use --paired_out=FILE and "
                     "--paired_pairs=N, or --paired=false for Google Benchmark's own run\n", argv[0], a);
        return 1;
      }
    }
  }
  static char min_time_flag[] = "--benchmark_min_time=0.05";
  if (options.paired && !options.has_min_time) args.push_back(min_time_flag);
  int count = static_cast<int>(args.size());
  args.push_back(nullptr);
  benchmark::Initialize(&count, args.data());
  if (benchmark::ReportUnrecognizedArguments(count, args.data())) return 1;
  if (!options.paired) {
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
  }

  Reference reference;
  reference.kernel().run(1);
  const float kernel_error = reference.kernel().max_error_against_glm();
  if (!(kernel_error < 1e-4f)) {
    std::fprintf(stderr, "%s: the reference kernel disagrees with glm by %g\n", argv[0], static_cast<double>(kernel_error));
    return 1;
  }
  reference.calibrate(options.block_seconds);

  // Every selected case once, not counted: it names the cases (in registration order), warms
  // their caches and builds the fixtures they share.
  Capture capture;
  benchmark::RunSpecifiedBenchmarks(&capture);
  std::vector<CaseResult> cases;
  size_t width = 10;
  for (const auto& run : capture.runs) {
    CaseResult c;
    c.name = run.benchmark_name();
    c.wall_clock = timed_by_wall_clock(run);
    if (run.error_occurred) c.error = run.error_message;
    width = std::max(width, c.name.size());
    cases.push_back(c);
  }
  std::printf("%d pairs per case, blocks of %s s; ratios in Y, the reference kernel's ns per joint beside each "
              "block: median [min-max] of the pairs\n", options.pairs, format(options.block_seconds).c_str());
  std::fflush(stdout);

  // Round by round: every case's first pair, then every case's second... A slow spell of the
  // machine (another process on the sibling core, a neighbour's memory traffic) then touches a few
  // pairs of many cases rather than all pairs of one, and the median sets those few aside.
  std::vector<RefBlock> blocks{reference.block()};
  for (int pair = 0; pair < options.pairs; ++pair) {
    for (CaseResult& c : cases) {
      if (!c.error.empty()) continue;
      benchmark::BenchmarkReporter::Run run;
      const bool ran = case_block(c.name, capture, run, c.error);
      blocks.push_back(reference.block());
      if (!ran) continue;
      const RefBlock& before = blocks[blocks.size() - 2];
      const RefBlock& after = blocks.back();
      const double y = c.wall_clock ? 0.5 * (before.real_ns + after.real_ns) : 0.5 * (before.cpu_ns + after.cpu_ns);
      const double ns = run_ns(run);
      c.time.values.push_back(ns);
      c.time.ratios.push_back(ns / y);
      for (const auto& [name, counter] : run.counters) {
        // SetItemsProcessed's rate is the inverse of a time per item the ratios already give.
        if (name == "items_per_second" || name == "bytes_per_second") continue;
        Series& s = c.counters[name];
        s.values.push_back(counter.value);
        if (const double to_ns = counter_to_ns(name); to_ns > 0.0) s.ratios.push_back(counter.value * to_ns / y);
      }
    }
    std::fprintf(stderr, "\rpair %d of %d", pair + 1, options.pairs);
  }
  std::fprintf(stderr, "\n");
  for (const CaseResult& c : cases) print_case(c, width);

  std::vector<double> cpu, real;
  for (const RefBlock& r : blocks) {
    cpu.push_back(r.cpu_ns);
    real.push_back(r.real_ns);
  }
  const Spread y = spread(cpu), y_real = spread(real);
  std::printf("reference kernel: Y = %s ns per joint, CPU time (median of %zu blocks, %s-%s); wall clock %s (%s-%s)\n",
              format(y.median).c_str(), cpu.size(), format(y.min).c_str(), format(y.max).c_str(),
              format(y_real.median).c_str(), format(y_real.min).c_str(), format(y_real.max).c_str());
  int status = 0;
  if (!options.out.empty() && !write_json(options.out, argv[0], capture, options, blocks, cases)) {
    std::fprintf(stderr, "%s: cannot write %s\n", argv[0], options.out.c_str());
    status = 1;
  }
  benchmark::Shutdown();
  return status;  // a case's error is in its line and in the JSON, as Google Benchmark leaves it
}

}  // namespace asterune::bench
