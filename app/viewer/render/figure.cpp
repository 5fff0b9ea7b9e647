#include "viewer/render/figure.hpp"

#include <QBuffer>
#include <QByteArray>
#include <QFont>
#include <QFontMetrics>
#include <QPainter>
#include <QPainterPath>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "gvflab/error.hpp"
#include "gvflab/io.hpp"
#include "viewer/model/axis_ticks.hpp"
#include "viewer/model/session.hpp"
#include "viewer/render/colormap.hpp"
#include "viewer/render/snake_layer.hpp"

namespace gvflab::viewer {
namespace {

const char* forceLabel(SnakeForce f) { return f == SnakeForce::Gvf ? "GVF" : "traditional"; }

QColor toQColor(const std::array<float, 4>& c) {
  return QColor::fromRgbF(c[0], c[1], c[2], c[3]);
}

std::string number(const char* fmt, double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}

// The colour bar with its round ticks, inside rect (bar on the left, labels right of it).
void paintColourBar(QPainter& p, const QRectF& bar, const FigureFacts& facts) {
  const float decades = facts.layers.logScale ? facts.layers.logDecades : 0.0f;
  QLinearGradient g(bar.bottomLeft(), bar.topLeft());
  for (int i = 0; i <= 16; ++i) {
    const float t = i / 16.0f;
    const Rgb c = colormapAt(facts.layers.colormap, t);
    g.setColorAt(t, QColor::fromRgbF(c.r, c.g, c.b));
  }
  p.fillRect(bar, g);
  p.setPen(QPen(QColor(220, 220, 220), 1));
  p.drawRect(bar);
  const QFontMetricsF fm(p.font());
  for (const Tick& tick : legendTicks(facts.rangeMax, decades)) {
    const float t = scalePosition(static_cast<float>(tick.value), facts.rangeMax, decades);
    const double y = bar.bottom() - t * bar.height();
    p.drawLine(QPointF(bar.right(), y), QPointF(bar.right() + 5, y));
    p.drawText(QPointF(bar.right() + 8, y + fm.ascent() * 0.4), QString::fromStdString(tick.label));
  }
}

}  // namespace

void writeFigurePng(const std::string& path, const QImage& image) {
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  if (!image.save(&buffer, "PNG"))
    throw ResourceError("Could not encode the figure for '" + path + "' as PNG.");
  try {
    writeFileAtomically(path, std::string(bytes.constData(), static_cast<std::size_t>(bytes.size())));
  } catch (const Error&) {
    throw;
  } catch (const std::exception& e) {
    throw ResourceError("Could not write the figure '" + path + "': " + e.what());
  }
}

std::string solverDisplayName(const std::string& name) { return name == "euler" ? "Euler" : name; }

FigureFacts figureFacts(const Session& session, const std::vector<SnakeContour>& snakes,
                        const LayerSettings& layers, float rangeMax) {
  FigureFacts f;
  f.layers = layers;
  f.rangeMax = rangeMax;
  f.snakes = snakes;
  f.iterations = session.iterations();
  f.mu = session.mu();
  f.epsilon = session.epsilon();
  f.solver = solverDisplayName(solverKindName(session.solverKind()));
  f.volume = session.isVolume();
  return f;
}

std::vector<LegendEntry> snakeLegendEntries(const std::vector<SnakeContour>& snakes,
                                            std::size_t maxEntries) {
  std::vector<LegendEntry> out;
  if (snakes.size() <= maxEntries) {
    for (const auto& c : snakes)
      out.push_back({snakeColor(c), std::string(forceLabel(c.force)) + ", " +
                                        snakeStateName(c.state) + ", " +
                                        std::to_string(c.iterations) + " it."});
    return out;
  }
  std::map<std::pair<int, int>, std::pair<int, const SnakeContour*>> groups;
  for (const auto& c : snakes) {
    auto& g = groups[{static_cast<int>(c.force), static_cast<int>(c.state)}];
    ++g.first, g.second = &c;
  }
  for (const auto& [key, g] : groups)
    out.push_back({snakeColor(*g.second), std::string(forceLabel(g.second->force)) + ", " +
                                              snakeStateName(g.second->state) + ": " +
                                              std::to_string(g.first) + " snakes"});
  return out;
}

std::string figureCaption(const FigureFacts& f) {
  const std::string dot = " \xc2\xb7 ";
  std::string s = "iteration " + std::to_string(f.iterations) + dot + "\xce\xbc " +
                  number("%.4g", f.mu) + dot + "\xce\xb5 " + number("%.2e", f.epsilon) + dot +
                  f.solver;
  if (f.snakes.empty()) return s;
  s += dot + "snakes: ";
  if (f.snakes.size() <= 4) {
    for (std::size_t i = 0; i < f.snakes.size(); ++i)
      s += (i ? ", " : "") + std::string(forceLabel(f.snakes[i].force)) + " " +
           snakeStateName(f.snakes[i].state);
  } else {
    int gvf = 0;
    for (const auto& c : f.snakes) gvf += c.force == SnakeForce::Gvf;
    const int trad = static_cast<int>(f.snakes.size()) - gvf;
    if (gvf) s += std::to_string(gvf) + " GVF";
    if (trad) s += std::string(gvf ? ", " : "") + std::to_string(trad) + " traditional";
  }
  return s;
}

void annotateFigure(QImage& image, const FigureOptions& options, const FigureFacts& facts) {
  if (!options.legend && !options.caption) return;
  if (image.format() != QImage::Format_RGB888 && image.format() != QImage::Format_ARGB32_Premultiplied)
    image = image.convertToFormat(QImage::Format_RGB888);
  QPainter p(&image);
  p.setRenderHint(QPainter::Antialiasing);
  p.setRenderHint(QPainter::TextAntialiasing);
  QFont font = p.font();
  font.setPixelSize(std::clamp(image.height() / 40, 11, 28));
  p.setFont(font);
  const QFontMetricsF fm(font);
  const double pad = fm.height() * 0.5, line = fm.height();
  const QColor panel(20, 20, 24, 190), text(238, 238, 242);

  double captionTop = image.height();
  if (options.caption) {
    const QString caption = QString::fromStdString(figureCaption(facts));
    const QRectF area(pad, 0, image.width() - 2 * pad, image.height());
    const QRectF need = fm.boundingRect(area, Qt::TextWordWrap, caption);
    captionTop = image.height() - need.height() - 2 * pad * 0.6;
    p.fillRect(QRectF(0, captionTop, image.width(), image.height() - captionTop), panel);
    p.setPen(text);
    p.drawText(QRectF(pad, captionTop + pad * 0.6, image.width() - 2 * pad, need.height()),
               Qt::TextWordWrap, caption);
  }
  if (!options.legend) return;
  const bool scale = facts.layers.showMagnitude && facts.rangeMax > 0;
  const auto entries = snakeLegendEntries(facts.snakes);
  if (!scale && entries.empty()) return;
  // Size the box: the bar with its labels, then one line per snake.
  double width = 0;
  for (const auto& e : entries)
    width = std::max(width, 3.2 * line + fm.horizontalAdvance(QString::fromStdString(e.text)));
  const QString title = facts.layers.logScale ? "|V| (log)" : "|V|";
  double barH = 0;
  if (scale) {
    double labels = 0;
    const float decades = facts.layers.logScale ? facts.layers.logDecades : 0.0f;
    for (const Tick& t : legendTicks(facts.rangeMax, decades))
      labels = std::max(labels, fm.horizontalAdvance(QString::fromStdString(t.label)));
    width = std::max({width, line * 1.2 + 10 + labels, fm.horizontalAdvance(title)});
    barH = std::clamp(captionTop * 0.35, 4.0 * line, 12.0 * line);
  }
  const double boxW = width + 2 * pad;
  const double boxH = 2 * pad + (scale ? line + barH + line * 0.6 : 0) +
                      entries.size() * line * 1.15;
  const QRectF box(image.width() - boxW - pad, pad, boxW, std::min(boxH, captionTop - 2 * pad));
  p.fillRect(box, panel);
  double y = box.top() + pad;
  p.setPen(text);
  if (scale) {
    p.drawText(QPointF(box.left() + pad, y + fm.ascent()), title);
    y += line + line * 0.3;
    paintColourBar(p, QRectF(box.left() + pad, y, line * 1.2, barH), facts);
    y += barH + line * 0.6;
  }
  for (const auto& e : entries) {
    const double mid = y + line * 0.55;
    const QPointF a(box.left() + pad, mid), b(box.left() + pad + 2.4 * line, mid);
    p.setPen(QPen(QColor(0, 0, 0, 210), 5, Qt::SolidLine, Qt::RoundCap));
    p.drawLine(a, b);
    p.setPen(QPen(toQColor(e.color), 2.2, Qt::SolidLine, Qt::RoundCap));
    p.drawLine(a, b);
    p.setPen(text);
    p.drawText(QPointF(b.x() + 0.8 * line, y + fm.ascent()), QString::fromStdString(e.text));
    y += line * 1.15;
  }
}

}  // namespace gvflab::viewer
