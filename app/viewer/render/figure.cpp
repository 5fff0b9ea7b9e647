#include "viewer/render/figure.hpp"

#include <QBuffer>
#include <QByteArray>
#include <QFont>
#include <QFontMetrics>
#include <QPainter>
#include <algorithm>
#include <cstdio>
#include <map>

#include "gvflab/error.hpp"
#include "gvflab/io.hpp"
#include "io/snake_palette.hpp"
#include "viewer/model/axis_ticks.hpp"
#include "viewer/model/colormap.hpp"
#include "viewer/model/session.hpp"
#include "viewer/render/snake_layer.hpp"

namespace gvflab::viewer {
namespace {

const char* figureForceLabel(SnakeForce f) {
  return f == SnakeForce::Traditional ? "traditional" : forceLabel(f);
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
  const std::vector<Tick> ticks = legendTicks(facts.rangeMax, decades);
  std::vector<double> ys;
  for (const Tick& tick : ticks)
    ys.push_back(bar.bottom() -
                 scalePosition(static_cast<float>(tick.value), facts.rangeMax, decades) *
                     bar.height());
  for (std::size_t i : readableTicks(ys, fm.height())) {  // labels never overlap
    p.drawLine(QPointF(bar.right(), ys[i]), QPointF(bar.right() + 5, ys[i]));
    p.drawText(QPointF(bar.right() + 8, ys[i] + fm.ascent() * 0.4),
               QString::fromStdString(ticks[i].label));
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
    writeFileAtomically(path,
                        std::string(bytes.constData(), static_cast<std::size_t>(bytes.size())));
  } catch (const Error&) {
    throw;
  } catch (const std::exception& e) {
    throw ResourceError("Could not write the figure '" + path + "': " + e.what());
  }
}

std::string solverDisplayName(const std::string& name) { return name == "euler" ? "Euler" : name; }

ViewTransform fittedView(int imageWidth, int imageHeight) {
  ViewTransform v;
  v.imageSize = {static_cast<float>(imageWidth), static_cast<float>(imageHeight)};
  return v;
}

FigureFacts figureFacts(const Session& session, const std::vector<SnakeContour>& snakes,
                        const LayerSettings& layers, float rangeMax) {
  FigureFacts f;
  f.view = fittedView(session.image().width, session.image().height);
  f.content = contentBox(session.image());
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
                                            std::size_t maxEntries, bool waiting) {
  std::vector<LegendEntry> out;
  if (snakes.size() <= maxEntries) {
    for (const auto& c : snakes)
      out.push_back({snakeColor(c), std::string(figureForceLabel(c.force)) + ", " +
                                        shownStateName(c.state, waiting) + ", " +
                                        std::to_string(c.iterations) + " it."});
    return out;
  }
  std::map<std::pair<int, int>, std::pair<int, const SnakeContour*>> groups;
  for (const auto& c : snakes) {
    auto& g = groups[{static_cast<int>(c.force), static_cast<int>(c.state)}];
    ++g.first, g.second = &c;
  }
  for (const auto& [key, g] : groups)
    out.push_back({snakeColor(*g.second), std::string(figureForceLabel(g.second->force)) + ", " +
                                              shownStateName(g.second->state, waiting) + ": " +
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
      s += (i ? ", " : "") + std::string(figureForceLabel(f.snakes[i].force)) + " " +
           shownStateName(f.snakes[i].state, f.snakesWaiting);
  } else {
    int count[kSnakeForceCount] = {};
    for (const auto& c : f.snakes) ++count[static_cast<int>(c.force)];
    bool first = true;
    for (SnakeForce force : kSnakeForces)
      if (const int n = count[static_cast<int>(force)]) {
        s += std::string(first ? "" : ", ") + std::to_string(n) + " " + figureForceLabel(force);
        first = false;
      }
  }
  return s;
}

FigureLayout annotateFigure(QImage& image, const FigureOptions& options, const FigureFacts& facts) {
  FigureLayout layout;
  if (!options.legend && !options.caption) return layout;
  if (image.format() != QImage::Format_RGB888 &&
      image.format() != QImage::Format_ARGB32_Premultiplied)
    image = image.convertToFormat(QImage::Format_RGB888);
  QPainter p(&image);
  p.setRenderHint(QPainter::Antialiasing);
  p.setRenderHint(QPainter::TextAntialiasing);
  QFont font = p.font();
  font.setPixelSize(std::clamp(image.height() / 40, 11, 28));
  p.setFont(font);
  const QFontMetricsF fm(font);
  const double pad = fm.height() * 0.5;
  const QColor panel(20, 20, 24, 190), text(238, 238, 242);
  // The snakes' and the image's boxes in the picture, where the legend and caption keep off.
  std::vector<Box> snakes;
  Box object;
  Box imageRect{0, 0, static_cast<float>(image.width()), static_cast<float>(image.height())};
  if (facts.view) {
    ViewTransform v = *facts.view;
    if (v.viewSize.x <= 0 || v.viewSize.y <= 0)
      v.viewSize = {static_cast<float>(image.width()), static_cast<float>(image.height())};
    snakes = snakeBoxes(facts.snakes, v);
    object = objectBox(facts.snakes, v, facts.content);
    imageRect = imageBox(v);
  }

  double captionTop = image.height();  // where a bottom band starts
  double freeTop = 0;  // the legend's area: between the top band (if any) and the bottom one
  if (options.caption) {
    const QString caption = QString::fromStdString(figureCaption(facts));
    const QRectF area(pad, 0, image.width() - 2 * pad, image.height());
    const QRectF need = fm.boundingRect(area, Qt::TextWordWrap, caption);
    const double bandH = need.height() + 2 * pad * 0.6;
    // At the bottom unless the snakes reach into it and the top is free.
    const Box bottom{0, static_cast<float>(image.height() - bandH),
                     static_cast<float>(image.width()), static_cast<float>(bandH)};
    const Box top{0, 0, static_cast<float>(image.width()), static_cast<float>(bandH)};
    const bool atTop = !coversNoSnake(bottom, snakes) && coversNoSnake(top, snakes);
    const Box band = atTop ? top : bottom;
    p.fillRect(QRectF(band.x, band.y, band.w, band.h), panel);
    p.setPen(text);
    p.drawText(QRectF(pad, band.y + pad * 0.6, image.width() - 2 * pad, need.height()),
               Qt::TextWordWrap, caption);
    layout.caption = band;
    if (atTop)
      freeTop = bandH;
    else
      captionTop = band.y;
  }
  if (!options.legend) return layout;
  const bool scale = facts.layers.showMagnitude && facts.rangeMax > 0;
  const auto entries = snakeLegendEntries(facts.snakes, 6, facts.snakesWaiting);
  if (!scale && entries.empty()) return layout;
  const QString title = facts.layers.logScale ? "|V| (log)" : "|V|";
  const double room = captionTop - freeTop;  // the height the legend may use
  const Box area{0, static_cast<float>(freeTop), static_cast<float>(image.width()),
                 static_cast<float>(room)};
  // The legend at one font size and bar height: its box, placed.
  struct Fit {
    QFont font;
    double pad = 0, line = 0, barH = 0;
    Box box;
  };
  const auto fitAt = [&](int pixels, double share) {
    Fit f;
    f.font = font;
    f.font.setPixelSize(pixels);
    const QFontMetricsF m(f.font);
    f.pad = m.height() * 0.5, f.line = m.height();
    // Size the box: the bar with its labels, then one line per snake.
    double width = 0;
    for (const auto& e : entries)
      width = std::max(width, 3.2 * f.line + m.horizontalAdvance(QString::fromStdString(e.text)));
    if (scale) {
      double labels = 0;
      const float decades = facts.layers.logScale ? facts.layers.logDecades : 0.0f;
      for (const Tick& t : legendTicks(facts.rangeMax, decades))
        labels = std::max(labels, m.horizontalAdvance(QString::fromStdString(t.label)));
      width = std::max({width, f.line * 1.2 + 10 + labels, m.horizontalAdvance(title)});
      f.barH = std::clamp(room * share, 4.0 * f.line, 12.0 * f.line);
    }
    const double h =
        2 * f.pad + (scale ? f.line + f.barH + f.line * 0.6 : 0) + entries.size() * f.line * 1.15;
    f.box = placeLegend(area, imageRect, snakes, static_cast<float>(width + 2 * f.pad),
                        static_cast<float>(std::min(h, room - 2 * f.pad)),
                        static_cast<float>(f.pad), object);
    return f;
  };
  // The largest font, then the tallest bar, whose box finds a place off the snakes and the
  // object (the image's content); else the largest off the snakes; else the smallest legend
  // where it covers them least.
  Fit fit;
  std::optional<Fit> offSnakes;
  bool found = false;
  const int largest = font.pixelSize();
  for (int pixels = largest; pixels >= 11 && !found; pixels = std::min(pixels - 1, pixels * 5 / 6))
    for (double share : {0.35, 0.25, 0.15, 0.0}) {
      fit = fitAt(pixels, share);
      if (coversNoSnake(fit.box, snakes) && !offSnakes) offSnakes = fit;
      if ((found = coversNoSnake(fit.box, snakes) && overlapArea(fit.box, object) <= 0)) break;
      if (!scale) break;  // no bar to shorten
    }
  if (!found && offSnakes) fit = *offSnakes;
  const Box box = fit.box;
  p.setFont(fit.font);
  const QFontMetricsF lm(fit.font);
  const double lpad = fit.pad, lline = fit.line, barH = fit.barH;
  layout.legend = box;
  p.fillRect(QRectF(box.x, box.y, box.w, box.h), panel);
  double y = box.y + lpad;
  const double left = box.x;
  p.setPen(text);
  if (scale) {
    p.drawText(QPointF(left + lpad, y + lm.ascent()), title);
    y += lline + lline * 0.3;
    paintColourBar(p, QRectF(left + lpad, y, lline * 1.2, barH), facts);
    y += barH + lline * 0.6;
  }
  for (const auto& e : entries) {
    const double mid = y + lline * 0.55;
    const QPointF a(left + lpad, mid), b(left + lpad + 2.4 * lline, mid);
    p.setPen(QPen(QColor(0, 0, 0, 210), 5, Qt::SolidLine, Qt::RoundCap));
    p.drawLine(a, b);
    const auto& c = e.color;
    p.setPen(QPen(QColor::fromRgbF(c[0], c[1], c[2], c[3]), 2.2, Qt::SolidLine, Qt::RoundCap));
    p.drawLine(a, b);
    p.setPen(text);
    p.drawText(QPointF(b.x() + 0.8 * lline, y + lm.ascent()), QString::fromStdString(e.text));
    y += lline * 1.15;
  }
  return layout;
}

}  // namespace gvflab::viewer
