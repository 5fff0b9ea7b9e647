#include "cli/contours_json.hpp"

#include <iomanip>
#include <sstream>

#include "gvflab/io.hpp"

namespace gvflab::app {

std::string contoursJson(const std::vector<ContourOut>& contours) {
  std::ostringstream j;
  j << std::setprecision(10) << "{\"contours\": [";
  for (std::size_t c = 0; c < contours.size(); ++c) {
    const auto& k = contours[c];
    j << (c ? ",\n  " : "\n  ") << "{\"points\": [";
    for (std::size_t i = 0; i < k.points.size(); ++i)
      j << (i ? ", " : "") << "[" << k.points[i][0] << ", " << k.points[i][1] << "]";
    j << "], \"closed\": " << (k.closed ? "true" : "false");
    if (!k.extraMembers.empty()) j << ", " << k.extraMembers;
    j << "}";
  }
  j << "\n]}\n";
  return j.str();
}

void writeContoursJson(const std::filesystem::path& path, const std::vector<ContourOut>& contours) {
  writeFileAtomically(path, contoursJson(contours));
}

}  // namespace gvflab::app
