#include "io/label_mask.hpp"

#include <string>

#include "gvflab/error.hpp"

namespace gvflab::app {

LabelImage labelContours(int width, int height,
                         const std::vector<std::vector<std::array<double, 2>>>& contours,
                         const WorldGeometry& geometry) {
  if (contours.size() > 65535)
    throw ParameterError("A label image holds at most 65535 contours, not " +
                         std::to_string(contours.size()) + ".");
  LabelImage out(width, height);
  out.geometry = geometry;
  out.maxLabel = static_cast<int>(contours.size());
  for (std::size_t c = 0; c < contours.size(); ++c) {
    const auto inside = polygonInside(width, height, contours[c]);
    const auto label = static_cast<std::uint16_t>(c + 1);
    for (std::size_t i = 0; i < inside.size(); ++i)
      if (inside[i]) out.labels[i] = label;
  }
  return out;
}

LabelImage regionLabel(int width, int height, const std::vector<Point2i>& nodes,
                       const WorldGeometry& geometry) {
  LabelImage out(width, height);
  out.geometry = geometry;
  out.maxLabel = 1;
  // Nodes sit on pixel centres; the rule above is the region snake's own, so this is exactly
  // the target it counted (its report's n_target).
  std::vector<std::array<double, 2>> polygon;
  for (const auto& p : nodes) polygon.push_back({p.x + 0.5, p.y + 0.5});
  const auto inside = polygonInside(width, height, polygon);
  for (std::size_t i = 0; i < inside.size(); ++i) out.labels[i] = inside[i];
  return out;
}

}  // namespace gvflab::app
