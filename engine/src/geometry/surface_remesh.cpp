// remesh() (surface_mesh.hpp): first part, checks its arguments and returns the mesh as it is.
#include <cmath>

#include "gvflab/error.hpp"
#include "gvflab/surface_mesh.hpp"

namespace gvflab {

SurfaceMesh remesh(const SurfaceMesh& mesh, double dmin, double dmax) {
  if (!std::isfinite(dmin) || !std::isfinite(dmax) || dmin <= 0 || dmax < 2 * dmin)
    throw ParameterError("Remeshing needs 0 < dmin and 2 dmin <= dmax (got dmin " +
                         std::to_string(dmin) + ", dmax " + std::to_string(dmax) + ").");
  return mesh;
}

}  // namespace gvflab
