#pragma once
// Headless pictures (--record, --screenshot with --headless): the viewer's renderer and its
// layers (render/layer_registry.cpp, both passes) drawing into an OffscreenTarget of the asked
// size, the field brought from OpenCL by a Presenter. One per run; made before any output so a
// missing display fails first.
#include <QImage>
#include <vector>

#include "gvflab/cl.hpp"
#include "gvflab/device.hpp"
#include "gvflab/image.hpp"
#include "gvflab/parametric_snake.hpp"
#include "gvflab/snake_trails.hpp"
#include "viewer/model/layer_settings.hpp"
#include "viewer/render/offscreen_target.hpp"
#include "viewer/render/presenter.hpp"
#include "viewer/render/renderer.hpp"

namespace gvflab::viewer {

class FigureRenderer {
 public:
  // Throws DeviceError with a sentence when there is no OpenGL 3.3 (no X server).
  FigureRenderer(int width, int height, const DeviceInfo& device);

  void setImage(const Image2D& image);  // the picture under the field layers, fitted
  void setCapture(const std::vector<unsigned char>& rgba, int width, int height);
  // Draws the layers of field (float2 per pixel, fieldWidth x fieldHeight), the snakes (over
  // their trails, if any) and the capture overlay when asked, and returns the picture (RGB888,
  // top row first).
  QImage draw(cl::CommandQueue& queue, const cl::Buffer& field, int fieldWidth, int fieldHeight,
              const LayerSettings& layers, const std::vector<SnakeContour>& snakes,
              bool showCapture, long fieldVersion, const std::vector<SnakeTrail>* trails = nullptr);
  float rangeMax() const { return rangeMax_; }  // of the last draw: the legend's top
  // Node dots (their state's colour inside); off, a small panel shows the force colours.
  void setShowNodes(bool show) { showNodes_ = show; }
  int width() const { return target_.width(); }
  int height() const { return target_.height(); }

 private:
  OffscreenTarget target_;
  Renderer renderer_;
  Presenter presenter_;
  std::vector<unsigned char> capture_;  // RGBA8, setCapture's
  int captureWidth_ = 0, captureHeight_ = 0;
  long captureVersion_ = -1;
  ViewTransform view_;
  float rangeMax_ = 0;
  bool showNodes_ = true;
};

}  // namespace gvflab::viewer
