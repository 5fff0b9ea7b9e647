#pragma once
// Contours as JSON, shared by every snake's --save-contours:
//   {"contours": [{"points": [[x, y], ...], "closed": true, ...}]}
// Pixel coordinates, origin at the top-left pixel's centre, x to the right, y down.
#include <array>
#include <filesystem>
#include <string>
#include <vector>

namespace gvflab::app {

struct ContourOut {
  std::vector<std::array<double, 2>> points;
  bool closed = true;
  std::string extraMembers;  // more JSON members, without braces: "\"nodes\": 12"
};

std::string contoursJson(const std::vector<ContourOut>& contours);
// Written atomically (temporary file + rename).
void writeContoursJson(const std::filesystem::path& path, const std::vector<ContourOut>& contours);

}  // namespace gvflab::app
