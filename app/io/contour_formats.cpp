#include "io/contour_formats.hpp"

#include <QBuffer>
#include <QByteArray>
#include <QImage>
#include <QString>
#include <algorithm>
#include <charconv>
#include <cmath>

#include "gvflab/error.hpp"
#include "gvflab/parametric_snake.hpp"
#include "gvflab/quoted.hpp"
#include "io/snake_palette.hpp"

namespace gvflab::app {
namespace {

// Shortest text that reads back as the same double (no locale, unlike streams).
std::string num(double v) {
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

// The viewer's colour and name of a record's force (io/snake_palette.hpp).
struct ForceStyle {
  std::string colour;
  std::string label;
};
ForceStyle forceStyle(const std::string& force) {
  for (SnakeForce f : kSnakeForces)
    if (force == forceName(f)) return {hexColor(forceColor(f)), forceLabel(f)};
  if (force == "region") return {hexColor(regionColor()), "region"};
  return {"#b8bccc", force.empty() ? "contour" : force};
}

// The image as an 8-bit grey PNG in base64, for an SVG <image>.
std::string pngBase64(const Image2D& image) {
  QImage grey(image.width, image.height, QImage::Format_Grayscale8);
  for (int y = 0; y < image.height; ++y) {
    uchar* row = grey.scanLine(y);
    for (int x = 0; x < image.width; ++x)
      row[x] = static_cast<uchar>(std::lround(std::clamp(image.at(x, y), 0.0f, 1.0f) * 255.0f));
  }
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  if (!grey.save(&buffer, "PNG"))
    throw InputError("Cannot encode the image beneath the SVG contours as PNG.");
  return bytes.toBase64().toStdString();
}

// &, <, > and " as XML entities (Qt's HTML escape is exactly these four).
std::string escapeXml(const std::string& s) {
  return QString::fromStdString(s).toHtmlEscaped().toStdString();
}

// One entry per force drawn, in the order they first appear: a line of its colour and its name.
std::string svgLegend(const std::vector<ContourRecord>& contours, int width, int height) {
  std::vector<ForceStyle> entries;
  for (const auto& r : contours) {
    if (r.points.empty()) continue;
    ForceStyle s = forceStyle(r.force);
    if (std::none_of(entries.begin(), entries.end(),
                     [&](const ForceStyle& e) { return e.label == s.label; }))
      entries.push_back(std::move(s));
  }
  if (entries.empty()) return "";
  // Readable at the image's own size, from thumbnails to large images.
  // Hundredths of a pixel are plenty for its layout, and read better than 26.799999999999997.
  const auto r = [](double v) { return std::round(v * 100) / 100; };
  const double font = r(std::clamp(std::max(width, height) / 40.0, 4.0, 24.0));
  const double pad = r(font / 2), line = r(font * 1.4), sample = r(font * 1.6);
  std::size_t longest = 0;
  for (const auto& e : entries) longest = std::max(longest, e.label.size());
  const double boxW = r(pad * 3 + sample + font * 0.6 * static_cast<double>(longest));
  const double boxH = r(pad * 2 + line * static_cast<double>(entries.size()));
  std::string out = "  <g class=\"legend\" font-family=\"sans-serif\" font-size=\"" + num(font) +
                    "\">\n    <rect x=\"" + num(pad) + "\" y=\"" + num(pad) + "\" width=\"" +
                    num(boxW) + "\" height=\"" + num(boxH) +
                    "\" fill=\"#000000\" fill-opacity=\"0.55\"/>\n";
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const double y = r(pad * 2 + line * (static_cast<double>(i) + 0.5));
    out += "    <line x1=\"" + num(pad * 2) + "\" y1=\"" + num(y) + "\" x2=\"" +
           num(r(pad * 2 + sample)) + "\" y2=\"" + num(y) + "\" stroke=\"" + entries[i].colour +
           "\" stroke-width=\"" + num(r(font / 4)) + "\"/>\n    <text x=\"" +
           num(r(pad * 3 + sample)) + "\" y=\"" + num(y) +
           "\" dominant-baseline=\"central\" "
           "fill=\"#ffffff\">" +
           escapeXml(entries[i].label) + "</text>\n";
  }
  return out + "  </g>\n";
}

}  // namespace

const FileFormat& contourFormatOf(const std::filesystem::path& path) {
  return requireFormat(path, FormatRole::ContoursOutput, "Cannot save contours to " + quoted(path));
}

std::string contoursGeoJson(const std::vector<ContourRecord>& contours,
                            const ContourCanvas& canvas) {
  nlohmann::ordered_json features = nlohmann::ordered_json::array();
  for (const auto& r : contours) {
    const auto points = canvasPoints(r.points, canvas);
    auto ring = nlohmann::ordered_json(points);
    nlohmann::ordered_json geometry = {{"type", "LineString"}, {"coordinates", ring}};
    nlohmann::ordered_json properties = {
        {"force", r.force}, {"state", contourState(r)}, {"iterations", r.iterations}};
    if (r.closed()) {
      if (!points.empty() && points.front() != points.back()) ring.push_back(points.front());
      geometry = {{"type", "Polygon"}, {"coordinates", {ring}}};
    } else {  // an open snake: a LineString, not closed
      properties["boundary"] = *r.openBoundary;
    }
    features.push_back({{"type", "Feature"}, {"geometry", geometry}, {"properties", properties}});
  }
  // RFC 7946 coordinates are WGS 84; these are not, so the file says what they are.
  return nlohmann::ordered_json{{"type", "FeatureCollection"},
                                {"gvflab:coordinates", coordinatesDescription(canvas)},
                                {"features", features}}
             .dump() +
         "\n";
}

std::string contoursCsv(const std::vector<ContourRecord>& contours, const ContourCanvas& canvas) {
  std::vector<std::vector<std::vector<double>>> all;
  bool withZ = false;
  for (const auto& r : contours) {
    all.push_back(canvasPoints(r.points, canvas));
    for (const auto& p : all.back()) withZ = withZ || p.size() > 2;
  }
  std::string out = withZ ? "contour,force,state,iterations,point,x,y,z\n"
                          : "contour,force,state,iterations,point,x,y\n";
  for (std::size_t c = 0; c < contours.size(); ++c) {
    const auto& r = contours[c];
    const std::string head = std::to_string(c) + "," + r.force + "," + contourState(r) + "," +
                             std::to_string(r.iterations) + ",";
    const auto& points = all[c];
    for (std::size_t i = 0; i < points.size(); ++i) {
      out += head + std::to_string(i);
      for (double v : points[i]) out += "," + num(v);
      out += "\n";
    }
  }
  return out;
}

std::string contoursSvg(const std::vector<ContourRecord>& contours, const ContourCanvas& canvas) {
  const std::string w = std::to_string(canvas.width), h = std::to_string(canvas.height);
  std::string out =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" "
      "width=\"" +
      w + "\" height=\"" + h + "\" viewBox=\"0 0 " + w + " " + h + "\">\n";
  if (canvas.background) {
    // One unit a pixel: pixel (i, j) covers [i, i+1) x [j, j+1), as the contours' coordinates.
    out += "  <image x=\"0\" y=\"0\" width=\"" + w + "\" height=\"" + h +
           "\" preserveAspectRatio=\"none\" style=\"image-rendering:pixelated\" "
           "xlink:href=\"data:image/png;base64," +
           pngBase64(*canvas.background) + "\"/>\n";
  }
  for (const auto& r : contours) {
    const auto points = floatPrecision(r.points);  // pixels whatever canvas.coordinates says
    if (points.empty()) continue;
    std::string d;
    for (std::size_t i = 0; i < points.size(); ++i)
      d += (i ? " L " : "M ") + num(points[i][0]) + " " + num(points[i][1]);
    // The force's colour, as in the viewer; the state is in data-state.
    out += "  <path d=\"" + d + (r.closed() ? " Z" : "") + "\" fill=\"none\" stroke=\"" +
           forceStyle(r.force).colour + "\" stroke-width=\"1\" data-force=\"" + escapeXml(r.force) +
           "\" data-state=\"" + contourState(r) + "\" data-iterations=\"" +
           std::to_string(r.iterations) + "\"/>\n";
  }
  out += svgLegend(contours, canvas.width, canvas.height);
  return out + "</svg>\n";
}

void writeContours(const std::filesystem::path& path, const std::vector<ContourRecord>& contours,
                   const ContourCanvas& canvas) {
  contourFormatOf(path).writeContours(path, contours, canvas);
}

const char* contourFileFilter() {
  static const std::string filter = fileDialogFilter(
      static_cast<FormatRoles>(FormatRole::ContoursOutput), "Contours", /*eachFormat=*/true);
  return filter.c_str();
}

}  // namespace gvflab::app
