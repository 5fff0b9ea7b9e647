#pragma once
// World geometry (gvflab/world_geometry.hpp) in the headers gvflab reads and writes. The writers
// (setNiftiGeometry in io/nifti_file.cpp, setNrrdSpace in io/nrrd_file.cpp) serve fields and
// label masks (io/mask_file) alike, so an output of either kind overlays its input the same way.
#include <cmath>

#include "gvflab/world_geometry.hpp"

namespace gvflab::app {

// One rule for every reader and writer: a geometry is usable when its spacing is finite and
// > 0, its origin finite and its direction finite and invertible. Readers mark any other
// unknown (never 1 mm by default); writers write it as no geometry, so no header they write
// carries NaN or infinity.
inline bool usableGeometry(const WorldGeometry& g) {
  for (double s : g.spacing)
    if (!std::isfinite(s) || s <= 0) return false;
  for (double o : g.origin)
    if (!std::isfinite(o)) return false;
  for (double d : g.direction)
    if (!std::isfinite(d)) return false;
  const auto& m = g.direction;
  const double det = m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6]) +
                     m[2] * (m[3] * m[7] - m[4] * m[6]);
  return std::isfinite(det) && std::abs(det) > 1e-6;
}

}  // namespace gvflab::app
