#pragma once
// The contour record every kind of snake (parametric, region) hands to the contour writers,
// and gvflab's own contours file, written by --save-contours F.json:
//   {"contours": [{"points": [[x, y], ...], "iterations": N, "converged": true|false}, ...]}
// Parametric snakes add "force" ("gvf"|"traditional"), "state" ("moving"|"converged"|
// "stalled", see SnakeState) and "initial_points" (the starting contour); "converged" is kept
// for older readers and is true only in the converged state. Open snakes add "closed": false
// and "boundary" ("free" | "fixed" | "free-fixed" | "fixed-free"); closed contours say neither.
// A member "coordinates" says how the points are given (coordinatesDescription below).
//
// Coordinates (--contour-coordinates, ContourCoordinates):
//   pixel        (default) image pixels, x to the right, y down, origin at the top-left corner
//                of the image: pixel (i, j) covers [i, i+1) x [j, j+1), its centre is
//                (i + 0.5, j + 0.5). The snakes' own coordinates.
//   pixel-y-up   the same with y up, origin at the bottom-left corner: (x, height - y).
//   world        the image's world geometry (gvflab/world_geometry.hpp, LPS millimetres):
//                origin + direction . diag(spacing) . (x - 0.5, y - 0.5, 0), pixel centres
//                being the samples; [X, Y] when the image's plane is z = 0, else [X, Y, Z].
#include <array>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "gvflab/image.hpp"

namespace gvflab {
struct SnakeContour;  // gvflab/parametric_snake.hpp
}

namespace gvflab::app {

enum class ContourCoordinates { Pixel, PixelYUp, World };
// "pixel", "pixel-y-up", "world".
const char* coordinatesName(ContourCoordinates c);
// From its name; throws ParameterError naming the choices.
ContourCoordinates parseCoordinates(const std::string& name);

// What the writers need beside the contours: the image's size, the coordinates to write them
// in, and the image itself (its geometry for world coordinates, its pixels for an SVG drawn
// over it).
struct ContourCanvas {
  ContourCanvas() = default;
  ContourCanvas(int w, int h, ContourCoordinates c = ContourCoordinates::Pixel,
                const WorldGeometry& g = {})
      : width(w), height(h), coordinates(c), geometry(g) {}

  int width = 0;
  int height = 0;
  ContourCoordinates coordinates = ContourCoordinates::Pixel;
  WorldGeometry geometry;               // world coordinates
  const Image2D* background = nullptr;  // SVG: drawn beneath the contours when set
};

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

// The parametric snakes' records (--save-contours and the viewer's File > Save contours alike):
// points, starting contour, force, state, iterations and an open snake's ends.
std::vector<ContourRecord> contourRecords(const std::vector<SnakeContour>& contours);

// The state written: the snake's own, else "converged" or "moving" from the flag.
std::string contourState(const ContourRecord& record);

// The points at the float precision the snakes have, as the shortest decimals that say so
// (48.000004, not 48.000003814697266), for every format's text.
std::vector<std::array<double, 2>> floatPrecision(const std::vector<std::array<double, 2>>& points);

// The points as written: at float precision (above), then in the canvas's coordinates; each
// point has 2 numbers, or 3 for world coordinates off the z = 0 plane.
std::vector<std::vector<double>> canvasPoints(const ContourRecord::Points& points,
                                              const ContourCanvas& canvas);
// The "coordinates" member of .json and .geojson ("gvflab:coordinates"): the system, its axes,
// origin and unit, and for world coordinates the geometry used.
nlohmann::ordered_json coordinatesDescription(const ContourCanvas& canvas);

std::string contoursJson(const std::vector<ContourRecord>& contours,
                         const ContourCanvas& canvas = {});

}  // namespace gvflab::app
