// The snake legend on the canvas, drawn offscreen by ImGui exactly as the viewer draws it,
// over the brightest and darkest colours of every colormap: its box is dark whatever lies
// beneath (white text stays readable on viridis yellow), each snake's line sample has its
// force's colour, a stalled snake's state is written in red, and rows keep the snakes' order.
// Needs an X server for GL (run under xvfb-run -a).
#include <doctest/doctest.h>

#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <QImage>
#include <QOpenGLFramebufferObject>
#include <cmath>

#include "render/render_support.hpp"
#include "viewer/render/colormap.hpp"
#include "viewer/render/gl_resources.hpp"
#include "viewer/ui/canvas_overlays.hpp"
#include "viewer/ui/imgui_qt_bridge.hpp"
#include "viewer/ui/panel.hpp"
#include "viewer/ui/race_panel.hpp"

using namespace gvflab;
using namespace gvflab::viewer;

namespace {

constexpr int kWidth = 480, kHeight = 320;

struct Pixel {
  int r, g, b;
};

Pixel toRgb(const SnakeRgba& c) {
  return {static_cast<int>(std::lround(c[0] * 255)), static_cast<int>(std::lround(c[1] * 255)),
          static_cast<int>(std::lround(c[2] * 255))};
}

bool near(QRgb p, Pixel c, int tolerance) {
  return std::abs(qRed(p) - c.r) <= tolerance && std::abs(qGreen(p) - c.g) <= tolerance &&
         std::abs(qBlue(p) - c.b) <= tolerance;
}

// Pixels of colour c (within tolerance) in the image: their count and mean row.
struct Found {
  int count = 0;
  double meanRow = 0;
};
Found find(const QImage& image, Pixel c, int tolerance) {
  Found f;
  for (int y = 0; y < image.height(); ++y)
    for (int x = 0; x < image.width(); ++x)
      if (near(image.pixel(x, y), c, tolerance)) ++f.count, f.meanRow += y;
  if (f.count) f.meanRow /= f.count;
  return f;
}

// Two ImGui frames (auto-sized windows take their size on the second) over a cleared
// background, into a framebuffer like the view's.
QImage drawLegend(const std::vector<LegendRow>& rows, const std::string& caption, Pixel background) {
  QOpenGLFramebufferObject fbo(kWidth, kHeight);
  REQUIRE(fbo.bind());
  for (int frame = 0; frame < 2; ++frame) {
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(kWidth, kHeight);
    io.DeltaTime = 1.0f / 60;
    ImGui_ImplOpenGL3_NewFrame();
    ImGui::NewFrame();
    drawSnakeLegend(rows, caption, CanvasRect{0, 0, kWidth, kHeight});
    ImGui::Render();
    auto& f = gl();
    f.glViewport(0, 0, kWidth, kHeight);
    f.glClearColor(background.r / 255.0f, background.g / 255.0f, background.b / 255.0f, 1);
    f.glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  }
  gl().glFinish();
  fbo.release();
  return fbo.toImage(true).convertToFormat(QImage::Format_RGB32);  // top row first
}

SnakeContour snake(int id, SnakeForce force, SnakeState state, long iterations) {
  SnakeContour c;
  c.id = id;
  c.force = force;
  c.state = state;
  c.iterations = iterations;
  return c;
}

}  // namespace

