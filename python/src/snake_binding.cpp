#include "snake_binding.hpp"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <cmath>
#include <cstdint>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "arrays.hpp"
#include "context_cache.hpp"
#include "gvf_binding.hpp"
#include "gvflab/error.hpp"
#include "gvflab/parametric_snake.hpp"
#include "gvflab/profiler.hpp"
#include "progress.hpp"
#include "snake_common.hpp"

namespace py = pybind11;

namespace gvflab::python {
namespace {

struct SnakeResult {
  py::array points;  // N x 2 (row, col)
  std::string force;
  std::string boundary;  // boundaryName: "periodic" (closed) or an open snake's ends
  std::string state;     // snakeStateName: "moving" | "converged" | "stalled" | "collapsed"
  long iterations = 0;
  double held = 0, holdGap = 0;  // the hold test at its last stop (SnakeContour)
  double openclMs = 0;           // every snake of the call together
  std::optional<GvfReport> gvf;
};

// The engine's bounds rule (ParametricSnake::checkPointsIn) told in Python's terms: the point
// as (row, col), pixel centres at integers, the image's shape as NumPy gives it.
void requirePointsInside(const std::vector<glm::vec2>& points, const PixelArray& pixels,
                         const std::string& what) {
  const std::int64_t rows = pixels.shape[0], cols = pixels.shape[1];
  for (const auto& p : points) {
    if (!std::isfinite(p.x) || !std::isfinite(p.y)) continue;  // the engine's own sentence
    if (p.x >= 0 && p.y >= 0 && p.x <= cols && p.y <= rows) continue;
    std::ostringstream msg;
    msg << what << ": the point (row, col) = (" << double(p.y) - 0.5 << ", " << double(p.x) - 0.5
        << ") lies outside the image (shape (" << rows << ", " << cols
        << "): rows and cols from -0.5 to the side - 0.5).";
    throw ParameterError(msg.str());
  }
}

py::object snake(const py::handle& image, const py::handle& initial, std::optional<int> channelAxis,
                 const std::string& force, double alpha, double beta, double gamma, double kappa,
                 double pressure, double dmin, double dmax, double tolerance, int window,
                 double holdGap, int resample, bool normalize, int iterations,
                 std::optional<double> mu, double sigma, std::optional<long> gvfIterations,
                 std::optional<double> targetError, std::optional<std::string> solver,
                 const std::string& precision, const std::string& device,
                 const py::object& progress, long progressEvery,
                 const std::string& boundaryCondition,
                 const std::optional<std::vector<double>>& spacing, const py::object& edgeMap) {
  const SnakeForce snakeForce = parseForce(force);
  const SnakeBoundary boundary = parseBoundary(boundaryCondition);
  const SnakeParams params =
      SnakeKeywords{alpha,     beta,   gamma,   kappa,    pressure,  dmin,      dmax,
                    tolerance, window, holdGap, resample, normalize, iterations}
          .params();
  // One N x 2 array gives one result; a list of them, a list of results.
  const bool many = py::isinstance<py::list>(initial) || py::isinstance<py::tuple>(initial)
                        ? arrayDims(initial) != 2
                        : false;
  std::vector<std::vector<glm::vec2>> starts;
  std::vector<std::string> names;  // each start as the caller wrote it, for messages
  if (many)
    for (const auto& item : initial) {
      starts.push_back(pointsFromArray(item, "each initial contour"));
      names.push_back("initial_points[" + std::to_string(names.size()) + "]");
    }
  else {
    starts.push_back(pointsFromArray(initial, "initial_points"));
    names.emplace_back("initial_points");
  }

  // Everything is checked from the array's shape before a pixel is copied.
  const PixelArray pixels = inspectPixels(image, channelAxis, "the image");
  requireGvfSize(pixels, /*volumes=*/false, "snake()");  // a 2D image before its points
  for (std::size_t i = 0; i < starts.size(); ++i) requirePointsInside(starts[i], pixels, names[i]);
  const std::optional<GridSpacing> grid =
      spacing ? std::optional(gridSpacingOf(*spacing, 2)) : std::nullopt;
  GvfRequest request;
  request.mu = mu, request.iterations = gvfIterations, request.targetError = targetError;
  request.solver = solver, request.precision = precision;
  DeviceLease lease = computeContext(device);
  const std::shared_ptr<ComputeContext>& ctx = lease.ctx;
  checkGvfFits(*ctx, pixels.fieldShape(), request, RunLoad{starts.size(), {}, params}, grid,
               snakeForce == SnakeForce::Gvf);
  const Image2D img = toImage(pixels);
  // The traditional force is ∇f: V0 in the edge-gradient mode, of the caller's f if given.
  const GvfInput input = gvfInputOf(*ctx, pixels, sigma, py::none(), edgeMap, grid);
  std::optional<GvfRun> run;
  if (snakeForce == SnakeForce::Gvf) {
    run = runGvf(ctx, input, request, progress, progressEvery);
    run->report.sigma = sigma;
  }
  ProgressReporter reporter(progress, progressEvery, "snake");
  std::optional<ParametricSnake> snakes;
  {
    py::gil_scoped_release release;  // progress takes it back for its callback
    snakes.emplace(ctx, img.width, img.height, params);
    snakes->setFields(run ? run->solver->field() : input.v0, input);
    for (const auto& s : starts) snakes->add(s, snakeForce, std::nullopt, boundary);
    stepWithProgress(*ctx, *snakes, iterations, reporter);
  }
  const double ms = ctx->profiler().totalMs("snake_");
  py::list results;
  for (const auto& c : snakes->contours())
    results.append(SnakeResult{pointsToArray(c.points), forceName(c.force),
                               boundaryName(c.boundary), snakeStateName(c.state), c.iterations,
                               c.held, c.holdGap, ms,
                               run ? std::optional(run->report) : std::nullopt});
  return many ? py::object(results) : results[0];
}

}  // namespace

void bindSnake(py::module_& m) {
  py::tuple states(std::size(kSnakeStates));
  for (std::size_t i = 0; i < std::size(kSnakeStates); ++i)
    states[i] = snakeStateName(kSnakeStates[i]);
  m.attr("SNAKE_STATES") = states;
  py::class_<SnakeResult>(m, "SnakeResult", "A parametric snake after gvflab.snake().")
      .def_readonly("points", &SnakeResult::points,
                    "The contour's nodes, N x 2 float64 (row, col), pixel centres at integers.")
      .def_readonly("force", &SnakeResult::force)
      .def_readonly("boundary_condition", &SnakeResult::boundary,
                    "'periodic' (closed) or an open snake's ends: 'free', 'fixed', "
                    "'free-fixed', 'fixed-free'.")
      .def_readonly("state", &SnakeResult::state,
                    "'moving', 'converged', 'stalled' or 'collapsed' (the CLI's states; "
                    "see gvflab.SNAKE_STATES).")
      .def_property_readonly("converged",
                             [](const SnakeResult& r) { return r.state == "converged"; })
      .def_readonly("iterations", &SnakeResult::iterations, "Iterations run while moving.")
      .def_readonly("held", &SnakeResult::held,
                    "Fraction of nodes the force held at the last stop (0 before one).")
      .def_readonly("hold_gap", &SnakeResult::holdGap,
                    "Longest stretch without the force's hold then (pixels).")
      .def_readonly("opencl_ms", &SnakeResult::openclMs,
                    "OpenCL time of the snake kernels (all snakes of the call).")
      .def_readonly("gvf", &SnakeResult::gvf, "The GVF solve's report (None for traditional).")
      .def("__repr__", [](const SnakeResult& r) {
        return "SnakeResult(force='" + r.force + "', state='" + r.state +
               "', nodes=" + std::to_string(r.points.shape(0)) +
               ", iterations=" + std::to_string(r.iterations) + ")";
      });

  m.def("snake", &snake, py::arg("image"), py::arg("initial_points"), py::kw_only(),
        py::arg("channel_axis") = py::none(), py::arg("force") = "gvf",
        py::arg("alpha") = snakeDefault("alpha"), py::arg("beta") = snakeDefault("beta"),
        py::arg("gamma") = snakeDefault("gamma"), py::arg("kappa") = snakeDefault("kappa"),
        py::arg("pressure") = snakeDefault("pressure"), py::arg("dmin") = snakeDefault("dmin"),
        py::arg("dmax") = snakeDefault("dmax"),
        py::arg("tolerance") = snakeDefault("snake-tolerance"),
        py::arg("window") = static_cast<int>(snakeDefault("snake-window")),
        py::arg("hold_gap") = snakeDefault("snake-hold-gap"),
        py::arg("resample") = static_cast<int>(snakeDefault("snake-resample")),
        py::arg("normalize") = snakeDefault("snake-normalize") != 0,
        py::arg("iterations") = static_cast<int>(snakeDefault("snake-iterations")),
        py::arg("mu") = py::none(), py::arg("sigma") = gvfDefault("sigma"),
        py::arg("gvf_iterations") = py::none(), py::arg("target_error") = py::none(),
        py::arg("solver") = py::none(), py::arg("precision") = "f32", py::arg("device") = "",
        py::arg("progress") = py::none(), py::arg("progress_every") = 100,
        py::arg("boundary_condition") = "periodic", py::arg("spacing") = py::none(),
        py::arg("edge_map") = py::none(),
        "The compiled gvflab.snake(): use gvflab.snake (python/gvflab/functions.py), "
        "documented there; defaults here are the engine's parameter tables.");
}

}  // namespace gvflab::python
