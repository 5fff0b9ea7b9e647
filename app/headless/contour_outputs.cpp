#include "headless/contour_outputs.hpp"

#include "io/contour_formats.hpp"
#include "io/label_mask.hpp"
#include "io/mask_file.hpp"

namespace gvflab::app {

void writeContourOutputs(const SnakeOptions& o, const std::vector<ContourRecord>& records,
                         const Image2D& image, RunOutputs& outputs,
                         const std::vector<Point2i>* regionNodes) {
  if (o.saveContours) {
    ContourCanvas canvas{image.width, image.height, o.contourCoordinates, image.geometry};
    if (o.svgImage) canvas.background = &image;
    outputs.write(*o.saveContours, [&] { writeContours(*o.saveContours, records, canvas); });
  }
  if (o.saveMask) {
    LabelImage mask;
    if (regionNodes) {
      mask = regionLabel(image.width, image.height, *regionNodes, image.geometry);
    } else {
      std::vector<std::vector<std::array<double, 2>>> contours;
      for (const auto& r : records) contours.push_back(r.points);
      mask = labelContours(image.width, image.height, contours, image.geometry);
    }
    outputs.write(*o.saveMask, [&] { writeMask(*o.saveMask, mask); });
  }
}

}  // namespace gvflab::app