TEST_CASE("the canvas legend: force colours, states, readable on every colormap") {
  auto& env = gvflab::test::glEnvironment();
  REQUIRE_MESSAGE(env.ok, "no OpenGL 3.3 core context (run under xvfb-run -a)");
  ImGui::CreateContext();
  ImGuiQtBridge::setup(15.0f);
  REQUIRE(ImGui_ImplOpenGL3_Init("#version 330 core"));

  // The U lesson: a converged GVF snake, then its stalled grad-f twin.
  const std::vector<SnakeContour> twins = {
      snake(1, SnakeForce::Gvf, SnakeState::Converged, 1520),
      snake(2, SnakeForce::Traditional, SnakeState::Stalled, 300)};
  const auto rows = snakeLegendRows(twins, 2);
  REQUIRE(rows.size() == 2);
  CHECK(rows[0].label == "#1 GVF");
  CHECK(rows[1].label == "#2 grad f");
  CHECK(rows[0].state == "converged");
  CHECK(rows[1].state == "stalled");
  CHECK(rows[1].iterations == "300 it");
  CHECK(rows[1].selected);

  const Pixel gvf = toRgb(forceColor(SnakeForce::Gvf));
  const Pixel grad = toRgb(forceColor(SnakeForce::Traditional));
  const Pixel stalled = toRgb(stateColor(SnakeState::Stalled));
  for (Colormap map : allColormaps())
    for (float at : {0.0f, 1.0f}) {
      const auto c = colormapAt(map, at);
      const Pixel under{static_cast<int>(c.r * 255), static_cast<int>(c.g * 255),
                      static_cast<int>(c.b * 255)};
      CAPTURE(std::string(colormapName(map)));
      CAPTURE(at);
      const QImage image = drawLegend(rows, "field shown: grad f (snake #2)", under);
      if (map == Colormap::Viridis && at == 1.0f)  // to look at: the worst case of the issue
        image.save(QString(GVFLAB_BINARY_DIR) + "/canvas_legend_viridis.png");
      // The legend's box: where the image is no longer the background, top-right.
      int x0 = kWidth, y0 = kHeight, x1 = -1, y1 = -1;
      for (int y = 0; y < kHeight; ++y)
        for (int x = 0; x < kWidth; ++x)
          if (!near(image.pixel(x, y), under, 6))
            x0 = std::min(x0, x), y0 = std::min(y0, y), x1 = std::max(x1, x), y1 = std::max(y1, y);
      REQUIRE(x1 > x0);
      CHECK(x1 >= kWidth - 14);  // 10 px from the view's corner
      CHECK(y0 <= 14);
      CHECK(x0 > kWidth / 4);  // a small box, not a banner
      // Its background is dark whatever the colormap (mostly dark pixels, luminance < 70).
      int dark = 0, all = 0;
      for (int y = y0; y <= y1; ++y)
        for (int x = x0; x <= x1; ++x, ++all) {
          const QRgb p = image.pixel(x, y);
          dark += 0.299 * qRed(p) + 0.587 * qGreen(p) + 0.114 * qBlue(p) < 70;
        }
      CHECK(dark > 0.75 * all);
      // Each row's line sample in its force's colour, GVF's row above grad f's.
      const Found g = find(image, gvf, 12), t = find(image, grad, 12);
      CHECK(g.count > 20);
      CHECK(t.count > 20);
      CHECK(g.meanRow < t.meanRow);
      // "stalled" in red (glyph cores in the state's colour).
      CHECK(find(image, stalled, 40).count > 5);
    }

  // Many snakes (the capture-range demo): one summary row per force.
  std::vector<SnakeContour> seeds;
  for (int i = 0; i < 9; ++i) {
    seeds.push_back(snake(2 * i + 1, SnakeForce::Gvf, SnakeState::Converged, 900));
    seeds.push_back(snake(2 * i + 2, SnakeForce::Traditional,
                          i < 3 ? SnakeState::Converged : SnakeState::Stalled, 100 + i));
  }
  const auto summary = snakeLegendRows(seeds, 0);
  REQUIRE(summary.size() == 2);
  CHECK(summary[0].label == "9 GVF");
  CHECK(summary[0].state == "9 converged");
  CHECK(summary[1].label == "9 grad f");
  CHECK(summary[1].state == "3 converged, 6 stalled");
  CHECK(summary[1].stateColor == stateColor(SnakeState::Stalled));  // not like success

  ImGui_ImplOpenGL3_Shutdown();
  ImGui::DestroyContext();
}

TEST_CASE("the race readouts fit the view at 1024 wide (short form) and at 1280 (long form)") {
  auto& env = gvflab::test::glEnvironment();
  REQUIRE_MESSAGE(env.ok, "no OpenGL 3.3 core context (run under xvfb-run -a)");
  ImGui::CreateContext();
  ImGuiQtBridge::setup(15.0f);  // the viewer's font and size
  REQUIRE(ImGui_ImplOpenGL3_Init("#version 330 core"));
  ImGui::GetStyle().WindowPadding = ImVec2(10, 10);  // GlView::initializeGL's
  ImGui::GetIO().DisplaySize = ImVec2(1024, 768);
  ImGui_ImplOpenGL3_NewFrame();
  ImGui::NewFrame();  // CalcTextSize needs the frame's font
  // The race window spans the view between the panels, less its padding on both sides.
  auto tableRoom = [](float window) {
    return window - kPanelWidth - kDisplayPanelWidth - 2 * ImGui::GetStyle().WindowPadding.x;
  };
  CHECK(raceReadoutsWidth(false) <= tableRoom(1024));
  CHECK(raceReadoutsWidth(true) > tableRoom(1024));  // the long headers were clipped there
  CHECK(raceReadoutsWidth(true) <= tableRoom(1280));
  CHECK(raceReadoutsWidth(false) < raceReadoutsWidth(true));
  ImGui::EndFrame();
  ImGui_ImplOpenGL3_Shutdown();
  ImGui::DestroyContext();
}
