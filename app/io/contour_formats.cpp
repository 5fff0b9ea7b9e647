#include "io/contour_formats.hpp"

#include <charconv>

#include "gvflab/error.hpp"
#include "gvflab/io.hpp"

namespace gvflab::app {
namespace {

// Shortest text that reads back as the same double (no locale, unlike streams).
std::string num(double v) {
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

}  // namespace

const FileFormat& contourFormatOf(const std::filesystem::path& path) {
  return requireFormat(path, FormatRole::ContoursOutput,
                       "Cannot save contours to '" + path.string() + "'");
}

std::string contoursGeoJson(const std::vector<ContourRecord>& contours) {
  nlohmann::ordered_json features = nlohmann::ordered_json::array();
  for (const auto& r : contours) {
    const auto points = floatPrecision(r.points);
    auto ring = nlohmann::ordered_json(points);
    if (!r.closed()) {  // an open snake: a LineString, not closed
      features.push_back({{"type", "Feature"},
                          {"geometry", {{"type", "LineString"}, {"coordinates", ring}}},
                          {"properties",
                           {{"force", r.force},
                            {"state", contourState(r)},
                            {"iterations", r.iterations},
                            {"boundary", *r.openBoundary}}}});
      continue;
    }
    if (!points.empty() && points.front() != points.back()) ring.push_back(points.front());
    features.push_back(
        {{"type", "Feature"},
         {"geometry", {{"type", "Polygon"}, {"coordinates", {ring}}}},
         {"properties",
          {{"force", r.force}, {"state", contourState(r)}, {"iterations", r.iterations}}}});
  }
  return nlohmann::ordered_json{{"type", "FeatureCollection"}, {"features", features}}.dump() +
         "\n";
}

std::string contoursCsv(const std::vector<ContourRecord>& contours) {
  std::string out = "contour,force,state,iterations,point,x,y\n";
  for (std::size_t c = 0; c < contours.size(); ++c) {
    const auto& r = contours[c];
    const std::string head = std::to_string(c) + "," + r.force + "," + contourState(r) + "," +
                             std::to_string(r.iterations) + ",";
    const auto points = floatPrecision(r.points);
    for (std::size_t i = 0; i < points.size(); ++i)
      out += head + std::to_string(i) + "," + num(points[i][0]) + "," + num(points[i][1]) + "\n";
  }
  return out;
}

std::string contoursSvg(const std::vector<ContourRecord>& contours, int width, int height) {
  const std::string w = std::to_string(width), h = std::to_string(height);
  std::string out =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" +
      w + "\" height=\"" + h + "\" viewBox=\"0 0 " + w + " " + h + "\">\n";
  for (const auto& r : contours) {
    const auto points = floatPrecision(r.points);
    if (points.empty()) continue;
    std::string d;
    for (std::size_t i = 0; i < points.size(); ++i)
      d += (i ? " L " : "M ") + num(points[i][0]) + " " + num(points[i][1]);
    // Green once converged, orange while moving, as in the viewer.
    out += "  <path d=\"" + d + (r.closed() ? " Z" : "") + "\" fill=\"none\" stroke=\"" +
           (r.converged ? "#2ca02c" : "#ff7f0e") + "\" stroke-width=\"1\" data-force=\"" + r.force +
           "\" data-state=\"" + contourState(r) + "\" data-iterations=\"" +
           std::to_string(r.iterations) + "\"/>\n";
  }
  return out + "</svg>\n";
}

void writeContours(const std::filesystem::path& path, const std::vector<ContourRecord>& contours,
                   int width, int height) {
  contourFormatOf(path).writeContours(path, contours, width, height);
}

const char* contourFileFilter() {
  static const std::string filter = fileDialogFilter(
      static_cast<FormatRoles>(FormatRole::ContoursOutput), "Contours", /*eachFormat=*/true);
  return filter.c_str();
}

}  // namespace gvflab::app
