#pragma once
// Draws the snakes over the field layers: each contour as a closed polyline with node dots,
// lines coloured by force (snake_palette.hpp) over a dark outline that reads on every colormap,
// the nodes of stopped snakes by state, the contour being drawn by hand, and the capture-range
// overlay. GL objects are made once; the vertex buffer is refilled per frame.
#include <array>
#include <glm/vec2.hpp>
#include <vector>

#include "gvflab/parametric_snake.hpp"
#include "gvflab/snake_trails.hpp"
#include "io/snake_palette.hpp"
#include "viewer/render/gl_resources.hpp"
#include "viewer/render/layer.hpp"
#include "viewer/render/view_transform.hpp"

namespace gvflab::viewer {

struct SnakeDrawing {
  const std::vector<SnakeContour>* contours = nullptr;
  std::vector<glm::vec2> draft;  // the polygon or circle being placed (open polyline)
  bool showNodes = true;
  int highlightId = 0;  // snake under the mouse (0: none)
  int selectedId = 0;   // the panel's snake: larger nodes, always shown
  // Earlier shapes of each snake (trails), drawn thin and faded under the snakes; null: none.
  const std::vector<SnakeTrail>* trails = nullptr;
};

// What LayerFrame::snakes points to: the snakes and the capture-range overlay of a picture.
struct SnakeScene {
  SnakeDrawing drawing;
  bool showCapture = false;
  float captureOpacity = 0.45f;
  const std::vector<unsigned char>* captureRgba = nullptr;  // RGBA8; null: none
  int captureWidth = 0, captureHeight = 0;
  long captureVersion = -1;  // uploaded again when it changes
};

// Twins on one outline stay apart (issue 39, the coins demo): a GVF line is wider than a
// grad-f line and drawn first, so a grad-f twin on top of it shows as a cyan core in a
// magenta band. Screen pixels either side of the contour.
float snakeLineHalfWidth(SnakeForce force);
// A snake's line: its force's colour at snakeLineHalfWidth, but a collapsed snake (a dot, or a
// strip folded onto an edge: a capture-range seed) outlines nothing: thin and in the collapsed
// state's grey, so it never reads as an outline. Its nodes keep the force's colour around.
struct SnakeLine {
  SnakeRgba color;
  float halfWidth;
};
SnakeLine snakeLine(const SnakeContour& contour);
// The order the lines are drawn in: every GVF snake, then every grad-f snake (indices).
std::vector<std::size_t> snakeDrawOrder(const std::vector<SnakeContour>& contours);

// The colour a snake is drawn in (and listed in figure legends with): its force's.
std::array<float, 4> snakeColor(const SnakeContour& contour);

// A polyline widened to a band of halfWidth on each side (mitred joins, clamped at sharp
// corners), as GL_TRIANGLE_STRIP vertices; closed: the band runs back to the first point.
std::vector<glm::vec2> thickLineStrip(const std::vector<glm::vec2>& points, bool closed,
                                      float halfWidth);

class SnakeLayer : public Layer {
 public:
  static LayerInfo info() { return {"snakes", LayerPass::Overlay}; }  // always on
  bool ready(const LayerFrame& frame) const override { return frame.snakes != nullptr; }
  void draw(const LayerFrame& frame) override;  // *frame.snakes

  // RGBA8 width x height; reallocates only when the size changes.
  void setCapture(const std::vector<unsigned char>& rgba, int width, int height);
  void draw(const Viewport& viewport, const ViewTransform& view, const SnakeDrawing& snakes,
            bool showCapture, float captureOpacity);

 private:
  LineProgram lines_;  // GL context current; throws DeviceError on shader errors
  ImageQuad capture_{"capture.frag.glsl"};
  GlTexture captureTexture_ = makeTexture(GL_NEAREST);
  int captureWidth_ = 0, captureHeight_ = 0;
  long captureVersion_ = -1;  // of the scene's capture in captureTexture_
};

}  // namespace gvflab::viewer
