#include "viewer/render/snake_layer.hpp"

#include <algorithm>
#include <glm/geometric.hpp>

#include "io/snake_palette.hpp"

namespace gvflab::viewer {
namespace {
// Lines in the force's colour over a dark band, the nodes of a stopped snake in its state's
// colour (snake_palette.hpp); the draft and the snake under the mouse: white.
// Screen pixels: the coloured line and the dark band around it.
constexpr float kLineHalfWidth = 1.0f;     // grad f
constexpr float kGvfLineHalfWidth = 2.0f;  // GVF: a band around a grad-f twin on top
constexpr float kOutlineHalfWidth = 3.0f;
constexpr float kTrailHalfWidth = 0.75f;
constexpr float kDraft[4] = {1.0f, 1.0f, 1.0f, 0.9f};
constexpr float kOutline[4] = {0.0f, 0.0f, 0.0f, 0.8f};

// The opacity of trail shape i of n (oldest first): the older, the fainter.
float trailAlpha(std::size_t i, std::size_t n) {
  return n <= 1 ? 0.6f : 0.2f + 0.4f * static_cast<float>(i) / static_cast<float>(n - 1);
}
}  // namespace

std::array<float, 4> snakeColor(const SnakeContour& c) { return forceColor(c.force); }

float snakeLineHalfWidth(SnakeForce force) {
  return force == SnakeForce::Gvf ? kGvfLineHalfWidth : kLineHalfWidth;
}

SnakeLine snakeLine(const SnakeContour& c) {
  if (c.state == SnakeState::Collapsed) return {stateColor(c.state), kLineHalfWidth * 0.75f};
  return {forceColor(c.force), snakeLineHalfWidth(c.force)};
}

std::vector<std::size_t> snakeDrawOrder(const std::vector<SnakeContour>& contours) {
  std::vector<std::size_t> order;
  for (SnakeForce f : kSnakeForces)
    for (std::size_t i = 0; i < contours.size(); ++i)
      if (contours[i].force == f) order.push_back(i);
  return order;
}

std::vector<glm::vec2> thickLineStrip(const std::vector<glm::vec2>& pts, bool closed,
                                      float halfWidth) {
  std::vector<glm::vec2> out;
  const std::size_t n = pts.size();
  if (n < 2) return out;
  auto normal = [&](std::size_t a, std::size_t b) {
    glm::vec2 d = pts[b] - pts[a];
    float len = glm::length(d);
    return len > 0 ? glm::vec2(-d.y, d.x) / len : glm::vec2(0, 0);
  };
  const std::size_t count = closed ? n + 1 : n;
  for (std::size_t k = 0; k < count; ++k) {
    const std::size_t i = k % n;
    glm::vec2 before = (closed || i > 0) ? normal((i + n - 1) % n, i) : normal(0, 1);
    glm::vec2 after = (closed || i + 1 < n) ? normal(i, (i + 1) % n) : normal(n - 2, n - 1);
    if (glm::length(before) == 0) before = after;
    if (glm::length(after) == 0) after = before;
    glm::vec2 m = before + after;
    float ml = glm::length(m);
    m = ml > 1e-6f ? m / ml : after;
    // Mitre length, clamped so hairpin turns do not spike.
    const float c = std::max(glm::dot(m, after), 0.5f);
    const glm::vec2 offset = m * (halfWidth / c);
    out.push_back(pts[i] + offset);
    out.push_back(pts[i] - offset);
  }
  return out;
}

void SnakeLayer::setCapture(const std::vector<unsigned char>& rgba, int width, int height) {
  if (rgba.size() != static_cast<std::size_t>(width) * height * 4) return;
  uploadTexture(captureTexture_, captureWidth_, captureHeight_, GL_RGBA8, GL_RGBA, GL_UNSIGNED_BYTE,
                width, height, rgba.data(), 1);
}

void SnakeLayer::draw(const LayerFrame& frame) {
  const SnakeScene& scene = *frame.snakes;
  if (scene.captureRgba && scene.captureVersion != captureVersion_) {
    setCapture(*scene.captureRgba, scene.captureWidth, scene.captureHeight);
    captureVersion_ = scene.captureVersion;
  }
  draw(frame.area, frame.view, scene.drawing, scene.showCapture, scene.captureOpacity);
}

void SnakeLayer::draw(const Viewport& viewport, const ViewTransform& view,
                      const SnakeDrawing& snakes, bool showCapture, float captureOpacity) {
  auto& f = gl();
  if (showCapture && captureWidth_ > 0) {
    beginOverlayDraw(viewport);
    GLuint p = capture_.program();
    f.glUseProgram(p);
    f.glActiveTexture(GL_TEXTURE0);
    f.glBindTexture(GL_TEXTURE_2D, captureTexture_.id());
    f.glUniform1i(uniformAt(p, "uCapture"), 0);
    f.glUniform1f(uniformAt(p, "uOpacity"), captureOpacity);
    capture_.draw(view);
    f.glBindTexture(GL_TEXTURE_2D, 0);
  }
  lines_.begin(viewport, view);
  f.glEnable(GL_PROGRAM_POINT_SIZE);
  // Dots shrink when zoomed out so dense snakes stay readable.
  const float dot = std::clamp(view.pixelsPerImagePixel() * 1.2f, 2.0f, 6.0f);
  const float toImage = 1.0f / std::max(view.pixelsPerImagePixel(), 1e-6f);
  if (snakes.trails)  // under everything else: the snakes' paths, faded with age
    for (const auto& t : *snakes.trails)
      for (std::size_t i = 0; i < t.shapes.size(); ++i) {
        SnakeRgba color = forceColor(t.force);
        color[3] = trailAlpha(i, t.shapes.size());
        lines_.draw(GL_TRIANGLE_STRIP,
                    thickLineStrip(t.shapes[i], t.closed, kTrailHalfWidth * toImage), color.data());
      }
  if (snakes.contours) {
    // All outlines first, so a snake never darkens its neighbour's line.
    for (const auto& c : *snakes.contours)
      lines_.draw(GL_TRIANGLE_STRIP,
                  thickLineStrip(c.points, c.closed(), kOutlineHalfWidth * toImage), kOutline);
    for (std::size_t k : snakeDrawOrder(*snakes.contours)) {
      const SnakeContour& c = (*snakes.contours)[k];
      const SnakeRgba force = forceColor(c.force);
      const SnakeRgba state = stateColor(c.state);
      const SnakeLine line = snakeLine(c);
      const bool highlighted = c.id == snakes.highlightId;
      const float* color = highlighted ? kDraft : force.data();
      const bool selected = snakes.selectedId != 0 && c.id == snakes.selectedId;
      const float size = selected ? dot + 2 : dot;  // the panel's snake
      lines_.draw(GL_TRIANGLE_STRIP, thickLineStrip(c.points, c.closed(), line.halfWidth * toImage),
                  highlighted ? kDraft : line.color.data());
      if (snakes.showNodes || selected) {
        // A stopped snake's state as a dot inside each node: the force's colour stays around;
        // a collapsed snake's nodes the other way round, grey like its line.
        const bool collapsed = c.state == SnakeState::Collapsed;
        lines_.draw(GL_POINTS, c.points, kOutline, size + 2, true);
        lines_.draw(GL_POINTS, c.points, collapsed && !highlighted ? state.data() : color, size,
                    true);
        if (c.state != SnakeState::Moving)
          lines_.draw(GL_POINTS, c.points, collapsed ? force.data() : state.data(),
                      std::max(size * 0.5f, 2.0f), true);
      }
    }
  }
  if (snakes.draft.size() >= 2) lines_.draw(GL_LINE_STRIP, snakes.draft, kDraft);
  if (!snakes.draft.empty()) lines_.draw(GL_POINTS, snakes.draft, kDraft, dot + 1, true);
  f.glDisable(GL_PROGRAM_POINT_SIZE);
  endOverlayDraw();
}

}  // namespace gvflab::viewer
