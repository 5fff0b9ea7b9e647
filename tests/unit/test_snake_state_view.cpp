// The collapsed state as the viewer shows it: its own name and colour (not like success, not
// like the others) in the palette, the legend's rows and the per-force summary.
#include <doctest/doctest.h>

#include "io/snake_palette.hpp"
#include "viewer/ui/canvas_overlays.hpp"

using namespace gvflab;
using namespace gvflab::viewer;

TEST_CASE("collapsed snakes: their own colour and name in the legend and its summary") {
  for (SnakeState a : kSnakeStates)
    for (SnakeState b : kSnakeStates)
      if (a != b) CHECK(stateColor(a) != stateColor(b));
  CHECK(std::string(snakeStateName(SnakeState::Collapsed)) == "collapsed");
  SnakeContour seed;
  seed.id = 1, seed.state = SnakeState::Collapsed, seed.iterations = 50;
  const auto rows = snakeLegendRows({seed}, 0);
  REQUIRE(rows.size() == 1);
  CHECK(rows[0].state == "collapsed");
  CHECK(rows[0].stateColor == stateColor(SnakeState::Collapsed));
  // The capture-range demo's seeds (18 here): the summary counts them per force and state; the
  // row's colour is the least happy state (collapsed before stalled, never converged's green).
  std::vector<SnakeContour> seeds;
  for (int i = 0; i < 18; ++i) {
    SnakeContour c;
    c.id = i + 1;
    c.force = i % 2 ? SnakeForce::Traditional : SnakeForce::Gvf;
    c.state = i % 2 ? SnakeState::Stalled : (i < 4 ? SnakeState::Converged : SnakeState::Collapsed);
    seeds.push_back(c);
  }
  const auto summary = snakeLegendRows(seeds, 0);
  REQUIRE(summary.size() == 2);
  CHECK(summary[0].state == "2 converged, 7 collapsed");
  CHECK(summary[0].stateColor == stateColor(SnakeState::Collapsed));
  CHECK(summary[1].state == "9 stalled");
}
