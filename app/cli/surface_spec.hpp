#pragma once
// The surface flags of the CLI (headless, and the viewer's start-up surfaces), 3D counterparts
// of --snake for volume inputs:
//   --surface sphere:X,Y,Z,R | box:X0,Y0,Z0,X1,Y1,Z1  [@gvf | @traditional]   (repeatable)
//   (voxel coordinates, as --snake uses pixel coordinates; the 2D snakes' parameters apply)
//   --save-surfaces FILE.ply|.obj|.stl: one file per surface, FILE-1.ply, FILE-2.ply, ...
#include <cstddef>
#include <glm/vec3.hpp>
#include <optional>
#include <string>

#include "gvflab/parametric_snake.hpp"
#include "gvflab/surface_mesh.hpp"

namespace gvflab::app {

struct SurfaceSpec {
  enum class Shape { Sphere, Box };
  std::string text;  // as given, for messages
  Shape shape = Shape::Sphere;
  glm::dvec3 centre{0.0};  // sphere
  double radius = 0;
  glm::dvec3 lo{0.0}, hi{0.0};      // box corners
  std::optional<SnakeForce> force;  // from "@FORCE"; none: --snake-force
  std::optional<double> pressure;   // its own (sessions); none: --pressure
  // A session's surface: where it is now (the start of this run) and where it started (kept
  // for a restart); empty for a shape of the command line.
  SurfaceMesh current, initial;
  SnakeForce forceOr(SnakeForce fallback) const { return force.value_or(fallback); }
  // The start mesh, edges about (dmin + dmax) / 2 long (a session's: `current`).
  SurfaceMesh mesh(const SnakeParams& params) const;
  // SurfaceSnake's rules for a width x height x depth volume, from the numbers before a mesh
  // is built: ParameterError, ResourceError.
  void check(int width, int height, int depth, const SnakeParams& params) const;
};

// ParameterError "WHERE: more than 64 surfaces; ..." beyond kMaxSurfaces (gvflab/input_limits.hpp).
void checkSurfaceCount(std::size_t count, const std::string& where);

// Parses "sphere:X,Y,Z,R" or "box:X0,Y0,Z0,X1,Y1,Z1", optionally followed by "@gvf" or
// "@traditional". Throws ParameterError with a sentence that shows the expected form.
SurfaceSpec parseSurfaceSpec(const std::string& text);

}  // namespace gvflab::app
