#pragma once
// The ends of a parametric snake (parametric_snake.hpp, "Open snakes"), apart so that the
// double references can name them without OpenCL.
#include <string>

namespace gvflab {

// A snake's ends (scikit-image's boundary_condition): closed, or open with each end free (moves
// with no elasticity or rigidity across it) or fixed (pinned). Free and Fixed apply to both
// ends; FreeFixed: the first node free, the last fixed.
enum class SnakeBoundary { Periodic, Free, Fixed, FreeFixed, FixedFree };
// "periodic" | "free" | "fixed" | "free-fixed" | "fixed-free"
const char* boundaryName(SnakeBoundary boundary);
// Throws ParameterError for any other name.
SnakeBoundary parseBoundary(const std::string& name);
inline bool isClosed(SnakeBoundary b) { return b == SnakeBoundary::Periodic; }
inline bool startFixed(SnakeBoundary b) {
  return b == SnakeBoundary::Fixed || b == SnakeBoundary::FixedFree;
}
inline bool endFixed(SnakeBoundary b) {
  return b == SnakeBoundary::Fixed || b == SnakeBoundary::FreeFixed;
}

}  // namespace gvflab
