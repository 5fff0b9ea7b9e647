// The pure parts of figures, plots and layers: round ticks (legend, axes), the arrow grid in
// screen pixels, the snake outline's geometry, legend entries and the caption.
#include <doctest/doctest.h>

#include <glm/geometric.hpp>

#include "viewer/model/axis_ticks.hpp"
#include "viewer/render/figure.hpp"
#include "viewer/render/glyph_layer.hpp"
#include "viewer/render/layer_registry.hpp"
#include "viewer/render/snake_layer.hpp"

using namespace gvflab;
using namespace gvflab::viewer;

namespace {
std::vector<std::string> labels(const std::vector<Tick>& ticks) {
  std::vector<std::string> out;
  for (const auto& t : ticks) out.push_back(t.label);
  return out;
}
}  // namespace

TEST_CASE("ticks are round: 1-2-5 steps, and decades on a log scale") {
  CHECK(niceStep(0.30795, 5) == doctest::Approx(0.05));
  CHECK(niceStep(1000, 4) == doctest::Approx(200));
  CHECK(niceStep(7, 5) == doctest::Approx(1));
  // The magnitude legend of the U phantom: 0 to 0.30795 (was 0, 0.06159, 0.1232, ...).
  CHECK(labels(legendTicks(0.30795, 0)) ==
        std::vector<std::string>{"0.00", "0.05", "0.10", "0.15", "0.20", "0.25", "0.30"});
  for (const auto& t : legendTicks(0.30795, 0)) CHECK(t.value <= 0.30795);
  // Log scale, 3 decades below 0.30795: the decades inside.
  CHECK(labels(legendTicks(0.30795, 3)) == std::vector<std::string>{"0.001", "0.01", "0.1"});
  CHECK(labels(logTicks(1e-9, 1e-1, 4)) == std::vector<std::string>{"1e-9", "1e-6", "0.001"});
  CHECK(labels(linearTicks(0, 1500, 4)) == std::vector<std::string>{"0", "500", "1000", "1500"});
  CHECK(tickLabel(2.5e-6, 5e-7) == "2.5e-6");
  CHECK(linearTicks(1, 1).empty());
}

TEST_CASE("plot axes: whole decades for epsilon, round steps from zero for displacement") {
  PlotAxes eps = plotAxes({0, 100, 200, 400}, {0.5, 3e-2, 2e-3, 4e-4}, true);
  CHECK(eps.yMin == -4);
  CHECK(eps.yMax == 0);
  CHECK(labels(eps.yTicks) == std::vector<std::string>{"1e-4", "0.001", "0.01", "0.1", "1"});
  CHECK(eps.xMin == 0);
  CHECK(eps.xMax == 400);
  CHECK(labels(eps.xTicks) == std::vector<std::string>{"0", "100", "200", "300", "400"});
  PlotAxes d = plotAxes({10, 20, 30}, {0.8, 0.37, 0.02}, false, true);
  CHECK(d.yMin == 0);
  CHECK(d.yMax == doctest::Approx(0.8));
  CHECK(labels(d.yTicks) == std::vector<std::string>{"0.0", "0.2", "0.4", "0.6", "0.8"});
  // Zero and negative values cannot go on a log axis; a lone point still gets an extent.
  PlotAxes one = plotAxes({5, 6}, {0, 1e-3}, true);
  CHECK(one.xMax > one.xMin);
  CHECK(one.yMin == -3);
}

TEST_CASE("arrow spacing is in screen pixels: the same density at two zooms") {
  ViewTransform view;
  view.viewSize = {512, 512};
  view.imageSize = {64, 64};  // a 64^3 volume's slice, 8 screen pixels per image pixel
  const GlyphGrid fit = glyphGrid(24, view, 64, 64);
  CHECK(fit.spacing * view.pixelsPerImagePixel() == doctest::Approx(24));
  CHECK(fit.cols == 21);  // 512 / 24, not 64 / 24 image-pixel cells
  view.zoom = 2;          // zoomed in: still 24 screen pixels, only the visible part
  const GlyphGrid in = glyphGrid(24, view, 64, 64);
  CHECK(in.spacing * view.pixelsPerImagePixel() == doctest::Approx(24));
  CHECK(in.cols >= 20);
  CHECK(in.cols <= 22);
  view.zoom = 0.25f;  // zoomed out: no hatch, still 24 screen pixels apart
  const GlyphGrid out = glyphGrid(24, view, 64, 64);
  CHECK(out.spacing * view.pixelsPerImagePixel() == doctest::Approx(24));
  CHECK(out.cols == 5);
  view.zoom = 64;  // far in: at least one image pixel apart
  CHECK(glyphGrid(24, view, 64, 64).spacing == doctest::Approx(1));
}

