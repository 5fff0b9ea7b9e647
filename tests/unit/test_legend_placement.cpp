// Where the lesson's furniture goes, as pure geometry: the legend keeps off the snakes (and
// the region they span, and the image where the view has room), the side panels leave the
// view most of a projector's width, the window fits the screen with its title bar, and a
// recording ends a set time after every snake stopped.
#include <doctest/doctest.h>

#include <random>

#include "gvflab/phantoms.hpp"
#include "viewer/model/settle_timer.hpp"
#include "viewer/render/legend_placement.hpp"
#include "viewer/ui/panel.hpp"
#include "viewer/window/viewer_window.hpp"

using namespace gvflab;
using namespace gvflab::viewer;

namespace {

SnakeContour square(float x0, float y0, float x1, float y1) {
  SnakeContour c;
  c.points = {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
  c.initial = c.points;
  return c;
}

bool inside(const Box& inner, const Box& outer) {
  return inner.x >= outer.x - 1e-3f && inner.y >= outer.y - 1e-3f &&
         inner.right() <= outer.right() + 1e-3f && inner.bottom() <= outer.bottom() + 1e-3f;
}

}  // namespace

TEST_CASE("snake boxes: start and current contour, in view pixels") {
  ViewTransform view;
  view.viewSize = {200, 100};
  view.imageSize = {100, 100};  // fitted: 1 view pixel per image pixel, 50 px strips beside
  SnakeContour c = square(10, 10, 20, 20);
  c.initial = {{40, 40}, {60, 40}, {60, 60}};
  const auto boxes = snakeBoxes({c}, view);
  REQUIRE(boxes.size() == 1);
  CHECK(boxes[0].x <= 60);  // image x 10 is view x 60
  CHECK(boxes[0].x >= 54);
  CHECK(boxes[0].right() >= 110);  // image x 60
  CHECK(boxes[0].bottom() >= 60);
  const Box image = imageBox(view);
  CHECK(image.x == doctest::Approx(50));
  CHECK(image.w == doctest::Approx(100));
}

TEST_CASE("the legend goes to a corner free of snakes, top right first") {
  const Box area{0, 0, 400, 300}, image{0, 0, 400, 300};
  // No snakes: top right.
  Box at = placeLegend(area, image, {}, 100, 60, 10);
  CHECK(at.x == doctest::Approx(290));
  CHECK(at.y == doctest::Approx(10));
  // A snake in the top right: another corner, off it.
  const std::vector<Box> topRight = {{250, 0, 150, 120}};
  at = placeLegend(area, image, topRight, 100, 60, 10);
  CHECK(coversNoSnake(at, topRight));
  CHECK(inside(at, area));
  CHECK(at.y == doctest::Approx(10));  // top left: the next corner
  CHECK(at.x == doctest::Approx(10));
}

TEST_CASE("the legend prefers the view's empty strip beside the image to the image") {
  // A wide view with the image in the middle (the Tab view at 1024x768 of a square image).
  const Box area{0, 0, 1024, 768}, image{128, 0, 768, 768};
  const std::vector<Box> snakes = {{300, 130, 430, 500}};
  const Box at = placeLegend(area, image, snakes, 110, 90, 10);
  CHECK(coversNoSnake(at, snakes));
  CHECK(overlapArea(at, image) == doctest::Approx(0));
  CHECK(at.x > 896);  // the right strip (top right first)
}

TEST_CASE("the legend keeps off the region the snakes span together") {
  // Seeds all over the image: the gaps between them are the object's place, not the legend's.
  const Box area{0, 0, 600, 400}, image{100, 0, 400, 400};
  std::vector<Box> seeds;
  for (float y : {20.0f, 180.0f, 340.0f})
    for (float x : {120.0f, 280.0f, 440.0f}) seeds.push_back({x, y, 40, 40});
  const Box at = placeLegend(area, image, seeds, 90, 80, 8);
  Box all;
  for (const Box& s : seeds) all = unite(all, s);
  CHECK(overlapArea(at, all) == doctest::Approx(0));
}

TEST_CASE("where room exists, the legend never covers a snake (random scenes)") {
  std::mt19937 rng(26);
  std::uniform_real_distribution<float> u(0, 1);
  int scenes = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const Box area{0, 0, 300 + 700 * u(rng), 200 + 500 * u(rng)};
    const Box image{0, 0, area.w, area.h};
    std::vector<Box> snakes;
    const int n = 1 + static_cast<int>(4 * u(rng));
    for (int i = 0; i < n; ++i)
      snakes.push_back({area.w * 0.8f * u(rng), area.h * 0.8f * u(rng), area.w * 0.3f * u(rng),
                        area.h * 0.3f * u(rng)});
    const float w = 60 + 80 * u(rng), h = 40 + 60 * u(rng);
    // Is there a free place on a fine grid? Only then is the promise due.
    bool room = false;
    for (float y = 5; y + h <= area.h - 5 && !room; y += 2)
      for (float x = 5; x + w <= area.w - 5 && !room; x += 2)
        room = coversNoSnake({x, y, w, h}, snakes);
    const Box at = placeLegend(area, image, snakes, w, h, 5);
    CHECK(inside(at, area));
    if (!room) continue;
    ++scenes;
    CAPTURE(trial);
    CHECK(coversNoSnake(at, snakes));
  }
  CHECK(scenes > 100);
}

