#include "io/contours_json.hpp"

#include "gvflab/io.hpp"

namespace gvflab::app {

const char* contourState(const ContourRecord& record) {
  return record.converged ? "converged" : "moving";
}

std::string contoursJson(const std::vector<ContourRecord>& contours) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const auto& r : contours) {
    nlohmann::ordered_json c;
    c["points"] = r.points;
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
