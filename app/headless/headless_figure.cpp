#include "headless/headless_figure.hpp"

#include <QGuiApplication>
#include <QSurfaceFormat>
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <optional>

#include "gvflab/error.hpp"
#include "gvflab/gvf_input.hpp"
#include "gvflab/quoted.hpp"
#include "headless/forces_figure.hpp"
#include "headless/headless.hpp"
#include "viewer/render/composite_figure.hpp"
#include "viewer/render/figure_renderer.hpp"
#include "viewer/render/surface_format.hpp"
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

namespace {

// The figure's size: --size, else the image scaled by a whole factor to >= 512 px on its long
// side (one image pixel stays a square block of pixels).
std::array<int, 2> figureSize(const Options& o, int imageWidth, int imageHeight) {
  if (o.size) return *o.size;
  const int longSide = std::max({imageWidth, imageHeight, 1});
  const int factor = std::max(1, (512 + longSide - 1) / longSide);
  return {imageWidth * factor, imageHeight * factor};
}

// --composite: image, edge map, |V| with arrows and snakes side by side, captioned.
void writeComposite(const Options& o, const viewer::LayerSettings& layers,
                    const HeadlessOutcome& r) {
  using namespace viewer;
  if (o.compositeForces) {
    const auto size = o.size ? *o.size : std::array<int, 2>{1024, 768};
    writeFigurePng(*o.composite, drawForcesComposite(o, layers, r, size));
    std::cout << "composite: " << *o.composite << " (" << size[0] << "x" << size[1]
              << ", forces)\n";
    return;
  }
  const auto size = o.size ? *o.size : compositeSize(r.image.width, r.image.height);
  const Image2D edge = readEdgeMap(r.context, r.input);
  CompositeParts parts;
  parts.image = &r.image;
  parts.edgeMap = &edge;
  parts.field = &r.solver.field();
  parts.snakes = &r.snakes;
  parts.trails = &r.trails;
  parts.layers = layers;
  parts.captions =
      compositeCaptions(r.sigma, solverDisplayName(r.solver.name()), r.solver.error(), r.snakes);
  const QImage picture =
      drawComposite(size[0], size[1], r.context.info(), r.context.queue(), parts);
  writeFigurePng(*o.composite, picture);
  std::cout << "composite: " << *o.composite << " (" << size[0] << "x" << size[1] << ")\n";
}

}  // namespace

// Qt aborts (rc 134) when it cannot reach a display; say what to do instead, before Qt starts.
void checkDisplay() {
  const char* platform = std::getenv("QT_QPA_PLATFORM");
  if (platform && *platform && std::string(platform).rfind("xcb", 0) != 0 &&
      std::string(platform).rfind("wayland", 0) != 0)
    return;  // the user chose a platform (offscreen, eglfs, ...): Qt reports on it
  const char* wayland = std::getenv("WAYLAND_DISPLAY");
  if (wayland && *wayland && (!platform || std::string(platform).rfind("wayland", 0) == 0)) return;
  const char* display = std::getenv("DISPLAY");
  const std::string hint =
      "; headless --record, --screenshot and --composite draw with OpenGL offscreen and need an "
      "X server: run them under Xvfb, e.g. xvfb-run -a gvflab --headless ... --record OUT.mp4";
  if (!display || !*display) throw DeviceError("No display (DISPLAY is not set)" + hint + ".");
  // A local display ":N" or ":N.S" has its socket in /tmp/.X11-unix.
  const std::string d = display;
  if (d[0] == ':') {
    const std::string number = d.substr(1, d.find('.') - 1);
    std::error_code ec;
    if (!std::filesystem::exists("/tmp/.X11-unix/X" + number, ec))
      throw DeviceError("No X server answers on DISPLAY '" + d + "'" + hint + ".");
  }
}

int runHeadlessWithFigure(int argc, char** argv, const Options& o) {
  using namespace viewer;
  // Before any output: the folders are there (OpenGL, once the input is checked: openGl).
  for (const auto* path : {&o.screenshot, &o.composite}) {
    if (!*path) continue;
    const auto parent = std::filesystem::absolute(**path).parent_path();
    if (!std::filesystem::is_directory(parent))
      throw ParameterError(std::string(path == &o.screenshot ? "--screenshot" : "--composite") +
                           ": the folder " + quoted(parent) + " does not exist.");
  }
  if (o.composite && o.size && !o.compositeForces)
    compositeLayout((*o.size)[0], (*o.size)[1]);  // panels fit
  const LayerSettings layers = layerSettingsFromOptions(o);
  const FigureOptions look = figureOptionsFromOptions(o);
  std::optional<QGuiApplication> app;  // once the input is checked: a missing file is named first
  const auto openGl = [&] {
    checkDisplay();
    QSurfaceFormat::setDefaultFormat(viewerSurfaceFormat());
    app.emplace(argc, argv);
    OffscreenTarget probe(16, 16);
  };
  runHeadless(
      o,
      [&](const HeadlessOutcome& r, HeadlessFigure kind) {
        if (kind == HeadlessFigure::Composite) return writeComposite(o, layers, r);
        const auto size = figureSize(o, r.solver.width(), r.solver.height());
        FigureRenderer figure(size[0], size[1], r.context.info());
        figure.setImage(r.image);
        QImage picture = figure.draw(r.context.queue(), r.solver.field(), r.solver.width(),
                                     r.solver.height(), layers, r.snakes, false, 0, &r.trails);
        FigureFacts facts;
        facts.layers = layers;
        facts.rangeMax = figure.rangeMax();
        facts.snakes = r.snakes;
        facts.iterations = r.solver.iterations();
        facts.mu = o.gvf.mu;
        facts.epsilon = r.solver.error();
        facts.solver = solverDisplayName(r.solver.name());
        facts.view = fittedView(r.image.width, r.image.height);  // the legend keeps off the snakes
        facts.content = contentBox(r.image);                     // ... and the image's content
        annotateFigure(picture, look, facts);
        viewer::writeFigurePng(*o.screenshot, picture);
        std::cout << "figure: " << *o.screenshot << " (" << size[0] << "x" << size[1]
                  << (o.legend ? ", legend" : "") << (o.caption ? ", caption" : "") << ")\n";
      },
      nullptr, openGl);
  return 0;
}

}  // namespace gvflab::app
