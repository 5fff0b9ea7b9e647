#pragma once
// File > Save contours...: asks for a file name and writes the viewer's snakes in the format of
// its extension (.json, .geojson, .csv, .svg; see io/contour_formats.hpp).
#include <vector>

#include "gvflab/parametric_snake.hpp"
#include "viewer/ui/error_log.hpp"

class QWidget;

namespace gvflab::viewer {

// Shows the dialog; errors (no snakes, an unwritable file, an unknown extension) go to errors.
void saveContoursDialog(QWidget* parent, const std::vector<SnakeContour>& contours, int width,
                        int height, ErrorLog& errors);

}  // namespace gvflab::viewer
