#include "viewer/ui/contours_dialog.hpp"

#include <QFileDialog>

#include "io/contour_formats.hpp"

namespace gvflab::viewer {

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
    app::writeContours(path.toStdString(), app::contourRecords(contours), {width, height});
  });
}

}  // namespace gvflab::viewer
