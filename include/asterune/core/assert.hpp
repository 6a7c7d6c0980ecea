// ASTERUNE_ASSERT: states the invariant of a per-frame function's inputs (rule RG4), such as
// "local and world hold rig.joint_count() entries". It is compiled in only when ASTERUNE_ASSERTS
// is defined (the CMake option of the same name, meant for an engine's debug builds), and then
// aborts with the message. Otherwise it costs nothing and the function's documented release
// behaviour applies: it writes nothing and says so through its return value or report.
#pragma once

#if defined(ASTERUNE_ASSERTS)
#include <cstdio>
#include <cstdlib>
#define ASTERUNE_ASSERT(cond, message)                                                        \
  do {                                                                                          \
    if (!(cond)) {                                                                              \
      std::fprintf(stderr, "%s:%d: asterune invariant failed: %s (%s)\n", __FILE__, __LINE__, \
                   message, #cond);                                                             \
      std::abort();                                                                             \
    }                                                                                           \
  } while (false)
#else
#define ASTERUNE_ASSERT(cond, message) ((void)0)
#endif

/// Checks a per-frame precondition: asserts under ASTERUNE_ASSERTS, and in every build returns
/// `fail_value` from the enclosing function when `cond` is false (rule RG4).
#define ASTERUNE_EXPECT_OR_RETURN(cond, message, ...) \
  do {                                                \
    if (!(cond)) {                                    \
      ASTERUNE_ASSERT(cond, message);                 \
      return __VA_ARGS__;                             \
    }                                                 \
  } while (false)
