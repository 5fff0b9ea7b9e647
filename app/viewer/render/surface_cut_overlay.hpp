#pragma once
// On the slice view: each 3D surface's cut with the slice shown (model/surface_cut.hpp's
// segments) as lines in its force's colour over a dark band, as the 2D snakes are drawn, and
// the circle of a surface being placed.
#include <glm/vec2.hpp>
#include <vector>

#include "gvflab/parametric_snake.hpp"
#include "viewer/render/layer.hpp"
#include "viewer/render/view_transform.hpp"

namespace gvflab::viewer {

struct SurfaceCut {
  std::vector<glm::vec2> segments;  // pairs of ends, image pixels
  SnakeForce force = SnakeForce::Gvf;
  bool selected = false;
};

class SurfaceCutOverlay {
 public:
  void draw(const Viewport& viewport, const ViewTransform& view,
            const std::vector<SurfaceCut>& cuts, const std::vector<glm::vec2>& draft);

 private:
  void drawQuads(const std::vector<glm::vec2>& segments, float halfWidth, const float color[4]);
  LineProgram lines_;  // GL context current
};

}  // namespace gvflab::viewer
