#include "asterune/clip/easing.hpp"

#include <algorithm>
#include <cmath>

namespace asterune {

namespace {

// TweenService's curves in their EasingDirection.In form (docs/clips.md "Easing" cites them):
// f(0) = 0, f(1) = 1.
float cubic_in(float t) { return t * t * t; }

float elastic_in(float t) {
  if (t <= 0.0f) return 0.0f;
  if (t >= 1.0f) return 1.0f;
  constexpr double kC4 = 2.0 * 3.14159265358979323846 / 3.0;
  const double x = t;
  return static_cast<float>(-std::exp2(10.0 * x - 10.0) * std::sin((10.0 * x - 10.75) * kC4));
}

// Penner's bounce in its Out form (the In form is 1 - out(1 - t)).
float bounce_out(float t) {
  constexpr float n1 = 7.5625f, d1 = 2.75f;
  if (t < 1.0f / d1) return n1 * t * t;
  if (t < 2.0f / d1) {
    t -= 1.5f / d1;
    return n1 * t * t + 0.75f;
  }
  if (t < 2.5f / d1) {
    t -= 2.25f / d1;
    return n1 * t * t + 0.9375f;
  }
  t -= 2.625f / d1;
  return n1 * t * t + 0.984375f;
}

float bounce_in(float t) { return 1.0f - bounce_out(1.0f - t); }

// TweenService's Elastic InOut is not two halves of elastic_in: its sine has a period of 0.45
// (2 pi / 4.5 per unit of 20 t) where In and Out have 0.3 (2 pi / 3 per unit of 10 t).
float elastic_in_out(float t) {
  if (t <= 0.0f) return 0.0f;
  if (t >= 1.0f) return 1.0f;
  constexpr double kC5 = 2.0 * 3.14159265358979323846 / 4.5;
  const double x = t;
  if (x < 0.5) return static_cast<float>(-0.5 * std::exp2(20.0 * x - 10.0) * std::sin((20.0 * x - 11.125) * kC5));
  return static_cast<float>(1.0 + 0.5 * std::exp2(10.0 - 20.0 * x) * std::sin((20.0 * x - 11.125) * kC5));
}

using Curve = float (*)(float);

// TweenService's direction of an In-form curve: In = f(t); Out = 1 - f(1 - t);
// InOut = f(2t) / 2 for t < 0.5, else 1 - f(2 - 2t) / 2.
float tween(Curve in, int tween_direction, float t) {
  switch (tween_direction) {
    case 0: return in(t);
    case 1: return 1.0f - in(1.0f - t);
    default: return t < 0.5f ? 0.5f * in(2.0f * t) : 1.0f - 0.5f * in(2.0f - 2.0f * t);
  }
}

}  // namespace

bool is_easing_style(int token) { return token >= 0 && token <= 5; }
bool is_easing_direction(int token) { return token >= 0 && token <= 2; }

float ease(KeyEasing easing, float alpha) {
  const float t = alpha > 0.0f ? std::min(alpha, 1.0f) : 0.0f;  // NaN -> 0
  // Roblox's PoseEasingDirection is TweenService's backwards: Pose In = Tween Out, Pose Out =
  // Tween In, InOut = InOut. Legacy Cubic runs the other way round (Pose In = Tween In).
  int tween_direction = 2;
  if (easing.direction == EasingDirection::kIn) tween_direction = 1;
  else if (easing.direction == EasingDirection::kOut) tween_direction = 0;
  switch (easing.style) {
    case EasingStyle::kConstant: return 0.0f;
    case EasingStyle::kElastic: return tween_direction == 2 ? elastic_in_out(t) : tween(elastic_in, tween_direction, t);
    case EasingStyle::kBounce: return tween(bounce_in, tween_direction, t);
    case EasingStyle::kCubicV2: return tween(cubic_in, tween_direction, t);
    case EasingStyle::kCubic:
      return tween(cubic_in, tween_direction == 2 ? 2 : 1 - tween_direction, t);
    default: return t;
  }
}

}  // namespace asterune
