#pragma once
// The region snake's target is the inside of its start contour (issue 44). A start drawn around
// an object holds the object and a band of background along its border; where the background
// is most of it, the PLH criterion takes the background as the target and the polygon grows out
// of the start (a rectangle around a coin: IoU 0.03 with the coin, the snake spread over the
// photo). Host-side, once, when such a snake has finished bigger than its start.
#include <cstdint>
#include <optional>
#include <vector>

#include "gvflab/region_types.hpp"

namespace gvflab::detail {

struct PixelBox {
  int x0 = 0, y0 = 0, x1 = 0, y1 = 0;  // inclusive
  int width() const { return x1 - x0 + 1; }
  int height() const { return y1 - y0 + 1; }
  std::int64_t pixels() const { return std::int64_t(width()) * height(); }
};

// The box of the start's nodes (the pixels the rule reads).
PixelBox startBox(const std::vector<Point2i>& start);
// Boxes larger than this are not examined (the rule reads and scans them on the host).
inline constexpr std::int64_t kMaxStartBoxPixels = std::int64_t(1) << 24;

// The start to run again from, or nullopt to keep the result. Only a result bigger than its
// start (resultPixels > 1.1 x the start's) is examined: then, when the inside of the start
// (within a border band of a sixteenth of its smaller side, at least 2 pixels) holds a region
// unlike the band (its 5 x 5 mean more than 2 standard deviations of the band's grey levels
// from the band's mean; at least 9 pixels and 2% of the start), the start was drawn around that
// object: the largest square inside its largest 4-connected part (nearest its centroid) is the
// new start, as a start drawn inside the object would be. A start
// inside an object (one region throughout) is left as it was, and so is a start across an
// object's edge (a band over two regions spreads too wide to single one out).
// boxPixels: the 16-bit grey levels of startBox(start), row-major.
std::optional<std::vector<Point2i>> startAroundObject(const std::vector<Point2i>& start,
                                                      std::int64_t resultPixels,
                                                      const std::vector<std::uint16_t>& boxPixels);

}  // namespace gvflab::detail
