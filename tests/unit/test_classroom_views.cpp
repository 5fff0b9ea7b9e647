// What a lecturer sees (issue 39): a user's photo opened from the command line starts with the
// photo and its glyphs and without the |V| map over it (phantoms and demos keep the map); twins
// on one outline stay apart (a wide GVF line under a narrow grad-f one).
#include <doctest/doctest.h>

#include "cli/options.hpp"
#include "viewer/model/axis_ticks.hpp"
#include "viewer/render/snake_layer.hpp"
#include "viewer/window/viewer_startup.hpp"

using namespace gvflab;
using namespace gvflab::viewer;

TEST_CASE("a user's photo opens without the |V| map over it; phantoms and demos keep theirs") {
  const ViewerStartup photo = viewerStartup(app::parseOptions({"photo.png"}));
  CHECK(photo.window.photo);
  CHECK(photo.window.layers.showImage);
  CHECK_FALSE(photo.window.layers.showMagnitude);
  CHECK(photo.window.layers.showGlyphs);
  const ViewerStartup phantom = viewerStartup(app::parseOptions({"--phantom", "u"}));
  CHECK_FALSE(phantom.window.photo);
  CHECK(phantom.window.layers.showMagnitude);
  const ViewerStartup demo = viewerStartup(app::parseOptions({"--demo", "real-image"}));
  CHECK_FALSE(demo.window.photo);
  LayerSettings remembered;
  remembered.showImage = false;
  showPhoto(remembered);  // over remembered layers too
  CHECK(remembered.showImage);
  CHECK_FALSE(remembered.showMagnitude);
}

TEST_CASE("twins on one outline: the GVF line is wider and drawn first, grad f on top") {
  CHECK(snakeLineHalfWidth(SnakeForce::Gvf) >= 1.5f * snakeLineHalfWidth(SnakeForce::Traditional));
  CHECK(snakeLineHalfWidth(SnakeForce::Traditional) >= 1.0f);  // still a line of its own
  std::vector<SnakeContour> twins(4);
  twins[0].force = SnakeForce::Traditional, twins[1].force = SnakeForce::Gvf;
  twins[2].force = SnakeForce::Traditional, twins[3].force = SnakeForce::Gvf;
  CHECK(snakeDrawOrder(twins) == std::vector<std::size_t>{1, 3, 0, 2});
}

TEST_CASE("colour-bar labels never overlap: ticks closer than a line are left unlabelled") {
  // A bar 60 px high with 6 ticks (12 px apart) and 14 px labels: every other one.
  const std::vector<double> ys = {60, 48, 36, 24, 12, 0};
  CHECK(readableTicks(ys, 14) == std::vector<std::size_t>{0, 2, 4});
  CHECK(readableTicks(ys, 10) == std::vector<std::size_t>{0, 1, 2, 3, 4, 5});  // room for all
  CHECK(readableTicks({}, 14).empty());
}
