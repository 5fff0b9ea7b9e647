// Figures and the layers that make them readable, drawn offscreen: arrows keep their spacing
// in screen pixels at two zooms, snake lines carry a dark outline on the brightest colour, and
// a figure is exactly the size asked with its legend and caption only when asked.
#include <doctest/doctest.h>

#include <QOpenGLFramebufferObject>
#include <array>
#include <vector>

#include "gvflab/device.hpp"
#include "gvflab/euler_solver.hpp"
#include "gvflab/gvf_input.hpp"
#include "gvflab/phantoms.hpp"
#include "render/render_support.hpp"
#include "viewer/model/colormap.hpp"
#include "viewer/render/figure.hpp"
#include "viewer/render/figure_renderer.hpp"
#include "viewer/render/renderer.hpp"
#include "viewer/render/snake_layer.hpp"

using namespace gvflab;
using namespace gvflab::viewer;
using gvflab::test::glEnvironment;

namespace {

double lum(QRgb c) { return 0.299 * qRed(c) + 0.587 * qGreen(c) + 0.114 * qBlue(c); }

// Runs of lit columns: with arrows all pointing right, one run per column of arrows.
int arrowColumns(const QImage& image) {
  int runs = 0;
  bool inRun = false;
  for (int x = 0; x < image.width(); ++x) {
    bool lit = false;
    for (int y = 0; y < image.height() && !lit; ++y) lit = lum(image.pixel(x, y)) > 128;
    if (lit && !inRun) ++runs;
    inRun = lit;
  }
  return runs;
}

}  // namespace

TEST_CASE("arrows keep their spacing in screen pixels when zooming") {
  REQUIRE_MESSAGE(glEnvironment().ok, "no OpenGL 3.3 core context (run under xvfb-run -a)");
  constexpr int kField = 64, kView = 480;  // a 64^3 volume's slice in a 480 px view
  GlTexture texture = makeTexture();
  std::vector<float> uniform(2 * kField * kField, 0.0f);
  for (int i = 0; i < kField * kField; ++i) uniform[2 * i] = 1.0f;  // V = (1, 0) everywhere
  auto& f = gl();
  f.glBindTexture(GL_TEXTURE_2D, texture.id());
  f.glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  f.glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  f.glTexImage2D(GL_TEXTURE_2D, 0, GL_RG32F, kField, kField, 0, GL_RG, GL_FLOAT, uniform.data());
  f.glBindTexture(GL_TEXTURE_2D, 0);
  Renderer renderer;
  LayerSettings layers;
  layers.showImage = layers.showMagnitude = false;
  layers.glyphOutline = false;
  layers.glyphSpacing = 24;
  std::vector<int> columns;
  for (float zoom : {1.0f, 2.0f}) {
    QOpenGLFramebufferObject fbo(kView, kView);
    REQUIRE(fbo.bind());
    ViewTransform view;
    view.viewSize = {kView, kView};
    view.imageSize = {kField, kField};
    view.zoom = zoom;
    renderer.draw({0, 0, kView, kView}, view, layers, {texture.id(), kField, kField}, 1.0f);
    f.glFinish();
    fbo.release();
    columns.push_back(arrowColumns(fbo.toImage(false)));
    MESSAGE("zoom " << zoom << ": " << columns.back() << " columns of arrows");
  }
  // 480 / 24 = 20 columns at both zooms (in image pixels: 64/3 = 21 at the first, 10 at the
  // second).
  for (int c : columns) {
    CHECK(c >= 19);
    CHECK(c <= 21);
  }
  CHECK(std::abs(columns[0] - columns[1]) <= 1);
}

