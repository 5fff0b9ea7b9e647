// Trails and composite figures drawn offscreen: a snake's earlier shapes show, faded, where it
// no longer is; the composite holds four panels side by side (image, edge map, |V| with arrows,
// snakes), each different where it should be, each with its caption in the strip beneath.
#include <doctest/doctest.h>

#include <QRect>
#include <vector>

#include "cli/options.hpp"
#include "gvflab/device.hpp"
#include "gvflab/error.hpp"
#include "gvflab/euler_solver.hpp"
#include "gvflab/gvf_input.hpp"
#include "gvflab/phantoms.hpp"
#include "gvflab/snake_trails.hpp"
#include "render/render_support.hpp"
#include "viewer/model/snake_session.hpp"
#include "viewer/render/composite_figure.hpp"
#include "viewer/render/figure_renderer.hpp"
#include "viewer/window/viewer_startup.hpp"

using namespace gvflab;
using namespace gvflab::viewer;
using gvflab::test::glEnvironment;

namespace {

// Pixels that differ between a and b inside r.
int differing(const QImage& a, const QImage& b, QRect r) {
  const QImage x = a.convertToFormat(QImage::Format_RGB888);
  const QImage y = b.convertToFormat(QImage::Format_RGB888);
  int n = 0;
  for (int py = r.top(); py <= r.bottom(); ++py)
    for (int px = r.left(); px <= r.right(); ++px) n += x.pixel(px, py) != y.pixel(px, py);
  return n;
}

// Pixels inside r that differ from the colour at r's top-left corner (the background).
int inked(const QImage& image, QRect r) {
  const QRgb background = image.pixel(r.topLeft());
  int n = 0;
  for (int y = r.top(); y <= r.bottom(); ++y)
    for (int x = r.left(); x <= r.right(); ++x) n += image.pixel(x, y) != background;
  return n;
}

QImage panelOf(const QImage& image, QRect r) { return image.copy(r); }

}  // namespace

TEST_CASE("trails: a snake's earlier shapes are drawn, faded, where it no longer is") {
  auto& env = glEnvironment();
  REQUIRE_MESSAGE(env.ok, "no OpenGL 3.3 core context (run under xvfb-run -a)");
  auto ctx = ComputeContext::create({});
  const Image2D u = makePhantom("u", 64);
  EulerSolver solver(ctx, buildGvfInput(*ctx, u, 1.0), 0.15);
  SnakeContour now;
  now.id = 1;
  now.points = circleContour(32, 32, 8, 2);
  now.iterations = 200;
  SnakeTrail trail;
  trail.id = 1;
  trail.shapes = {circleContour(32, 32, 28, 2), circleContour(32, 32, 18, 2)};
  const std::vector<SnakeTrail> trails{trail};
  LayerSettings bare;
  bare.showImage = bare.showMagnitude = bare.showGlyphs = false;
  QImage without, with;
  {
    FigureRenderer figure(256, 256, ctx->info());
    figure.setImage(u);
    without = figure.draw(ctx->queue(), solver.field(), 64, 64, bare, {now}, false, 0);
    with = figure.draw(ctx->queue(), solver.field(), 64, 64, bare, {now}, false, 0, &trails);
  }
  env.context->makeCurrent(env.surface.get());
  // The outer shape (radius 28 px of 64 = 112 px of 256 about the centre) crosses the row
  // through the centre near x = 16 and x = 240; the live snake (radius 32 px) does not.
  const QRect left(4, 120, 24, 16), centre(100, 100, 56, 56);
  CHECK(differing(without, with, left) > 10);
  CHECK(differing(without, with, centre) == 0);  // nothing of a trail inside the live snake
  // Faded: the trail's line is darker than the live snake's on a black background.
  int brightestTrail = 0, brightestSnake = 0;
  for (int y = left.top(); y <= left.bottom(); ++y)
    for (int x = left.left(); x <= left.right(); ++x)
      brightestTrail = std::max(brightestTrail, qRed(with.pixel(x, y)));
  for (int x = 150; x < 170; ++x)
    brightestSnake = std::max(brightestSnake, qRed(with.pixel(x, 128)));
  CHECK(brightestTrail > 40);
  CHECK(brightestTrail < brightestSnake);
}