TEST_CASE("the snake outline band lies halfWidth on both sides of the line") {
  const std::vector<glm::vec2> square = {{0, 0}, {10, 0}, {10, 10}, {0, 10}};
  const auto strip = thickLineStrip(square, true, 2);
  REQUIRE(strip.size() == 10);  // two per node, and back to the first
  // Along the first edge's middle the band is 2 either side: corners are mitred at 2 * sqrt(2).
  CHECK(glm::length(strip[0] - square[0]) == doctest::Approx(2 * std::sqrt(2.0f)));
  CHECK(glm::length(strip[0] - strip[1]) == doctest::Approx(4 * std::sqrt(2.0f)));
  CHECK(strip[8] == strip[0]);
  const auto open = thickLineStrip({{0, 0}, {10, 0}}, false, 1.5f);
  REQUIRE(open.size() == 4);
  CHECK(std::abs(open[0].y - open[1].y) == doctest::Approx(3));
}

TEST_CASE("legend entries: one per snake, grouped with counts beyond six") {
  SnakeContour gvf;
  gvf.force = SnakeForce::Gvf, gvf.state = SnakeState::Converged, gvf.iterations = 480;
  SnakeContour trad;
  trad.force = SnakeForce::Traditional, trad.state = SnakeState::Stalled, trad.iterations = 90;
  auto two = snakeLegendEntries({gvf, trad});
  REQUIRE(two.size() == 2);
  CHECK(two[0].text == "GVF, converged, 480 it.");
  CHECK(two[1].text == "traditional, stalled, 90 it.");
  CHECK(two[0].color == snakeColor(gvf));
  CHECK(two[0].color != two[1].color);
  std::vector<SnakeContour> many(9, gvf);
  many.push_back(trad);
  auto grouped = snakeLegendEntries(many);
  REQUIRE(grouped.size() == 2);
  CHECK(grouped[0].text == "GVF, converged: 9 snakes");

  FigureFacts facts;
  facts.iterations = 500, facts.mu = 0.2, facts.epsilon = 3.1e-5, facts.solver = "Euler";
  facts.snakes = {gvf, trad};
  CHECK(figureCaption(facts) ==
        "iteration 500 \xc2\xb7 \xce\xbc 0.2 \xc2\xb7 \xce\xb5 3.10e-05 \xc2\xb7 Euler \xc2\xb7 "
        "snakes: GVF converged, traditional stalled");
}

TEST_CASE("the layer registry is the one list: drawing order, passes, keys") {
  const std::vector<LayerInfo> infos = layerInfos();
  std::vector<std::string> names;
  for (const LayerInfo& l : infos) names.emplace_back(l.name);
  CHECK(names == std::vector<std::string>{"image", "|V| map", "arrows", "streamlines", "snakes"});
  CHECK(infos[2].pass == LayerPass::Field);
  CHECK(infos[3].pass == LayerPass::Overlay);
  // The view's layer keys come from the infos.
  LayerSettings s;
  REQUIRE(s.showGlyphs);
  CHECK(toggleLayerByKey(infos, Qt::Key_G, s));
  CHECK_FALSE(s.showGlyphs);
  CHECK(toggleLayerByKey(infos, Qt::Key_T, s));
  CHECK(s.showStreamlines);
  CHECK(toggleLayerByKey(infos, Qt::Key_I, s));
  CHECK_FALSE(s.showImage);
  CHECK_FALSE(toggleLayerByKey(infos, Qt::Key_Q, s));  // no layer's
}
