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
#include "snake_setup.hpp"

namespace py = pybind11;

namespace gvflab::python {
namespace {

struct SnakeResult : SnakeOutcome {
  py::array points;      // N x 2 (row, col)
  std::string boundary;  // boundaryName: "periodic" (closed) or an open snake's ends
  py::dict params;       // snakeParamsDict of the parameters it ran with
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
                 const std::optional<std::vector<double>>& spacing, const py::object& edgeMap,
                 const py::object& forceParams) {
  const SnakeForce snakeForce = parseForce(force);
  const ForceParams forcesOf = forceParamsFrom(forceParams, 2);
  const SnakeBoundary boundary = parseBoundary(boundaryCondition);
  const SnakeParams params =
      checkedSnakeParams(alpha, beta, gamma, kappa, pressure, dmin, dmax, tolerance, window,
                         holdGap, resample, normalize, iterations);
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
  const FieldShape shape = pixels.fieldShape();
  SnakeField field(pixels, snakeForce,
                   snakeGvfRequest(mu, gvfIterations, targetError, solver, precision), sigma,
                   device, spacing, edgeMap, progress, progressEvery,
                   RunLoad{starts.size(), {}, params, {snakeForce}});
  ProgressReporter reporter(progress, progressEvery, "snake");
  std::optional<ParametricSnake> snakes;
  {
    py::gil_scoped_release release;  // progress takes it back for its callback
    snakes.emplace(field.lease.ctx, shape.width, shape.height, params);
    ForceFields fields(field.lease.ctx, field.input, forcesOf);
    snakes->setFields(fields.fields({snakeForce}, field.field()), field.input);
    for (const auto& s : starts) snakes->add(s, snakeForce, std::nullopt, boundary);
    stepWithProgress(field.ctx(), *snakes, iterations, reporter);
  }
  const double ms = field.ctx().profiler().totalMs("snake_");
  py::list results;
  for (const auto& c : snakes->contours())
    results.append(SnakeResult{outcomeOf(c, ms, field), pointsToArray(c.points),
                               boundaryName(c.boundary), snakeParamsDict(snakes->params())});
  return many ? py::object(results) : results[0];
}

}  // namespace

void bindSnake(py::module_& m) {
  py::tuple states(std::size(kSnakeStates));
  for (std::size_t i = 0; i < std::size(kSnakeStates); ++i)
    states[i] = snakeStateName(kSnakeStates[i]);
  m.attr("SNAKE_STATES") = states;
  py::class_<SnakeResult> result(m, "SnakeResult", "A parametric snake after gvflab.snake().");
  result
      .def_readonly("points", &SnakeResult::points,
                    "The contour's nodes, N x 2 float64 (row, col), pixel centres at integers.")
      .def_readonly("boundary_condition", &SnakeResult::boundary,
                    "'periodic' (closed) or an open snake's ends: 'free', 'fixed', "
                    "'free-fixed', 'fixed-free'.")
      .def_readonly("params", &SnakeResult::params, kParamsDoc)
      .def("__repr__", [](const SnakeResult& r) {
        return "SnakeResult(force='" + r.force + "', state='" + r.state +
               "', nodes=" + std::to_string(r.points.shape(0)) +
               ", iterations=" + std::to_string(r.iterations) + ")";
      });
  defOutcome(result, "Fraction of nodes the force held at the last stop (0 before one).",
             "Longest stretch without the force's hold then (pixels).");

  std::apply(
      [&](auto... snakeArgs) {
        m.def("snake", &snake, py::arg("image"), py::arg("initial_points"), py::kw_only(),
              py::arg("channel_axis") = py::none(), py::arg("force") = "gvf", snakeArgs...,
              py::arg("mu") = py::none(), py::arg("sigma") = gvfDefault("sigma"),
              py::arg("gvf_iterations") = py::none(), py::arg("target_error") = py::none(),
              py::arg("solver") = py::none(), py::arg("precision") = "f32", py::arg("device") = "",
              py::arg("progress") = py::none(), py::arg("progress_every") = 100,
              py::arg("boundary_condition") = "periodic", py::arg("spacing") = py::none(),
              py::arg("edge_map") = py::none(), py::arg("force_params") = py::none(),
              "The compiled gvflab.snake(): use gvflab.snake (python/gvflab/functions.py), "
              "documented there; defaults here are the engine's parameter tables.");
      },
      snakeKeywordArgs());
}

}  // namespace gvflab::python
