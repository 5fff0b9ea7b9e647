// The snake legend on the canvas, drawn offscreen by ImGui exactly as the viewer draws it,
// over the brightest and darkest colours of every colormap: its box is dark whatever lies
// beneath (white text stays readable on viridis yellow), each snake's line sample has its
// force's colour, a stalled snake's state is written in red, and rows keep the snakes' order.
// Needs an X server for GL (run under xvfb-run -a).
#include <backends/imgui_impl_opengl3.h>
#include <doctest/doctest.h>
#include <imgui.h>

#include <QImage>
#include <QOpenGLFramebufferObject>
#include <algorithm>
#include <cmath>

#include "cli/options.hpp"
#include "demos/demos.hpp"
#include "gvflab/phantoms.hpp"
#include "render/render_support.hpp"
#include "viewer/model/colormap.hpp"
#include "viewer/render/figure.hpp"
#include "viewer/render/gl_resources.hpp"
#include "viewer/ui/canvas_overlays.hpp"
#include "viewer/ui/imgui_qt_bridge.hpp"
#include "viewer/ui/panel.hpp"
#include "viewer/ui/race_panel.hpp"

using namespace gvflab;
using namespace gvflab::viewer;

namespace {

constexpr int kWidth = 480, kHeight = 320;

// One ImGui frame of a width x height display at 60 frames a second.
void newImGuiFrame(float width, float height) {
  ImGuiIO& io = ImGui::GetIO();
  io.DisplaySize = ImVec2(width, height);
  io.DeltaTime = 1.0f / 60;
  ImGui_ImplOpenGL3_NewFrame();
  ImGui::NewFrame();
}

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
QImage drawLegend(const std::vector<LegendRow>& rows, const std::string& caption,
                  Pixel background) {
  QOpenGLFramebufferObject fbo(kWidth, kHeight);
  REQUIRE(fbo.bind());
  CanvasLegendState state;
  for (int frame = 0; frame < 2; ++frame) {
    newImGuiFrame(kWidth, kHeight);
    drawSnakeLegend(rows, caption, CanvasRect{0, 0, kWidth, kHeight}, {}, {}, state);
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

namespace {

// The U lesson's twins where the demo starts them (128 px phantom), as the viewer has them.
std::vector<SnakeContour> uLessonSnakes() {
  const app::Options o = app::parseOptions(app::demoArgs(app::findDemo("u-concavity")));
  std::vector<SnakeContour> out;
  for (const auto& spec : o.snakes.snakes) {
    SnakeContour c = snake(static_cast<int>(out.size()) + 1, spec.forceOr(o.snakes.force),
                           out.empty() ? SnakeState::Converged : SnakeState::Stalled, 3000);
    c.points = spec.points(o.snakes.params);
    c.initial = c.points;
    out.push_back(c);
  }
  REQUIRE(out.size() == 2);
  return out;
}

bool samePixel(QRgb a, QRgb b) {
  return qRed(a) == qRed(b) && qGreen(a) == qGreen(b) && qBlue(a) == qBlue(b);
}

}  // namespace

TEST_CASE("the U lesson at 1024x768: the canvas legend covers neither snake") {
  auto& env = gvflab::test::glEnvironment();
  REQUIRE_MESSAGE(env.ok, "no OpenGL 3.3 core context (run under xvfb-run -a)");
  ImGui::CreateContext();
  ImGuiQtBridge::setup(15.0f);
  ImGui::GetStyle().WindowPadding = ImVec2(10, 10);  // GlView::initializeGL's
  REQUIRE(ImGui_ImplOpenGL3_Init("#version 330 core"));
  const auto snakes = uLessonSnakes();
  const app::Demo& demo = app::findDemo("u-concavity");
  constexpr int W = 1024, H = 768;
  const Pixel under{40, 60, 90};
  for (bool panels : {true, false}) {  // as opened, and after Tab
    CAPTURE(panels);
    const PanelLayout layout = panelLayout(W, panels);
    const float left = layout.viewLeft(), width = layout.viewWidth(W);
    ViewTransform view;
    view.viewSize = {width, H};
    view.imageSize = {128, 128};
    std::vector<Box> boxes;
    for (Box b : snakeBoxes(snakes, view)) b.x += left, boxes.push_back(b);
    Box image = imageBox(view);
    image.x += left;
    QOpenGLFramebufferObject fbo(W, H);
    REQUIRE(fbo.bind());
    CanvasLegendState state;
    bool open = true;
    Box legend;
    float top = 0;
    for (int frame = 0; frame < 3; ++frame) {  // auto-sized windows settle on the second
      newImGuiFrame(W, H);
      const CanvasRect canvas{left, 0, width, H};
      top = drawExplanation(demo.title, demo.explanation[0], demo.explanation[1], &open, canvas);
      legend = drawSnakeLegend(snakeLegendRows(snakes, 1), "field shown: GVF (snake #1)",
                               CanvasRect{left, top, width, H - top}, boxes, image, state);
      ImGui::Render();
      auto& f = gl();
      f.glViewport(0, 0, W, H);
      f.glClearColor(under.r / 255.0f, under.g / 255.0f, under.b / 255.0f, 1);
      f.glClear(GL_COLOR_BUFFER_BIT);
      ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    }
    gl().glFinish();
    fbo.release();
    const QImage picture = fbo.toImage(true).convertToFormat(QImage::Format_RGB32);
    picture.save(QString(GVFLAB_BINARY_DIR) +
                 (panels ? "/canvas_legend_u.png" : "/canvas_legend_u_tab.png"));
    MESSAGE("legend at " << legend.x << "," << legend.y << " " << legend.w << "x" << legend.h);
    REQUIRE_FALSE(legend.empty());
    CHECK(coversNoSnake(legend, boxes));
    CHECK(legend.x >= left);
    CHECK(legend.right() <= left + width);
    CHECK(legend.y >= top);
    // On the picture: inside the snakes' boxes (below the explanation) nothing was drawn.
    int drawn = 0;
    for (const Box& b : boxes)
      for (int y = std::max(static_cast<int>(b.y), static_cast<int>(top) + 1);
           y < std::min(static_cast<int>(b.bottom()), H); ++y)
        for (int x = std::max(static_cast<int>(b.x), 0);
             x < std::min(static_cast<int>(b.right()), W); ++x)
          drawn += !near(picture.pixel(x, y), under, 2);
    CHECK(drawn == 0);
  }
  ImGui_ImplOpenGL3_Shutdown();
  ImGui::DestroyContext();
}

TEST_CASE("the U lesson's figure at 1024x768: legend and caption keep off the snakes") {
  REQUIRE_MESSAGE(gvflab::test::glEnvironment().ok, "no display (run under xvfb-run -a)");
  const auto snakes = uLessonSnakes();
  constexpr int W = 1024, H = 768;
  QImage picture(W, H, QImage::Format_RGB888);
  picture.fill(QColor(40, 60, 90));
  const QImage before = picture.copy();
  FigureFacts facts;
  facts.layers.showMagnitude = true;
  facts.rangeMax = 0.4f;
  facts.snakes = snakes;
  facts.iterations = 1500;
  facts.mu = 0.2;
  facts.epsilon = 1e-5;
  facts.solver = "Euler";
  facts.view = fittedView(128, 128);
  FigureOptions look;
  look.legend = look.caption = true;
  const FigureLayout layout = annotateFigure(picture, look, facts);
  picture.save(QString(GVFLAB_BINARY_DIR) + "/figure_legend_u.png");
  ViewTransform view = fittedView(128, 128);
  view.viewSize = {W, H};
  const auto boxes = snakeBoxes(snakes, view);
  MESSAGE("legend at " << layout.legend.x << "," << layout.legend.y << " " << layout.legend.w << "x"
                       << layout.legend.h);
  REQUIRE_FALSE(layout.legend.empty());
  REQUIRE_FALSE(layout.caption.empty());
  CHECK(coversNoSnake(layout.legend, boxes));
  CHECK(coversNoSnake(layout.caption, boxes));
  CHECK(layout.legend.w >= 100);  // still a legend: the colour bar and both snakes
  // On the picture: every pixel inside the snakes' boxes is as it was.
  const QImage after = picture.convertToFormat(QImage::Format_RGB32);
  const QImage was = before.convertToFormat(QImage::Format_RGB32);
  int changed = 0;
  for (const Box& b : boxes)
    for (int y = std::max(static_cast<int>(b.y), 0); y < std::min(static_cast<int>(b.bottom()), H);
         ++y)
      for (int x = std::max(static_cast<int>(b.x), 0); x < std::min(static_cast<int>(b.right()), W);
           ++x)
        changed += !samePixel(after.pixel(x, y), was.pixel(x, y));
  CHECK(changed == 0);
}

namespace {
// A demo's snakes at the start (late = false), or late: every GVF snake clamped into the
// content's box (content, image pixels: the capture-range seeds outside the U end on its nearest
// side, collapsed), the others stalled where they started.
std::vector<SnakeContour> demoSnakes(const char* name, bool late, const Box& content) {
  const app::Options o = app::parseOptions({"--demo", name});
  std::vector<SnakeContour> seeds;
  for (const auto& spec : o.snakes.snakes) {
    SnakeContour c = snake(static_cast<int>(seeds.size()) + 1, spec.forceOr(SnakeForce::Gvf),
                           SnakeState::Moving, 0);
    c.points = c.initial = spec.points(o.snakes.params);
    if (late && c.force == SnakeForce::Gvf) {
      c.state = SnakeState::Collapsed, c.iterations = 1140;
      for (auto& p : c.points)
        p = {std::clamp(p.x, content.x, content.right()),
             std::clamp(p.y, content.y, content.bottom())};
    } else if (late) {
      c.state = SnakeState::Stalled, c.iterations = 200;
    }
    seeds.push_back(c);
  }
  return seeds;
}

// The demo's canvas legend at 1024x768, with panels and without, at its snakes' start and late:
// it covers neither a snake's box nor the image's content (the demo's phantom, image pixels).
void checkDemoLegend(const char* name, const Image2D& phantom) {
  auto& env = gvflab::test::glEnvironment();
  REQUIRE_MESSAGE(env.ok, "no OpenGL 3.3 core context (run under xvfb-run -a)");
  const Box content = contentBox(phantom);
  const auto start = demoSnakes(name, false, content), late = demoSnakes(name, true, content);
  ImGui::CreateContext();
  ImGuiQtBridge::setup(15.0f);
  ImGui::GetStyle().WindowPadding = ImVec2(10, 10);  // GlView::initializeGL's
  REQUIRE(ImGui_ImplOpenGL3_Init("#version 330 core"));
  const app::Demo& demo = app::findDemo(name);
  constexpr int W = 1024, H = 717;  // the window at 1024x768 less its title bar
  for (bool panels : {true, false})
    for (const auto* snakes : {&start, &late}) {
      CAPTURE(panels);
      CAPTURE(snakes == &late);
      const float left = panelLayout(W, panels).viewLeft(),
                  width = panelLayout(W, panels).viewWidth(W);
      ViewTransform view;
      view.viewSize = {width, H};
      view.imageSize = {static_cast<float>(phantom.width), static_cast<float>(phantom.height)};
      const auto shift = [&](Box b) { return b.x += left, b; };
      std::vector<Box> boxes;
      for (const Box& b : snakeBoxes(*snakes, view)) boxes.push_back(shift(b));
      const Box object = shift(objectBox({}, view, content));
      CanvasLegendState state;
      bool open = true;
      Box legend;
      for (int frame = 0; frame < 3; ++frame) {  // auto-sized windows settle on the second
        newImGuiFrame(W, H);
        const float top = drawExplanation(demo.title, demo.explanation[0], demo.explanation[1],
                                          &open, CanvasRect{left, 0, width, H});
        // As PlainMode::drawPanels: below the explanation, above the cursor readout.
        legend =
            drawSnakeLegend(snakeLegendRows(*snakes, 1), "field shown: GVF (snake #1)",
                            CanvasRect{left, top, width, H - top - cursorReadoutHeight()}, boxes,
                            shift(imageBox(view)), state, shift(objectBox(*snakes, view, content)));
        ImGui::Render();
      }
      MESSAGE("legend at " << legend.x << "," << legend.y << " " << legend.w << "x" << legend.h);
      REQUIRE_FALSE(legend.empty());
      CHECK(coversNoSnake(legend, boxes));
      CHECK(overlapArea(legend, object) == doctest::Approx(0));
    }
  ImGui_ImplOpenGL3_Shutdown();
  ImGui::DestroyContext();
}
}  // namespace

TEST_CASE("the capture-range demo at 1024x768: the legend covers neither a seed nor the U") {
  // Before, it covered the U's left arm at the start and its bottom bar once the seeds moved.
  checkDemoLegend("capture-range", makePhantom("u", 128));
}

TEST_CASE("the forces demo at 1024x768: the legend covers neither a snake nor the shapes") {
  // Before, it covered the slotted block's bottom-right corner (issue 43).
  checkDemoLegend("forces", makePhantom("u-slot", 128));
}

TEST_CASE("the capture-range figure at 768x768: the legend covers neither a seed nor the U") {
  // Headless figures and recordings: the legend with its colour bar sat on the U's bottom bar;
  // it now shrinks until it finds the room below the U.
  REQUIRE_MESSAGE(gvflab::test::glEnvironment().ok, "no display (run under xvfb-run -a)");
  const Image2D phantom = makePhantom("u", 128);
  const Box uImage = contentBox(phantom);
  for (bool late : {false, true}) {
    CAPTURE(late);
    QImage picture(768, 768, QImage::Format_RGB888);
    picture.fill(QColor(40, 60, 90));
    FigureFacts facts;
    facts.layers.showMagnitude = true;
    facts.rangeMax = 0.3f;
    facts.snakes = demoSnakes("capture-range", late, uImage);
    facts.view = fittedView(128, 128);
    facts.content = uImage;
    FigureOptions look;
    look.legend = true;
    const FigureLayout layout = annotateFigure(picture, look, facts);
    ViewTransform view = fittedView(128, 128);
    view.viewSize = {768, 768};
    const auto boxes = snakeBoxes(facts.snakes, view);
    MESSAGE("legend at " << layout.legend.x << "," << layout.legend.y << " " << layout.legend.w
                         << "x" << layout.legend.h);
    REQUIRE_FALSE(layout.legend.empty());
    CHECK(coversNoSnake(layout.legend, boxes));
    CHECK(overlapArea(layout.legend, objectBox({}, view, uImage)) == doctest::Approx(0));
  }
}
