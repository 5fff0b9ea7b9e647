#pragma once
// The snake and capture-range flags of the CLI (headless, and the viewer's start-up snakes):
//   --snake circle:CX,CY,R | polygon:X1,Y1,X2,Y2,...  [@FORCE]   (repeatable; FORCE gvf,
//           traditional, ggvf, vfc or distance)
//   --snake line:X1,Y1,X2,Y2 | path:X1,Y1,X2,Y2,...[:boundary=B]  [@FORCE]: an
//           open snake, B = free (the default), fixed, free-fixed or fixed-free
//   --snake-force FORCE, --vfc-kernel, the snakeParamSpecs(), captureParamSpecs() and
//   forceParamSpecs() flags
//   (--alpha, --beta, --gamma, --kappa, --pressure, --dmin, --dmax, --snake-iterations, ...),
//   --save-contours FILE(.json|.geojson|.csv|.svg), --capture-map MAP.png, --save-mask
//   FILE(.png|.nrrd|.nii|.nii.gz), --svg-image, --contour-coordinates pixel|pixel-y-up|world.
#include <functional>
#include <glm/vec2.hpp>
#include <optional>
#include <string>
#include <vector>

#include "cli/surface_spec.hpp"
#include "gvflab/capture_range.hpp"
#include "gvflab/force_fields.hpp"
#include "gvflab/gvf_pipeline.hpp"
#include "gvflab/input_limits.hpp"
#include "gvflab/parametric_snake.hpp"
#include "io/contours_json.hpp"
#include "io/surface_file.hpp"

namespace gvflab::app {

// ParameterError "WHERE: more than 256 snakes; ..." beyond kMaxSnakes (gvflab/input_limits.hpp).
void checkSnakeCount(std::size_t count, const std::string& where);

struct SnakeSpec {
  std::string text;                // as given, for messages
  std::vector<glm::vec2> polygon;  // polygon nodes; empty for a circle
  double cx = 0, cy = 0, radius = 0;
  std::optional<SnakeForce> force;  // from "@FORCE"; none: --snake-force
  std::optional<double> pressure;   // its own (sessions); none: --pressure
  std::vector<glm::vec2> initial;   // starting contour when it is not `points` (sessions)
  SnakeBoundary boundary = SnakeBoundary::Periodic;  // line: and path: are open
  bool isCircle() const { return polygon.empty(); }
  SnakeForce forceOr(SnakeForce fallback) const { return force.value_or(fallback); }
  // The start contour; circles get nodes (dmin + dmax) / 2 apart.
  std::vector<glm::vec2> points(const SnakeParams& params) const;
  // ParametricSnake's rules for a width x height image (a circle from its numbers before its
  // nodes are built; the starting contour too): ParameterError, ResourceError.
  void check(int width, int height, const SnakeParams& params) const;
};

struct SnakeOptions {
  std::vector<SnakeSpec> snakes;
  std::vector<SurfaceSpec> surfaces;        // --surface (volume inputs)
  std::optional<std::string> saveSurfaces;  // --save-surfaces FILE.ply|.obj|.stl
  SurfaceCoordinates surfaceCoordinates = SurfaceCoordinates::Auto;  // --surface-coordinates
  SnakeForce force = SnakeForce::Gvf;
  ForceParams forces;  // GGVF, VFC and distance force parameters (--ggvf-k, --vfc-*, ...)
  SnakeParams params = SnakeParams::defaults();
  int iterations = 0;       // headless total; set from the spec table
  int frameIterations = 0;  // viewer, per frame
  int trails = 0;           // --trails N: each snake drawn every N iterations (0: none)
  CaptureParams capture = CaptureParams::defaults();
  std::optional<std::string> saveContours;
  std::optional<std::string> captureMap;
  std::optional<std::string> saveMask;  // the snakes' insides as a label image (label_mask.hpp)
  bool svgImage = false;                // --save-contours F.svg draws the input beneath
  ContourCoordinates contourCoordinates = ContourCoordinates::Pixel;  // .json, .geojson, .csv

  SnakeOptions();
  bool any() const { return !snakes.empty() || captureMap.has_value(); }
  RunLoad load() const;  // what the run's fit check counts beside the field (runNeeds)
};
// snake-iterations and snake-frame-iterations: snakeParamSpecs() keys of the caller's loop.
const std::vector<ParamField<SnakeOptions>>& snakeLoopFields();

// Parses "circle:CX,CY,R" or "polygon:X1,Y1,X2,Y2,..." (at least 3 points), or an open snake
// "line:X1,Y1,X2,Y2" or "path:X1,Y1,X2,Y2,..." (at least 2 points) with an optional
// ":boundary=free|fixed|free-fixed|fixed-free" (free when absent), each optionally
// followed by "@FORCE" (this snake's force: gvf, traditional, ggvf, vfc, distance). Throws
// ParameterError with a sentence that shows the expected form.
SnakeSpec parseSnakeSpec(const std::string& text);

// Handles `flag` when it is a snake or capture flag of the flag table (reading its value
// through `value`) and returns true; false for any other flag. Throws ParameterError for bad
// values. (parseOptions reads these flags itself; this is the snake flags alone.)
bool parseSnakeOption(const std::string& flag, const std::function<std::string()>& value,
                      SnakeOptions& options);
// Checks what needs the whole command line (dmax >= 2 dmin). That --save-contours has snakes
// to save is checked with the run (cli/run_checks.hpp), once a --session's snakes are in.
void finishSnakeOptions(SnakeOptions& options);

}  // namespace gvflab::app
