#pragma once
// The contours file written by --save-contours:
//   {"contours": [{"points": [[x, y], ...], "iterations": N, "converged": true|false}, ...]}
// Parametric snakes add "force" ("gvf"|"traditional"), "state" ("moving"|"converged"|
// "stalled", see SnakeState) and "initial_points" (the starting contour); "converged" is kept
// for older readers and is true only in the converged state.
// in image pixels, x to the right, y down, origin at the top-left corner of the image.
// Kept apart from the snakes so that every kind of snake (parametric, region) writes the same.
#include <array>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace gvflab::app {

struct ContourRecord {
  using Points = std::vector<std::array<double, 2>>;
  Points points;
  std::optional<Points> initialPoints;
  std::optional<std::string> force, state;
  long iterations = 0;
  bool converged = false;
  std::string extraMembers;  // more JSON members, without braces: "\"nodes\": 12"
};

std::string contoursJson(const std::vector<ContourRecord>& contours);
// Atomic write (temporary file and rename).
void writeContoursJson(const std::filesystem::path& path,
                       const std::vector<ContourRecord>& contours);

}  // namespace gvflab::app
