#pragma once
// Clean figures and video frames: what goes in one (size, legend, caption, panels) and the
// legend and caption painted onto the rendered picture with QPainter. The picture itself is
// drawn by the viewer's renderer (window/gl_view_figure.cpp, render/figure_renderer.hpp).
#include <QImage>
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "gvflab/parametric_snake.hpp"
#include "viewer/model/layer_settings.hpp"
#include "viewer/render/legend_placement.hpp"
#include "viewer/render/view_transform.hpp"

namespace gvflab::viewer {

struct FigureOptions {
  int width = 0, height = 0;  // 0: the view's own size
  bool legend = false;        // colour bar with round ticks, one entry per snake
  bool caption = false;       // iteration, mu, epsilon, solver, force of each snake
  bool panels = false;        // the whole window with its panels (size: the window's)
  bool composite = false;     // image | edge map | |V| | snakes at the width asked
};

// What the legend and caption say about the picture.
struct FigureFacts {
  LayerSettings layers;  // colormap, log scale, which layers are shown
  float rangeMax = 0;    // |V| at the top of the colour scale
  std::vector<SnakeContour> snakes;
  bool snakesWaiting = false;  // held until the field is ready: moving ones read "waiting"
  long iterations = 0;
  double mu = 0, epsilon = 0;
  std::string solver;  // "Euler", "multigrid"
  bool volume = false;
  // Where the image lies in the picture (without a viewSize: fitted to the picture's size):
  // the legend and caption keep off the snakes. None: the legend goes top right.
  std::optional<ViewTransform> view;
  Box content;  // the image's content (contentBox, image pixels): the legend keeps off it too
};
// The image fitted in the picture, as the headless figure and recording draw it.
ViewTransform fittedView(int imageWidth, int imageHeight);

// The facts of a live session (the viewer, headless recording).
class Session;
FigureFacts figureFacts(const Session& session, const std::vector<SnakeContour>& snakes,
                        const LayerSettings& layers, float rangeMax);
// "Euler" for the engine's "euler", other names as they are.
std::string solverDisplayName(const std::string& engineName);

struct LegendEntry {
  std::array<float, 4> color;
  std::string text;  // "GVF, converged, 480 it." or "GVF, converged: 12 snakes"
};
// One entry per snake; grouped by force and state (with counts) beyond maxEntries snakes.
std::vector<LegendEntry> snakeLegendEntries(const std::vector<SnakeContour>& snakes,
                                            std::size_t maxEntries = 6, bool waiting = false);
// "iteration 500 · μ 0.2 · ε 3.1e-05 · Euler · snakes: GVF converged, traditional stalled"
std::string figureCaption(const FigureFacts& facts);

// The PNG, atomically (a temporary file and a rename); throws ResourceError naming the file.
void writeFigurePng(const std::string& path, const QImage& image);

// Where annotateFigure put the legend and the caption band (empty: not drawn), picture pixels.
struct FigureLayout {
  Box legend, caption;
};
// Paints the legend and the caption (a band at the bottom, or at the top where the snakes
// reach the bottom) as asked; the legend goes where placeLegend finds room off the snakes
// (top right without facts.view). The image keeps its size. Fonts scale with the image height.
FigureLayout annotateFigure(QImage& image, const FigureOptions& options, const FigureFacts& facts);

}  // namespace gvflab::viewer
