#pragma once
// The contour record every kind of snake (parametric, region) hands to the contour writers,
// and gvflab's own contours file, written by --save-contours F.json:
//   {"contours": [{"points": [[x, y], ...], "iterations": N, "converged": true|false}, ...]}
// Parametric snakes add "force" ("gvf"|"traditional"), "state" ("moving"|"converged"|
// "stalled", see SnakeState) and "initial_points" (the starting contour); "converged" is kept
// for older readers and is true only in the converged state. Open snakes add "closed": false
// and "boundary" ("free" | "fixed" | "free-fixed" | "fixed-free"); closed contours say neither.
// in image pixels, x to the right, y down, origin at the top-left corner of the image.
#include <array>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace gvflab::app {

struct ContourRecord {
  using Points = std::vector<std::array<double, 2>>;
  Points points;
  std::optional<Points> initialPoints;  // parametric snakes: the starting contour
  std::optional<std::string> state;     // parametric snakes: moving | converged | stalled
  long iterations = 0;
  bool converged = false;
  std::string force;  // "gvf", "traditional" or "region"
  // An open snake's ends (parametric_snake.hpp): empty for a closed contour.
  std::optional<std::string> openBoundary;
  bool closed() const { return !openBoundary.has_value(); }
  nlohmann::ordered_json extra = nlohmann::ordered_json::object();  // more members: {"nodes": 12}
};

// The state written: the snake's own, else "converged" or "moving" from the flag.
std::string contourState(const ContourRecord& record);

// The points at the float precision the snakes have, as the shortest decimals that say so
// (48.000004, not 48.000003814697266), for every format's text.
std::vector<std::array<double, 2>> floatPrecision(const std::vector<std::array<double, 2>>& points);

std::string contoursJson(const std::vector<ContourRecord>& contours);
// Atomic write (temporary file and rename).
void writeContoursJson(const std::filesystem::path& path,
                       const std::vector<ContourRecord>& contours);

}  // namespace gvflab::app