TEST_CASE("snake lines have a dark outline that reads on viridis yellow") {
  REQUIRE_MESSAGE(glEnvironment().ok, "no OpenGL 3.3 core context (run under xvfb-run -a)");
  constexpr int kSize = 200;
  QOpenGLFramebufferObject fbo(kSize, kSize);
  REQUIRE(fbo.bind());
  const Rgb yellow = colormapAt(Colormap::Viridis, 1.0f);
  auto& f = gl();
  f.glViewport(0, 0, kSize, kSize);
  f.glClearColor(yellow.r, yellow.g, yellow.b, 1);
  f.glClear(GL_COLOR_BUFFER_BIT);
  SnakeLayer layer;
  SnakeContour c;
  c.id = 1;
  c.points = {{20, 90}, {180, 90}, {180, 110}, {20, 110}};
  c.state = SnakeState::Converged;
  std::vector<SnakeContour> snakes{c};
  ViewTransform view;
  view.viewSize = {kSize, kSize};
  view.imageSize = {kSize, kSize};
  layer.draw({0, 0, kSize, kSize}, view, SnakeDrawing{&snakes, {}, false, 0}, false, 0);
  f.glFinish();
  fbo.release();
  const QImage image = fbo.toImage(false);
  // Down the column x = 100 across the top edge (y = 90): yellow, dark, line, dark, yellow.
  const auto colour = snakeColor(c);
  auto onLine = [&](QRgb p) {
    return std::abs(qRed(p) - 255 * colour[0]) < 40 && std::abs(qGreen(p) - 255 * colour[1]) < 40 &&
           std::abs(qBlue(p) - 255 * colour[2]) < 40;
  };
  int lineRow = -1;
  for (int y = 80; y < 100 && lineRow < 0; ++y)
    if (onLine(image.pixel(100, y))) lineRow = y;
  REQUIRE_MESSAGE(lineRow >= 0, "no snake-coloured line near y = 90");
  auto darkWithin = [&](int from, int step) {
    for (int k = 1; k <= 3; ++k)
      if (lum(image.pixel(100, from + step * k)) < 90) return true;
    return false;
  };
  CHECK(darkWithin(lineRow, -1));
  int last = lineRow;
  while (onLine(image.pixel(100, last + 1))) ++last;
  CHECK(darkWithin(last, +1));
  CHECK(lum(image.pixel(100, 80)) > 180);  // the yellow itself is untouched away from the line
}

TEST_CASE("a collapsed snake, a strip folded onto an edge, is drawn grey: no outline") {
  // The capture-range demo's GVF seeds end as such strips; drawn in the force's magenta with
  // its nodes they read as outlines of the U while the legend said "collapsed".
  REQUIRE_MESSAGE(glEnvironment().ok, "no OpenGL 3.3 core context (run under xvfb-run -a)");
  constexpr int kSize = 200;
  QOpenGLFramebufferObject fbo(kSize, kSize);
  REQUIRE(fbo.bind());
  auto& f = gl();
  SnakeLayer layer;
  ViewTransform view;
  view.viewSize = {kSize, kSize};
  view.imageSize = {kSize / 4, kSize / 4};  // 4 view pixels an image pixel, as in the lesson
  // Pixels of each colour on a black background, the strip drawn with its nodes.
  const auto count = [&](SnakeState state) {
    SnakeContour c;
    c.id = 1;
    for (float x = 10; x <= 40; x += 1.5f) c.points.push_back({x, 25});
    for (float x = 40; x >= 10; x -= 1.5f) c.points.push_back({x, 25.05f});
    c.state = state;
    std::vector<SnakeContour> snakes{c};
    f.glViewport(0, 0, kSize, kSize);
    f.glClearColor(0, 0, 0, 1);
    f.glClear(GL_COLOR_BUFFER_BIT);
    layer.draw({0, 0, kSize, kSize}, view, SnakeDrawing{&snakes, {}, true, 0}, false, 0);
    f.glFinish();
    const QImage image = fbo.toImage(false);
    const auto near = [](QRgb p, const SnakeRgba& colour) {
      return std::abs(qRed(p) - 255 * colour[0]) < 40 &&
             std::abs(qGreen(p) - 255 * colour[1]) < 40 &&
             std::abs(qBlue(p) - 255 * colour[2]) < 40;
    };
    std::array<int, 2> n{};  // force-coloured, grey
    for (int y = 0; y < kSize; ++y)
      for (int x = 0; x < kSize; ++x) {
        n[0] += near(image.pixel(x, y), forceColor(SnakeForce::Gvf));
        n[1] += near(image.pixel(x, y), stateColor(SnakeState::Collapsed));
      }
    return n;
  };
  const auto collapsed = count(SnakeState::Collapsed);
  const auto stalled = count(SnakeState::Stalled);
  fbo.release();
  MESSAGE("collapsed: " << collapsed[0] << " magenta, " << collapsed[1]
                        << " grey; stalled: " << stalled[0] << " magenta");
  CHECK(collapsed[1] > 3 * collapsed[0]);  // grey, the force's colour only at node centres
  CHECK(stalled[0] > 3 * stalled[1]);      // any other state: the force's colour
}

