#include "io/contours_json.hpp"

#include <charconv>
#include <cstdlib>

#include "gvflab/io.hpp"

namespace gvflab::app {
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

std::string contoursJson(const std::vector<ContourRecord>& contours) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const auto& r : contours) {
    nlohmann::ordered_json c;
    c["points"] = floatPrecision(r.points);
    if (r.initialPoints) c["initial_points"] = floatPrecision(*r.initialPoints);
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
  return nlohmann::ordered_json{{"contours", std::move(list)}}.dump() + "\n";
}

void writeContoursJson(const std::filesystem::path& path,
                       const std::vector<ContourRecord>& contours) {
  writeFileAtomically(path, contoursJson(contours));
}

}  // namespace gvflab::app
