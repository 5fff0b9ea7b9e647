#pragma once
// The papers' figure in one PNG (Xu & Prince, Figs. 1-3): the image, its edge map f, the field
// |V| with arrows, and the snakes (with their trails) over the image, side by side, each panel
// captioned in a strip beneath it. Drawn offscreen by the viewer's own renderer.
#include <QImage>
#include <QRect>
#include <string>
#include <vector>

#include "gvflab/cl.hpp"
#include "gvflab/device.hpp"
#include "gvflab/image.hpp"
#include "gvflab/parametric_snake.hpp"
#include "gvflab/snake_trails.hpp"
#include "viewer/model/layer_settings.hpp"

namespace gvflab::viewer {

// Four panels in a row over a caption strip each. width x height is the whole picture.
struct CompositeLayout {
  static constexpr int kPanels = 4;
  int width = 0, height = 0;
  int panelWidth = 0, panelHeight = 0, strip = 0;
  QRect panel(int i) const { return {i * panelWidth, 0, panelWidth, panelHeight}; }
  QRect caption(int i) const { return {i * panelWidth, panelHeight, panelWidth, strip}; }
};
// The layout of a width x height composite (the strip scales with the height). Throws
// ParameterError when a panel would be under 16 px.
CompositeLayout compositeLayout(int width, int height);
// The default size for an image: panels of the image scaled by a whole factor to at least
// 256 px on its long side, plus the strip.
std::array<int, 2> compositeSize(int imageWidth, int imageHeight);

// A composite width pixels wide for an image: the panels keep the image's aspect.
std::array<int, 2> compositeSizeForWidth(int width, int imageWidth, int imageHeight);

struct CompositeParts {
  const Image2D* image = nullptr;
  const Image2D* edgeMap = nullptr;   // f, in [0, 1]
  const cl::Buffer* field = nullptr;  // float2 per pixel, the image's size
  const std::vector<SnakeContour>* snakes = nullptr;
  const std::vector<SnakeTrail>* trails = nullptr;
  LayerSettings layers;  // the |V| panel's colormap and arrows
  // Under each panel, in order: image, edge map, field, snakes.
  std::array<std::string, CompositeLayout::kPanels> captions;
};

// The default captions: "(a) image", "(b) edge map f (sigma 1)", "(c) GVF |V| and direction
// (multigrid, error 8e-07)", "(d) snakes: GVF converged, grad f stalled".
std::array<std::string, CompositeLayout::kPanels> compositeCaptions(
    double sigma, const std::string& solver, double error, const std::vector<SnakeContour>& snakes);

// Throws DeviceError when there is no OpenGL 3.3 (no X server). Makes its own GL context:
// callers with a current one make it current again afterwards.
QImage drawComposite(int width, int height, const DeviceInfo& device, cl::CommandQueue& queue,
                     const CompositeParts& parts);

// The viewer's composite (Figure dialog): the plane shown, its edge map and field, the snakes.
class Session;
class SnakeSession;
QImage sessionComposite(Session& session, const SnakeSession& snakes, const LayerSettings& layers,
                        int width);

}  // namespace gvflab::viewer
