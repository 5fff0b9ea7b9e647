#include "viewer/render/streamline_layer.hpp"

namespace gvflab::viewer {

void StreamlineLayer::draw(const Viewport& viewport, const ViewTransform& view,
                           const std::vector<float>& field, int width, int height,
                           const LayerSettings& layers, long fieldVersion) {
  if (fieldVersion != tracedVersion_ || layers.streamlineSpacing != tracedSpacing_) {
    StreamlineParams params;
    params.spacing = layers.streamlineSpacing;
    auto lines = traceStreamlines(field, width, height, params);
    std::vector<glm::vec2> points;
    starts_.clear();
    counts_.clear();
    for (const auto& l : lines) {
      starts_.push_back(static_cast<GLint>(points.size()));
      counts_.push_back(static_cast<GLsizei>(l.size()));
      points.insert(points.end(), l.begin(), l.end());
    }
    lines_.upload(points, GL_DYNAMIC_DRAW);
    tracedVersion_ = fieldVersion;
    tracedSpacing_ = layers.streamlineSpacing;
  }
  if (starts_.empty()) return;
  lines_.begin(viewport, view);
  // Warm orange: distinct from the white arrows and from every colormap's middle.
  const float orange[4] = {1.0f, 0.62f, 0.25f, 0.8f};
  lines_.setStyle(orange);
  gl().glMultiDrawArrays(GL_LINE_STRIP, starts_.data(), counts_.data(),
                         static_cast<GLsizei>(starts_.size()));
  endOverlayDraw();
}

}  // namespace gvflab::viewer
