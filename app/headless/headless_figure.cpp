#include "headless/headless_figure.hpp"

#include <QGuiApplication>
#include <QSurfaceFormat>
#include <algorithm>
#include <filesystem>
#include <iostream>

#include "gvflab/error.hpp"
#include "gvflab/io.hpp"
#include "headless/headless.hpp"
#include "viewer/render/figure_renderer.hpp"
#include "viewer/window/gl_view.hpp"
#include "viewer/window/viewer_startup.hpp"

namespace gvflab::app {

viewer::FigureOptions figureOptionsFromOptions(const Options& o) {
  viewer::FigureOptions f;
  if (o.size) f.width = (*o.size)[0], f.height = (*o.size)[1];
  f.legend = o.legend;
  f.caption = o.caption;
  f.panels = o.screenshotPanels;
  return f;
}

std::array<int, 2> figureSize(const Options& o, int imageWidth, int imageHeight) {
  if (o.size) return *o.size;
  const int longSide = std::max({imageWidth, imageHeight, 1});
  const int factor = std::max(1, (512 + longSide - 1) / longSide);
  return {imageWidth * factor, imageHeight * factor};
}

int runHeadlessWithFigure(int argc, char** argv, const Options& o) {
  using namespace viewer;
  // Before any output: the folder is there and OpenGL can draw.
  const auto parent = std::filesystem::absolute(*o.screenshot).parent_path();
  if (!std::filesystem::is_directory(parent))
    throw ParameterError("--screenshot: the folder '" + parent.string() + "' does not exist.");
  QSurfaceFormat::setDefaultFormat(viewerSurfaceFormat());
  QGuiApplication app(argc, argv);
  { OffscreenTarget probe(16, 16); }
  const LayerSettings layers = layerSettingsFromOptions(o);
  const FigureOptions look = figureOptionsFromOptions(o);
  runHeadless(o, [&](const HeadlessOutcome& r) {
    const auto size = figureSize(o, r.solver.width(), r.solver.height());
    FigureRenderer figure(size[0], size[1], r.context.info());
    figure.setImage(r.image);
    QImage picture = figure.draw(r.context.queue(), r.solver.field(), r.solver.width(),
                                 r.solver.height(), layers, r.snakes, false, 0);
    FigureFacts facts;
    facts.layers = layers;
    facts.rangeMax = figure.rangeMax();
    facts.snakes = r.snakes;
    facts.iterations = r.solver.iterations();
    facts.mu = o.gvf.mu;
    facts.epsilon = r.solver.error();
    facts.solver = solverDisplayName(r.solver.name());
    facts.view = fittedView(r.image.width, r.image.height);  // the legend keeps off the snakes
    annotateFigure(picture, look, facts);
    viewer::writeFigurePng(*o.screenshot, picture);
    std::cout << "figure: " << *o.screenshot << " (" << size[0] << "x" << size[1]
              << (o.legend ? ", legend" : "") << (o.caption ? ", caption" : "") << ")\n";
  });
  return 0;
}

}  // namespace gvflab::app
