#include "io/contours_json.hpp"

#include <charconv>
#include <cstdlib>

#include "gvflab/enum_names.hpp"
#include "gvflab/parametric_snake.hpp"

namespace gvflab::app {

namespace {
constexpr EnumNames<ContourCoordinates, 3> kCoordinates{
    {{ContourCoordinates::Pixel, "pixel"},
     {ContourCoordinates::PixelYUp, "pixel-y-up"},
     {ContourCoordinates::World, "world"}}};
}  // namespace

const char* coordinatesName(ContourCoordinates c) { return enumName(kCoordinates, c); }

ContourCoordinates parseCoordinates(const std::string& name) {
  return parseEnum(kCoordinates, name, "the coordinates");
}

namespace {

// The world z of the image's plane is 0 everywhere: points are [X, Y].
bool planeAtZeroZ(const WorldGeometry& g) {
  return g.origin[2] == 0.0 && g.direction[6] == 0.0 && g.direction[7] == 0.0;
}

}  // namespace

std::vector<std::vector<double>> canvasPoints(const ContourRecord::Points& points,
                                              const ContourCanvas& canvas) {
  std::vector<std::vector<double>> out;
  out.reserve(points.size());
  const WorldGeometry& g = canvas.geometry;
  const bool flat = planeAtZeroZ(g);
  for (const auto& p : floatPrecision(points)) {
    switch (canvas.coordinates) {
      case ContourCoordinates::Pixel:
        out.push_back({p[0], p[1]});
        break;
      case ContourCoordinates::PixelYUp:
        out.push_back({p[0], canvas.height - p[1]});
        break;
      case ContourCoordinates::World: {
        // Samples sit at pixel centres: index = point - 0.5 (world_geometry.hpp).
        const double i = (p[0] - 0.5) * g.spacing[0], j = (p[1] - 0.5) * g.spacing[1];
        std::vector<double> w(flat ? 2 : 3);
        for (std::size_t r = 0; r < w.size(); ++r)
          w[r] = g.origin[r] + g.direction[3 * r] * i + g.direction[3 * r + 1] * j;
        out.push_back(std::move(w));
        break;
      }
    }
  }
  return out;
}

nlohmann::ordered_json coordinatesDescription(const ContourCanvas& canvas) {
  nlohmann::ordered_json d;
  d["system"] = coordinatesName(canvas.coordinates);
  if (canvas.coordinates == ContourCoordinates::World) {
    const WorldGeometry& g = canvas.geometry;
    d["unit"] = "mm";
    d["space"] = "LPS";
    d["mapping"] =
        "origin + direction . diag(spacing) . (x - 0.5, y - 0.5, 0) for pixel "
        "coordinates (x, y), y down, origin at the image's top-left corner";
    d["geometry_known"] = g.known;  // false: the input had none (unit spacing, identity)
    d["origin"] = g.origin;
    d["spacing"] = g.spacing;
    d["direction"] = g.direction;
    d["dimensions"] = planeAtZeroZ(g) ? 2 : 3;
  } else {
    const bool up = canvas.coordinates == ContourCoordinates::PixelYUp;
    d["unit"] = "pixel";
    d["x"] = "right";
    d["y"] = up ? "up" : "down";
    d["origin"] = up ? "bottom-left corner of the image" : "top-left corner of the image";
    d["pixel_centre"] = std::string(up ? "(i + 0.5, height - j - 0.5)" : "(i + 0.5, j + 0.5)") +
                        " for pixel column i, row j";
  }
  d["width"] = canvas.width;
  d["height"] = canvas.height;
  return d;
}

std::vector<ContourRecord> contourRecords(const std::vector<SnakeContour>& contours) {
  std::vector<ContourRecord> records;
  for (const SnakeContour& c : contours) {
    ContourRecord r;
    for (const auto& p : c.points) r.points.push_back({p.x, p.y});
    r.initialPoints.emplace();
    for (const auto& p : c.initial) r.initialPoints->push_back({p.x, p.y});
    r.force = forceName(c.force);
    r.state = snakeStateName(c.state);
    r.iterations = c.iterations;
    r.converged = c.converged();
    if (!c.closed()) r.openBoundary = boundaryName(c.boundary);
    records.push_back(std::move(r));
  }
  return records;
}

std::string contourState(const ContourRecord& record) {
  if (record.state) return *record.state;
  return record.converged ? "converged" : "moving";
}

std::vector<std::array<double, 2>> floatPrecision(
    const std::vector<std::array<double, 2>>& points) {
  auto shortest = [](double v) {
    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof buf - 1, static_cast<float>(v));
    *r.ptr = '\0';
    return std::strtod(buf, nullptr);
  };
  std::vector<std::array<double, 2>> out;
  out.reserve(points.size());
  for (const auto& p : points) out.push_back({shortest(p[0]), shortest(p[1])});
  return out;
}

std::string contoursJson(const std::vector<ContourRecord>& contours, const ContourCanvas& canvas) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const auto& r : contours) {
    nlohmann::ordered_json c;
    c["points"] = canvasPoints(r.points, canvas);
    if (r.initialPoints) c["initial_points"] = canvasPoints(*r.initialPoints, canvas);
    if (r.state) {  // parametric snakes: their force and honest state
      c["force"] = r.force;
      c["state"] = *r.state;
    }
    if (r.openBoundary) {
      c["closed"] = false;
      c["boundary"] = *r.openBoundary;
    }
    c["iterations"] = r.iterations;
    c["converged"] = r.converged;
    c.update(r.extra);
    list.push_back(std::move(c));
  }
  return nlohmann::ordered_json{{"contours", std::move(list)},
                                {"coordinates", coordinatesDescription(canvas)}}
             .dump() +
         "\n";
}

}  // namespace gvflab::app
