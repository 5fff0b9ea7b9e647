// The viewer's snake editing as a user drives it: mouse gestures through SnakeTool on a
// SnakeSession (no window needed), undo and redo.
#include <doctest/doctest.h>

#include <Qt>
#include <glm/geometric.hpp>

#include "cli/options.hpp"
#include "viewer/model/snake_session.hpp"
#include "viewer/modes/snake_tool.hpp"
#include "viewer/window/viewer_startup.hpp"

using namespace gvflab;
using namespace gvflab::viewer;

namespace {

app::Options uPhantom() {
  app::Options o = app::parseOptions({"--phantom", "u", "--phantom-size", "128"});
  return o;
}

// Mean distance of a contour's nodes from a point.
float meanRadius(const std::vector<glm::vec2>& pts, glm::vec2 c) {
  float sum = 0;
  for (auto p : pts) sum += glm::length(p - c);
  return sum / static_cast<float>(pts.size());
}

}  // namespace

TEST_CASE("drag places a circle, clicks and a double-click a polygon, right-click deletes") {
  Session session(sessionStartup(uPhantom()));
  SnakeSession snakes(session, app::SnakeOptions{});
  snakes.setRunning(false);  // keep the contours where they were put
  SnakeTool tool(snakes);
  REQUIRE(snakes.contours().empty());

  // Drag from (64, 64) to (64, 104): a circle of radius 40 around (64, 64).
  tool.leftPress({64, 64}, 3);
  tool.move({64, 80}, 3);
  CHECK(tool.draft().size() > 10);  // the rubber circle is drawn while dragging
  tool.move({64, 104}, 3);
  tool.leftRelease({64, 104});
  REQUIRE(snakes.contours().size() == 1);
  CHECK(meanRadius(snakes.contours()[0].points, {64, 64}) == doctest::Approx(40).epsilon(0.05));

  // Three clicks and a double-click on the last one: a triangle.
  for (glm::vec2 p : {glm::vec2(10, 10), glm::vec2(40, 12), glm::vec2(20, 40)}) {
    tool.leftPress(p, 0.5f);
    tool.leftRelease(p);
  }
  tool.leftPress({20, 40}, 0.5f);  // the double-click's first press repeats the last point
  tool.leftRelease({20, 40});
  tool.doubleClick({20, 40});
  REQUIRE(snakes.contours().size() == 2);
  CHECK(tool.draft().empty());

  // Right-click on the circle's rim names it (for the Compare / Delete menu) and selects it;
  // Delete removes it; undo brings it back, redo removes it again.
  const auto hit = tool.rightClick({104, 64}, 4);
  REQUIRE(hit);
  CHECK(snakes.selectedId() == *hit);
  CHECK_FALSE(tool.rightClick({64, 64}, 4));  // nothing there
  snakes.remove(*hit);
  CHECK(snakes.contours().size() == 1);
  CHECK(tool.key(Qt::Key_Z, true, false));
  CHECK(snakes.contours().size() == 2);
  CHECK(tool.key(Qt::Key_Z, true, true));
  CHECK(snakes.contours().size() == 1);
  // Undo everything, then nothing is left to undo.
  while (snakes.canUndo()) snakes.undo();
  CHECK(snakes.contours().empty());
  CHECK_FALSE(snakes.undo());
}

TEST_CASE("dragging a node moves it, and one undo puts the whole drag back") {
  Session session(sessionStartup(uPhantom()));
  SnakeSession snakes(session, app::SnakeOptions{});
  snakes.setRunning(false);
  SnakeTool tool(snakes);
  snakes.addPolygon({{20, 20}, {100, 20}, {100, 100}, {20, 100}});
  REQUIRE(snakes.contours().size() == 1);
  const auto before = snakes.contours()[0].points;
  // Grab the node nearest (100, 100) and drag it in two moves.
  tool.leftPress({100, 100}, 3);
  tool.move({104, 104}, 3);
  tool.move({110, 112}, 3);
  tool.leftRelease({110, 112});
  const auto after = snakes.contours()[0].points;
  bool moved = false;
  for (auto p : after) moved = moved || glm::length(p - glm::vec2(110, 112)) < 0.01f;
  CHECK(moved);
  CHECK(snakes.undo());
  CHECK(snakes.contours()[0].points == before);
  // Escape drops a polygon in progress without adding anything.
  tool.leftPress({5, 5}, 0.5f);
  tool.leftRelease({5, 5});
  tool.key(Qt::Key_Escape, false, false);
  tool.doubleClick({6, 6});
  CHECK(snakes.contours().size() == 1);
}

TEST_CASE("the capture maps are computed only when the field, the image or the threshold change") {
  Session session(sessionStartup(uPhantom()));
  session.setRunning(false);
  SnakeSession snakes(session, app::SnakeOptions{});
  snakes.advanceFrame();
  CHECK(snakes.captureComputations() == 0);  // overlay off: nothing
  snakes.showCapture = true;
  snakes.requestCapture();
  snakes.advanceFrame();
  CHECK(snakes.captureComputations() == 2);  // both forces' maps, once
  const long version = snakes.captureVersion();
  for (int i = 0; i < 40; ++i) snakes.advanceFrame();
  CHECK(snakes.captureComputations() == 2);  // a still field: no recompute, frame after frame
  CHECK(snakes.captureVersion() == version);

  // Showing the other force recolours the overlay from the kept map.
  snakes.captureForce = SnakeForce::Traditional;
  snakes.requestCapture();
  snakes.advanceFrame();
  CHECK(snakes.captureComputations() == 2);
  CHECK(snakes.captureVersion() == version + 1);
  const long traditionalArea = snakes.captureArea(SnakeForce::Traditional);

  // The field moves after a still while: only the GVF map, at once.
  session.requestSingleStep();
  session.advanceFrame();
  snakes.advanceFrame();
  CHECK(snakes.captureComputations() == 3);
  CHECK(snakes.captureArea(SnakeForce::Traditional) == traditionalArea);
  // It moves again right away: not every frame, after kCaptureEveryFrames (30) frames.
  session.requestSingleStep();
  session.advanceFrame();
  for (int i = 0; i < 29; ++i) snakes.advanceFrame();
  CHECK(snakes.captureComputations() == 3);
  snakes.advanceFrame();
  CHECK(snakes.captureComputations() == 4);

  // A new threshold changes both maps.
  snakes.captureParams.threshold = 0.5;
  snakes.requestCapture();
  snakes.advanceFrame();
  CHECK(snakes.captureComputations() == 6);
}
