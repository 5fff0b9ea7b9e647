#include "viewer/render/streamline_layer.hpp"

namespace gvflab::viewer {

StreamlineLayer::StreamlineLayer()
    : program_(makeProgram("snake.vert.glsl", "snake.frag.glsl")),
      vao_(makeVertexArray()),
      vbo_(makeBuffer()) {
  setVec2Attribute(vao_, vbo_);
}

void StreamlineLayer::draw(const Viewport& viewport, const ViewTransform& view,
                           const std::vector<float>& field, int width, int height,
                           const LayerSettings& layers, long fieldVersion) {
  auto& f = gl();
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
    f.glBindBuffer(GL_ARRAY_BUFFER, vbo_.id());
    f.glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(points.size() * sizeof(glm::vec2)),
                   points.data(), GL_DYNAMIC_DRAW);
    f.glBindBuffer(GL_ARRAY_BUFFER, 0);
    tracedVersion_ = fieldVersion;
    tracedSpacing_ = layers.streamlineSpacing;
  }
  if (starts_.empty()) return;
  beginOverlayDraw(viewport);
  GLuint p = program_.id();
  f.glUseProgram(p);
  setImageToNdc(p, view);
  f.glUniform1f(uniformAt(p, "uPointSize"), 1.0f);
  f.glUniform1i(uniformAt(p, "uRound"), 0);
  // Warm orange: distinct from the white arrows and from every colormap's middle.
  f.glUniform4f(uniformAt(p, "uColor"), 1.0f, 0.62f, 0.25f, 0.8f);
  f.glBindVertexArray(vao_.id());
  f.glMultiDrawArrays(GL_LINE_STRIP, starts_.data(), counts_.data(),
                      static_cast<GLsizei>(starts_.size()));
  endOverlayDraw();
}

}  // namespace gvflab::viewer
