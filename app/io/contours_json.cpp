#include "io/contours_json.hpp"

#include <iomanip>
#include <sstream>

#include "gvflab/io.hpp"

namespace gvflab::app {

std::string contoursJson(const std::vector<ContourRecord>& contours) {
  std::ostringstream j;
  j << std::setprecision(7) << "{\"contours\": [";
  for (std::size_t c = 0; c < contours.size(); ++c) {
    const auto& r = contours[c];
    j << (c ? ",\n  " : "\n  ") << "{\"points\": [";
    for (std::size_t i = 0; i < r.points.size(); ++i)
      j << (i ? ", " : "") << "[" << r.points[i][0] << ", " << r.points[i][1] << "]";
    j << "], \"iterations\": " << r.iterations
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
