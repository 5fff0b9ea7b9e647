#pragma once
// Streamlines of a 2D vector field: from seeds on a regular grid, integrated with midpoint
// (RK2) steps of half a pixel along the field's direction, forward and backward, until the
// field vanishes, the line leaves the image or gets long. No GL here, so it can be tested.
#include <glm/vec2.hpp>
#include <vector>

namespace gvflab::viewer {

struct StreamlineParams {
  float spacing = 16.0f;  // image pixels between seeds
  float step = 0.5f;      // pixels per integration step
  int maxSteps = 240;     // per direction
  float minMagnitude = 1e-6f;
};

// field: float2 per pixel, row-major, width * height. Returns one polyline per seed with at
// least two points, in image pixels (pixel centres at i + 0.5).
std::vector<std::vector<glm::vec2>> traceStreamlines(const std::vector<float>& field, int width,
                                                     int height, const StreamlineParams& params);

}  // namespace gvflab::viewer
