// Snakes held until the field is ready read "waiting", not "moving 0 it" (issue 39): in the
// canvas legend, its per-force summary, the figure and recording legend and the caption.
#include <doctest/doctest.h>

#include "io/snake_palette.hpp"
#include "viewer/render/figure.hpp"
#include "viewer/ui/canvas_overlays.hpp"
#include "viewer/ui/snake_panel.hpp"

using namespace gvflab;
using namespace gvflab::viewer;

TEST_CASE("snakes waiting for the field: \"waiting\" in legend, summary, figure and caption") {
  SnakeContour gvf, trad;
  gvf.id = 1, gvf.force = SnakeForce::Gvf, gvf.state = SnakeState::Moving;
  trad.id = 2, trad.force = SnakeForce::Traditional, trad.state = SnakeState::Moving;
  CHECK(std::string(shownStateName(SnakeState::Moving, true)) == "waiting");
  CHECK(std::string(shownStateName(SnakeState::Moving, false)) == "moving");
  // A verdict already reached stays what it is.
  CHECK(std::string(shownStateName(SnakeState::Stalled, true)) == "stalled");

  CHECK(snakeLegendRows({gvf, trad}, 0, true)[0].state == "waiting");
  CHECK(snakeLegendRows({gvf, trad}, 0, false)[0].state == "moving");
  std::vector<SnakeContour> many(12, gvf);
  CHECK(snakeLegendRows(many, 0, true)[0].state == "12 waiting");

  const auto entries = snakeLegendEntries({gvf, trad}, 6, true);
  REQUIRE(entries.size() == 2);
  CHECK(entries[0].text.find("waiting") != std::string::npos);
  CHECK(entries[0].text.find("moving") == std::string::npos);
  FigureFacts facts;
  facts.snakes = {gvf, trad};
  facts.snakesWaiting = true;
  CHECK(figureCaption(facts).find("GVF waiting") != std::string::npos);
  facts.snakesWaiting = false;
  CHECK(figureCaption(facts).find("GVF moving") != std::string::npos);
}

TEST_CASE("on a volume the Snakes section counts the slice's 2D snakes, not the surfaces") {
  CHECK(snakeCountLine(3, false) == "3 snakes:");
  CHECK(snakeCountLine(0, true) == "0 2D snakes on this slice:");
}
