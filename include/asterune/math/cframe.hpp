// Roblox CFrame components and rotation matrices to and from Transform: the conversions the
// readers of Roblox files, glTF matrices and the built-in rigs' tables use at load time. Apart
// from math/transform.hpp so that the per-frame headers do not carry Result and <array>.
#pragma once

#include <array>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "asterune/core/result.hpp"
#include "asterune/math/transform.hpp"

namespace asterune {

/// Roblox CFrame:GetComponents() order: x, y, z, R00, R01, R02, R10, R11, R12, R20, R21, R22.
/// The rotation is row-major, its columns are the local X/Y/Z axes, and cf * v = R v + p.
using CFrameComponents = std::array<float, 12>;

CFrameComponents to_cframe(const Transform& t);
/// Fails (with the reason) on nonfinite values or a matrix that is not a rotation within
/// `tolerance` (orthonormal columns, determinant +1).
Result<Transform> from_cframe(const CFrameComponents& c, float tolerance = 1e-3f);

/// Column-major rotation matrix (glm convention: m[column][row]) to a unit quaternion.
/// Fails on nonfinite values, non-orthonormal columns or a reflection (det < 0).
Result<glm::quat> rotation_from_matrix(const glm::mat3& m, float tolerance = 1e-3f);

}  // namespace asterune
