// Counts heap allocations made by the current thread, to prove per-frame paths allocate
// nothing (rule RG1). The test binary replaces global operator new to count.
#pragma once

#include <cstddef>

namespace asterune::test {

/// Number of operator new calls on this thread since the program started.
std::size_t allocation_count();

/// Bytes requested by those calls, in all (frees not subtracted): an upper bound of the peak.
std::size_t allocated_bytes();

/// Counts allocations made inside a scope: `AllocationScope s; f(); REQUIRE(s.count() == 0);`
class AllocationScope {
 public:
  AllocationScope() : start_(allocation_count()) {}
  std::size_t count() const { return allocation_count() - start_; }

 private:
  std::size_t start_;
};

}  // namespace asterune::test
