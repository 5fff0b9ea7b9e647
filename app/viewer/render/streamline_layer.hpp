#pragma once
// Draws streamlines of the field (see streamlines.hpp) as thin translucent polylines over the
// other layers. The lines are traced again only when the field or the spacing changed.
#include <vector>

#include "viewer/model/streamlines.hpp"
#include "viewer/render/gl_resources.hpp"
#include "viewer/render/renderer.hpp"

namespace gvflab::viewer {

class StreamlineLayer {
 public:
  StreamlineLayer();  // GL context current; throws DeviceError on shader errors

  // field: the host copy of the field (Presenter::hostField); fieldVersion says when it changed.
  void draw(const Viewport& viewport, const ViewTransform& view, const std::vector<float>& field,
            int width, int height, const LayerSettings& layers, long fieldVersion);
  std::size_t lineCount() const { return starts_.size(); }

 private:
  GlProgram program_;
  GlVertexArray vao_;
  GlBuffer vbo_;
  std::vector<GLint> starts_;
  std::vector<GLsizei> counts_;
  long tracedVersion_ = -1;
  float tracedSpacing_ = 0;
};

}  // namespace gvflab::viewer
