// FunctionRef: a non-owning reference to a callable, for passing a body to a caller-supplied
// loop (e.g. an engine's parallel-for) without std::function's possible heap allocation.
// It stores a pointer to the callable and one to a trampoline; the callable must outlive it.
#pragma once

#include <memory>
#include <type_traits>
#include <utility>

namespace asterune {

template <class Signature>
class FunctionRef;

/// Refers to (does not own) any callable with the given signature. Copying is two pointers;
/// calling is one indirect call. Never allocates, never throws by itself.
template <class R, class... Args>
class FunctionRef<R(Args...)> {
 public:
  template <class F, class = std::enable_if_t<!std::is_same_v<std::decay_t<F>, FunctionRef> &&
                                              std::is_invocable_r_v<R, F&, Args...>>>
  FunctionRef(F&& f) noexcept  // NOLINT(google-explicit-constructor): implicit like std::function
      : object_(const_cast<void*>(static_cast<const void*>(std::addressof(f)))),
        call_([](void* object, Args... args) -> R {
          return (*static_cast<std::add_pointer_t<std::remove_reference_t<F>>>(object))(std::forward<Args>(args)...);
        }) {}

  R operator()(Args... args) const { return call_(object_, std::forward<Args>(args)...); }

 private:
  void* object_;
  R (*call_)(void*, Args...);
};

}  // namespace asterune