TEST_CASE("a figure is the size asked, with its legend and caption only when asked") {
  auto& env = glEnvironment();
  REQUIRE_MESSAGE(env.ok, "no OpenGL 3.3 core context (run under xvfb-run -a)");
  auto ctx = ComputeContext::create({});
  Image2D u = makePhantom("u", 96);
  EulerSolver solver(ctx, buildGvfInput(*ctx, u, 1.0), 0.15);
  solver.step(50);
  SnakeContour snake;
  snake.id = 1;
  snake.points = circleContour(48, 48, 30, 2);
  std::vector<SnakeContour> snakes{snake};
  QImage plain;
  float range = 0;
  {
    FigureRenderer figure(320, 200, ctx->info());
    figure.setImage(u);
    plain = figure.draw(ctx->queue(), solver.field(), 96, 96, LayerSettings{}, snakes, false, 0);
    range = figure.rangeMax();
    // Rows come top first, as on screen: a snake near the image's top is near the figure's.
    LayerSettings bare;
    bare.showImage = bare.showMagnitude = bare.showGlyphs = false;
    SnakeContour top;
    top.id = 2;
    top.points = circleContour(48, 12, 8, 2);
    const QImage upright = figure.draw(ctx->queue(), solver.field(), 96, 96, bare, {top}, false, 0);
    int upper = 0, lower = 0;
    for (int y = 0; y < upright.height(); ++y)
      for (int x = 0; x < upright.width(); ++x)
        (y < upright.height() / 2 ? upper : lower) += qRed(upright.pixel(x, y)) > 200;
    CHECK(upper > 50);
    CHECK(lower == 0);
  }
  env.context->makeCurrent(env.surface.get());  // the figure had its own context
  CHECK(plain.size() == QSize(320, 200));
  FigureFacts facts;
  facts.rangeMax = range;
  facts.snakes = snakes;
  facts.iterations = 50, facts.mu = 0.15, facts.epsilon = solver.error(), facts.solver = "Euler";

  // Which pixels changed, and where.
  auto changed = [&](const QImage& a, QRect where) {
    int n = 0;
    const QImage b = plain.convertToFormat(QImage::Format_RGB888);
    const QImage c = a.convertToFormat(QImage::Format_RGB888);
    for (int y = where.top(); y <= where.bottom(); ++y)
      for (int x = where.left(); x <= where.right(); ++x) n += b.pixel(x, y) != c.pixel(x, y);
    return n;
  };
  const QRect all(0, 0, 320, 200), right(160, 0, 160, 175), bottom(0, 150, 320, 50);
  QImage none = plain;
  annotateFigure(none, FigureOptions{}, facts);
  CHECK(changed(none, all) == 0);

  FigureOptions withLegend;
  withLegend.legend = true;
  QImage legend = plain;
  annotateFigure(legend, withLegend, facts);
  CHECK(legend.size() == plain.size());
  CHECK(changed(legend, right) > 2000);
  CHECK(changed(legend, all) == changed(legend, right));  // nothing outside its box
  // The colour bar's top is the colormap's top colour.
  const Rgb top = colormapAt(Colormap::Viridis, 1.0f);
  int barTop = 0;
  for (int y = right.top(); y <= right.bottom(); ++y)
    for (int x = right.left(); x <= right.right(); ++x) {
      const QRgb p = legend.pixel(x, y);
      barTop += std::abs(qRed(p) - 255 * top.r) < 12 && std::abs(qGreen(p) - 255 * top.g) < 12 &&
                std::abs(qBlue(p) - 255 * top.b) < 20 && plain.pixel(x, y) != p;
    }
  CHECK(barTop > 10);

  FigureOptions withCaption;
  withCaption.caption = true;
  QImage caption = plain;
  annotateFigure(caption, withCaption, facts);
  CHECK(changed(caption, bottom) > 1500);
  CHECK(changed(caption, all) == changed(caption, bottom));
}
