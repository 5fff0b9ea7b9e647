#include "headless/forces_figure.hpp"

#include <QFont>
#include <QPainter>
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "gvflab/capture_range.hpp"
#include "gvflab/error.hpp"
#include "gvflab/force_fields.hpp"
#include "gvflab/gvf_input.hpp"
#include "io/snake_palette.hpp"
#include "viewer/model/snake_session.hpp"
#include "viewer/render/figure_renderer.hpp"

namespace gvflab::app {
namespace {

// "GGVF: #3 converged 950 it, #4 stalled 3000 it; captures 98 %"
std::string forceCaption(SnakeForce force, const std::vector<SnakeContour>& snakes, long area,
                         std::size_t pixels) {
  std::string s = std::string(forceLabel(force)) + ":";
  for (const auto& c : snakes)
    s += (&c == &snakes.front() ? " #" : ", #") + std::to_string(c.id) + " " +
         snakeStateName(c.state) + " " + std::to_string(c.iterations) + " it";
  return s + "; captures " + std::to_string(std::lround(100.0 * area / pixels)) + " %";
}

}  // namespace

QImage drawForcesComposite(const Options& o, const viewer::LayerSettings& layers,
                           const HeadlessOutcome& r, std::array<int, 2> size) {
  std::vector<SnakeForce> forces;
  for (const auto& c : r.snakes)
    if (std::find(forces.begin(), forces.end(), c.force) == forces.end()) forces.push_back(c.force);
  if (forces.empty()) forces.push_back(o.snakes.force);
  if (forces.size() > 4)
    throw ParameterError("--composite-forces draws at most four forces; the snakes hold " +
                         std::to_string(forces.size()) + ".");
  const int cols = forces.size() > 1 ? 2 : 1;
  const int rows = static_cast<int>(forces.size() + 1) / 2;
  const int strip = std::max(28, size[1] / (12 * rows));
  const int pw = size[0] / cols, ph = size[1] / rows - strip;
  if (pw < 16 || ph < 16) throw ParameterError("--size is too small for the forces' panels.");

  // Not owned: the run's context outlives the figure.
  const std::shared_ptr<ComputeContext> ctx(std::shared_ptr<void>(), &r.context);
  ForceFields fields(
      ctx, buildGvfInput(r.context, r.image, r.sigma, V0Mode::EdgeGradient, r.input.spacing),
      o.snakes.forces);
  CaptureRange capture(ctx, fields.edges());
  viewer::FigureRenderer renderer(pw, ph, r.context.info());
  renderer.setImage(r.image);
  QImage out(size[0], size[1], QImage::Format_RGB888);
  out.fill(Qt::white);
  QPainter painter(&out);
  QFont font = painter.font();
  font.setPixelSize(std::max(10, strip * 2 / 5));
  painter.setFont(font);
  for (std::size_t i = 0; i < forces.size(); ++i) {
    const cl::Buffer& field = fields.field(forces[i], r.solver.field());
    const long area = capture.compute(field, o.snakes.capture);
    renderer.setCapture(viewer::captureOverlayRgba(capture.readSteps(), capture.maxSteps()),
                        capture.width(), capture.height());
    std::vector<SnakeContour> mine;
    for (const auto& c : r.snakes)
      if (c.force == forces[i]) mine.push_back(c);
    const int x = static_cast<int>(i % 2) * pw, y = static_cast<int>(i / 2) * (ph + strip);
    painter.drawImage(x, y,
                      renderer.draw(r.context.queue(), field, r.image.width, r.image.height, layers,
                                    mine, true, static_cast<long>(i)));
    painter.drawText(
        QRect(x + 4, y + ph, pw - 8, strip), Qt::AlignCenter | Qt::TextWordWrap,
        QString::fromStdString(forceCaption(forces[i], mine, area, r.input.pixelCount())));
  }
  return out;
}

}  // namespace gvflab::app
