#include "viewer/ui/contours_dialog.hpp"

#include <QFileDialog>

#include "io/contour_formats.hpp"

namespace gvflab::viewer {

std::vector<app::ContourRecord> contourRecords(const std::vector<SnakeContour>& contours) {
  std::vector<app::ContourRecord> records;
  for (const auto& c : contours) {
    app::ContourRecord r;
    for (const auto& p : c.points) r.points.push_back({p.x, p.y});
    r.iterations = c.iterations;
    r.converged = c.converged();
    r.force = forceName(c.force);
    if (!c.closed()) r.openBoundary = boundaryName(c.boundary);
    records.push_back(std::move(r));
  }
  return records;
}

void saveContoursDialog(QWidget* parent, const std::vector<SnakeContour>& contours, int width,
                        int height, ErrorLog& errors) {
  if (contours.empty()) {
    errors.add("Saving contours: there are no snakes; draw one first.");
    return;
  }
  const QString path = QFileDialog::getSaveFileName(parent, "Save contours", "contours.geojson",
                                                    QString::fromUtf8(app::contourFileFilter()));
  if (path.isEmpty()) return;
  errors.guard("Saving contours", [&] {
    app::writeContours(path.toStdString(), contourRecords(contours), width, height);
  });
}

}  // namespace gvflab::viewer
