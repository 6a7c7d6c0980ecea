// The benchmarks' reference kernel: a plain scalar forward-kinematics walk,
// child = parent * C0 * T * inverse(C1), over a 60-joint tree of {quaternion, position}
// placements, every compose and the quaternion product written out inline (the computation of
// ../shared/perf/yardstick.cpp, in our own code and built with the project's flags). Its cost per
// joint, Y, timed in the same process alternately with each benchmark case, is the unit of the
// paired ratios that `make bench` reports (docs/performance.md, "How speed is measured").
#pragma once

#include <vector>

namespace asterune::bench {

class ReferenceKernel {
 public:
  static constexpr int kJoints = 60;

  /// Builds the tree: parents before children, C0 and T small random turns with offsets, every
  /// inverse(C1) a pure offset; the same seeded generator every time, so every program and every
  /// run walks the same tree.
  ReferenceKernel();

  /// Walks the whole tree `iterations` times; the world placements stay observable, so no walk is
  /// optimized away.
  void run(long iterations);

  /// The largest difference between the walk's world placements (quaternion components and
  /// positions) and the same placements composed with glm (a second formulation); a kernel that
  /// computes something else is not a reference. Valid after run().
  float max_error_against_glm() const;

  struct Quat {
    float x, y, z, w;
  };
  struct Placement {
    Quat q;
    float px, py, pz;
  };

 private:
  std::vector<int> parent_;
  std::vector<Placement> c0_, t_, c1_inverse_, world_;
  Placement root_{};
};

}  // namespace asterune::bench
