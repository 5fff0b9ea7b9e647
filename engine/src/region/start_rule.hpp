#pragma once
// The region snake's target is the inside of its start contour (issue 44). A start drawn around
// an object holds the object and some background; where the background is most of it, the PLH
// criterion takes the background as the target, and the polygon grows out of the start and
// around the object, which it leaves out (a rectangle around a coin: IoU 0.001 with the coin).
// Host-side, once, when the snake has finished.
#include <cstdint>
#include <optional>
#include <vector>

#include "gvflab/region_types.hpp"

namespace gvflab::detail {

// The start to run again from when `result` grew out of `start` around an object: the box of
// the largest part of the start that the result left out and that lies inside the start, away
// from its border (the object the start was drawn around; slits of up to 2 pixels, by which a
// simple polygon reaches around it, do not join it to the border). nullopt when the result kept
// the start (it grew from inside the object, or shrank onto it), or when what it left out
// touches the start's border (a start across the object's edge: the result is the object).
// resultPixels: the pixels inside `result` (the snake's target count).
std::optional<std::vector<Point2i>> startAroundObject(const std::vector<Point2i>& start,
                                                      const std::vector<Point2i>& result,
                                                      std::int64_t resultPixels);

}  // namespace gvflab::detail
