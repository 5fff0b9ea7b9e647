#include "viewer/render/composite_figure.hpp"

#include <QFont>
#include <QFontMetricsF>
#include <QPainter>
#include <algorithm>
#include <cstdio>
#include <map>

#include "gvflab/error.hpp"
#include "gvflab/gvf_input.hpp"
#include "io/snake_palette.hpp"
#include "viewer/model/snake_session.hpp"
#include "viewer/render/figure.hpp"
#include "viewer/render/figure_renderer.hpp"

namespace gvflab::viewer {

namespace {
// The strip under panels panelHeight tall: compositeLayout's rule (height / 6) solved for the
// whole height, so the panels keep their size.
int stripFor(int panelHeight) {
  int strip = std::clamp(panelHeight / 5, 24, 64);
  while (strip > 24 && std::clamp((panelHeight + strip) / 6, 24, 64) < strip) --strip;
  while (std::clamp((panelHeight + strip) / 6, 24, 64) > strip) ++strip;
  return strip;
}
}  // namespace

CompositeLayout compositeLayout(int width, int height) {
  CompositeLayout l;
  l.width = width;
  l.height = height;
  l.strip = std::clamp(height / 6, 24, 64);  // two lines of caption
  l.panelWidth = width / CompositeLayout::kPanels;
  l.panelHeight = height - l.strip;
  if (l.panelWidth < 16 || l.panelHeight < 16)
    throw ParameterError("A composite figure of " + std::to_string(width) + "x" +
                         std::to_string(height) + " leaves panels under 16 px; use at least " +
                         "64x" + std::to_string(16 + l.strip) + ".");
  return l;
}

std::array<int, 2> compositeSize(int imageWidth, int imageHeight) {
  const int longSide = std::max({imageWidth, imageHeight, 1});
  const int factor = std::max(1, (256 + longSide - 1) / longSide);
  const int w = imageWidth * factor, h = imageHeight * factor;
  return {CompositeLayout::kPanels * w, h + stripFor(h)};
}

std::array<int, 2> compositeSizeForWidth(int width, int imageWidth, int imageHeight) {
  const int panelW = std::max(width / CompositeLayout::kPanels, 16);
  const int panelH = std::max(panelW * std::max(imageHeight, 1) / std::max(imageWidth, 1), 16);
  return {CompositeLayout::kPanels * panelW, panelH + stripFor(panelH)};
}

std::array<std::string, CompositeLayout::kPanels> compositeCaptions(
    double sigma, const std::string& solver, double error,
    const std::vector<SnakeContour>& snakes) {
  char buf[160];
  std::array<std::string, CompositeLayout::kPanels> c;
  c[0] = "(a) image";
  std::snprintf(buf, sizeof buf, "(b) edge map f (sigma %g)", sigma);
  c[1] = buf;
  std::snprintf(buf, sizeof buf, "(c) GVF |V| and direction (%s, error %.1e)", solver.c_str(),
                error);
  c[2] = buf;
  std::string s = "(d) snakes";
  std::map<std::string, int> seen;  // "GVF converged" -> count, in a stable order
  std::vector<std::string> order;
  for (const auto& sn : snakes) {
    const std::string k = std::string(forceLabel(sn.force)) + " " + snakeStateName(sn.state);
    if (seen[k]++ == 0) order.push_back(k);
  }
  for (std::size_t i = 0; i < order.size(); ++i)
    s += (i ? ", " : ": ") + order[i] +
         (seen[order[i]] > 1 ? " x" + std::to_string(seen[order[i]]) : "");
  c[3] = s;
  return c;
}

QImage drawComposite(int width, int height, const DeviceInfo& device, cl::CommandQueue& queue,
                     const CompositeParts& parts) {
  const CompositeLayout l = compositeLayout(width, height);
  const int fw = parts.image->width, fh = parts.image->height;
  QImage out(width, height, QImage::Format_RGB888);
  out.fill(QColor(24, 24, 28));
  std::array<QImage, CompositeLayout::kPanels> panels;
  {
    FigureRenderer r(l.panelWidth, l.panelHeight, device);
    const std::vector<SnakeContour> none;
    LayerSettings plain = parts.layers;  // the picture alone, grey
    plain.showImage = true;
    plain.showMagnitude = plain.showGlyphs = plain.showStreamlines = false;
    plain.imageBrightness = 1.0f;
    r.setImage(*parts.image);
    panels[0] = r.draw(queue, *parts.field, fw, fh, plain, none, false, 0);
    r.setImage(*parts.edgeMap);
    panels[1] = r.draw(queue, *parts.field, fw, fh, plain, none, false, 0);
    LayerSettings field = parts.layers;  // |V| and its direction, no picture under it
    field.showImage = false;
    field.showMagnitude = field.showGlyphs = true;
    field.magnitudeOpacity = 1.0f;
    field.glyphSpacing = std::max(12.0f, l.panelWidth / 20.0f);
    r.setImage(*parts.image);
    panels[2] = r.draw(queue, *parts.field, fw, fh, field, none, false, 0);
    r.setShowNodes(false);  // lines in the force's colour: the caption says the states
    panels[3] = r.draw(queue, *parts.field, fw, fh, plain, *parts.snakes, false, 0, parts.trails);
  }
  QPainter p(&out);
  p.setPen(QColor(235, 235, 235));
  for (int i = 0; i < CompositeLayout::kPanels; ++i) {
    p.drawImage(l.panel(i).topLeft(), panels[i]);
    // Up to two lines, the font shrunk until the caption fits its strip.
    const QRect strip = l.caption(i).adjusted(4, 2, -4, -2);
    const QString text = QString::fromStdString(parts.captions[i]);
    QFont font = p.font();
    int size = std::clamp(l.strip * 2 / 5, 9, 22);
    for (;; --size) {
      font.setPixelSize(size);
      const QRectF need =
          QFontMetricsF(font).boundingRect(strip, Qt::AlignCenter | Qt::TextWordWrap, text);
      if (size <= 8 || (need.width() <= strip.width() && need.height() <= strip.height())) break;
    }
    p.setFont(font);
    p.drawText(strip, Qt::AlignCenter | Qt::TextWordWrap, text);
  }
  p.end();
  return out;
}

QImage sessionComposite(Session& session, const SnakeSession& snakes, const LayerSettings& layers,
                        int width) {
  const Image2D& image = session.image();
  const auto size = compositeSizeForWidth(width, image.width, image.height);
  const Image2D edge = readEdgeMap(session.context(), session.planeInput());
  CompositeParts parts;
  parts.image = &image;
  parts.edgeMap = &edge;
  parts.field = &session.planeField();
  parts.snakes = &snakes.contours();
  parts.trails = &snakes.trails();
  parts.layers = layers;
  parts.captions = compositeCaptions(session.sigma(), solverDisplayName(session.solver().name()),
                                     session.epsilon(), snakes.contours());
  return drawComposite(size[0], size[1], session.device(), session.context().queue(), parts);
}

}  // namespace gvflab::viewer
