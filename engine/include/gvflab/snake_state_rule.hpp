#pragma once
// The one rule that names how a stopped active contour ended, for 2D snakes (ParametricSnake)
// and 3D surfaces (SurfaceSnake) alike: collapsed outlines nothing whatever holds it; else it
// converged when its force holds some of it and no unheld stretch (2D: a run of nodes along the
// contour; 3D: a connected patch of vertices, measured by its extent) is longer than the
// allowed gap; else it stalled.
#include "gvflab/snake_types.hpp"

namespace gvflab {

inline SnakeState stoppedState(bool collapsed, double heldFraction, double unheldGap,
                               double allowedGap, bool heldOffEdge) {
  if (collapsed) return SnakeState::Collapsed;
  return heldFraction > 0 && unheldGap <= allowedGap && !heldOffEdge ? SnakeState::Converged
                                                                     : SnakeState::Stalled;
}

}  // namespace gvflab
