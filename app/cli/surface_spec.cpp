#include "cli/surface_spec.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "cli/spec_numbers.hpp"
#include "gvflab/error.hpp"
#include "gvflab/input_limits.hpp"
#include "gvflab/quoted.hpp"
#include "gvflab/surface_snake.hpp"

namespace gvflab::app {
namespace {

// Short, so that a refusal with 60 echoed characters stays one line of at most 300 (the
// malformed-input corpus checks it); --help has the coordinates' convention.
const char* kSurfaceForms =
    "use sphere:X,Y,Z,R or box:X0,Y0,Z0,X1,Y1,Z1 (voxels), optionally followed by @gvf or "
    "@traditional";

std::string named(const std::string& spec) { return "--surface " + quotedText(spec); }

double edgeLength(const SnakeParams& params) { return 0.5 * (params.dmin + params.dmax); }

}  // namespace

SurfaceMesh SurfaceSpec::mesh(const SnakeParams& params) const {
  if (!current.empty()) return current;
  if (shape == Shape::Sphere) return sphereMesh(centre, radius, edgeLength(params));
  return boxMesh(lo, hi, edgeLength(params));
}

void SurfaceSpec::check(int width, int height, int depth, const SnakeParams& params) const {
  if (!current.empty()) {
    SurfaceSnake::checkSurface(current, width, height, depth, params);
    if (!initial.empty()) SurfaceSnake::checkSurface(initial, width, height, depth, params);
    return;
  }
  if (shape == Shape::Sphere) {
    SurfaceSnake::checkSphere(centre, radius, width, height, depth, params);
    return;
  }
  // A box from its numbers before its vertices are built: inside the volume, and not more
  // vertices than a surface may have (a box of a x b x c squares has 2(ab + bc + ca) + 2).
  const glm::dvec3 size(width, height, depth);
  for (int a = 0; a < 3; ++a)
    if (lo[a] < 0 || hi[a] > size[a]) {
      std::ostringstream msg;
      msg << "The box from (" << lo.x << ", " << lo.y << ", " << lo.z << ") to (" << hi.x << ", "
          << hi.y << ", " << hi.z << ") lies outside the " << width << "x" << height << "x" << depth
          << " volume.";
      throw ParameterError(msg.str());
    }
  double cells[3];
  for (int a = 0; a < 3; ++a) cells[a] = std::ceil((hi[a] - lo[a]) / edgeLength(params));
  const double vertices = 2 * (cells[0] * cells[1] + cells[1] * cells[2] + cells[2] * cells[0]) + 2;
  if (vertices > static_cast<double>(SurfaceSnake::kMaxVertices))
    throw ResourceError("The box would have about " +
                        std::to_string(static_cast<long long>(vertices)) +
                        " vertices at edges of " + std::to_string(edgeLength(params)) +
                        " voxels; a surface may have at most " +
                        std::to_string(SurfaceSnake::kMaxVertices) + " (raise --dmin, --dmax).");
  SurfaceSnake::checkSurface(mesh(params), width, height, depth, params);
}

void checkSurfaceCount(std::size_t count, const std::string& where) {
  if (count > kMaxSurfaces)
    throw ParameterError(where + ": more than " + std::to_string(kMaxSurfaces) +
                         " surfaces; at most " + std::to_string(kMaxSurfaces) + " run at once.");
}

SurfaceSpec parseSurfaceSpec(const std::string& text) {
  SurfaceSpec s;
  s.text = text;
  const std::string shape = splitSpecForce(text, named(text), s.force);
  const std::size_t colon = shape.find(':');
  const std::string kind = shape.substr(0, colon);
  if (colon == std::string::npos || (kind != "sphere" && kind != "box"))
    throw ParameterError(named(text) + " is not a surface; " + kSurfaceForms + ".");
  const auto v = parseSpecNumbers(shape.substr(colon + 1),
                                  {named(text), kSurfaceForms, "voxels", 6,
                                   std::string(" has too many numbers; ") + kSurfaceForms + "."});
  if (kind == "sphere") {
    if (v.size() != 4) throw ParameterError(named(text) + ": a sphere needs exactly X,Y,Z,R.");
    if (!(v[3] > 0)) throw ParameterError(named(text) + ": the radius must be > 0.");
    s.shape = SurfaceSpec::Shape::Sphere;
    s.centre = {v[0], v[1], v[2]};
    s.radius = v[3];
    return s;
  }
  if (v.size() != 6)
    throw ParameterError(named(text) + ": a box needs exactly X0,Y0,Z0,X1,Y1,Z1 (two corners).");
  s.shape = SurfaceSpec::Shape::Box;
  for (int a = 0; a < 3; ++a) {
    s.lo[a] = std::min(v[a], v[a + 3]);
    s.hi[a] = std::max(v[a], v[a + 3]);
    if (!(s.hi[a] > s.lo[a]))
      throw ParameterError(named(text) + ": the box is flat along " + std::string(1, "xyz"[a]) +
                           "; give two opposite corners.");
  }
  return s;
}

}  // namespace gvflab::app
