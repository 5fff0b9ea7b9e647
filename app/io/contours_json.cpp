#include "io/contours_json.hpp"

#include <iomanip>
#include <sstream>

#include "gvflab/io.hpp"

namespace gvflab::app {
namespace {
void writePoints(std::ostream& j, const ContourRecord::Points& points) {
  j << "[";
  for (std::size_t i = 0; i < points.size(); ++i)
    j << (i ? ", " : "") << "[" << points[i][0] << ", " << points[i][1] << "]";
  j << "]";
}
}  // namespace

std::string contoursJson(const std::vector<ContourRecord>& contours) {
  std::ostringstream j;
  j << std::setprecision(7) << "{\"contours\": [";
  for (std::size_t c = 0; c < contours.size(); ++c) {
    const auto& r = contours[c];
    j << (c ? ",\n  " : "\n  ") << "{\"points\": ";
    writePoints(j, r.points);
    if (r.initialPoints) {
      j << ", \"initial_points\": ";
      writePoints(j, *r.initialPoints);
    }
    if (r.force) j << ", \"force\": \"" << *r.force << "\"";
    if (r.state) j << ", \"state\": \"" << *r.state << "\"";
    j << ", \"iterations\": " << r.iterations
      << ", \"converged\": " << (r.converged ? "true" : "false");
    if (!r.extraMembers.empty()) j << ", " << r.extraMembers;
    j << "}";
  }
  j << (contours.empty() ? "]}\n" : "\n]}\n");
  return j.str();
}

void writeContoursJson(const std::filesystem::path& path,
                       const std::vector<ContourRecord>& contours) {
  writeFileAtomically(path, contoursJson(contours));
}

}  // namespace gvflab::app