TEST_CASE("a composite: four captioned panels, image, edge map, field and snakes") {
  auto& env = glEnvironment();
  REQUIRE_MESSAGE(env.ok, "no OpenGL 3.3 core context (run under xvfb-run -a)");
  auto ctx = ComputeContext::create({});
  const Image2D u = makePhantom("u", 64);
  const GvfInput input = buildGvfInput(*ctx, u, 1.0);
  EulerSolver solver(ctx, input, 0.15);
  solver.step(100);
  const Image2D edge = readEdgeMap(*ctx, input);
  SnakeContour snake;
  snake.id = 1;
  snake.points = circleContour(32, 32, 27, 2);
  const std::vector<SnakeContour> snakes{snake};
  CompositeParts parts;
  parts.image = &u;
  parts.edgeMap = &edge;
  parts.field = &solver.field();
  parts.snakes = &snakes;
  parts.captions = compositeCaptions(1.0, "Euler", solver.error(), snakes);
  CHECK(parts.captions[3] == "(d) snakes: GVF moving");
  const QImage out = drawComposite(640, 220, ctx->info(), ctx->queue(), parts);
  env.context->makeCurrent(env.surface.get());
  REQUIRE(out.size() == QSize(640, 220));
  const CompositeLayout l = compositeLayout(640, 220);
  CHECK(l.panelWidth == 160);
  CHECK(l.panelHeight + l.strip == 220);
  const QImage image = panelOf(out, l.panel(0)), edges = panelOf(out, l.panel(1)),
               field = panelOf(out, l.panel(2)), withSnakes = panelOf(out, l.panel(3));
  const QRect whole(0, 0, l.panelWidth, l.panelHeight);
  const int n = l.panelWidth * l.panelHeight;
  CHECK(differing(image, edges, whole) > n / 20);      // f is not the image
  CHECK(differing(image, field, whole) > n / 2);       // |V| in colour, arrows
  CHECK(differing(image, withSnakes, whole) > 200);    // the snake's line
  CHECK(differing(image, withSnakes, whole) < n / 4);  // and otherwise the same picture
  // |V| is in colour (viridis): somewhere red, green and blue differ.
  int coloured = 0;
  for (int y = 0; y < field.height(); ++y)
    for (int x = 0; x < field.width(); ++x) {
      const QRgb p = field.pixel(x, y);
      coloured += std::abs(qRed(p) - qBlue(p)) > 40;
    }
  CHECK(coloured > n / 10);
  for (int i = 0; i < CompositeLayout::kPanels; ++i) {
    CAPTURE(i);
    CHECK(inked(out, l.caption(i)) > 30);  // its caption's text
  }
  CHECK_THROWS_AS(compositeLayout(40, 30), ParameterError);
}

TEST_CASE("the viewer's composite (figure dialog): the width asked, the image's aspect") {
  auto& env = glEnvironment();
  REQUIRE_MESSAGE(env.ok, "no OpenGL 3.3 core context (run under xvfb-run -a)");
  const app::Options o = app::parseOptions(
      {"--phantom", "u", "--phantom-size", "64", "--snake", "circle:32,32,27", "--trails", "5"});
  Session session(sessionStartup(o));
  SnakeSession snakes(session, o.snakes);
  snakes.setWaitForField(false);
  for (int i = 0; i < 4; ++i) {
    session.advanceFrame();
    snakes.advanceFrame();
  }
  REQUIRE(snakes.trails().size() == 1);
  CHECK(snakes.trails()[0].shapes.size() >= 2);  // the start and a later shape
  const QImage out = sessionComposite(session, snakes, LayerSettings{}, 400);
  env.context->makeCurrent(env.surface.get());
  const auto size = compositeSizeForWidth(400, 64, 64);
  CHECK(out.size() == QSize(size[0], size[1]));
  const CompositeLayout l = compositeLayout(size[0], size[1]);
  CHECK(l.panelWidth == 100);
  CHECK(l.panelHeight == 100);  // square panels for a square image
  for (int i = 0; i < CompositeLayout::kPanels; ++i) CHECK(inked(out, l.caption(i)) > 20);
}