TEST_CASE("at 1024x768 with panels shown the view gets at least 60% of the width") {
  for (float width : {800.0f, 1024.0f, 1280.0f, 1440.0f, 1600.0f, 1920.0f, 2560.0f}) {
    CAPTURE(width);
    const PanelLayout l = panelLayout(width, true);
    CHECK(l.viewWidth(width) >= 0.6f * width - 0.5f);
    CHECK(l.left > 0);  // the controls are still there
  }
  const PanelLayout projector = panelLayout(1024, true);
  CHECK(projector.layersInLeft);  // the layer controls move into the one panel
  CHECK(projector.right == 0);
  const PanelLayout wide = panelLayout(1920, true);
  CHECK_FALSE(wide.layersInLeft);
  CHECK(wide.right == kDisplayPanelWidth);
  // Tab: the whole width.
  CHECK(panelLayout(1024, false).viewWidth(1024) == 1024);
}

TEST_CASE("the window fits the screen with its title bar") {
  const QRect screen(0, 0, 1024, 768);
  const QMargins titleBar(1, 29, 1, 1);
  const QRect fit = fitWindow(QSize(1280, 800), screen, titleBar);
  CHECK(fit.width() + 2 <= 1024);
  CHECK(fit.height() + 30 <= 768);
  CHECK(fit.top() >= 29);  // the title bar on the screen
  const QRect frame = fit.marginsAdded(titleBar);
  CHECK(screen.contains(frame));
  // A big screen keeps the asked size.
  CHECK(fitWindow(QSize(1280, 800), QRect(0, 0, 2560, 1440), titleBar).size() == QSize(1280, 800));
}

TEST_CASE("a recording ends a set time after every snake stopped") {
  SettleTimer t(2.0);
  CHECK_FALSE(t.update(false, 0.0));
  CHECK_FALSE(t.update(true, 1.0));  // stopped from 1 s
  CHECK_FALSE(t.update(true, 2.5));
  CHECK_FALSE(t.update(false, 2.9));  // one moved again (an edit): the wait starts over
  CHECK_FALSE(t.update(true, 3.0));
  CHECK_FALSE(t.update(true, 4.9));
  CHECK(t.update(true, 5.0));
  // Started on a finished lesson: it waits until the snakes move (R), then stop again.
  SettleTimer finished(1.0);
  CHECK_FALSE(finished.update(true, 0.0));
  CHECK_FALSE(finished.update(true, 9.0));
  CHECK_FALSE(finished.update(false, 10.0));
  CHECK_FALSE(finished.update(true, 10.5));
  CHECK(finished.update(true, 11.5));
}

TEST_CASE("the object is where the travelling snakes went, not where seeds stalled") {
  ViewTransform view;
  view.viewSize = {128, 128};
  view.imageSize = {128, 128};  // one view pixel per image pixel
  std::vector<SnakeContour> snakes;
  SnakeContour stalled = square(4, 4, 14, 14);  // a seed that never moved
  snakes.push_back(stalled);
  SnakeContour travelled = square(110, 4, 120, 14);  // a seed carried onto the object
  travelled.points = {{40, 40}, {80, 40}, {80, 90}, {40, 90}};
  snakes.push_back(travelled);
  const Box object = objectBox(snakes, view);
  CHECK(object.x == doctest::Approx(40));
  CHECK(object.right() == doctest::Approx(80).epsilon(0.01));
  CHECK(object.bottom() == doctest::Approx(90).epsilon(0.01));
  // No snake travelled yet: every snake's box.
  const Box start = objectBox({stalled}, view);
  CHECK(start.x == doctest::Approx(4));
  // The legend keeps off the object even where no snake box is (the seeds' gaps).
  const Box area{0, 0, 128, 128};
  const std::vector<Box> boxes = snakeBoxes(snakes, view);
  const Box at = placeLegend(area, area, boxes, 30, 20, 2, object);
  CHECK(coversNoSnake(at, boxes));
  CHECK(overlapArea(at, object) == doctest::Approx(0));
}

TEST_CASE("the image's content: a phantom's shape, nothing of a flat image") {
  const Box u = contentBox(makePhantom("u", 128));  // the U: x 32..96, y 25.6..102.4
  CHECK(u.x == doctest::Approx(32).epsilon(0.05));
  CHECK(u.right() == doctest::Approx(96).epsilon(0.05));
  CHECK(u.y == doctest::Approx(25.6).epsilon(0.08));
  CHECK(u.bottom() == doctest::Approx(102.4).epsilon(0.05));
  CHECK(contentBox(Image2D(64, 64, 0.3f)).empty());
}
