#include "gvf_binding.hpp"

#include <pybind11/stl.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <sstream>
#include <vector>

#include "arrays.hpp"
#include "context_cache.hpp"
#include "gvflab/error.hpp"
#include "gvflab/euler_solver.hpp"
#include "gvflab/field_solve.hpp"
#include "gvflab/gvf_pipeline.hpp"
#include "gvflab/multigrid_solver.hpp"
#include "gvflab/profiler.hpp"
#include "progress.hpp"

namespace py = pybind11;

namespace gvflab::python {
namespace {

double specDefault(const char* key) { return findSpec(gvfParamSpecs(), key).defaultValue; }

V0Mode parseV0(const std::string& text) {
  if (text == "edge") return V0Mode::EdgeGradient;
  if (text == "image") return V0Mode::ImageGradient;
  throw ParameterError(
      "v0 must be 'edge' (V0 = grad f, the default) or 'image' "
      "(V0 = grad of the smoothed image), not '" +
      text + "'.");
}

std::string reportRepr(const GvfReport& r) {
  std::string size = std::to_string(r.width) + "x" + std::to_string(r.height) +
                     (r.depth > 1 ? "x" + std::to_string(r.depth) : "");
  return "GvfReport(solver='" + r.solver + "', size=" + size +
         ", iterations=" + std::to_string(r.iterations) +
         ", error=" + std::string(py::repr(py::float_(r.error))) +
         ", opencl_ms=" + std::string(py::repr(py::float_(r.openclMs))) + ", device='" + r.device +
         "')";
}

}  // namespace

// The engine's factory builds the solver: the fit check and μ's range for this solver and input
// (mu_rule.hpp), as for the CLI.
std::unique_ptr<Solver> makeSolver(const std::shared_ptr<ComputeContext>& ctx, GvfInput input,
                                   const GvfRequest& request, SolverKind kind) {
  SolverConfig config;
  config.kind = kind;
  config.precision = parsePrecision(request.precision);
  if (request.memory) config.memory = parseMemory(*request.memory);
  config.a = request.mgA, config.b = request.mgB, config.c = request.mgC;
  return gvflab::makeSolver(ctx, input, request.mu, config);
}

GvfRun runGvf(const std::shared_ptr<ComputeContext>& ctx, const GvfInput& input,
              const GvfRequest& request, const py::object& progress, long progressEvery) {
  if (request.iterations) validate(findSpec(gvfParamSpecs(), "iterations"), *request.iterations);
  if (request.targetError && !(*request.targetError > 0))
    throw ParameterError("target_error must be a positive number.");
  FieldSolveRequest ask;
  if (request.solver) {
    ask.solver = parseSolverKind(*request.solver);
    if (!ask.solver)
      throw ParameterError("solver must be 'euler' or 'multigrid', not '" + *request.solver + "'.");
  }
  ask.iterations = request.iterations;
  ask.targetError = request.targetError;
  const FieldSolvePlan plan = planFieldSolve(ask);
  ProgressReporter reporter(progress, progressEvery, "gvf");
  ctx->profiler().endFrame();
  ctx->profiler().reset();  // opencl_ms counts the solver only
  GvfRun run{makeSolver(ctx, input, request, plan.kind), {}};
  Solver& solver = *run.solver;
  const long total = plan.iterations;
  GvfReport& r = run.report;
  const FieldSolveResult result = runFieldSolve(
      *ctx, solver, plan,
      [&](long done, const std::function<double()>& error) {
        if (plan.targetError)
          reporter.update(done, total, error());
        else
          reporter.update(done, total);
      },
      reporter.every());
  r.error = result.error;
  r.reached = result.reached;
  r.targetError = plan.targetError;
  reporter.update(solver.iterations(), total, r.error, true);
  ctx->profiler().endFrame();
  r.openclMs = ctx->profiler().totalMs(solver.kernelPrefix());
  r.solver = solver.name();
  r.precision = request.precision;
  r.device = ctx->info().name;
  r.width = solver.width();
  r.height = solver.height();
  r.depth = solver.depth();
  r.mu = request.mu;
  r.iterations = solver.iterations();
  if (const SolverFact* levels = findFact(solver.facts(), "levels"))
    r.levels = static_cast<int>(std::get<std::int64_t>(levels->value));
  r.note = solver.storageNote();
  return run;
}

namespace {

// spacing= in the array's axis order ((rows, cols) or (planes, rows, cols)) as x, y[, z].
GridSpacing gridSpacingOf(const std::vector<double>& spacing, int dims) {
  GridSpacing h{1.0, 1.0, 1.0};
  if (static_cast<int>(spacing.size()) == dims) {
    for (int i = 0; i < dims; ++i) h[i] = spacing[dims - 1 - i];
    bool ok = true;
    for (double v : spacing) ok = ok && v >= 1e-6 && v <= 1e6;  // false for NaN
    if (ok) return h;
  }
  std::ostringstream msg;
  msg << "spacing must give one positive, finite value (1e-6 to 1e6) per axis of the "
      << (dims == 3 ? "volume, (planes, rows, cols)" : "image, (rows, cols)") << ", not (";
  for (std::size_t i = 0; i < spacing.size(); ++i) msg << (i ? ", " : "") << spacing[i];
  msg << ").";
  throw ParameterError(msg.str());
}

py::tuple gvf(const py::handle& data, double mu, double sigma, std::optional<long> iterations,
              std::optional<double> targetError, std::optional<std::string> solver,
              const std::string& precision, std::optional<std::string> memory,
              const std::string& v0, int mgA, int mgB, int mgC, const std::string& device,
              const py::object& progress, long progressEvery,
              const std::optional<std::vector<double>>& spacing) {
  const auto t0 = std::chrono::steady_clock::now();
  const int dims = arrayDims(data);
  if (dims != 2 && dims != 3)
    throw InputError(
        "gvf() takes a 2D image (rows x cols) or a 3D volume (planes x rows x "
        "cols) as a NumPy array.");
  const V0Mode mode = parseV0(v0);
  const std::optional<GridSpacing> h =
      spacing ? std::optional(gridSpacingOf(*spacing, dims)) : std::nullopt;
  auto ctx = computeContext(device);
  GvfInput input = dims == 3
                       ? buildGvfInput(*ctx, volumeFromArray(data, "the volume"), sigma, mode, h)
                       : buildGvfInput(*ctx, imageFromArray(data, "the image"), sigma, mode, h);
  GvfRequest request{mu, iterations, targetError, solver, precision, memory, mgA, mgB, mgC};
  GvfRun run = runGvf(ctx, input, request, progress, progressEvery);
  Field2D field;
  Field3D field3;
  const std::vector<float>& values = dims == 3 ? (field3 = run.solver->readField3D()).data
                                               : (field = run.solver->readField()).data;
  requireFiniteField(values);
  run.report.sigma = sigma;
  py::array out = dims == 3 ? fieldToArray(std::move(field3)) : fieldToArray(std::move(field));
  run.report.wallMs =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return py::make_tuple(out, run.report);
}

}  // namespace

void bindGvf(py::module_& m) {
  py::class_<GvfReport>(m, "GvfReport", "How a GVF solve went (returned by gvflab.gvf()).")
      .def_readonly("solver", &GvfReport::solver)
      .def_readonly("precision", &GvfReport::precision)
      .def_readonly("device", &GvfReport::device)
      .def_readonly("note", &GvfReport::note, "Storage fallbacks the Euler solver took, or ''.")
      .def_readonly("width", &GvfReport::width)
      .def_readonly("height", &GvfReport::height)
      .def_readonly("depth", &GvfReport::depth)
      .def_readonly("levels", &GvfReport::levels, "Multigrid levels (0 for Euler).")
      .def_readonly("mu", &GvfReport::mu)
      .def_readonly("sigma", &GvfReport::sigma)
      .def_readonly("iterations", &GvfReport::iterations)
      .def_readonly("error", &GvfReport::error, "The multigrid paper's error (eq. 9) at the end.")
      .def_readonly("target_error", &GvfReport::targetError)
      .def_readonly("reached", &GvfReport::reached, "Whether target_error was reached.")
      .def_readonly("opencl_ms", &GvfReport::openclMs, "OpenCL time of the solver's kernels.")
      .def_readonly("wall_ms", &GvfReport::wallMs)
      .def("__repr__", &reportRepr);

  m.def("gvf", &gvf, py::arg("image_or_volume"), py::kw_only(), py::arg("mu") = specDefault("mu"),
        py::arg("sigma") = specDefault("sigma"), py::arg("iterations") = py::none(),
        py::arg("target_error") = py::none(), py::arg("solver") = py::none(),
        py::arg("precision") = "f32", py::arg("memory") = py::none(), py::arg("v0") = "edge",
        py::arg("mg_a") = 1, py::arg("mg_b") = 2, py::arg("mg_c") = 1, py::arg("device") = "",
        py::arg("progress") = py::none(), py::arg("progress_every") = 100,
        py::arg("spacing") = py::none(),
        R"(Gradient Vector Flow of a 2D image or a 3D volume, computed on an OpenCL device.

image_or_volume: a rows x cols (2D) or planes x rows x cols (3D) array. Floats are used as
    they are (normally in [0, 1]); integer types are divided by their maximum (uint8: 255).
mu, sigma: GVF diffusion weight and the Gaussian sigma (pixels) before the edge map.
    mu's range is the solver's, as on the command line: Euler's ends at its stability
    bound (at most 1/4 in 2D, 1/6 in 3D, lower on strong edges); multigrid takes any mu > 0.
iterations, target_error, solver: by default (all None) the field is solved to the error
    (multigrid paper, eq. 9: the mean residual) target_error = 1e-6 by multigrid, so snakes
    run on a finished field. target_error: stop once the error is at most this (the most
    iterations: `iterations`, else 100 multigrid cycles or 100000 Euler iterations).
    iterations without target_error: exactly that many (Euler unless solver names one).
solver: 'euler' or 'multigrid' (mg_a, mg_b, mg_c: cycles, pre- and post-smoothing sweeps);
    None: multigrid for a run to a target, Euler for a fixed count.
precision: field storage, 'f32', 'f16' or 'snorm16'. memory (Euler): 'buffer', 'image',
    'local' or None for the device's best.
v0: 'edge' (V0 = grad f, f the normalised edge map) or 'image' (V0 = grad of the image).
device: '' or 'gpu' (a GPU if any), 'cpu', or part of a device name (see gvflab.devices()).
progress: None or a callable getting a gvflab.Progress every progress_every iterations
    (e.g. lambda p: bar.update(p.iterations - bar.n) for a tqdm bar).
spacing: None (unit spacing) or the sample spacing per array axis, (rows, cols) or (planes,
    rows, cols), in world units (e.g. mm): gradients and the Laplacian are taken in these
    units, so the field is per world unit and Euler's mu bound shrinks with fine spacing.

Returns (field, report). field is float32, rows x cols x 2 in 2D, planes x rows x cols x 3 in
3D, components in index order: field[r, c] = (d_row, d_col), as NumPy indexes the image
(gvflab.field_xy(field) is the (x, y) view). report is a gvflab.GvfReport (iterations,
error, opencl_ms, ...). Raises gvflab.ParameterError, InputError, DeviceError or
ResourceError with a sentence saying what is wrong.)");
}

}  // namespace gvflab::python
